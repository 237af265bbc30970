#pragma once
// Where two runs part (History > Where They Part): the first decision at which two stored
// runs of one scenario differ, side by side (each policy's pick, its score of the other run's
// pick, the plugin that decided, the weight that would make them agree, the decision in
// words), the jobs placed or timed differently, and every metric of both. "Step run A/B
// here" opens that run in the stepper at the first difference; "Step both" opens A with B
// beside it (the stepper's two-run mode).

#include "runs/run_diff.h"
#include "store/stored_run.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace cb::views {

class RunDiffDialog : public QDialog
{
    Q_OBJECT

public:
    RunDiffDialog(StoredRunDetail a, StoredRunDetail b, RunDiff diff, QWidget *parent = nullptr);

    const RunDiff &diff() const { return m_diff; }
    QTableWidget *forkTable() const { return m_fork; }
    QTableWidget *jobTable() const { return m_jobs; }
    QTableWidget *metricTable() const { return m_metrics; }
    QLabel *summaryLabel() const { return m_summary; }
    /// 0: run A, 1: run B, 2: both.
    QPushButton *stepButton(int side) const
    {
        return side == 0 ? m_stepA : side == 1 ? m_stepB : m_stepBoth;
    }

signals:
    /// Open run `run` in the stepper at decision `decision` (0-based).
    void stepRequested(qint64 run, int decision);
    /// Open run `a` with run `b` beside it in the stepper at decision `decision`.
    void stepBothRequested(qint64 a, qint64 b, int decision);

private:
    void fillFork();
    void fillJobs();
    void fillMetrics();

    StoredRunDetail m_a, m_b;
    RunDiff m_diff;
    QLabel *m_summary;
    QTableWidget *m_fork;
    QTableWidget *m_jobs;
    QTableWidget *m_metrics;
    QPushButton *m_stepA;
    QPushButton *m_stepB;
    QPushButton *m_stepBoth;
};

} // namespace cb::views
