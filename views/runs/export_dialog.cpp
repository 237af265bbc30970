#include "runs/export_dialog.h"

#include "models/quantity_format.h"

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/export/placed_job.h"
#include "io/policy_json.h"
#include "net/topology.h"
#include "runs/run_service.h"
#include "sched/placer.h"
#include "util/text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace cb::views {

namespace {
constexpr int kShownRun = -1;      ///< item data of the "shown run" source
constexpr int kShownSchedule = -2; ///< item data of a stochastic run's schedule at a time
const char *const kFormatKey = "export/format";
/// The folder last written for a scenario, per scenario (one scenario's folder offered for
/// another's files would mix two exports in one folder).
const char *const kFolderKey = "export/folders/";

/// A scenario's name as one word a shell takes as it is (see defaultFolder).
QString folderWord(const Scenario &scenario)
{
    // Named so that a shell takes it as it is: its name's letters
    // and digits in lower case, every other run of characters one "-" ("DLTAP testbed (9
    // PS/worker jobs)" -> "dltap-testbed-9-ps-worker-jobs"; a "/" would have made two
    // folders, spaces and brackets need quoting in every command that names the folder).
    QString name;
    for (const QChar ch : QString::fromStdString(scenario.name)) {
        if (ch.isLetterOrNumber())
            name += ch.toLower();
        else if (!name.isEmpty() && !name.endsWith(QLatin1Char('-')))
            name += QLatin1Char('-');
    }
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    if (name.isEmpty())
        name = QStringLiteral("scenario");
    return name;
}
} // namespace

QString ExportDialog::defaultFolder(const Scenario &scenario)
{
    // The folder last written for this scenario, else one of its own.
    const QString word = folderWord(scenario);
    const QString remembered = QSettings().value(QLatin1String(kFolderKey) + word).toString();
    if (!remembered.isEmpty())
        return remembered;
    return QDir::home().filePath(QStringLiteral("clusterbench-export/%1").arg(word));
}

