#include "runs/cluster_import_dialog.h"

#include "commands/replace_scenario_command.h"
#include "document/document.h"
#include "io/import/import_into_scenario.h"
#include "io/import/importer_registry.h"
#include "io/import/scenario_import.h"
#include "model/gpu_catalog.h"
#include "runs/import_format.h"
#include "runs/import_worker.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cb::views {

namespace {

const char *const kClusterFormatKey = "import/clusterFormat";
const char *const kClusterFolderKey = "import/clusterFolder";

} // namespace

QStringList clusterImportFormats()
{
    QStringList out;
    for (const Importer *i : importers())
        if (makesCluster(*i))
            out << QString::fromStdString(i->name());
    return out;
}

Result<ClusterImportRead> readClusterImport(const std::string &format,
                                            const std::vector<std::string> &paths,
                                            const std::string &date, const std::string &gpuType,
                                            bool keepUnavailableNodes)
{
    using R = Result<ClusterImportRead>;
    auto resolved = resolveImporter(format, paths, ImportWant::Cluster);
    if (!resolved)
        return R(resolved.problems());
    const std::string name = resolved->importer->name();
    ImportOptions options;
    options.date = date;
    options.gpuType = gpuType;
    options.keepUnavailableNodes = keepUnavailableNodes;
    auto report = importFiles(*resolved->importer, paths, options);
    if (!report)
        return R(report.problems());
    if (!report->cluster)
        return R::failure(name, "the files describe no cluster");
    assumeHostPower(*report->cluster, report.value()); // (as the terminal's import does)
    return ClusterImportRead{std::move(report).value(), resolved->detected};
}

