#include "runs/run_diff_dialog.h"

#include "models/quantity_format.h"
#include "net/topology.h"
#include "runs/decision_explanation.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cmath>

namespace cb::views {

namespace {

QString utf8(const std::string &s)
{
    return QString::fromStdString(s);
}

/// A stored metric in the window's formats, by its unit.
QString metricText(const std::string &name, double v)
{
    switch (metricUnit(name)) {
    case MetricUnit::Bytes:
        return formatByteAmount(v);
    case MetricUnit::Seconds:
        return formatDuration(v);
    case MetricUnit::KWh:
        return formatEnergy(v);
    case MetricUnit::GpuHours:
        return formatNumber(v) + QStringLiteral(" GPU-h");
    case MetricUnit::Money:
        return formatMoney(v, QString());
    case MetricUnit::Plain:
        break;
    }
    return formatNumber(v);
}

QString signedMetricText(const std::string &name, double delta)
{
    return (delta > 0 ? QStringLiteral("+") : delta < 0 ? QStringLiteral("−") : QString()) +
           metricText(name, std::fabs(delta));
}

QTableWidgetItem *diffCell(const QString &text, const QString &tip = {})
{
    auto *i = new QTableWidgetItem(text);
    i->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (!tip.isEmpty())
        i->setToolTip(tip);
    return i;
}

QTableWidget *diffTable(QWidget *parent, const QString &name, const QStringList &columns)
{
    auto *t = new QTableWidget(0, int(columns.size()), parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(columns);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->setWordWrap(true);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    return t;
}

/// How the other run's pick scored in this run's policy at the first difference.
QString otherPickText(const DecisionLog &log, const std::optional<Contrast> &c)
{
    if (!c)
        return QObject::tr("(no row kept for it)");
    const QString other = utf8(log.nodeNames[std::size_t(c->other)]);
    if (c->otherFiltered)
        return QObject::tr("%1: ruled out (%2)").arg(other, utf8(c->filterReason));
    if (!c->otherHasRow) // (a log that keeps the best rows: its score is not known)
        return QObject::tr("%1: %2").arg(
            other, utf8(unkeptNodeText(log.decisions[std::size_t(c->decision)])));
    if (c->tied())
        return QObject::tr("%1: %2, tied (the tie-break decided)")
            .arg(other, formatNumber(c->otherTotal));
    return QObject::tr("%1: %2, %3 behind")
        .arg(other, formatNumber(c->otherTotal), formatNumber(c->margin()));
}

QString decidingText(const std::optional<Contrast> &c)
{
    if (!c || c->otherFiltered)
        return QObject::tr("the filters");
    if (!c->otherHasRow)
        return QObject::tr("(not known: no row kept for the other pick)");
    if (c->deciding < 0)
        return QObject::tr("the tie-break");
    const PluginDifference &p = c->plugins[std::size_t(c->deciding)];
    return QObject::tr("%1 (+%2 of the %3-point lead%4)")
        .arg(utf8(p.name), formatNumber(p.weightedDifference()), formatNumber(c->margin()),
             c->decisive() ? QObject::tr(", decisive") : QString());
}

} // namespace

RunDiffDialog::RunDiffDialog(StoredRunDetail a, StoredRunDetail b, RunDiff diff, QWidget *parent)
    : QDialog(parent)
    , m_a(std::move(a))
    , m_b(std::move(b))
    , m_diff(std::move(diff))
    , m_summary(new QLabel(this))
    , m_fork(diffTable(this, QStringLiteral("runDiffFork"), {}))
    , m_jobs(diffTable(this, QStringLiteral("runDiffJobs"), {}))
    , m_metrics(diffTable(this, QStringLiteral("runDiffMetrics"), {}))
    , m_stepA(new QPushButton(this))
    , m_stepB(new QPushButton(this))
    , m_stepBoth(new QPushButton(this))
{
    setObjectName(QStringLiteral("runDiffDialog"));
    const QString nameA = tr("run %1 (%2)").arg(m_diff.runA).arg(utf8(m_diff.policyA));
    const QString nameB = tr("run %1 (%2)").arg(m_diff.runB).arg(utf8(m_diff.policyB));
    setWindowTitle(tr("Where %1 and %2 part").arg(nameA, nameB));
    m_summary->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("runDiffSummary"));
    QString summary;
    if (!m_diff.logs)
        summary = tr("Decisions not compared: a run stored no placement decision log "
                     "(stochastic policies plan whole jobs over time); jobs compared by outcome.");
    else if (!m_diff.fork)
        summary = tr("Every one of the %1 decisions is the same (same task, same node).")
                      .arg(m_diff.decisionsA);
    else
        summary = tr("Decisions: %1 and %2. %3 the same: at decision %4 the cluster is the "
                     "same in both runs, and they part. %5 of %6 tasks end on another node.")
                      .arg(m_diff.decisionsA)
                      .arg(m_diff.decisionsB)
                      .arg(m_diff.commonPrefix == 0   ? tr("None is")
                           : m_diff.commonPrefix == 1 ? tr("The first is")
                                                      : tr("The first %1 are").arg(m_diff.commonPrefix))
                      .arg(m_diff.fork->index + 1)
                      .arg(m_diff.tasksMoved)
                      .arg(m_diff.tasksCompared);
    summary += QLatin1Char(' ') + tr("%1 of %2 jobs differ.")
                                      .arg(m_diff.jobs.size())
                                      .arg(m_diff.jobsCompared);
    m_summary->setText(summary);