ExportDialog::ExportDialog(const Scenario &scenario, std::optional<Placement> shown,
                           const QString &shownLabel, QWidget *parent)
    : QDialog(parent)
    , m_scenario(scenario)
    , m_shown(std::move(shown))
    , m_source(new QComboBox(this))
    , m_seed(new QSpinBox(this))
    , m_atLabel(new QLabel(tr("at"), this))
    , m_at(new QDoubleSpinBox(this))
    , m_format(new QComboBox(this))
    , m_formatInfo(new QLabel(this))
    , m_pinning(new QComboBox(this))
    , m_namespace(new QLineEdit(this))
    , m_image(new QLineEdit(this))
    , m_blocks(new QCheckBox(tr("Slurm topology as blocks by rack (topology/block, 23.11+; scripts get --segment)"), this))
    , m_folder(new QLineEdit(this))
    , m_files(new QListWidget(this))
    , m_text(new QPlainTextEdit(this))
    , m_warnings(new QListWidget(this))
    , m_status(new QLabel(this))
    , m_write(new QPushButton(tr("&Write Files"), this))
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export Placement"));

    if (m_shown)
        m_source->addItem(tr("Shown run: %1").arg(shownLabel), kShownRun);
    m_shownLabel = shownLabel;
    std::vector<std::string> names;
    if (auto presets = userPresets(m_scenario, {}); presets)
        for (const Policy &p : presets.value())
            names.push_back(p.name);
    for (const std::string &n : builtinPolicyNames())
        if (std::find(names.begin(), names.end(), n) == names.end())
            names.push_back(n);
    for (const std::string &n : names)
        m_source->addItem(tr("Place now with %1").arg(QString::fromStdString(n)),
                          QString::fromStdString(n));
    m_seed->setRange(0, 1'000'000);
    m_seed->setValue(int(m_scenario.settings.seed));
    m_seed->setToolTip(tr("Seed for the policy's tie-breaks"));

    for (const Exporter *e : ExporterRegistry::all())
        m_format->addItem(QString::fromStdString(e->name()), QString::fromStdString(e->name()));
    m_formatInfo->setWordWrap(true);
    m_pinning->addItem(tr("spec.nodeName (binds directly)"));
    m_pinning->addItem(tr("required node affinity on kubernetes.io/hostname"));
    m_namespace->setPlaceholderText(tr("left to kubectl"));
    m_image->setPlaceholderText(tr("a default per job kind"));
    m_folder->setText(defaultFolder(m_scenario));
    setFormat(QSettings().value(QLatin1String(kFormatKey)).toString());

    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(new QLabel(tr("seed"), this));
    sourceRow->addWidget(m_seed);
    sourceRow->addWidget(m_atLabel);
    sourceRow->addWidget(m_at);
    m_at->setObjectName(QStringLiteral("exportScheduleTime"));
    m_at->setSuffix(tr(" s"));
    m_at->setDecimals(1);
    m_at->setToolTip(tr("Export the jobs as the schedule runs them at this time; the jobs not "
                        "running then are listed as waiting. At its lowest value: every job "
                        "as it first runs (a Slurm queue then runs them in turn)."));
    m_at->setSpecialValueText(tr("every job as it first runs"));
    m_atLabel->setVisible(false);
    m_at->setVisible(false);

    auto *form = new QFormLayout;
    auto *sourceLabel = new QLabel(tr("&Placement:"), this);
    sourceLabel->setBuddy(m_source);
    form->addRow(sourceLabel, sourceRow);
    form->addRow(tr("&Format:"), m_format);
    form->addRow(QString(), m_formatInfo);
    form->addRow(tr("Pods pinned by:"), m_pinning);
    form->addRow(tr("Namespace:"), m_namespace);
    form->addRow(tr("Default image:"), m_image);
    form->addRow(QString(), m_blocks);
    auto *folderLabel = new QLabel(tr("Output f&older:"), this);
    folderLabel->setBuddy(m_folder);
    form->addRow(folderLabel, folderRow);

    m_source->setObjectName(QStringLiteral("exportSource"));
    m_files->setObjectName(QStringLiteral("exportFiles"));
    m_text->setObjectName(QStringLiteral("exportPreview"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_files);
    split->addWidget(m_text);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);

    auto *warnBox = new QGroupBox(tr("Warnings (what the format could not express exactly)"), this);
    auto *warnLayout = new QVBoxLayout(warnBox);
    warnLayout->addWidget(m_warnings);
    m_warnings->setMaximumHeight(110);
    m_warnings->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_write, QDialogButtonBox::AcceptRole);
    m_write->setDefault(true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(split, 1);
    layout->addWidget(warnBox);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(1000, 720);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_write, &QPushButton::clicked, this, [this] {
        if (writeFiles())
            accept();
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Output Folder"),
                                                              m_folder->text());
        if (!dir.isEmpty()) {
            m_folder->setText(dir);
            m_folderChosen = true;
        }
    });
    // A folder typed or browsed stays; until then it is the exported scenario's own.
    connect(m_folder, &QLineEdit::textEdited, this, [this] { m_folderChosen = true; });
    connect(m_files, &QListWidget::currentRowChanged, this, &ExportDialog::showFile);
    auto refreshOn = [this](auto *w, auto signal) { connect(w, signal, this, &ExportDialog::refresh); };
    refreshOn(m_source, &QComboBox::currentIndexChanged);
    refreshOn(m_seed, &QSpinBox::valueChanged);
    refreshOn(m_at, &QDoubleSpinBox::valueChanged);
    refreshOn(m_format, &QComboBox::currentIndexChanged);
    refreshOn(m_pinning, &QComboBox::currentIndexChanged);
    refreshOn(m_namespace, &QLineEdit::textChanged);
    refreshOn(m_image, &QLineEdit::textChanged);
    refreshOn(m_blocks, &QCheckBox::toggled);
    connect(m_folder, &QLineEdit::textChanged, this, [this] {
        m_write->setEnabled(!m_result.files.empty() && !m_folder->text().trimmed().isEmpty());
    });
    refresh();
}

