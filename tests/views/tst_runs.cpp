// The run panel and the history: requests from the panel's choices (policies, weights,
// seeds), two policies run on the worker thread into a temporary workspace, the history
// model listing them, reopening a stored run without recomputing, cancel, filter, delete.

#include "analysis/run_session.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "models/quantity_format.h"
#include "runs/history_panel.h"
#include "runs/run_comparison.h"
#include "runs/run_diff_dialog.h"
#include "runs/run_history_model.h"
#include "runs/run_panel.h"
#include "runs/run_store.h"
#include "sched/policy.h"
#include "sim/sim_options.h"
#include "store/workspace.h"
#include "test_scenarios.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

using namespace cb;
using namespace cb::views;

namespace {

Scenario testbed()
{
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");
    return s ? s.value() : testing::leafSpineScenario(2, 1, 4);
}

} // namespace

class TestRuns : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        qputenv("CLUSTERBENCH_WORKSPACE", m_dir.filePath(QStringLiteral("default.sqlite")).toUtf8());
    }

    void seedLists()
    {
        QCOMPARE(parseSeedList("1").value(), (std::vector<std::uint64_t>{1}));
        QCOMPARE(parseSeedList(" 3-5, 1 ,4").value(), (std::vector<std::uint64_t>{1, 3, 4, 5}));
        QVERIFY(!parseSeedList("").ok());
        QVERIFY(!parseSeedList("5-3").ok());
        QVERIFY(!parseSeedList("x").ok());
        QCOMPARE(QString::fromStdString(parseSeedList("1,b").error()),
                 QStringLiteral("seeds: expected a seed (a whole number ≥ 0), found \"b\""));
    }

    void metricsOnlyRunKeepsThePlacement()
    {
        // Without the decision log: the same placement and simulation, an empty log, and
        // the stored record says so.
        const Scenario s = testbed();
        auto logged = computeRunSession(s, "dltap", 3, true);
        auto bare = computeRunSession(s, "dltap", 3, true, nullptr, false);
        QVERIFY(logged.ok() && bare.ok());
        QVERIFY(!logged->log.decisions.empty());
        QVERIFY(bare->log.decisions.empty());
        QVERIFY(bare->placement == logged->placement);
        QVERIFY(*bare->result == *logged->result);
        PanelRequest r;
        r.policy = "dltap";
        r.seed = 3;
        r.decisionLog = false;
        const RunRecord record = recordForSession(bare.value(), r);
        QCOMPARE(record.parameters.value("decision_log", true), false);
        PanelRequest withLog = r;
        withLog.decisionLog = true;
        QVERIFY(record.metrics == recordForSession(logged.value(), withLog).metrics);
    }

    void weightOverridesMakeADerivedPreset()
    {
        PanelRequest r;
        r.policy = "dltap";
        QCOMPARE(requestPolicyName(r), std::string("dltap"));
        r.weights = {{"selector-spread", 0}, {"dltap", 2.5}};
        QCOMPARE(requestPolicyName(r), std::string("dltap{dltap=2.5,selector-spread=0}"));
        const Scenario s = scenarioForRequest(testing::leafSpineScenario(2, 1, 2), r);
        auto session = computeRunSession(s, requestPolicyName(r), 1, false);
        QVERIFY2(session.ok(), session.ok() ? "" : session.error().c_str());
        // The log's plugin columns carry the overridden weights; weight 0 removed a plugin.
        const DecisionLog &log = session->log;
        bool sawDltap = false;
        for (std::size_t i = 0; i < log.pluginNames.size(); ++i) {
            QVERIFY(log.pluginNames[i] != "selector-spread");
            if (log.pluginNames[i] == "dltap") {
                QCOMPARE(log.weights[i], 2.5);
                sawDltap = true;
            }
        }
        QVERIFY(sawDltap);
    }

    void runPanelRequests()
    {
        Document doc;
        doc.setScenario(testbed());
        RunPanel panel(&doc);
        QVERIFY(panel.policyNames().contains(QStringLiteral("k8s-default")));
        // Each policy says what it does in its tooltip: the preset's description.
        {
            auto *list = panel.findChild<QListWidget *>(QStringLiteral("runPolicies"));
            QVERIFY(list);
            bool sawBinpack = false;
            for (int i = 0; i < list->count(); ++i)
                if (list->item(i)->text() == QStringLiteral("binpack")) {
                    sawBinpack = true;
                    QCOMPARE(list->item(i)->toolTip().toStdString(),
                             builtinPolicy("binpack")->description);
                    QVERIFY(!list->item(i)->toolTip().isEmpty());
                }
            QVERIFY(sawBinpack);
        }
        if (!doc.scenario().policies.empty()) // the scenario's own presets come first
            QCOMPARE(panel.policyNames().front().toStdString(),
                     doc.scenario().policies.front()["name"].get<std::string>());
        for (const QString &p : panel.checkedPolicies())
            panel.setPolicyChecked(p, false);
        QVERIFY(!panel.requests().ok());
        QVERIFY(!panel.start());
        QVERIFY(panel.statusText().contains(QStringLiteral("tick at least one policy")));
        panel.setPolicyChecked(QStringLiteral("k8s-default"), true);
        panel.setPolicyChecked(QStringLiteral("dltap"), true);
        panel.setWeight(QStringLiteral("dltap"), QStringLiteral("dltap"), 3);
        panel.setWeight(QStringLiteral("k8s-default"), QStringLiteral("least-allocated"), 1);
        panel.setSeeds(QStringLiteral("2-3"));
        panel.setSimulate(false);
        auto requests = panel.requests();
        QVERIFY(requests.ok());
        QCOMPARE(requests->size(), std::size_t(4)); // 2 policies x 2 seeds, in list order
        std::vector<std::string> names;
        for (const PanelRequest &r : requests.value())
            names.push_back(requestPolicyName(r) + "/" + std::to_string(r.seed));
        std::vector<std::string> expected;
        for (const QString &p : panel.checkedPolicies()) {
            const std::string n = p == QStringLiteral("dltap") ? "dltap{dltap=3}" : p.toStdString();
            expected.push_back(n + "/2");
            expected.push_back(n + "/3");
        }
        QCOMPARE(names, expected); // an unchanged weight (least-allocated = 1) adds nothing
        panel.setSeeds(QStringLiteral("3-1"));
        QVERIFY(!panel.requests().ok());
    }

    void runPanelRefusesAScenarioWithoutJobs()
    {
        // Nothing to place: Run is off and says why (a run stored empty figures, 0:00:00), and
        // comes back with the first job.
        Scenario s = testbed();
        const Job job = s.jobs.front();
        s.jobs.clear();
        Document doc;
        doc.setScenario(s);
        RunPanel panel(&doc);
        auto *run = panel.findChild<QPushButton *>(QStringLiteral("runButton"));
        QVERIFY(run);
        QVERIFY(!panel.checkedPolicies().isEmpty());
        QVERIFY(!run->isEnabled());
        QVERIFY2(run->toolTip().contains(QStringLiteral("no jobs")), qPrintable(run->toolTip()));
        QVERIFY(!panel.start());
        QCOMPARE(panel.statusText(), QStringLiteral("Cannot run: the scenario has no jobs"));
        doc.insertJob(0, job);
        QVERIFY(run->isEnabled());
        QVERIFY(run->toolTip().isEmpty());
    }

    void runPanelSeedsStartAtTheScenarios()
    {
        // The seeds box starts at the scenario's settings.seed (the terminal's default); another
        // scenario brings its own, unless the user wrote other seeds.
        Scenario s = testbed();
        s.settings.seed = 3;
        Document doc;
        doc.setScenario(s);
        RunPanel panel(&doc);
        for (const QString &p : panel.checkedPolicies())
            panel.setPolicyChecked(p, false);
        panel.setPolicyChecked(QStringLiteral("k8s-default"), true);
        auto seeds = [&panel] {
            std::vector<std::uint64_t> out;
            const auto requests = panel.requests();
            for (const PanelRequest &r : requests.value())
                out.push_back(r.seed);
            return out;
        };
        QCOMPARE(seeds(), (std::vector<std::uint64_t>{3}));
        s.settings.seed = 7;
        doc.setScenario(s);
        QCOMPARE(seeds(), (std::vector<std::uint64_t>{7}));
        panel.setSeeds(QStringLiteral("1-2"));
        s.settings.seed = 9;
        doc.setScenario(s);
        QCOMPARE(seeds(), (std::vector<std::uint64_t>{1, 2}));
    }

    void runPanelSaysWhyStsIsGreyedOut()
    {
        // The testbed's jobs have no due dates: the stochastic entries are greyed out, and a
        // line under the list says why (it was only in their tooltips).
        Document doc;
        doc.setScenario(testbed());
        RunPanel panel(&doc);
        auto *note = panel.findChild<QLabel *>(QStringLiteral("runStsNote"));
        QVERIFY(note);
        QVERIFY(!note->isHidden());
        QCOMPARE(note->text(),
                 QStringLiteral("Greyed out: STS and its baselines "
                                "plan every job against its due date, and 9 of 9 jobs have "
                                "none (the first: \"alexnet-a\"); give them due dates (due_s) "
                                "or use a placement policy."));
        auto *list = panel.findChild<QListWidget *>(QStringLiteral("runPolicies"));
        QVERIFY(list);
        const QList<QListWidgetItem *> sts =
            list->findItems(QStringLiteral("sts  "), Qt::MatchStartsWith);
        QCOMPARE(sts.size(), 1);
        QCOMPARE(sts.front()->text(), QStringLiteral("sts  (needs due dates)"));
        QVERIFY(!(sts.front()->flags() & Qt::ItemIsEnabled));
        // A scenario STS can run: nothing greyed, no note.
        auto datacenter = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json");
        QVERIFY(datacenter);
        doc.setScenario(datacenter.value());
        QVERIFY(note->isHidden());
        const QList<QListWidgetItem *> again =
            list->findItems(QStringLiteral("sts  "), Qt::MatchStartsWith);
        QCOMPARE(again.size(), 1);
        QCOMPARE(again.front()->text(), QStringLiteral("sts  (STS, stochastic)"));
        // A baseline says the name its runs are shown by ("#4 FIFO seed 1").
        QCOMPARE(list->findItems(QStringLiteral("sts-fifo  "), Qt::MatchStartsWith).front()->text(),
                 QStringLiteral("sts-fifo  (FIFO, STS baseline)"));
        QVERIFY(again.front()->flags() & Qt::ItemIsEnabled);
        // STS checked under another cost choice: said to pay the price list whatever it says.
        auto *cost = panel.findChild<QLabel *>(QStringLiteral("runCostNote"));
        auto *model = panel.findChild<QComboBox *>(QStringLiteral("runCostModel"));
        QVERIFY(cost && model);
        for (int i = 0; i < list->count(); ++i)
            list->item(i)->setCheckState(Qt::Unchecked);
        QVERIFY(cost->isHidden());
        again.front()->setCheckState(Qt::Checked);
        model->setCurrentIndex(model->findData(int(CostModel::Energy)));
        QVERIFY(!cost->isHidden());
        QCOMPARE(cost->text(), QStringLiteral("STS and its baselines always pay the price list: "
                                              "the choice is for placement policies."));
        list->findItems(QStringLiteral("dltap"), Qt::MatchExactly)
            .front()
            ->setCheckState(Qt::Checked);
        QCOMPARE(
            cost->text(),
            QStringLiteral("The STS runs checked pay the price list whatever is chosen here."));
        model->setCurrentIndex(model->findData(int(CostModel::Catalogue)));
        QVERIFY(cost->isHidden());
    }

    void runPanelFollowsJobEdits()
    {
        // Jobs added in the window: the stochastic entries say what they need now (they had
        // kept "needs jobs" until the file was opened again).
        Scenario s = testbed();
        const std::vector<Job> jobs = s.jobs;
        s.jobs.clear();
        Document doc;
        doc.setScenario(s);
        RunPanel panel(&doc);
        auto *list = panel.findChild<QListWidget *>(QStringLiteral("runPolicies"));
        auto *note = panel.findChild<QLabel *>(QStringLiteral("runStsNote"));
        QVERIFY(list && note);
        const auto stsText = [list] {
            return list->findItems(QStringLiteral("sts  "), Qt::MatchStartsWith).front()->text();
        };
        QCOMPARE(stsText(), QStringLiteral("sts  (needs jobs)"));
        doc.insertJob(0, jobs[0]);
        QCOMPARE(stsText(), QStringLiteral("sts  (needs due dates)"));
        QVERIFY2(note->text().contains(QStringLiteral("1 of 1 jobs have none")),
                 qPrintable(note->text()));
        // Checks the next scenario cannot run (only STS, checked where it could) give way to
        // the defaults rather than leave Run greyed out.
        auto datacenter = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json");
        QVERIFY(datacenter);
        doc.setScenario(datacenter.value());
        for (const QString &p : panel.checkedPolicies())
            panel.setPolicyChecked(p, false);
        panel.setPolicyChecked(QStringLiteral("sts"), true);
        doc.setScenario(testbed());
        QCOMPARE(panel.checkedPolicies(),
                 (QStringList{QStringLiteral("k8s-default"), QStringLiteral("dltap")}));
        auto *run = panel.findChild<QPushButton *>(QStringLiteral("runButton"));
        QVERIFY(run);
        QVERIFY(run->isEnabled());
        for (const QString &p : panel.checkedPolicies())
            panel.setPolicyChecked(p, false);
        QVERIFY(!run->isEnabled());
        QCOMPARE(run->toolTip(), QStringLiteral("Check at least one policy in the list to run it"));
    }

    void runPanelSaysAFailedBatch()
    {
        // STS on a scenario without due dates fails: the panel says no run was stored and its
        // bar says how many failed, in the error colour, rather than ending full as if done.
        Document doc;
        doc.setScenario(testbed());
        RunPanel panel(&doc);
        panel.setWorkspacePath(m_dir.filePath(QStringLiteral("failed.sqlite")));
        for (const QString &p : panel.checkedPolicies())
            panel.setPolicyChecked(p, false);
        panel.setPolicyChecked(QStringLiteral("sts"), true);
        QSignalSpy finished(&panel, &RunPanel::batchFinished);
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        QVERIFY2(panel.statusText().startsWith(
                     QStringLiteral("Failed: no run stored.\nProblems:\nsts seed 1: ")),
                 qPrintable(panel.statusText()));
        auto *bar = panel.findChild<QProgressBar *>();
        QVERIFY(bar);
        QCOMPARE(bar->text(), QStringLiteral("1 of 1 runs failed"));
        QCOMPARE(bar->palette().color(QPalette::Highlight), QColor(0xc6, 0x28, 0x28));
        // The next batch starts with the usual colour.
        panel.setPolicyChecked(QStringLiteral("sts"), false);
        panel.setPolicyChecked(QStringLiteral("binpack"), true);
        panel.setSimulate(false);
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("Done: 1 run(s) stored")),
                 qPrintable(panel.statusText()));
        QCOMPARE(bar->text(), QStringLiteral("1 of 1 runs"));
        QVERIFY(bar->palette().color(QPalette::Highlight) != QColor(0xc6, 0x28, 0x28));
    }

    void runPanelStoresTwoPoliciesAndHistoryShowsThem()
    {
        const QString wsPath = m_dir.filePath(QStringLiteral("runs.sqlite"));
        Document doc;
        doc.setScenario(testbed());
        RunPanel panel(&doc);
        panel.setWorkspacePath(wsPath);
        HistoryPanel history;
        history.setWorkspacePath(wsPath);
        QAbstractItemModelTester tester(history.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(history.proxy(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        connect(&panel, &RunPanel::runStored, &history, &HistoryPanel::runStored);
        QCOMPARE(history.model()->rowCount(), 0);

        for (const QString &p : panel.checkedPolicies())
            panel.setPolicyChecked(p, false);
        panel.setPolicyChecked(QStringLiteral("k8s-default"), true);
        panel.setPolicyChecked(QStringLiteral("dltap"), true);
        panel.setSeeds(QStringLiteral("1"));
        panel.setSimulate(false);
        QSignalSpy sessions(&panel, &RunPanel::sessionReady);
        QSignalSpy finished(&panel, &RunPanel::batchFinished);
        QVERIFY(panel.start());
        QVERIFY(panel.isRunning());
        QVERIFY(!panel.start()); // one batch at a time
        QVERIFY(finished.wait(60000));
        QVERIFY(!panel.isRunning());
        QCOMPARE(sessions.count(), 2);
        QCOMPARE(panel.storedRuns().size(), std::size_t(2));
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("Done: 2 run(s) stored")),
                 qPrintable(panel.statusText()));

        // The history lists both, newest first after sorting by id descending.
        QCOMPARE(history.model()->rowCount(), 2);
        const auto *m = history.model();
        QCOMPARE(m->index(m->rowOf(panel.storedRuns()[0]), RunHistoryModel::Policy).data().toString(),
                 QStringLiteral("k8s-default"));
        QCOMPARE(m->index(m->rowOf(panel.storedRuns()[1]), RunHistoryModel::Policy).data().toString(),
                 QStringLiteral("dltap"));
        QCOMPARE(m->index(0, RunHistoryModel::Kind).data().toString(), QStringLiteral("place"));
        QCOMPARE(m->index(0, RunHistoryModel::Scenario).data().toString(),
                 QString::fromStdString(doc.scenario().name));
        QCOMPARE(history.proxy()->index(0, RunHistoryModel::Id).data().toLongLong(),
                 qint64(panel.storedRuns()[1]));

        // Reopening run 2 gives exactly the computed session (placement and decision log).
        const auto computed = sessions.at(1).at(0).value<std::shared_ptr<const RunSession>>();
        QVERIFY(computed);
        QSignalSpy reopened(&history, &HistoryPanel::sessionRequested);
        QVERIFY2(history.showRun(panel.storedRuns()[1]), qPrintable(history.statusText()));
        QCOMPARE(reopened.count(), 1);
        const auto stored = reopened.at(0).at(0).value<std::shared_ptr<const RunSession>>();
        QCOMPARE(stored->policy, std::string("dltap"));
        QVERIFY(stored->placement == computed->placement);
        QVERIFY(stored->log == computed->log);
        QVERIFY(!stored->result);

        // Where the two runs part: the first decision whose pick differs in the computed
        // logs, shown on both sides, and "Step ... here" opens the run at that decision.
        const auto first = sessions.at(0).at(0).value<std::shared_ptr<const RunSession>>();
        const DecisionLog &logA = first->log, &logB = computed->log;
        std::size_t fork = 0;
        while (fork < logA.decisions.size() && fork < logB.decisions.size() &&
               logA.decisions[fork].pick == logB.decisions[fork].pick)
            ++fork;
        QVERIFY2(fork < logA.decisions.size(), "k8s-default and dltap never part");
        history.selectRuns({panel.storedRuns()[0], panel.storedRuns()[1]});
        auto *partButton = history.findChild<QPushButton *>(QStringLiteral("historyDiff"));
        QVERIFY(partButton);
        QVERIFY(partButton->isEnabled());
        QVERIFY2(history.diffRuns(panel.storedRuns()[1], panel.storedRuns()[0]),
                 qPrintable(history.statusText()));
        RunDiffDialog *dialog = nullptr;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *d = qobject_cast<RunDiffDialog *>(w))
                dialog = d;
        QVERIFY(dialog);
        QCOMPARE(dialog->diff().runA, panel.storedRuns()[0]); // the older run first
        QCOMPARE(dialog->diff().commonPrefix, int(fork));
        const auto pickName = [](const DecisionLog &log, std::size_t i) {
            return QString::fromStdString(log.nodeNames[std::size_t(log.decisions[i].pick)]);
        };
        QCOMPARE(dialog->forkTable()->item(0, 0)->text(), QString::number(fork + 1));
        QCOMPARE(dialog->forkTable()->item(2, 0)->text(), pickName(logA, fork));
        QCOMPARE(dialog->forkTable()->item(2, 1)->text(), pickName(logB, fork));
        QVERIFY(dialog->forkTable()->item(4, 0)->text().startsWith(pickName(logB, fork)));
        QVERIFY(!dialog->forkTable()->item(7, 1)->text().isEmpty()); // the narration
        // The metrics in their units: the slowest link's time as a duration, bytes as bytes.
        int unitRows = 0;
        for (int r = 0; r < dialog->metricTable()->rowCount(); ++r) {
            const std::string name = dialog->metricTable()->item(r, 0)->text().toStdString();
            for (const MetricDifference &m : dialog->diff().metrics)
                if (m.name == name && m.a && name == "max_link_seconds") {
                    QCOMPARE(dialog->metricTable()->item(r, 1)->text(), formatDuration(*m.a));
                    ++unitRows;
                } else if (m.name == name && m.a && name == "cross_node_bytes") {
                    QCOMPARE(dialog->metricTable()->item(r, 1)->text(), formatByteAmount(*m.a));
                    ++unitRows;
                }
        }
        QCOMPARE(unitRows, 2);
        QSignalSpy seek(&history, &HistoryPanel::seekRequested);
        reopened.clear();
        dialog->stepButton(1)->click();
        QCOMPARE(reopened.count(), 1);
        QCOMPARE(reopened.at(0).at(0).value<std::shared_ptr<const RunSession>>()->policy,
                 std::string("dltap"));
        QCOMPARE(seek.count(), 1);
        QCOMPARE(seek.at(0).at(0).toInt(), int(fork));
        dialog->close();
        history.selectRuns({panel.storedRuns()[0]});
        QVERIFY(!partButton->isEnabled());

        // Filter by scenario, then delete one run.
        // A scenario without runs (one just opened) lists none, and says where the others are
        // (it had listed the scenario before's runs as if they were its own).
        history.setScenarioFilter(QStringLiteral("no such scenario"));
        QCOMPARE(history.proxy()->rowCount(), 0);
        QVERIFY2(history.statusText().startsWith(QStringLiteral(
                     "No runs of this scenario yet; 2 run(s) of other scenarios (choose All "
                     "scenarios) in ")),
                 qPrintable(history.statusText()));
        history.reload(); // (it stays offered)
        QCOMPARE(history.proxy()->rowCount(), 0);
        history.setScenarioFilter(QString());
        QCOMPARE(history.proxy()->rowCount(), 2);
        history.setScenarioFilter(QString::fromStdString(doc.scenario().name));
        QCOMPARE(history.proxy()->rowCount(), 2);
        QVERIFY2(history.statusText().startsWith(QStringLiteral("2 run(s) in ")),
                 qPrintable(history.statusText()));
        QVERIFY(history.deleteRuns({panel.storedRuns()[0]}, false));
        QCOMPARE(history.model()->rowCount(), 1);
        QVERIFY(!history.showRun(panel.storedRuns()[0]));
        QVERIFY(history.statusText().contains(QStringLiteral("no run")));
    }

    void simulatedRunReopensWithResultAndCancelStops()
    {
        const QString wsPath = m_dir.filePath(QStringLiteral("sim.sqlite"));
        Document doc;
        doc.setScenario(testing::leafSpineScenario(2, 1, 4));
        RunPanel panel(&doc);
        panel.setWorkspacePath(wsPath);
        for (const QString &p : panel.checkedPolicies())
            panel.setPolicyChecked(p, false);
        panel.setPolicyChecked(QStringLiteral("binpack"), true);
        panel.setSimulate(true);
        QSignalSpy sessions(&panel, &RunPanel::sessionReady);
        QSignalSpy finished(&panel, &RunPanel::batchFinished);
        QVERIFY(panel.start());
        QVERIFY(finished.wait(60000));
        QCOMPARE(sessions.count(), 1);
        const auto computed = sessions.at(0).at(0).value<std::shared_ptr<const RunSession>>();
        QVERIFY(computed->result);
        // Another scenario opened: the finished batch's "Done" is not said of it.
        QVERIFY2(panel.statusText().contains(QStringLiteral("Done: 1 run(s) stored")),
                 qPrintable(panel.statusText()));
        const Scenario same = doc.scenario();
        doc.setScenario(same);
        QCOMPARE(panel.statusText(), QString());
        auto ws = Workspace::open(wsPath.toStdString());
        QVERIFY(ws.ok());
        auto stored = loadStoredSession(*ws.value(), panel.storedRuns().front());
        QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().c_str());
        QVERIFY(stored.value()->result);
        QCOMPARE(stored.value()->result->meanJctSeconds(), computed->result->meanJctSeconds());
        QCOMPARE(stored.value()->result->jobs.size(), computed->result->jobs.size());
        const RunRecord record = ws.value()->run(panel.storedRuns().front()).value();
        QCOMPARE(record.kind, std::string("simulate"));
        QCOMPARE(record.metrics.at("mean_jct_s"), computed->result->meanJctSeconds());
        const ComparedRun compared = comparedRun(record);
        QCOMPARE(int(compared.jctSeconds.size()), computed->result->finishedJobs());

        // Cancel before anything ran: nothing is stored.
        panel.setSeeds(QStringLiteral("1-50"));
        finished.clear();
        QVERIFY(panel.start());
        panel.cancel();
        QVERIFY(finished.wait(60000));
        QVERIFY(panel.storedRuns().size() < 50);
        QVERIFY2(panel.statusText().startsWith(QStringLiteral("Cancelled")),
                 qPrintable(panel.statusText()));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestRuns)
#include "tst_runs.moc"