    fillFork();
    fillJobs();
    fillMetrics();

    auto *tabs = new QTabWidget(this);
    tabs->addTab(m_fork, tr("&First difference"));
    tabs->addTab(m_jobs, tr("&Jobs that differ (%1)").arg(m_diff.jobs.size()));
    tabs->addTab(m_metrics, tr("&Metrics"));
    if (!m_diff.fork || !m_diff.fork->sameTask)
        tabs->setCurrentWidget(m_jobs);

    const bool canStep = m_diff.fork && m_a.log && m_b.log;
    m_stepA->setText(tr("Step %1 &here").arg(nameA));
    m_stepB->setText(tr("Step %1 h&ere").arg(nameB));
    m_stepA->setObjectName(QStringLiteral("runDiffStepA"));
    m_stepB->setObjectName(QStringLiteral("runDiffStepB"));
    m_stepA->setEnabled(canStep && m_diff.fork->index < m_diff.decisionsA);
    m_stepB->setEnabled(canStep && m_diff.fork->index < m_diff.decisionsB);
    const auto stepTo = [this](qint64 run) {
        emit stepRequested(run, m_diff.fork ? m_diff.fork->index : 0);
    };
    connect(m_stepA, &QPushButton::clicked, this, [this, stepTo] { stepTo(m_diff.runA); });
    connect(m_stepB, &QPushButton::clicked, this, [this, stepTo] { stepTo(m_diff.runB); });
    m_stepBoth->setText(tr("Step &both here"));
    m_stepBoth->setObjectName(QStringLiteral("runDiffStepBoth"));
    m_stepBoth->setToolTip(tr("Step %1 with %2 beside it, decision by decision, from the first "
                              "difference")
                               .arg(nameA, nameB));
    m_stepBoth->setEnabled(canStep && m_diff.fork->index < m_diff.decisionsA);
    m_stepBoth->setDefault(m_stepBoth->isEnabled());
    connect(m_stepBoth, &QPushButton::clicked, this, [this] {
        emit stepBothRequested(m_diff.runA, m_diff.runB, m_diff.fork ? m_diff.fork->index : 0);
        accept(); // the stepper now shows both sides, decision by decision
    });
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_stepA);
    buttons->addWidget(m_stepB);
    buttons->addWidget(m_stepBoth);
    buttons->addStretch(1);
    buttons->addWidget(close);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(tabs, 1);
    layout->addLayout(buttons);
    resize(900, 520);
}