void ExportDialog::setShownSchedule(const QString &label, ScheduleAt scheduleAt,
                                    double endSeconds, double atSeconds)
{
    m_scheduleAt = std::move(scheduleAt);
    {
        const QSignalBlocker block(m_at);
        m_at->setRange(kFirstRuns, std::max(0.0, endSeconds));
        m_at->setValue(std::clamp(atSeconds, kFirstRuns, std::max(0.0, endSeconds)));
    }
    int i = m_source->findData(kShownSchedule);
    if (i < 0) {
        m_source->insertItem(0, QString(), kShownSchedule);
        i = 0;
    }
    m_source->setItemText(i, tr("Shown run: %1, its schedule").arg(label));
    m_scheduleLabel = label;
    m_atLabel->setVisible(true);
    m_at->setVisible(true);
    if (m_source->currentIndex() == i)
        refresh();
    else
        m_source->setCurrentIndex(i);
}

double ExportDialog::scheduleTime() const
{
    return m_at->value();
}

void ExportDialog::setScheduleTime(double seconds)
{
    m_at->setValue(seconds);
}

void ExportDialog::setShownScenario(const Scenario &scenario)
{
    m_shownScenario = scenario;
    const int i = m_source->findData(kShownRun);
    if (i >= 0)
        m_source->setItemText(i, m_source->itemText(i) +
                                     (scenario.name != m_scenario.name
                                          ? tr(" (of %1, not the open scenario)")
                                                .arg(QString::fromStdString(scenario.name))
                                          : tr(" (as it ran, before later edits)")));
    refresh();
}

QString ExportDialog::sourceText() const
{
    return m_source->currentText();
}

bool ExportDialog::exportsShownRun() const
{
    const QVariant source = m_source->currentData();
    return source.userType() == QMetaType::Int &&
           (source.toInt() == kShownRun || source.toInt() == kShownSchedule);
}

QString ExportDialog::format() const
{
    return m_format->currentData().toString();
}

QString ExportDialog::outputFolder() const
{
    return m_folder->text().trimmed();
}

void ExportDialog::setFormat(const QString &name)
{
    const int i = m_format->findData(name);
    if (i >= 0)
        m_format->setCurrentIndex(i);
}

void ExportDialog::setOutputFolder(const QString &dir)
{
    m_folder->setText(dir);
    m_folderChosen = true;
}

void ExportDialog::setPolicy(const QString &policy, int seed)
{
    m_seed->setValue(seed);
    const int i = m_source->findData(policy);
    if (i >= 0)
        m_source->setCurrentIndex(i);
}

void ExportDialog::setSeed(int seed)
{
    m_seed->setValue(seed);
}

QStringList ExportDialog::fileNames() const
{
    QStringList out;
    for (const ExportedFile &f : m_result.files)
        out << QString::fromStdString(f.path);
    return out;
}

QString ExportDialog::previewText(int i) const
{
    if (i < 0 || i >= int(m_result.files.size()))
        return {};
    return QString::fromStdString(m_result.files[std::size_t(i)].content);
}

QStringList ExportDialog::warnings() const
{
    QStringList out;
    for (const std::string &w : m_result.warnings)
        out << QString::fromStdString(w);
    return out;
}

std::optional<Placement> ExportDialog::currentPlacement(QString *problem)
{
    const QVariant source = m_source->currentData();
    m_exported = m_scenario;
    if (source.userType() == QMetaType::Int && source.toInt() == kShownRun) {
        if (m_shownScenario)
            m_exported = *m_shownScenario; // as it ran, before later edits
        return m_shown;
    }
    if (source.userType() == QMetaType::Int && source.toInt() == kShownSchedule) {
        auto [scenario, placement] = m_scheduleAt(m_at->value());
        m_exported = std::move(scenario);
        // Every job as it first runs: they start at different times; applied at once (a
        // Kubernetes format) they may ask a node for more than it has.
        const Exporter *exporter =
            ExporterRegistry::find(m_format->currentData().toString().toStdString());
        m_scheduleOverloads = m_at->value() <= kFirstRuns && exporter
                                  ? firstRunsOverloadWarning(exporter->name(), m_exported,
                                                             placement, "export one moment")
                                  : "";
        return placement;
    }
    auto presets = userPresets(m_scenario, {});
    if (!presets) {
        *problem = QString::fromStdString(presets.error());
        return std::nullopt;
    }
    auto policy = resolvePolicy(source.toString().toStdString(), presets.value());
    if (!policy) {
        *problem = QString::fromStdString(policy.error());
        return std::nullopt;
    }
    const Topology topology(m_scenario.cluster);
    return placeScenario(m_scenario, topology, policy.value(), std::uint64_t(m_seed->value()));
}

