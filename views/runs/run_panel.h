#pragma once
// The run panel (a dock): pick one or more policies (the built-in presets and the open
// scenario's own, and STS with its baselines as "sts/METHOD"), override their plugin
// weights, give seeds ("1-3,7") and place or simulate. STS runs go through core/stochastic
// (analysis/sts_session.h) and are shown, not stored.
// The runs go to a worker thread one after another, with progress and Cancel; the window
// stays responsive. Each finished run is stored in the workspace (history) and the latest
// one is handed on (sessionReady -> MainWindow::showRun).

#include "analysis/run_session.h"
#include "runs/run_store.h"

#include <QWidget>

#include <atomic>
#include <map>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QThread;

namespace cb::views {

class Document;

class RunPanel : public QWidget
{
    Q_OBJECT

public:
    explicit RunPanel(Document *document, QWidget *parent = nullptr);
    ~RunPanel() override;

    /// Where finished runs are stored (default: Workspace::defaultPath()).
    void setWorkspacePath(const QString &path);
    QString workspacePath() const { return m_workspacePath; }

    /// Policies listed, in order (scenario presets first).
    QStringList policyNames() const;
    void setPolicyChecked(const QString &policy, bool checked);
    QStringList checkedPolicies() const;
    /// Overrides one plugin weight of a policy (as the weights table does).
    void setWeight(const QString &policy, const QString &plugin, double weight);
    void setSeeds(const QString &text);
    void setSimulate(bool simulate);
    /// Keep every decision for the stepper (default), or compute metrics only.
    void setKeepDecisionLog(bool keep);

    /// The requests the current choices make (policies x seeds), or the problem.
    Result<std::vector<PanelRequest>> requests() const;
    /// Starts the batch; false (with the reason in the status line) when nothing to run,
    /// the seeds are wrong or a batch is running.
    bool start();
    void cancel();
    bool isRunning() const { return m_thread != nullptr; }
    QString statusText() const;
    /// Ids of the runs the last batch stored, in order.
    const std::vector<std::int64_t> &storedRuns() const { return m_stored; }

signals:
    /// A run finished and was stored (history panels reload).
    void runStored(qint64 id);
    /// The latest finished run, to be shown.
    void sessionReady(std::shared_ptr<const cb::views::RunSession> session);
    /// The batch ended (finished, failed or cancelled).
    void batchFinished();

private:
    void reloadPolicies();
    void showWeights();
    void updateButtons();
    void onRunDone(int index, std::shared_ptr<const RunSession> session, qint64 id,
                   const QString &error);
    void onBatchDone();

    Document *m_document;
    QString m_workspacePath;
    QListWidget *m_policies;
    QTableWidget *m_weights;
    QLineEdit *m_seeds;
    QCheckBox *m_simulate;
    QCheckBox *m_keepLog;
    QComboBox *m_costModel;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_status;
    /// policy -> plugin -> weight, for the weights the user changed.
    std::map<std::string, std::map<std::string, double>> m_overrides;
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    std::vector<PanelRequest> m_batch;
    std::vector<std::int64_t> m_stored;
    QStringList m_errors;
    bool m_loadingWeights = false;
};

} // namespace cb::views
