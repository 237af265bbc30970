#pragma once
// The decision stepper's STS mode: an STS (or STS baseline) run's scheduling events, and at
// the cursor the jobs in the order the method took them; for the selected job the candidate
// phase plans with their expected total, energy and tardiness cost, cheapest first, the
// enacted one highlighted, and why. First / back / step / last and play / pause move over
// the events; the run's total, energy and tardiness cost head the page.

#include "analysis/run_session.h"

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;
class QTimer;
class QToolButton;

namespace cb::views {

struct NodeOverlay;
class StsCandidateModel;
class StsEventListModel;
class StsJobListModel;

class StsStepper : public QWidget
{
    Q_OBJECT

public:
    explicit StsStepper(QWidget *parent = nullptr);

    /// Shows an STS session (null, or a session without an STS run, clears); the cursor goes
    /// to the first event and its first job.
    void setSession(std::shared_ptr<const RunSession> session);
    std::shared_ptr<const RunSession> session() const { return m_session; }
    int cursor() const { return m_cursor; }
    int eventCount() const;
    /// Selected job row of the current event (-1: none).
    int currentJob() const { return m_job; }
    StsEventListModel *eventModel() const { return m_eventModel; }
    StsJobListModel *jobModel() const { return m_jobModel; }
    StsCandidateModel *candidateModel() const { return m_candidateModel; }
    QString summaryText() const;
    QString whyText() const;
    bool isPlaying() const;

public slots:
    void seek(int event);
    void selectJob(int row);
    void first();
    void back();
    void step();
    void last();
    void togglePlay();
    void pause();

signals:
    void cursorChanged(int event);
    /// The selected job row changed (-1: none); also sent on every move to another event,
    /// which selects its first job.
    void jobChanged(int row);

private:
    void updateControls();
    void updateWhy();

    std::shared_ptr<const RunSession> m_session;
    StsEventListModel *m_eventModel;
    StsJobListModel *m_jobModel;
    StsCandidateModel *m_candidateModel;
    QTableView *m_eventView;
    QTableView *m_jobView;
    QTableView *m_candidateView;
    QToolButton *m_first, *m_back, *m_play, *m_step, *m_last;
    QLabel *m_summary;
    QLabel *m_position;
    QLabel *m_why;
    QTimer *m_timer;
    int m_cursor = -1;
    int m_job = -1;
};

/// The topology's colours at the stepper's event: every node's GPUs busy just after it (the
/// jobs' segments then) and the selected job's node outlined (where it runs after the event,
/// else the node it was logged on). No node has a score, so none is filled. Empty without
/// an event.
NodeOverlay scheduleOverlay(const StsStepper &stepper);

} // namespace cb::views
