#include "runs/trace_import_dialog.h"

#include "commands/replace_scenario_command.h"
#include "document/document.h"
#include "io/import/import_into_scenario.h"
#include "io/import/importer_registry.h"
#include "runs/import_format.h"
#include "runs/import_worker.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QUndoStack>
#include <QVBoxLayout>


namespace cb::views {

namespace {
/// The folder of the trace files last imported (where Browse starts).
const char *const kFolderKey = "importTrace/folder";
} // namespace

Result<PreparedImport> prepareTraceImport(const Scenario &base, const std::string &format,
                                          const std::vector<std::string> &paths,
                                          const ImportOptions &options)
{
    using R = Result<PreparedImport>;
    auto resolved = resolveImporter(format, paths, ImportWant::Jobs);
    if (!resolved)
        return R(resolved.problems());
    const Importer *importer = resolved->importer;
    const std::string detected = resolved->detected;
    auto report = importFiles(*importer, paths, options);
    if (!report)
        return R(report.problems());
    PreparedImport prepared{base, std::move(report).value(), format.empty() ? detected : ""};
    addImportedJobs(prepared.scenario, prepared.report);
    return prepared;
}

TraceImportDialog::TraceImportDialog(Document *document, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
    , m_format(new QComboBox(this))
    , m_files(new QLineEdit(this))
    , m_model(new QLineEdit(this))
    , m_secondsPerIteration(new QDoubleSpinBox(this))
    , m_report(new QListWidget(this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("traceImportDialog"));
    setWindowTitle(tr("Import Job Trace"));
    // (the default: the format the files look like, as the terminal's import does)
    m_format->addItem(tr("Detect from the files"), QString());
    m_format->setItemData(0, tr("Tell the trace format from the files' contents"), Qt::ToolTipRole);
    for (const Importer *i : importers())
        if (i->produces() != Importer::Produces::Cluster) {
            m_format->addItem(QString::fromStdString(i->name()), QString::fromStdString(i->name()));
            m_format->setItemData(m_format->count() - 1, QString::fromStdString(i->description()),
                                  Qt::ToolTipRole);
        }
    const ImportOptions defaults;
    m_model->setText(QString::fromStdString(defaults.defaultModel));
    m_model->setToolTip(tr("Model profile for jobs whose trace names no known model"));
    m_secondsPerIteration->setRange(0.001, 100);
    m_secondsPerIteration->setDecimals(3);
    m_secondsPerIteration->setValue(defaults.secondsPerIteration);
    m_secondsPerIteration->setSuffix(tr(" s"));
    m_secondsPerIteration->setToolTip(tr("Turns trace durations into iteration counts"));
    m_files->setPlaceholderText(tr("one or more files, separated by ;"));
    auto *browseButton = new QPushButton(tr("Browse…"), this);
    auto *filesRow = new QHBoxLayout;
    filesRow->addWidget(m_files, 1);
    filesRow->addWidget(browseButton);
    auto *form = new QFormLayout;
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Files:"), filesRow);
    form->addRow(tr("Default model:"), m_model);
    form->addRow(tr("Seconds per iteration:"), m_secondsPerIteration);
    m_report->setObjectName(QStringLiteral("importReport"));
    m_report->setWordWrap(true);
    m_status->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *importButton = buttons->addButton(tr("&Import"), QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(new QLabel(tr("Skipped rows and assumptions:"), this));
    layout->addWidget(m_report, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(760, 520);
    // Opens with the format and defaults of the last import that added jobs.
    m_remembered.add(QStringLiteral("format"), m_format);
    m_remembered.add(QStringLiteral("defaultModel"), m_model);
    m_remembered.add(QStringLiteral("secondsPerIteration"), m_secondsPerIteration);
    m_remembered.restore();
    connect(browseButton, &QPushButton::clicked, this, &TraceImportDialog::browse);
    connect(importButton, &QPushButton::clicked, this, &TraceImportDialog::runImport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

void TraceImportDialog::setFormat(const QString &format)
{
    const int i = m_format->findData(format);
    if (i >= 0)
        m_format->setCurrentIndex(i);
}

QString TraceImportDialog::format() const
{
    return m_format->currentData().toString();
}

QString TraceImportDialog::defaultModel() const
{
    return m_model->text();
}

double TraceImportDialog::secondsPerIteration() const
{
    return m_secondsPerIteration->value();
}

void TraceImportDialog::setFiles(const QStringList &paths)
{
    m_files->setText(joinImportPaths(paths));
}

QString TraceImportDialog::statusText() const
{
    return m_status->text();
}

QStringList TraceImportDialog::skippedRows() const
{
    return m_skipped;
}

void TraceImportDialog::browse()
{
    // (in the folder of the files last imported)
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Trace Files"), QSettings().value(QLatin1String(kFolderKey)).toString());
    if (!paths.isEmpty())
        setFiles(paths);
}

bool TraceImportDialog::runImport()
{
    m_error.clear();
    m_skipped.clear();
    m_report->clear();
    const std::vector<std::string> paths = splitImportPaths(m_files->text());
    const std::string format = m_format->currentData().toString().toStdString();
    ImportOptions options;
    options.defaultModel = m_model->text().trimmed().toStdString();
    options.secondsPerIteration = m_secondsPerIteration->value();

    const Scenario base = m_document->scenario();
    auto outcome = runWithProgress<Result<PreparedImport>>(
        this, tr("Reading %1…").arg(m_files->text()),
        [base, format, paths, options] { return prepareTraceImport(base, format, paths, options); },
        m_cancelImmediately);
    if (!outcome) {
        m_error = tr("Import cancelled; the scenario is unchanged.");
        m_status->setText(m_error);
        return false;
    }
    Result<PreparedImport> prepared = std::move(*outcome);
    if (!prepared) {
        m_error = QString::fromStdString(prepared.error());
        m_status->setText(tr("<b>Import failed</b> (the scenario is unchanged):<br>%1")
                              .arg(m_error.toHtmlEscaped().replace(QLatin1Char('\n'),
                                                                   QStringLiteral("<br>"))));
        return false;
    }
    PreparedImport result = std::move(prepared).value();
    const int added = int(result.scenario.jobs.size() - base.jobs.size());
    for (const ImportNote &note : result.report.skipped) {
        m_skipped << QString::fromStdString(note.toString());
        m_report->addItem(QStringLiteral("skipped  %1").arg(m_skipped.back()));
    }
    for (const std::string &a : result.report.assumptions)
        m_report->addItem(QStringLiteral("assumed  %1").arg(QString::fromStdString(a)));
    const QString read = result.detected.empty()
                             ? QString()
                             : tr(" (read as %1)").arg(QString::fromStdString(result.detected));
    const int skipped = int(result.report.skippedCount);
    if (added == 0) {
        // Every row skipped (or none there): a failure, as the terminal's exit 1 says, not
        // "Added 0 jobs" in the colour of a success.
        m_error = skipped > 0
                      ? tr("No job could be kept from %1%2: %n row(s) skipped (see the list); "
                           "the scenario is unchanged.",
                           nullptr, skipped)
                            .arg(m_files->text(), read)
                      : tr("No job in %1%2; the scenario is unchanged.").arg(m_files->text(), read);
        m_status->setText(tr("<b>Import failed:</b> %1").arg(m_error.toHtmlEscaped()));
        return false;
    }
    m_status->setText(tr("Added %n job(s) from %1%2; ", nullptr, added).arg(m_files->text(), read) +
                      tr("%n row(s) skipped.", nullptr, skipped));
    m_remembered.store();
    QSettings().setValue(QLatin1String(kFolderKey),
                         QFileInfo(QString::fromStdString(paths.front())).absolutePath());
    m_document->undoStack()->push(new ReplaceScenarioCommand(
        m_document, std::move(result.scenario),
        tr("Import %n job(s) from %1", nullptr, added)
            .arg(QString::fromStdString(format.empty() ? result.detected : format))));
    return true;
}

} // namespace cb::views
