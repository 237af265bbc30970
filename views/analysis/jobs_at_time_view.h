#pragma once
// The jobs at the scrubber's time, as squeue lists them: JOBID, NAME, ST (R running, PD
// pending), TIME (running for, or waiting for), NODES and NODELIST(REASON). It follows the
// timeline's scrubber (setTime) and the shown run (setSession).

#include "analysis/job_states.h"
#include "analysis/run_session.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QTableView;

namespace cb::views {

class JobsAtTimeModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { JobId, Name, State, Time, Nodes, NodeListOrReason, ColumnCount };
    explicit JobsAtTimeModel(QObject *parent = nullptr);

    void setSession(std::shared_ptr<const RunSession> session);
    void setTime(double seconds);
    double time() const { return m_time; }
    const std::vector<QueuedJob> &rows() const { return m_rows; }
    int runningCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    void refresh();

    std::shared_ptr<const RunSession> m_session;
    double m_time = 0;
    std::vector<QueuedJob> m_rows;
};

class JobsAtTimeView : public QWidget
{
    Q_OBJECT

public:
    explicit JobsAtTimeView(QWidget *parent = nullptr);

    JobsAtTimeModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString summaryText() const;

public slots:
    void setSession(std::shared_ptr<const cb::views::RunSession> session);
    void setTime(double seconds);

private:
    void updateSummary();

    JobsAtTimeModel *m_model;
    QTableView *m_table;
    QLabel *m_summary;
};

} // namespace cb::views
