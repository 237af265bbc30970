#pragma once
// Imports a job trace (Philly, Helios, Alibaba, Tiresias, Gavel, Pollux, CSV mapping) into
// the open scenario: format, files and defaults; the importer runs on a worker thread behind
// a progress dialog that can be cancelled; the imported jobs are added as one undo step and
// every skipped row is listed with its file, line and reason. A failed or cancelled import
// leaves the open scenario untouched.

#include "io/import/import_report.h"
#include "io/import/importer.h"
#include "model/scenario.h"
#include "util/result.h"
#include "window/remembered_fields.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace cb::views {

class Document;

/// The scenario with the trace's jobs added, and the report (skipped rows, assumptions).
struct PreparedImport
{
    Scenario scenario;
    ImportReport report;
    std::string detected; ///< the format told from the files, when none was named
};

/// Reads `paths` with the importer named `format` (empty: the one the files look like) and
/// adds the jobs to a copy of `base`. A named format the files cannot be, where they look like
/// another, is refused naming that one. No Qt, no shared state: safe on a worker thread.
Result<PreparedImport> prepareTraceImport(const Scenario &base, const std::string &format,
                                          const std::vector<std::string> &paths,
                                          const ImportOptions &options);

class TraceImportDialog : public QDialog
{
    Q_OBJECT

public:
    explicit TraceImportDialog(Document *document, QWidget *parent = nullptr);

    void setFormat(const QString &format);
    /// The importer chosen (empty: told from the files).
    QString format() const;
    QString defaultModel() const;
    double secondsPerIteration() const;
    void setFiles(const QStringList &paths);
    /// Runs the import on a worker thread with a progress dialog; on success pushes one undo
    /// command and fills the report list. Returns whether jobs were added; on failure
    /// error() says why and the document is unchanged.
    bool runImport();
    QString error() const { return m_error; }
    /// The line under the report: what was added (and the format read, when detected).
    QString statusText() const;
    /// The skipped rows of the last import, "file:line: reason".
    QStringList skippedRows() const;
    /// Set by tests to cancel the running import as soon as it starts.
    void setCancelImmediately(bool cancel) { m_cancelImmediately = cancel; }

private:
    void browse();

    Document *m_document;
    QComboBox *m_format;
    QLineEdit *m_files;
    QLineEdit *m_model;
    QDoubleSpinBox *m_secondsPerIteration;
    QListWidget *m_report;
    QLabel *m_status;
    QString m_error;
    QStringList m_skipped;
    bool m_cancelImmediately = false;
    /// The format, default model and seconds per iteration of the last import that added jobs.
    RememberedFields m_remembered{QStringLiteral("importTrace")};
};

} // namespace cb::views
