#pragma once
// The run panel (a dock): pick one or more policies (the built-in presets and the open
// scenario's own, and STS with its baselines: sts, sts-fifo, ...), override their plugin
// weights, give seeds ("1-3,7") and place or simulate.
// The runs go to the window's RunLauncher (one worker thread, one run after another, with
// progress and Cancel; the window stays responsive). Each finished run is stored in the
// workspace (history) and handed on (sessionReady). The panel follows every batch the
// launcher runs, also those started elsewhere (Run > Place and Simulate).

#include "analysis/run_session.h"
#include "runs/run_store.h"

#include <QWidget>

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

namespace cb::views {

class Document;
class RunLauncher;

class RunPanel : public QWidget
{
    Q_OBJECT

public:
    /// Runs go to `launcher` (the window's), or to a launcher of its own when null.
    explicit RunPanel(Document *document, RunLauncher *launcher = nullptr,
                      QWidget *parent = nullptr);
    ~RunPanel() override;

    /// Where finished runs are stored (default: Workspace::defaultPath()).
    void setWorkspacePath(const QString &path);
    QString workspacePath() const;

    /// Policies listed, in order (scenario presets first).
    QStringList policyNames() const;
    /// Moves the keyboard focus to the policy list (Run > Choose Policies).
    void focusPolicies();
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
    bool isRunning() const;
    QString statusText() const;
    /// Ids of the runs the last batch stored, in order.
    const std::vector<std::int64_t> &storedRuns() const;
    RunLauncher *launcher() const { return m_launcher; }

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
    void onBatchStarted();
    void onRunDone(int index, std::shared_ptr<const RunSession> session, qint64 id,
                   const QString &error);
    void onBatchDone();

    Document *m_document;
    RunLauncher *m_launcher;
    QListWidget *m_policies;
    QTableWidget *m_weights;
    QLineEdit *m_seeds;
    QString m_defaultSeeds; ///< the scenario's settings.seed, as the seeds box starts
    QCheckBox *m_simulate;
    QCheckBox *m_keepLog;
    QComboBox *m_costModel;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QProgressBar *m_progress;
    QLabel *m_status;
    QLabel *m_stsNote; ///< why STS and its baselines are greyed out, under the list
    std::string m_stochasticWhy; ///< that reason when the list was written (empty: runnable)
    QLabel *m_costNote; ///< that STS runs checked pay the price list whatever the cost choice
    /// policy -> plugin -> weight, for the weights the user changed.
    std::map<std::string, std::map<std::string, double>> m_overrides;
    QStringList m_errors;
    bool m_loadingWeights = false;
};

} // namespace cb::views
