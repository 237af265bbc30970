// The run session contract and the decision stepper: computeRunSession (policy errors,
// cancel), the DecisionReplay (exact GPU and traffic figures at the cursor, gang rollback,
// forward-then-back equality), the stepper's models under QAbstractItemModelTester, the
// controls and the topology colouring.

#include "analysis/decision_models.h"
#include "analysis/decision_stepper.h"
#include "analysis/frozen_column_table.h"
#include "analysis/run_session.h"
#include "io/policy_json.h"
#include "io/scenario_json.h"
#include "model/gen_fat_tree.h"
#include "net/topology.h"
#include "runs/decision_replay.h"
#include "runs/glossary.h"
#include "sched/placer.h"
#include "sched/traffic.h"
#include "test_scenarios.h"
#include "topology/topology_scene.h"

#include <QLabel>
#include <algorithm>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QToolTip>
#include <QtTest>

#include <cmath>
#include <map>
#include <numeric>

using namespace cb;
using namespace cb::views;

class TestDecisionStepper : public QObject
{
    Q_OBJECT

private slots:
    void computeSession();
    void computeSessionErrors();
    void replayExactFigures();
    void replayGangRollback();
    void replayForwardThenBack();
    void replayGroups();
    void podGroups();
    void modelsPassTester();
    void tableShowsTheDecision();
    void controlsAndPlay();
    void overlayColoursCandidates();
    void summaryLogTableAndOverlay();
    void contrastRowAndGlossary();
};

namespace {

std::shared_ptr<const RunSession> session(const Scenario &s, const std::string &policy = "dltap",
                                          bool simulate = false)
{
    auto r = computeRunSession(s, policy, 1, simulate);
    if (!r)
        qFatal("computeRunSession: %s", r.error().c_str());
    return std::make_shared<const RunSession>(std::move(r.value()));
}

double matrixSum(const DecisionReplay &r)
{
    const std::vector<double> m = r.denseMatrix();
    return std::accumulate(m.begin(), m.end(), 0.0);
}

/// Every group pair's bytes, checked against the node pairs summed by group: the group of a
/// node is its rack.
std::map<std::int64_t, double> groupCells(const DecisionReplay &r)
{
    std::map<std::int64_t, double> out, summed;
    const int g = r.groupCount();
    for (int a = 0; a < g; ++a)
        for (int b = 0; b < g; ++b)
            if (const double v = r.groupBytes(a, b); v != 0)
                out[std::int64_t(a) * g + b] = v;
    for (const auto &[key, bytes] : r.cells())
        summed[std::int64_t(r.groupOf(int(key / r.nodeCount()))) * g +
               r.groupOf(int(key % r.nodeCount()))] += bytes;
    for (const auto &[key, bytes] : summed) {
        const double v = out.count(key) ? out.at(key) : 0.0;
        if (std::abs(v - bytes) > 1e-9 * std::max(1.0, bytes))
            qFatal("group cell %lld: %.17g, the nodes sum to %.17g", (long long)key, v, bytes);
    }
    if (summed.size() != out.size())
        qFatal("%zu group cells carry bytes, the nodes fill %zu", out.size(), summed.size());
    return out;
}

double allocated(const DecisionReplay &r)
{
    double sum = 0;
    for (int n = 0; n < r.nodeCount(); ++n)
        sum += r.allocatedGpus(n);
    return sum;
}

} // namespace