void ExportDialog::setShownRunWarnings(const std::vector<std::string> &warnings)
{
    m_shownRunWarnings = warnings;
    refresh();
}

void ExportDialog::refresh()
{
    const Exporter *exporter = ExporterRegistry::find(m_format->currentData().toString().toStdString());
    const bool shownRun = m_source->currentData().userType() == QMetaType::Int;
    const bool schedule = shownRun && m_source->currentData().toInt() == kShownSchedule;
    m_seed->setEnabled(!shownRun && exporter && exporter->needsPlacement());
    m_at->setEnabled(schedule && exporter && exporter->needsPlacement());
    m_source->setEnabled(exporter && exporter->needsPlacement());
    const bool slurm = exporter && exporter->name().rfind("slurm", 0) == 0;
    m_pinning->setEnabled(!slurm);
    m_namespace->setEnabled(!slurm);
    m_image->setEnabled(exporter && exporter->name() != "slurm-cluster");
    m_blocks->setEnabled(exporter && (exporter->name() == "slurm-cluster" || exporter->name() == "slurm"));

    m_result = {};
    m_error.clear();
    if (!exporter) {
        m_error = tr("No exporter selected");
    } else {
        m_formatInfo->setText(QString::fromStdString(exporter->description()));
        ExportOptions options;
        options.pinning = m_pinning->currentIndex() == 0 ? ExportOptions::Pinning::NodeName
                                                         : ExportOptions::Pinning::NodeAffinity;
        options.kubernetesNamespace = m_namespace->text().trimmed().toStdString();
        options.defaultImage = m_image->text().trimmed().toStdString();
        options.slurmBlocks = m_blocks->isChecked();
        QString problem;
        m_exported = m_scenario;
        std::optional<Placement> placement = exporter->needsPlacement()
                                                 ? currentPlacement(&problem)
                                                 : std::optional<Placement>(Placement{});
        if (!m_folderChosen) {
            const QSignalBlocker quiet(m_folder); // (the button is set at the end)
            m_folder->setText(defaultFolder(m_exported));
        }
        if (!placement) {
            m_error = problem.isEmpty() ? tr("No placement") : problem;
        } else {
            auto exported = exporter->exportPlacement(m_exported, *placement, options);
            if (exported) {
                m_result = std::move(exported).value();
                // Each file says where its schedule came from, as the terminal's do.
                const Scenario &planned =
                    shownRun && m_shownScenario ? *m_shownScenario : m_scenario;
                std::string origin;
                if (schedule)
                    origin =
                        "run " + m_scheduleLabel.toStdString() + ": " +
                        (m_at->value() <= kFirstRuns
                             ? std::string("each job as it first runs")
                             : "the jobs running at " +
                                   QString::number(m_at->value(), 'g', 12).toStdString() + " s");
                else if (shownRun)
                    origin = "run " + m_shownLabel.toStdString();
                else
                    origin = ExportWriter::placementOrigin(
                        m_source->currentData().toString().toStdString(), m_seed->value());
                if (exporter->needsPlacement()) // (not the cluster's own files)
                    ExportWriter::stampOrigin(m_result,
                                              origin + "; " + ExportWriter::scenarioTag(planned));
            } else
                m_error = QString::fromStdString(exported.error());
            // (every job format writes the limit: Slurm's --time, activeDeadlineSeconds)
            if (exported && shownRun)
                for (const std::string &w : m_shownRunWarnings)
                    m_result.warnings.push_back(exporter->name() + ": " + w);
            if (exported && schedule && !m_scheduleOverloads.empty())
                m_result.warnings.push_back(exporter->name() + ": " + m_scheduleOverloads);
        }
    }

    const int previousRow = m_files->currentRow();
    m_files->clear();
    for (const ExportedFile &f : m_result.files)
        m_files->addItem(QString::fromStdString(f.path));
    m_warnings->clear();
    for (const std::string &w : m_result.warnings)
        m_warnings->addItem(QString::fromStdString(w));
    if (m_result.warnings.empty())
        m_warnings->addItem(tr("None: everything was expressed exactly."));
    if (!m_error.isEmpty()) {
        m_text->setPlainText(m_error);
        m_status->setText(tr("<b>Cannot export:</b> %1").arg(m_error.toHtmlEscaped()));
    } else {
        m_files->setCurrentRow(std::clamp(previousRow, 0, int(m_result.files.size()) - 1));
        std::size_t bytes = 0;
        for (const ExportedFile &f : m_result.files)
            bytes += f.content.size();
        m_status->setText(
            tr("%n file(s), %1, %2", nullptr, int(m_result.files.size()))
                .arg(formatByteAmount(double(bytes)),
                     QString::fromStdString(counted(long(m_result.warnings.size()), "warning"))));
    }
    m_write->setEnabled(!m_result.files.empty() && !m_folder->text().trimmed().isEmpty());
}

