#pragma once
// The one place the window launches runs. The run panel's batches (policies x seeds) and
// Run > Place and Simulate both hand their requests here: each request goes through the run
// service (executeRun, placement and stochastic policies alike) on a worker thread, is
// stored in the workspace, and comes back on the GUI thread as a session, one run at a
// time. One batch at a time; Cancel stops between and inside runs.

#include "analysis/run_session.h"
#include "model/scenario.h"
#include "runs/run_comparison.h"
#include "runs/run_store.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QThread;

namespace cb::views {

class RunLauncher : public QObject
{
    Q_OBJECT

public:
    explicit RunLauncher(QObject *parent = nullptr);
    ~RunLauncher() override;

    /// Where finished runs are stored (default: Workspace::defaultPath()).
    void setWorkspacePath(const QString &path) { m_workspacePath = path; }
    QString workspacePath() const { return m_workspacePath; }

    /// Starts computing `requests` on a copy of `scenario`; false when a batch is running or
    /// there is nothing to run. A single run is compared with `baseline` when given (a
    /// what-if against the run it changes), else with the last run of the batch before.
    bool start(const cb::Scenario &scenario, std::vector<PanelRequest> requests,
               std::optional<ComparedRun> baseline = std::nullopt);
    void cancel();
    bool isRunning() const { return m_thread != nullptr; }
    bool isCancelled() const { return m_cancel && m_cancel->load(); }
    /// The running (or last) batch.
    const std::vector<PanelRequest> &batch() const { return m_batch; }
    /// Ids of the runs the running (or last) batch stored, in order.
    const std::vector<std::int64_t> &storedRuns() const { return m_stored; }
    /// The stored runs of the batch as the comparison shows them (no reload needed).
    const std::vector<ComparedRun> &comparedRuns() const { return m_compared; }
    /// The last stored run of the batch before, if any: what a single new run is compared to.
    const std::optional<ComparedRun> &previousRun() const { return m_previous; }

signals:
    void batchStarted();
    /// Run `index` of the batch ended: its session (null when it failed), its workspace id
    /// (0 when not stored) and the problem, if any.
    void runFinished(int index, std::shared_ptr<const cb::views::RunSession> session, qint64 id,
                     const QString &error);
    /// The batch ended (finished, failed or cancelled).
    void batchFinished();

private:
    QString m_workspacePath;
    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::vector<PanelRequest> m_batch;
    std::vector<std::int64_t> m_stored;
    std::vector<ComparedRun> m_compared;
    std::optional<ComparedRun> m_previous;
    std::string m_scenarioName;
};

} // namespace cb::views