void TestDecisionStepper::computeSession()
{
    // 4 nodes of 8 GPUs; jobs: PS (2 ps + 4 workers), all-reduce (8 workers), single.
    const Scenario s = testing::leafSpineScenario(2, 1, 2);
    auto r = computeRunSession(s, "dltap", 7, true);
    QVERIFY2(r.ok(), r.error().c_str());
    QCOMPARE(r->label, QStringLiteral("dltap seed 7 (simulated)"));
    QCOMPARE(r->policy, std::string("dltap"));
    QCOMPARE(r->seed, std::uint64_t(7));
    QCOMPARE(r->log.decisions.size(), std::size_t(15));
    QCOMPARE(r->placement.jobs.size(), std::size_t(3));
    QVERIFY(r->placement.waiting.empty());
    QVERIFY(r->result.has_value());
    QCOMPARE(r->result->jobs.size(), std::size_t(3));
    QCOMPARE(r->result->finishedJobs(), 3);
    auto placedOnly = computeRunSession(s, "k8s-default", 1, false);
    QVERIFY(placedOnly.ok());
    QVERIFY(!placedOnly->result.has_value());
    QCOMPARE(placedOnly->label, QStringLiteral("k8s-default seed 1"));
}

void TestDecisionStepper::computeSessionErrors()
{
    const Scenario s = testing::leafSpineScenario(2, 1, 2);
    auto unknown = computeRunSession(s, "no-such-policy", 1, false);
    QVERIFY(!unknown.ok());
    QCOMPARE(unknown.problems().front().where, std::string("policy"));
    QVERIFY2(unknown.error().find("no-such-policy") != std::string::npos,
             unknown.error().c_str());
    std::atomic<bool> cancel{true};
    auto cancelled = computeRunSession(s, "dltap", 1, true, &cancel);
    QVERIFY(!cancelled.ok());
    QCOMPARE(cancelled.error(), std::string("cancelled"));
}