void ExportDialog::showFile(int row)
{
    m_text->setPlainText(previewText(row));
}

QString ExportDialog::statusText() const
{
    return m_status->text();
}

bool ExportDialog::writeFiles(bool confirmOverwrite)
{
    const QString dir = m_folder->text().trimmed();
    if (m_result.files.empty() || dir.isEmpty())
        return false;
    // Asked about: the files there that this export changes (one with the same bytes again
    // is no loss), the first ten named (a list of 300 would not fit the screen).
    const std::vector<ExportWriter::Fate> fates = ExportWriter::fates(dir.toStdString(), m_result);
    QStringList existing;
    for (std::size_t i = 0; i < fates.size(); ++i)
        if (fates[i] == ExportWriter::Fate::Replaces)
            existing << QString::fromStdString(m_result.files[i].path);
    constexpr int kNamed = 10;
    QString named = existing.mid(0, kNamed).join(QLatin1Char('\n'));
    if (existing.size() > kNamed)
        named += QLatin1Char('\n') + tr("and %n more", nullptr, int(existing.size() - kNamed));
    if (confirmOverwrite && !existing.isEmpty() &&
        QMessageBox::question(
            this, tr("Replace files?"),
            tr("%n file(s) in %1 will be replaced:\n%2", nullptr, int(existing.size()))
                .arg(dir, named)) != QMessageBox::Yes)
        return false;
    const std::vector<std::string> stray = ExportWriter::strayFiles(dir.toStdString(), m_result);
    const Status wrote = ExportWriter::write(dir.toStdString(), m_result);
    if (!wrote) {
        m_status->setText(tr("<b>Write failed:</b> %1")
                              .arg(QString::fromStdString(wrote.error()).toHtmlEscaped()));
        if (confirmOverwrite)
            QMessageBox::warning(this, tr("Export failed"), QString::fromStdString(wrote.error()));
        return false;
    }
    qint64 bytes = 0;
    for (const ExportedFile &f : m_result.files)
        bytes += qint64(f.content.size());
    QString text = tr("Wrote %n file(s) to %1", nullptr, int(m_result.files.size())).arg(dir);
    if (!stray.empty()) {
        // Left by an earlier export of other jobs: submitting the folder would run them too.
        QStringList names;
        for (const std::string &f : stray)
            names << QString::fromStdString(f).toHtmlEscaped();
        text = text.toHtmlEscaped() + QStringLiteral("<br><b>") +
               tr("Not part of this export, %n file(s) left from an earlier one (remove "
                  "before submitting the folder):",
                  nullptr, int(stray.size())) +
               QStringLiteral("</b> ") + names.join(QStringLiteral(", "));
    }
    m_status->setText(text);
    QSettings().setValue(QLatin1String(kFormatKey), format());
    QSettings().setValue(QLatin1String(kFolderKey) + folderWord(m_exported), dir);
    emit written(int(m_result.files.size()), bytes, dir);
    return true;
}

} // namespace cb::views
