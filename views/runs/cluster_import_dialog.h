#pragma once
// Imports a cluster with any cluster importer of the registry (core/io/import: Kubernetes
// node lists, slurm.conf with gres.conf and topology.conf, scontrol output, the Helios GPU
// counts, the Alibaba traces' machine tables, and whatever is registered later): format,
// files and the format's options, then either the open scenario's cluster is replaced (its
// jobs stay; one undo step) or the cluster opens as a new scenario. The importer runs on a
// worker thread behind a progress dialog that can be cancelled; every skipped line and
// every assumption is listed. A failed or cancelled import leaves the open scenario as it was.

#include "io/import/import_report.h"
#include "model/scenario.h"
#include "util/result.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QRadioButton;

namespace cb::views {

class Document;

/// The formats this dialog offers: every importer that produces a cluster, registry order.
QStringList clusterImportFormats();

struct ClusterImportRead
{
    ImportReport report;
    std::string detected; ///< the format found from the files, when none was chosen
};

/// Reads `paths` with the cluster importer `format`, or with `format` empty the one the files
/// look like (options.date for helios-gpus; nodes that take no new job left out unless
/// `keepUnavailableNodes`). No Qt, no shared state: safe on a worker thread.
Result<ClusterImportRead> readClusterImport(const std::string &format,
                                            const std::vector<std::string> &paths,
                                            const std::string &date,
                                            const std::string &gpuType = {},
                                            bool keepUnavailableNodes = false);

class ClusterImportDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ClusterImportDialog(Document *document, QWidget *parent = nullptr);

    /// A registry name, or "" to detect it from the files (the first choice).
    void setFormat(const QString &format);
    QString format() const;
    void setFiles(const QStringList &paths);
    /// The GPU type of nodes whose files name none ("" : as the importer assumes, said in the
    /// report); the terminal's --gpu-type.
    void setGpuType(const QString &type);
    /// Replace the open scenario's cluster (default), or open it as a new scenario.
    void setReplaceOpenCluster(bool replace);
    /// Runs the import on a worker thread with a progress dialog; on success changes the
    /// document (one undo step when replacing) and lists the report. Returns whether the
    /// cluster was taken; on failure error() says why and the document is unchanged.
    bool runImport();
    QString error() const { return m_error; }
    QString statusText() const;
    /// The report's lines: "skipped  file:line: reason", "assumed  ...".
    QStringList reportLines() const;
    /// Set by tests to cancel the running import as soon as it starts.
    void setCancelImmediately(bool cancel) { m_cancelImmediately = cancel; }

signals:
    /// The cluster was taken: `nodes` nodes from `files`.
    void imported(int nodes, const QString &files);

private:
    void browse();
    void updateFormat();

    Document *m_document;
    QComboBox *m_format;
    QLabel *m_formatInfo;
    QLineEdit *m_files;
    QLineEdit *m_date;
    QRadioButton *m_replace;
    QRadioButton *m_newScenario;
    QCheckBox *m_withJobs;
    QCheckBox *m_keepUnavailable;
    QListWidget *m_report;
    QLabel *m_status;
    QComboBox *m_gpuType;
    QString m_error;
    bool m_cancelImmediately = false;
};

} // namespace cb::views