void TestDecisionStepper::replayExactFigures()
{
    const Scenario s = testing::leafSpineScenario(2, 1, 2);
    auto run = session(s);
    DecisionReplay replay(run->scenario, run->log);
    QCOMPARE(replay.cursor(), -1);
    QCOMPARE(matrixSum(replay), 0.0);
    // The PS job's six decisions come first (FIFO by submit time): 2 ps x 4 workers x 2
    // directions x 102.4 MB / 2 = 819.2 MB per iteration, and 4 GPUs.
    replay.seek(5);
    QCOMPARE(run->log.decisions[5].jobId, std::string("resnet50-ps"));
    QCOMPARE(run->log.decisions[6].jobId, std::string("bert-ar"));
    QCOMPARE(matrixSum(replay), 819'200'000.0);
    QCOMPARE(allocated(replay), 4.0);
    // Everything: + 8 ring workers x 2 x 7/8 x 1.34 GB = 18.76 GB; 13 GPUs.
    replay.seek(replay.decisionCount() - 1);
    QCOMPARE(matrixSum(replay), 19'579'200'000.0);
    QCOMPARE(allocated(replay), 13.0);
    // Cell by cell equal to the core's accounting of the final placement.
    const Topology topo(s.cluster);
    const TrafficReport full = computeTraffic(s.jobs, s.cluster, topo, run->placement);
    int nonZero = 0;
    for (int a = 0; a < replay.nodeCount(); ++a)
        for (int b = 0; b < replay.nodeCount(); ++b) {
            auto it = full.pairBytes.find({a, b});
            const double expected = it == full.pairBytes.end() ? 0.0 : it->second;
            QCOMPARE(replay.pairBytes(a, b), expected);
            nonZero += expected != 0;
        }
    QVERIFY(nonZero > 0);
    for (std::size_t l = 0; l < full.linkBytes.size(); ++l)
        QCOMPARE(replay.linkBytes()[l], full.linkBytes[l]);
    // Bound tasks per node add up to the 15 placed tasks.
    int tasks = 0;
    for (int n = 0; n < replay.nodeCount(); ++n)
        tasks += replay.boundTasks(n);
    QCOMPARE(tasks, 15);
}

void TestDecisionStepper::replayGangRollback()
{
    // One node with 8 GPUs: the PS job takes 4, the all-reduce job places 4 of its 8 workers,
    // the fifth does not fit and the job is rolled back; the single job then gets 1 GPU.
    const Scenario s = testing::leafSpineScenario(1, 1, 1);
    auto run = session(s);
    QCOMPARE(run->log.decisions.size(), std::size_t(12));
    QCOMPARE(run->log.decisions[10].pick, -1);
    QCOMPARE(run->placement.waiting, std::vector<std::string>{"bert-ar"});
    DecisionReplay replay(run->scenario, run->log);
    const std::vector<double> expected{0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 4, 5};
    for (int c = -1; c < 12; ++c) {
        replay.seek(c);
        QCOMPARE(allocated(replay), expected[std::size_t(c + 1)]);
    }
    replay.seek(9);
    QCOMPARE(allocated(replay), 8.0);
    QVERIFY(matrixSum(replay) > 0);
    replay.seek(10); // the rollback also takes the ring's traffic away
    QCOMPARE(matrixSum(replay), 819'200'000.0);
    QCOMPARE(replay.jobsWithTasks(), 1);
}

void TestDecisionStepper::replayForwardThenBack()
{
    const Scenario s = testing::leafSpineScenario(4, 2, 4);
    auto run = session(s, "k8s-default");
    DecisionReplay replay(run->scenario, run->log);
    const int n = replay.decisionCount();
    QVERIFY(n >= 10);
    for (int c = 0; c < n; ++c) {
        replay.seek(c);
        const std::vector<double> matrix = replay.denseMatrix();
        const std::map<std::int64_t, double> groups = groupCells(replay);
        const std::vector<double> links = replay.linkBytes();
        std::vector<double> gpus;
        for (int k = 0; k < replay.nodeCount(); ++k)
            gpus.push_back(replay.allocatedGpus(k));
        for (int f = c + 1; f < std::min(n, c + 4); ++f)
            replay.seek(f);
        replay.seek(n - 1);
        for (int b = n - 2; b >= c; --b) // step by step back
            replay.seek(b);
        QVERIFY(replay.denseMatrix() == matrix); // bit-identical
        QVERIFY(groupCells(replay) == groups);
        QVERIFY(replay.linkBytes() == links);
        for (int k = 0; k < replay.nodeCount(); ++k)
            QCOMPARE(replay.allocatedGpus(k), gpus[std::size_t(k)]);
    }
}

void TestDecisionStepper::replayGroups()
{
    // Racks r001 .. r004 of 4 nodes; without racks, runs of 64 consecutive nodes.
    Scenario s = testing::leafSpineScenario(4, 2, 4);
    auto run = session(s, "k8s-default");
    DecisionReplay replay(run->scenario, run->log);
    QCOMPARE(replay.groupCount(), 4);
    QCOMPARE(replay.groupName(0), std::string("r001"));
    QCOMPARE(replay.groupOf(5), 1);
    QCOMPARE(replay.groupSize(3), 4);
    replay.seek(replay.decisionCount() - 1);
    double total = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            total += replay.groupBytes(a, b);
    QCOMPARE(total, matrixSum(replay));
    QVERIFY(!replay.changedGroupCells().empty());
    (void)groupCells(replay); // the group pairs are the node pairs summed by rack

    Scenario rackless = testing::leafSpineScenario(10, 1, 10, 1); // 100 nodes
    for (Node &n : rackless.cluster.nodes)
        n.rack.clear();
    rackless.cluster.nodes[50].rack = "odd";
    const DecisionLog none;
    DecisionReplay grouped(rackless, none);
    QCOMPARE(grouped.groupCount(), 3); // "odd", then nodes 0-49 and 51-99
    QCOMPARE(grouped.groupName(0), std::string("odd"));
    QCOMPARE(grouped.groupName(1), std::string("r001-n01 … r005-n10"));
    QCOMPARE(grouped.groupSize(1), 50);
    QCOMPARE(grouped.groupOf(51), 2);
    QCOMPARE(grouped.groupSize(2), 49);
}

void TestDecisionStepper::podGroups()
{
    // A k = 4 fat-tree: 16 hosts under 8 edge switches (racks), in 4 pods of 2 racks.
    FatTreeParams params;
    params.k = 4;
    const Cluster tree = generateFatTree(params).value();
    const NodeGroups racks = groupNodesByRack(tree);
    QCOMPARE(racks.count(), 8);
    const NodeGroups pods = groupNodesByPod(Topology(tree), racks);
    QCOMPARE(pods.count(), 4);
    QCOMPARE(pods.names, (std::vector<std::string>{"pod-0", "pod-1", "pod-2", "pod-3"}));
    QCOMPARE(pods.sizes, (std::vector<int>{4, 4, 4, 4}));
    for (std::size_t n = 0; n < tree.nodes.size(); ++n)
        QCOMPARE(pods.names[std::size_t(pods.groupOf[n])],
                 tree.nodes[n].labels.at("clusterbench.io/pod"));

    // A leaf-spine falls into its racks without the spines: pods would add nothing.
    Scenario leafSpine = testing::leafSpineScenario(4, 2, 4);
    QCOMPARE(groupNodesByPod(Topology(leafSpine.cluster), groupNodesByRack(leafSpine.cluster)).count(),
             0);
    // Nodes under one switch: no tier above the racks.
    Scenario flat = testing::leafSpineScenario(2, 1, 2);
    flat.cluster.switches.resize(1); // spine01 only: the nodes hang off it directly
    flat.cluster.links.clear();
    for (const Node &n : flat.cluster.nodes)
        flat.cluster.links.push_back(Link{n.id, "spine01", 100, 1});
    QCOMPARE(groupNodesByPod(Topology(flat.cluster), groupNodesByRack(flat.cluster)).count(), 0);
    QCOMPARE(groupNodesByPod(Topology(Cluster{}), NodeGroups{}).count(), 0); // nothing at all

    // Two pods of two racks each whose racks share no more than "rack": named by their first
    // and last racks, not both "rack".
    Scenario twoPods = testing::leafSpineScenario(4, 1, 1);
    Cluster &c = twoPods.cluster;
    c.switches = {Switch{"core", "core"}, Switch{"agg-a", "aggregation"},
                  Switch{"agg-b", "aggregation"}};
    c.links.clear();
    for (int r = 0; r < 4; ++r) {
        const std::string leaf = "leaf" + std::to_string(r);
        c.switches.push_back(Switch{leaf, "leaf"});
        c.nodes[std::size_t(r)].rack = "rack-" + std::to_string(r + 1);
        c.links.push_back(Link{c.nodes[std::size_t(r)].id, leaf, 100, 1});
        c.links.push_back(Link{leaf, r < 2 ? "agg-a" : "agg-b", 100, 1});
    }
    c.links.push_back(Link{"agg-a", "core", 100, 1});
    c.links.push_back(Link{"agg-b", "core", 100, 1});
    const NodeGroups named = groupNodesByPod(Topology(c), groupNodesByRack(c));
    QCOMPARE(named.names, (std::vector<std::string>{"rack-1 … rack-2", "rack-3 … rack-4"}));
    QCOMPARE(named.groupOf, (std::vector<int>{0, 0, 1, 1}));
}

void TestDecisionStepper::modelsPassTester()
{
    DecisionStepper stepper;
    using T = QAbstractItemModelTester;
    T t1(stepper.listModel(), T::FailureReportingMode::QtTest);
    T t2(stepper.tableModel(), T::FailureReportingMode::QtTest);
    T t3(stepper.stateModel(), T::FailureReportingMode::QtTest);
    T t4(stepper.tableView()->model(), T::FailureReportingMode::QtTest);
    auto run = session(testing::leafSpineScenario(2, 1, 2));
    stepper.setSession(run);
    QCOMPARE(stepper.listModel()->rowCount(), 15);
    QCOMPARE(stepper.tableModel()->rowCount(), 4);
    QCOMPARE(stepper.stateModel()->rowCount(), 4);
    for (int i = 0; i < 15; ++i)
        stepper.step();
    stepper.seek(3);
    stepper.last();
    stepper.setSession(session(testing::leafSpineScenario(1, 1, 1), "k8s-default"));
    QCOMPARE(stepper.tableModel()->rowCount(), 1);
    stepper.first();
    stepper.setSession(nullptr);
    QCOMPARE(stepper.listModel()->rowCount(), 0);
    QCOMPARE(stepper.tableModel()->columnCount(), 0);
}

void TestDecisionStepper::tableShowsTheDecision()
{
    DecisionStepper stepper;
    auto run = session(testing::leafSpineScenario(2, 1, 2));
    stepper.setSession(run);
    stepper.seek(2);
    const Decision &d = run->log.decisions[2];
    DecisionTableModel *m = stepper.tableModel();
    // Node, total, filter, raw and weighted per plugin.
    QCOMPARE(m->columnCount(), 3 + 2 * int(run->log.pluginNames.size()));
    QCOMPARE(m->headerData(m->totalColumn(), Qt::Horizontal).toString(), QStringLiteral("Total"));
    QCOMPARE(m->headerData(3, Qt::Horizontal).toString(),
             QString::fromStdString(run->log.pluginNames[0]));
    QCOMPARE(m->headerData(4, Qt::Horizontal).toString(),
             QStringLiteral("×") + formatScore(run->log.weights[0]));
    const int pick = d.pick;
    QVERIFY(pick >= 0);
    const QModelIndex total = m->index(pick, m->totalColumn());
    QCOMPARE(total.data().toString(), formatScore(d.rows[std::size_t(pick)].total));
    QVERIFY(total.data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(total.data(Qt::BackgroundRole).isValid());
    QCOMPARE(m->index(pick, DecisionTableModel::kFirstPluginColumn).data().toString(),
             formatScore(d.rawScore(d.rows[std::size_t(pick)], 0)));
    QCOMPARE(m->index(pick, DecisionTableModel::kFirstPluginColumn + 1).data().toString(),
             formatScore(run->log.weighted(d, d.rows[std::size_t(pick)], 0)));
    // Cluster state after decision 2 (ps-0, ps-1, worker-0 of the PS job): 1 GPU used.
    double used = 0;
    for (int r = 0; r < stepper.stateModel()->rowCount(); ++r)
        used += stepper.stateModel()->index(r, ClusterStateModel::Allocated).data().toDouble();
    QCOMPARE(used, 1.0);
    // The decision list names the chosen node.
    QCOMPARE(stepper.listModel()->index(2, DecisionListModel::Node).data().toString(),
             QString::fromStdString(run->log.nodeNames[std::size_t(pick)]));

    // Sorted by total, best first, the chosen node ahead of the nodes tied with it (on a
    // decision with a tie, so that the order matters).
    int tiedDecision = -1;
    for (const Decision &c : run->log.decisions)
        if (c.pick >= 0 && c.tied.size() >= 2 && c.tied.front() != c.pick) {
            tiedDecision = c.index;
            break;
        }
    QVERIFY(tiedDecision >= 0);
    stepper.seek(tiedDecision);
    QAbstractItemModel *view = stepper.tableView()->model();
    QCOMPARE(view->index(0, 0).data().toString(),
             QString::fromStdString(
                 run->log.nodeNames[std::size_t(run->log.decisions[std::size_t(tiedDecision)].pick)]));
    for (int r = 1; r < view->rowCount(); ++r)
        QVERIFY(view->index(r - 1, DecisionTableModel::kTotalColumn)
                    .data(DecisionTableModel::SortRole)
                    .toDouble() >= view->index(r, DecisionTableModel::kTotalColumn)
                                       .data(DecisionTableModel::SortRole)
                                       .toDouble());
    // Sorted the other way, or by another column, the chosen node still leads.
    const QString pickName = QString::fromStdString(
        run->log.nodeNames[std::size_t(run->log.decisions[std::size_t(tiedDecision)].pick)]);
    stepper.tableView()->sortByColumn(DecisionTableModel::kTotalColumn, Qt::AscendingOrder);
    QCOMPARE(view->index(0, 0).data().toString(), pickName);
    QVERIFY(view->index(1, DecisionTableModel::kTotalColumn)
                .data(DecisionTableModel::SortRole)
                .toDouble() <= view->index(view->rowCount() - 1, DecisionTableModel::kTotalColumn)
                                   .data(DecisionTableModel::SortRole)
                                   .toDouble());
    stepper.tableView()->sortByColumn(DecisionTableModel::kNodeColumn, Qt::DescendingOrder);
    QCOMPARE(view->index(0, 0).data().toString(), pickName);
    stepper.tableView()->sortByColumn(DecisionTableModel::kTotalColumn, Qt::DescendingOrder);
    // The node and its total stay in view while the plugin columns scroll sideways.
    auto *frozen = qobject_cast<FrozenColumnTableView *>(stepper.tableView());
    QVERIFY(frozen);
    QCOMPARE(frozen->frozenColumns(), 2);
    QVERIFY(!frozen->frozenView()->isColumnHidden(DecisionTableModel::kTotalColumn));
    QVERIFY(frozen->frozenView()->isColumnHidden(DecisionTableModel::kFilterColumn));
}

void TestDecisionStepper::controlsAndPlay()
{
    DecisionStepper stepper;
    QSignalSpy moved(&stepper, &DecisionStepper::cursorChanged);
    stepper.setSession(session(testing::leafSpineScenario(2, 1, 2)));
    QCOMPARE(stepper.cursor(), 0);
    auto *step = stepper.findChild<QToolButton *>(QStringLiteral("stepButton"));
    auto *back = stepper.findChild<QToolButton *>(QStringLiteral("backButton"));
    auto *last = stepper.findChild<QToolButton *>(QStringLiteral("lastButton"));
    QVERIFY(step && back && last);
    QVERIFY(!back->isEnabled());
    step->click();
    step->click();
    QCOMPARE(stepper.cursor(), 2);
    back->click();
    QCOMPARE(stepper.cursor(), 1);
    last->click();
    QCOMPARE(stepper.cursor(), 14);
    QVERIFY(!step->isEnabled());
    // Play from the end restarts at the first decision and stops at the last.
    stepper.setSpeed(200);
    QCOMPARE(stepper.speed(), 200);
    stepper.play();
    QVERIFY(stepper.isPlaying());
    QCOMPARE(stepper.cursor(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!stepper.isPlaying(), 3000);
    QCOMPARE(stepper.cursor(), 14);
    QVERIFY(moved.count() >= 15 + 4);
    QCOMPARE(moved.last().at(0).toInt(), 14);
}

void TestDecisionStepper::overlayColoursCandidates()
{
    DecisionStepper stepper;
    auto run = session(testing::leafSpineScenario(2, 1, 2));
    stepper.setSession(run);
    stepper.seek(7);
    const NodeOverlay o = decisionOverlay(stepper);
    QCOMPARE(o.values.size(), std::size_t(4));
    QCOMPARE(o.marked, run->log.decisions[7].pick);
    // The chosen node has the best total, so the top relative score.
    QCOMPARE(o.values[std::size_t(o.marked)], 1.0f);
    float lo = 1;
    for (float v : o.values)
        lo = std::min(lo, v);
    QVERIFY(lo >= 0.0f); // nothing filtered: every node still has room
    QCOMPARE(std::accumulate(o.gpusUsed.begin(), o.gpusUsed.end(), 0.0f), 6.0f);
    stepper.setSession(nullptr);
    QVERIFY(!decisionOverlay(stepper).active());
}

void TestDecisionStepper::summaryLogTableAndOverlay()
{
    // The same run logged with detail summary (top:0): the table shows the pick (and its
    // ties) then one "+ N more nodes" row; the topology draws the nodes without a row as such.
    auto full = session(testing::leafSpineScenario(2, 1, 2));
    RunSession rs = *full;
    rs.log = DecisionLog{};
    rs.log.detail = LogDetail::topK(0);
    const Topology topo(rs.scenario.cluster);
    rs.placement = placeScenario(rs.scenario, topo, resolvePolicy("dltap", {}).value(), 1, &rs.log);
    QVERIFY(rs.placement == full->placement);
    auto run = std::make_shared<const RunSession>(std::move(rs));
    DecisionStepper stepper;
    using T = QAbstractItemModelTester;
    T t1(stepper.tableModel(), T::FailureReportingMode::QtTest);
    T t2(stepper.tableView()->model(), T::FailureReportingMode::QtTest);
    stepper.setSession(run);
    int c = 0;
    while (c < int(run->log.decisions.size()) && full->log.decisions[std::size_t(c)].tied.size() != 1)
        ++c; // a decision without ties: the three other nodes all scored lower
    QVERIFY(c < int(run->log.decisions.size()));
    stepper.seek(c);
    const Decision &d = run->log.decisions[std::size_t(c)];
    DecisionTableModel *m = stepper.tableModel();
    QCOMPARE(d.rows.size(), std::size_t(1));
    QCOMPARE(d.omitted.nodes(), 3);
    QCOMPARE(m->rowCount(), 2);
    QCOMPARE(m->index(0, DecisionTableModel::kNodeColumn).data().toString(),
             QString::fromStdString(run->log.nodeNames[std::size_t(d.pick)]));
    QCOMPARE(m->index(0, m->totalColumn()).data().toString(),
             formatScore(full->log.decisions[std::size_t(c)].row(d.pick)->total));
    QCOMPARE(m->index(1, DecisionTableModel::kNodeColumn).data().toString(),
             QStringLiteral("+ 3 more nodes"));
    QCOMPARE(m->index(1, DecisionTableModel::kFilterColumn).data().toString(),
             QStringLiteral("3 scored lower"));
    QCOMPARE(m->index(1, DecisionTableModel::kNodeColumn).data(Qt::ToolTipRole).toString(),
             QString::fromStdString(run->log.omittedSummary(d, std::size_t(-1))));
    // Sorted by total (descending), the summary row stays last.
    QAbstractItemModel *view = stepper.tableView()->model();
    QCOMPARE(view->index(view->rowCount() - 1, DecisionTableModel::kNodeColumn).data().toString(),
             QStringLiteral("+ 3 more nodes"));
    // Ascending too (it came first), and by node: the pick first, the summary last.
    for (const int column :
         {int(DecisionTableModel::kTotalColumn), int(DecisionTableModel::kNodeColumn)}) {
        stepper.tableView()->sortByColumn(column, Qt::AscendingOrder);
        QCOMPARE(
            view->index(view->rowCount() - 1, DecisionTableModel::kNodeColumn).data().toString(),
            QStringLiteral("+ 3 more nodes"));
        QCOMPARE(view->index(0, DecisionTableModel::kNodeColumn).data().toString(),
                 QString::fromStdString(run->log.nodeNames[std::size_t(d.pick)]));
    }
    stepper.tableView()->sortByColumn(DecisionTableModel::kTotalColumn, Qt::DescendingOrder);
    const NodeOverlay o = decisionOverlay(stepper);
    QCOMPARE(o.marked, d.pick);
    QCOMPARE(o.values[std::size_t(d.pick)], 1.0f);
    QCOMPARE(std::count(o.values.begin(), o.values.end(), NodeOverlay::kNoRow), 3L);
    // Stepping across decisions with other row counts keeps the models consistent.
    for (int i = 0; i < int(run->log.decisions.size()); ++i)
        stepper.seek(i);
    m->setDecision(-1); // no decision: a row per node, names only
    QCOMPARE(m->rowCount(), 4);
    // The replayed cluster state and traffic never depend on the rows the log dropped.
    DecisionReplay a(full->scenario, full->log), b(run->scenario, run->log);
    for (int i = 0; i < a.decisionCount(); ++i) {
        a.seek(i);
        b.seek(i);
        for (int n = 0; n < a.nodeCount(); ++n) {
            QCOMPARE(b.allocatedGpus(n), a.allocatedGpus(n));
            QCOMPARE(b.boundTasks(n), a.boundTasks(n));
        }
        QVERIFY(b.denseMatrix() == a.denseMatrix());
        QVERIFY(b.linkBytes() == a.linkBytes());
    }
}

QTEST_MAIN(TestDecisionStepper)

void TestDecisionStepper::contrastRowAndGlossary()
{
    // The DLTAP testbed under dltap, decision 2: node-02 (37) against node-01 (28), as
    // clusterbench explain prints it (tests/core/tst_explain.cpp checks the numbers).
    const std::string path = std::string(CB_SOURCE_DIR) + "/sample-clusters/dltap-testbed.json";
    auto loaded = loadScenarioFile(path);
    QVERIFY(loaded.ok());
    DecisionStepper stepper;
    auto run = session(loaded.value());
    stepper.setSession(run);
    stepper.seek(1);
    QVERIFY(stepper.contrastText().startsWith(
        QStringLiteral("Click a node in the topology to contrast it with the pick; drag the "
                       "pick onto another node to try the task there (what if). The pick "
                       "would change if selector-spread weight > 1.9")));
    // The label shows the escaped ">" as ">": it is rich text, also where no tag says so.
    auto *contrast = stepper.findChild<QLabel *>(QStringLiteral("decisionContrast"));
    QVERIFY(contrast->text().contains(QStringLiteral("weight &gt; 1.9")));
    QCOMPARE(contrast->textFormat(), Qt::RichText);
    const auto &names = run->log.nodeNames;
    const int node01 = int(std::find(names.begin(), names.end(), "node-01") - names.begin());
    stepper.setContrastNode(node01);
    QCOMPARE(stepper.contrastNode(), node01);
    QCOMPARE(stepper.contrastText(),
             QStringLiteral("vs node-01: total 28, 9 behind: selector-spread -10, "
                            "least-allocated -1, dltap +20; decided by dltap (+20, decisive); "
                            "node-01 would win if selector-spread weight > 1.9 (now 1)"));
    // The row follows the cursor; the why line's tooltip tells the decision in words.
    // (narrated when the tooltip is asked for).
    QVERIFY(stepper.narration().startsWith(
        QStringLiteral("Decision 2 places worker-0 of job alexnet-a")));
    auto *why = stepper.findChild<QLabel *>(QStringLiteral("decisionWhy"));
    QHelpEvent help(QEvent::ToolTip, QPoint(4, 4), why->mapToGlobal(QPoint(4, 4)));
    QApplication::sendEvent(why, &help);
    QCOMPARE(QToolTip::text(), QStringLiteral("<p>%1</p>").arg(stepper.narration().toHtmlEscaped()));
    stepper.seek(0);
    QVERIFY(stepper.contrastText() != QString());
    stepper.setContrastNode(-1);
    QVERIFY(stepper.contrastText().startsWith(QStringLiteral("Click a node")));
    // Glossary tooltips on the plugin columns.
    DecisionTableModel *m = stepper.tableModel();
    const QString tip =
        m->headerData(DecisionTableModel::kFirstPluginColumn, Qt::Horizontal, Qt::ToolTipRole)
            .toString();
    QVERIFY2(tip.contains(QString::fromStdString(pluginGlossary(run->log.pluginNames[0]))),
             qPrintable(tip));
    QVERIFY(!pluginGlossary("dltap").empty());
    for (const char *p : {"least-allocated", "most-allocated", "balanced-allocation",
                          "selector-spread", "dltap", "topology-distance", "nvlink-packing",
                          "node-affinity", "random", "energy-efficiency", "nvlink-domain"})
        QVERIFY2(!pluginGlossary(p).empty(), p);
    QVERIFY(pluginGlossary("no-such-plugin").empty());
    QVERIFY(!metricGlossary("mean_jct_s").empty());
}
#include "tst_decision_stepper.moc"