ClusterImportDialog::ClusterImportDialog(Document *document, QWidget *parent)
    : QDialog(parent), m_document(document), m_format(new QComboBox(this)),
      m_formatInfo(new QLabel(this)), m_files(new QLineEdit(this)), m_date(new QLineEdit(this)),
      m_replace(new QRadioButton(tr("Replace the open scenario's cluster (its jobs stay)"), this)),
      m_newScenario(new QRadioButton(tr("Open it as a new scenario"), this)),
      m_withJobs(new QCheckBox(tr("Also add the jobs the files hold"), this)),
      m_keepUnavailable(
          new QCheckBox(tr("Keep nodes that take no new job (down, drained, cordoned)"), this)),
      m_report(new QListWidget(this)), m_status(new QLabel(this)), m_gpuType(new QComboBox(this))
{
    setObjectName(QStringLiteral("clusterImportDialog"));
    setWindowTitle(tr("Import Cluster"));
    // Detected by default, as the terminal's import does: a slurm.conf read as Kubernetes
    // nodes gave a line of "expected a Node object" per line.
    m_format->addItem(tr("Detect from the files"), QString());
    m_format->setItemData(0,
                          tr("The format the files' contents name, as `clusterbench import` "
                             "finds it"),
                          Qt::ToolTipRole);
    for (const Importer *i : importers())
        if (makesCluster(*i)) {
            m_format->addItem(QString::fromStdString(i->name()), QString::fromStdString(i->name()));
            m_format->setItemData(m_format->count() - 1, QString::fromStdString(i->description()),
                                  Qt::ToolTipRole);
        }
    m_format->setObjectName(QStringLiteral("clusterFormat"));
    m_formatInfo->setWordWrap(true);
    m_files->setPlaceholderText(tr("one or more files, separated by ;"));
    m_date->setPlaceholderText(tr("YYYY-MM-DD (default: the last day in the file)"));
    m_gpuType->setObjectName(QStringLiteral("clusterImportGpuType"));
    m_gpuType->addItem(tr("as the files say (else assumed, see the report)"), QString());
    for (const GpuCatalogEntry &e : gpuCatalog())
        m_gpuType->addItem(QString::fromStdString(e.type.name),
                           QString::fromStdString(e.type.name));
    m_gpuType->setToolTip(tr("The model of GPUs the files count but do not name"));
    m_replace->setChecked(true);
    m_withJobs->setChecked(true);
    auto *browseButton = new QPushButton(tr("Browse…"), this);
    auto *filesRow = new QHBoxLayout;
    filesRow->addWidget(m_files, 1);
    filesRow->addWidget(browseButton);
    auto *form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(QString(), m_formatInfo);
    form->addRow(tr("Files:"), filesRow);
    form->addRow(tr("Day:"), m_date);
    form->addRow(tr("GPU type:"), m_gpuType);
    m_keepUnavailable->setObjectName(QStringLiteral("clusterImportKeepUnavailable"));
    m_keepUnavailable->setToolTip(
        tr("Node lists with a state (scontrol show node, Kubernetes Nodes) leave out the nodes "
           "that are down, drained, failed, cordoned or not Ready, and list them in the report"));
    form->addRow(QString(), m_keepUnavailable);
    form->addRow(tr("Into:"), m_replace);
    form->addRow(QString(), m_newScenario);
    form->addRow(QString(), m_withJobs);
    m_report->setObjectName(QStringLiteral("clusterImportReport"));
    m_report->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("clusterImportStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *importButton = buttons->addButton(tr("&Import"), QDialogButtonBox::ActionRole);
    importButton->setDefault(true);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Skipped lines and assumptions:"), this));
    layout->addWidget(m_report, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 520);

    // The last format chosen comes back.
    setFormat(QSettings().value(QLatin1String(kClusterFormatKey)).toString());
    connect(m_format, &QComboBox::currentIndexChanged, this, &ClusterImportDialog::updateFormat);
    connect(browseButton, &QPushButton::clicked, this, &ClusterImportDialog::browse);
    connect(importButton, &QPushButton::clicked, this, &ClusterImportDialog::runImport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateFormat();
}

void ClusterImportDialog::setFormat(const QString &format)
{
    const int i = m_format->findData(format);
    if (i >= 0)
        m_format->setCurrentIndex(i);
}

QString ClusterImportDialog::format() const
{
    return m_format->currentData().toString();
}

void ClusterImportDialog::setFiles(const QStringList &paths)
{
    m_files->setText(joinImportPaths(paths));
}

void ClusterImportDialog::setGpuType(const QString &type)
{
    m_gpuType->setCurrentIndex(std::max(0, m_gpuType->findData(type)));
}

void ClusterImportDialog::setReplaceOpenCluster(bool replace)
{
    (replace ? m_replace : m_newScenario)->setChecked(true);
}

QString ClusterImportDialog::statusText() const
{
    return m_status->text();
}

QStringList ClusterImportDialog::reportLines() const
{
    QStringList out;
    for (int i = 0; i < m_report->count(); ++i)
        out << m_report->item(i)->text();
    return out;
}

void ClusterImportDialog::updateFormat()
{
    const Importer *i = findImporter(format().toStdString());
    if (!i) {
        QStringList names;
        for (const Importer *c : importers())
            if (makesCluster(*c))
                names << QString::fromStdString(c->name());
        m_formatInfo->setText(tr("Detected from the files' contents, one of: %1")
                                  .arg(names.join(QStringLiteral(", "))));
        m_date->setEnabled(true); // (helios-gpus reads it; the others leave it)
        m_withJobs->setVisible(true);
        return;
    }
    const auto [lo, hi] = i->fileCount();
    QString files = hi == lo ? tr("%n file(s)", nullptr, lo)
                    : hi == 0 ? tr("%n or more files", nullptr, lo)
                              : tr("%1 to %2 files").arg(lo).arg(hi);
    m_formatInfo->setText(QStringLiteral("%1 (%2)").arg(QString::fromStdString(i->description()),
                                                       files));
    m_date->setEnabled(i->name() == "helios-gpus");
    m_withJobs->setVisible(i->produces() == Importer::Produces::ClusterAndJobs);
}

void ClusterImportDialog::browse()
{
    const QString dir = QSettings().value(QLatin1String(kClusterFolderKey)).toString();
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Cluster Files"), dir);
    if (paths.isEmpty())
        return;
    QSettings().setValue(QLatin1String(kClusterFolderKey), QFileInfo(paths.front()).absolutePath());
    setFiles(paths);
}

bool ClusterImportDialog::runImport()
{
    m_error.clear();
    m_report->clear();
    const std::vector<std::string> paths = splitImportPaths(m_files->text());
    const std::string fmt = format().toStdString();
    const std::string date = m_date->isEnabled() ? m_date->text().trimmed().toStdString() : "";
    const std::string gpuType = m_gpuType->currentData().toString().toStdString();
    const bool keep = m_keepUnavailable->isChecked();
    QSettings().setValue(QLatin1String(kClusterFormatKey), format());
    auto outcome = runWithProgress<Result<ClusterImportRead>>(
        this, tr("Reading %1…").arg(m_files->text()),
        [fmt, paths, date, gpuType, keep] {
            return readClusterImport(fmt, paths, date, gpuType, keep);
        },
        m_cancelImmediately);
    if (!outcome) {
        m_error = tr("Import cancelled; the scenario is unchanged.");
        m_status->setText(m_error);
        return false;
    }
    if (!*outcome) {
        m_error = QString::fromStdString(outcome->error());
        m_status->setText(tr("<b>Import failed</b> (the scenario is unchanged):<br>%1")
                              .arg(m_error.toHtmlEscaped().replace(QLatin1Char('\n'),
                                                                   QStringLiteral("<br>"))));
        return false;
    }
    ImportReport report = std::move(outcome->value().report);
    const std::string read = fmt.empty() ? outcome->value().detected : fmt;
    for (const ImportNote &note : report.skipped)
        m_report->addItem(
            QStringLiteral("skipped  %1").arg(QString::fromStdString(note.toString())));
    for (const std::string &a : report.assumptions)
        // (the terminal's option is this dialog's GPU type choice)
        m_report->addItem(
            QStringLiteral("assumed  %1")
                .arg(QString::fromStdString(a)
                         .replace(QLatin1String("--gpu-type"), tr("the GPU type choice"))
                         .replace(QLatin1String("--node-template"),
                                  tr("the terminal's import --node-template"))));
    if (report.cluster->nodes.empty()) {
        // Nothing usable, as the terminal's import refuses it: the open scenario stays.
        m_error = tr("%1: no node could be imported (%2: see the list); the scenario is unchanged.")
                      .arg(QString::fromStdString(paths.empty() ? std::string() : paths.front()),
                           tr("%n skipped line(s)", nullptr, int(report.skipped.size())));
        m_status->setText(QStringLiteral("<b>%1</b>").arg(m_error.toHtmlEscaped()));
        return false;
    }
    if (report.cluster->totalGpus() == 0) {
        // No training job runs on it: refused, as the terminal's import refuses it (it
        // replaced the open cluster with 32 CPU-only nodes, every job left unplaceable).
        m_error = tr("%1: no node of the %2 imported has a GPU, so no training job runs on "
                     "the cluster: give the nodes GPUs (slurm.conf: Gres=gpu:N or a gres.conf; a "
                     "Kubernetes node: nvidia.com/gpu); the scenario is unchanged.")
                      .arg(QString::fromStdString(paths.front()))
                      .arg(report.cluster->nodes.size());
        m_status->setText(QStringLiteral("<b>%1</b>").arg(m_error.toHtmlEscaped()));
        return false;
    }
    Scenario scenario = m_newScenario->isChecked() ? Scenario{} : m_document->scenario();
    scenario.cluster = *report.cluster;
    if (m_newScenario->isChecked()) {
        scenario.name = QFileInfo(QString::fromStdString(paths.front())).fileName().toStdString();
        scenario.description = "Imported with ClusterBench from " + read + ".";
    }
    const bool jobs = m_withJobs->isVisible() && m_withJobs->isChecked() && !report.jobs.empty();
    const std::size_t jobsBefore = scenario.jobs.size();
    if (jobs)
        addImportedJobs(scenario, report);
    const int nodes = int(scenario.cluster.nodes.size());
    const QString what = tr("%n node(s)", nullptr, nodes) +
                         (jobs ? tr(" and %n job(s)", nullptr, int(scenario.jobs.size() - jobsBefore))
                               : QString());
    if (m_newScenario->isChecked()) {
        if (m_document->isModified() &&
            QMessageBox::question(this, tr("Unsaved changes"),
                                  tr("%1 has unsaved changes. Discard them and open the imported "
                                     "cluster as a new scenario?")
                                      .arg(m_document->displayName())) != QMessageBox::Yes) {
            m_error = tr("Not opened: the open scenario has unsaved changes.");
            m_status->setText(m_error);
            return false;
        }
        m_document->setScenario(std::move(scenario));
    } else {
        m_document->undoStack()->push(new ReplaceScenarioCommand(
            m_document, std::move(scenario),
            tr("Import cluster from %1").arg(QString::fromStdString(read))));
    }
    const QString counts =
        tr("(%1, %2).")
            .arg(tr("%n skipped line(s)", nullptr, int(report.skipped.size())),
                 tr("%n assumption(s)", nullptr, int(report.assumptions.size())));
    m_status->setText(fmt.empty()
                          ? tr("Imported %1 from %2, read as %3 %4")
                                .arg(what, m_files->text(), QString::fromStdString(read), counts)
                          : tr("Imported %1 from %2 %3").arg(what, m_files->text(), counts));
    emit imported(nodes, m_files->text());
    return true;
}

} // namespace cb::views
