#pragma once
// Item models of the STS stepper, over one STS run's decision log (core/stochastic/
// sts_decision_log.h; null: empty):
//  - StsEventListModel: one row per scheduling event: time, trigger, jobs taken, placed;
//  - StsJobListModel: for one event, its jobs in the order the method took them: pressure,
//    epochs done, the chosen configuration and node, the phase length and the reason;
//  - StsCandidateModel: for one job, STS's candidate phase plans (one per GPU type) cheapest
//    first: kind, expected total / energy / tardiness cost, the phases and the enacted first
//    phase; the chosen candidate is bold on a highlight. Costs read to the cent, or to four
//    decimals when two candidates would read alike. Baselines log no candidates.
// Each model resets when its event or job changes (the tables are a few rows).
// Raw numbers are under Qt::UserRole, the text under Qt::DisplayRole.

#include "stochastic/sts_decision_log.h"

#include <QAbstractTableModel>

#include <memory>

namespace cb::views {

struct StsRun;

class StsEventListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Number, Time, Trigger, Jobs, Placed, ColumnCount };
    explicit StsEventListModel(QObject *parent = nullptr);

    void setRun(std::shared_ptr<const StsRun> run);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const StsRun> m_run;
};

class StsJobListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { Order, Job, Pressure, DoneEpochs, Chosen, Node, Phase, Reason, ColumnCount };
    explicit StsJobListModel(QObject *parent = nullptr);

    /// The jobs of event `event` of `run` (an invalid event: none). Keeps `run` alive.
    void setEvent(std::shared_ptr<const StsRun> run, int event);
    const StsEventRecord *event() const { return m_event; }
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    /// What the Pressure column means (its cells' and its header's tooltip).
    static QString pressureToolTip();
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const StsRun> m_run;
    const StsEventRecord *m_event = nullptr;
};

class StsCandidateModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { GpuType, Kind, Expected, Energy, Tardiness, Phases, Enacted, ColumnCount };
    explicit StsCandidateModel(QObject *parent = nullptr);

    /// The candidates of job `job` of event `event` (invalid: none), cheapest first.
    void setJob(std::shared_ptr<const StsRun> run, int event, int job);
    const StsJobDecision *decision() const { return m_decision; }
    /// Row of the candidate the job enacted (its first phase is the chosen configuration),
    /// or -1 (the job waits, fell back to a configuration outside the plans, or no plans).
    int chosenRow() const { return m_chosen; }
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const StsRun> m_run;
    const StsJobDecision *m_decision = nullptr;
    std::vector<int> m_order; ///< candidate indices, cheapest expected cost first
    int m_chosen = -1;
    int m_decimals = 2;       ///< of the cost columns: 4 when two would read alike at 2
};

/// "M60 x1 epochs 0–5.83, M60 x2 5.83–10".
QString formatStsPhases(const std::vector<StsPhaseRecord> &phases);
/// A cost with `decimals` decimals ("0.56", "0.5597").
QString formatStsCost(double cost, int decimals);

} // namespace cb::views