void RunDiffDialog::fillFork()
{
    const QString nameA = tr("run %1 (%2)").arg(m_diff.runA).arg(utf8(m_diff.policyA));
    const QString nameB = tr("run %1 (%2)").arg(m_diff.runB).arg(utf8(m_diff.policyB));
    m_fork->setColumnCount(2);
    m_fork->setHorizontalHeaderLabels({nameA, nameB});
    const QStringList rows = {tr("Decision"), tr("Task"), tr("Pick"), tr("Its total"),
                              tr("The other run's pick here"), tr("Decided by"),
                              tr("Would agree if"), tr("In words")};
    m_fork->setRowCount(int(rows.size()));
    m_fork->setVerticalHeaderLabels(rows);
    if (!m_diff.fork) {
        m_fork->setRowCount(1);
        m_fork->setVerticalHeaderLabels({tr("Decisions")});
        const QString same = m_diff.logs ? tr("all the same") : tr("not stored");
        m_fork->setItem(0, 0, diffCell(same));
        m_fork->setItem(0, 1, diffCell(same));
        return;
    }
    const int index = m_diff.fork->index;
    const Topology topo(m_a.scenario.cluster);
    for (int side = 0; side < 2; ++side) {
        const StoredRunDetail &run = side == 0 ? m_a : m_b;
        const std::optional<Contrast> &contrast = side == 0 ? m_diff.fork->inA : m_diff.fork->inB;
        const DecisionLog &log = *run.log;
        m_fork->setItem(0, side, diffCell(QString::number(index + 1)));
        if (index >= int(log.decisions.size())) {
            m_fork->setItem(1, side, diffCell(tr("(its log ends here)")));
            continue;
        }
        const Decision &d = log.decisions[std::size_t(index)];
        m_fork->setItem(1, side, diffCell(utf8(d.jobId) + QLatin1Char(' ') + utf8(d.task())));
        m_fork->setItem(2, side, diffCell(d.pick >= 0 ? utf8(log.nodeNames[std::size_t(d.pick)])
                                                  : tr("(no node fits)"),
                                      utf8(d.why)));
        if (contrast)
            m_fork->setItem(3, side, diffCell(formatNumber(contrast->pickTotal)));
        if (m_diff.fork->sameTask) {
            m_fork->setItem(4, side, diffCell(otherPickText(log, contrast)));
            m_fork->setItem(5, side, diffCell(decidingText(contrast)));
            m_fork->setItem(6, side,
                            diffCell(contrast && !contrast->flips.empty()
                                         ? utf8(describeFlip(log, contrast->flips.front()))
                                     : contrast && !contrast->otherHasRow
                                         ? tr("(not known: no row kept for the other pick)")
                                         : tr("no single weight change")));
        } else {
            m_fork->setItem(4, side, diffCell(tr("(the runs offer different tasks: their queue "
                                             "orders differ)")));
        }
        m_fork->setItem(7, side, diffCell(utf8(narrateDecision(run.scenario, topo, log, index))));
    }
    // Rows follow the columns' widths (the narration wraps), also when the dialog is resized.
    m_fork->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

void RunDiffDialog::fillJobs()
{
    const bool timed = m_a.result && m_b.result;
    QStringList columns = {tr("Job"), tr("Nodes in run %1").arg(m_diff.runA),
                           tr("Nodes in run %1").arg(m_diff.runB), tr("Tasks moved")};
    if (timed)
        columns << tr("Start A") << tr("Start B") << tr("Finish A") << tr("Finish B");
    m_jobs->setColumnCount(int(columns.size()));
    m_jobs->setHorizontalHeaderLabels(columns);
    m_jobs->setRowCount(int(m_diff.jobs.size()));
    const auto time = [](const std::optional<double> &t) {
        return t ? formatDuration(*t) : QStringLiteral("–");
    };
    for (int r = 0; r < int(m_diff.jobs.size()); ++r) {
        const JobDifference &j = m_diff.jobs[std::size_t(r)];
        m_jobs->setItem(r, 0, diffCell(utf8(j.jobId)));
        m_jobs->setItem(r, 1, diffCell(utf8(compactNodeList(j.nodesA))));
        m_jobs->setItem(r, 2, diffCell(utf8(compactNodeList(j.nodesB))));
        m_jobs->setItem(r, 3, diffCell(QString::number(j.tasksMoved)));
        if (timed) {
            m_jobs->setItem(r, 4, diffCell(time(j.startA)));
            m_jobs->setItem(r, 5, diffCell(time(j.startB)));
            m_jobs->setItem(r, 6, diffCell(time(j.finishA)));
            m_jobs->setItem(r, 7, diffCell(time(j.finishB)));
        }
    }
}

void RunDiffDialog::fillMetrics()
{
    m_metrics->setColumnCount(4);
    m_metrics->setHorizontalHeaderLabels({tr("Metric"), tr("Run %1").arg(m_diff.runA),
                                          tr("Run %1").arg(m_diff.runB), tr("B − A")});
    m_metrics->setRowCount(int(m_diff.metrics.size()));
    for (int r = 0; r < int(m_diff.metrics.size()); ++r) {
        const MetricDifference &m = m_diff.metrics[std::size_t(r)];
        m_metrics->setItem(r, 0, diffCell(utf8(m.name)));
        m_metrics->setItem(r, 1, diffCell(m.a ? metricText(m.name, *m.a) : QStringLiteral("–")));
        m_metrics->setItem(r, 2, diffCell(m.b ? metricText(m.name, *m.b) : QStringLiteral("–")));
        QString delta = QStringLiteral("–");
        if (m.a && m.b) {
            delta = signedMetricText(m.name, *m.b - *m.a);
            if (*m.a != 0 && *m.b != *m.a)
                delta += QStringLiteral(" (%1%2)")
                             .arg(*m.b > *m.a ? QStringLiteral("+") : QStringLiteral("−"))
                             .arg(formatPercent(std::fabs(*m.b - *m.a) / std::fabs(*m.a)));
        }
        m_metrics->setItem(r, 3, diffCell(delta));
    }
}

} // namespace cb::views
