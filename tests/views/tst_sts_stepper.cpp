// The decision stepper's STS mode: STS runs from the window (analysis/sts_session.h), the
// three STS stepper models (QAbstractItemModelTester, exact hand-checked numbers), the
// stepper widget, the run panel running STS on its worker thread, and agreement with
// `clusterbench experiment sts --log` on the sample STS scenario.
//
// The hand-checked case: node-0 has 2 K80, node-1 2 M60; one job "a" (10 epochs, due at
// 2500 s, 0.01 per second late) that always runs to its last epoch, taking 3600 / 2000 s on
// 1 / 2 K80 and 3000 / 1800 s on 1 / 2 M60. Prices per hour (the authors'
// GPU-cost_server.csv): K80 x1 0.56, x2 1.13; M60 x1 0.62, x2 1.24.
// STS plans per GPU type the cheapest phases that just meet the due date:
//   M60: x1 (300 s/epoch) for 1750 s to epoch 5.833, then x2 (180 s/epoch) for 750 s:
//        0.62 * 1750 / 3600 + 1.24 * 750 / 3600 = 0.301389 + 0.258333 = 0.559722;
//   K80: x1 (360 s/epoch) for 1125 s to epoch 3.125, then x2 (200 s/epoch) for 1375 s:
//        0.56 * 1125 / 3600 + 1.13 * 1375 / 3600 = 0.175 + 0.431597 = 0.606597.
// M60 is cheaper: "a" starts on 1 M60 of node-1. At 1750 s (reconfiguration) the rest,
// 4.1667 epochs, costs on 2 M60 1.24 * 750 / 3600 = 0.258333 (done at 2500, on time) and on
// 2 K80 1.13 * 833.33 / 3600 = 0.261574 plus 83.33 s late x 0.01 = 0.833333, 1.094907.

#include "analysis/job_states.h"
#include "analysis/jobs_at_time_view.h"
#include "analysis/sts_decision_models.h"
#include "analysis/sts_session.h"
#include "analysis/place_run_dialog.h"
#include "analysis/run_chooser.h"
#include "analysis/sts_stepper.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "runs/run_panel.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"
#include "window/main_window.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace cb;
using namespace cb::views;

namespace {


Scenario handCheckedScenario()
{
    Scenario s;
    s.name = "Two-node STS case";
    s.cluster.gpuTypes = {GpuType{"K80", 12, 0.15, 25, 150, 0.56},
                          GpuType{"M60", 8, 0.15, 25, 150, 0.62}};
    for (const char *type : {"K80", "M60"}) {
        Node n;
        n.id = std::string("node-") + (std::string(type) == "K80" ? "0" : "1");
        n.cpus = 48;
        n.memoryGiB = 448;
        n.gpus = 2;
        n.gpuType = type;
        n.rack = "tor";
        s.cluster.nodes.push_back(n);
        s.cluster.links.push_back(Link{n.id, "tor", 10, 1});
    }
    s.cluster.switches.push_back(Switch{"tor", "tor"});
    std::vector<double> end(100, 0.0);
    end.back() = 1.0; // always the last epoch
    s.distributions["END"] = end;
    Job a;
    a.id = "a";
    a.name = "a";
    a.kind = JobKind::Single;
    a.dueSeconds = 2500;
    a.tardinessWeight = 0.01;
    TaskGroup g;
    g.role = TaskRole::Single;
    g.cpus = 6;
    g.memoryGiB = 16;
    g.gpus = 1;
    a.tasks = {g};
    a.model.name = "alexnet";
    a.model.parameterBytes = 244403360;
    a.model.iterations = 1000;
    a.sts = StsData{10,
                    {{"K80", 1, 1.0, 3600}, {"K80", 2, 1.0, 2000},
                     {"M60", 1, 1.0, 3000}, {"M60", 2, 1.0, 1800}},
                    "END"};
    s.jobs = {a};
    return s;
}

} // namespace

class TestStsStepper : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void policyNames();
    void handCheckedRun();
    void modelsPassTesterWhileStepping();
    void stepperShowsCandidates();
    void phasesTooShortForARange();
    void baselineLogsNoCandidates();
    void unknownMethodFails();
    void agreesWithTerminalLog();
    void runPanelRunsStsOnWorker();
    void placeRunDialogOffersSts();
    void placeAndSimulateRunsSts();
    void candidateCostsShowWhatOrdersThem();
    void jobsAtTimeFollowSegments();
    void waitingJobsSayWhy();
    void topologyFollowsTheStepper();
    void scrubberMovesTheStepper();
};

void TestStsStepper::initTestCase()
{
    // The window's settings (the dialog's remembered choices) in a test location, empty.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterBenchTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_sts_stepper"));
    QSettings().clear();
}

void TestStsStepper::policyNames()
{
    QCOMPARE(stochasticMethod("sts-net"), std::string("STS-net"));
    QCOMPARE(stochasticMethod("sts-fifo"), std::string("FIFO"));
    QCOMPARE(stochasticMethod("dltap"), std::string());
    QCOMPARE(stochasticPolicyName("LS"), std::string("sts-ls"));
    const std::vector<std::string> names = stochasticPolicyNames();
    QCOMPARE(names.size(), std::size_t(8));
    QCOMPARE(names.front(), std::string("sts"));
}

void TestStsStepper::handCheckedRun()
{
    auto session = computeStsSession(handCheckedScenario(), "STS", 1);
    QVERIFY2(session.ok(), session.ok() ? "" : session.error().c_str());
    QCOMPARE(session->label, QStringLiteral("STS seed 1"));
    QCOMPARE(session->policy, std::string("sts"));
    QVERIFY(session->log.decisions.empty());
    const StsRun &run = *session->sts;
    QVERIFY(run.pricesFrom.find("GPU-cost_server.csv") != std::string::npos);
    // Paid: 1750 s on 1 M60 and 750 s on 2 M60; done at 2500 s, on time.
    const RunResult &result = *session->result;
    QCOMPARE(result.jobs.size(), std::size_t(1));
    QVERIFY(qAbs(result.jobs[0].finishSeconds.value_or(0) - 2500) < 1e-9);
    QVERIFY(qAbs(result.totalCost() - (0.62 * 1750 + 1.24 * 750) / 3600) < 1e-9);
    QCOMPARE(result.tardinessCost, 0.0);
    QCOMPARE(result.violations(), 0);
    // The reconfiguration at 1750 s is visible in the run: two segments, 1 then 2 M60s.
    QCOMPARE(result.jobs[0].segments.size(), std::size_t(2));
    QCOMPARE(result.jobs[0].segments[0].config->toString(), std::string("M60 x1"));
    QCOMPARE(result.jobs[0].segments[1].config->toString(), std::string("M60 x2"));
    QVERIFY(qAbs(result.jobs[0].segments[1].startSeconds - 1750) < 1e-9);
    QCOMPARE(result.jobs[0].segments[1].placement.tasks.size(), std::size_t(2));

    const auto &events = run.log.events();
    QCOMPARE(events.size(), std::size_t(2));
    QCOMPARE(events[0].trigger, std::string("arrival"));
    QCOMPARE(events[1].trigger, std::string("reconfiguration"));
    QVERIFY(qAbs(events[1].time - 1750) < 1e-9);
    const StsJobDecision &d0 = events[0].jobs.at(0);
    QCOMPARE(d0.chosen, std::string("M60 x1"));
    QCOMPARE(d0.node, std::string("node-1"));
    QCOMPARE(d0.candidates.size(), std::size_t(2));
    QVERIFY(qAbs(d0.candidates[0].expectedCost - 0.559722222) < 1e-8);
    QVERIFY(qAbs(d0.candidates[1].expectedCost - 0.606597222) < 1e-8);
}

void TestStsStepper::modelsPassTesterWhileStepping()
{
    auto session = computeStsSession(handCheckedScenario(), "STS", 1);
    QVERIFY(session.ok());
    auto shared = std::make_shared<const RunSession>(std::move(session).value());
    StsStepper stepper;
    QAbstractItemModelTester t1(stepper.eventModel(),
                                QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t2(stepper.jobModel(),
                                QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester t3(stepper.candidateModel(),
                                QAbstractItemModelTester::FailureReportingMode::QtTest);
    stepper.setSession(shared);
    stepper.step();
    stepper.back();
    stepper.last();
    stepper.selectJob(5); // beyond the rows: no job
    QCOMPARE(stepper.currentJob(), -1);
    QCOMPARE(stepper.candidateModel()->rowCount(), 0);
    stepper.first();
    stepper.setSession(nullptr);
    QCOMPARE(stepper.eventModel()->rowCount(), 0);
    QCOMPARE(stepper.cursor(), -1);
    stepper.setSession(shared);
    QCOMPARE(stepper.cursor(), 0);
}

void TestStsStepper::phasesTooShortForARange()
{
    // A phase under 0.01 epochs (the optimiser's switch at the job's own progress) is said as
    // such; "K80 x2 epochs 124.98–124.98" read as a phase of nothing. "epochs" goes with the
    // first range shown.
    const std::vector<StsPhaseRecord> phases = {{"K80 x2", 124.976, 124.9801},
                                                {"K80 x8", 124.9801, 500}};
    QCOMPARE(formatStsPhases(phases),
             QStringLiteral("K80 x2 under 0.01 epochs at 124.98, K80 x8 epochs 124.98–500"));
    QCOMPARE(formatStsPhases({{"M60 x1", 0, 5.8333}, {"M60 x2", 5.8333, 10}}),
             QStringLiteral("M60 x1 epochs 0–5.83, M60 x2 5.83–10"));
}

void TestStsStepper::stepperShowsCandidates()
{
    auto session = computeStsSession(handCheckedScenario(), "STS", 1);
    QVERIFY(session.ok());
    StsStepper stepper;
    QSignalSpy moved(&stepper, &StsStepper::cursorChanged);
    stepper.setSession(std::make_shared<const RunSession>(std::move(session).value()));
    QCOMPARE(moved.count(), 1);
    QCOMPARE(stepper.eventCount(), 2);
    QVERIFY(stepper.summaryText().contains(QStringLiteral("total cost <b>0.56 USD</b>")));
    QVERIFY(stepper.summaryText().contains(QStringLiteral("0 due-date violation(s), 2 events")));
    // STS prices configurations from its catalogue: the running cost says so (it was called
    // energy, beside a run whose energy cost is another figure).
    QVERIFY2(stepper.summaryText().contains(QStringLiteral("(running 0.56 USD at catalogue "
                                                           "prices, tardiness 0.00 USD)")),
             qPrintable(stepper.summaryText()));
    // Where the prices came from is in its tooltip, with the scenario.
    const QString tip = stepper.findChild<QLabel *>(QStringLiteral("stsSummary"))->toolTip();
    QVERIFY2(tip.startsWith(QStringLiteral("On Two-node STS case. Prices: ")) &&
                 tip.contains(QStringLiteral("GPU-cost_server.csv")),
             qPrintable(tip));

    using E = StsEventListModel;
    StsEventListModel *events = stepper.eventModel();
    QCOMPARE(events->index(1, E::Time).data().toString(), QStringLiteral("0:29:10"));
    QCOMPARE(events->index(1, E::Trigger).data().toString(), QStringLiteral("reconfiguration"));
    QCOMPARE(events->index(0, E::Jobs).data().toInt(), 1);
    QCOMPARE(events->index(0, E::Placed).data().toInt(), 1);

    using J = StsJobListModel;
    StsJobListModel *jobs = stepper.jobModel();
    QCOMPARE(jobs->rowCount(), 1);
    QCOMPARE(jobs->index(0, J::Job).data().toString(), QStringLiteral("a"));
    QCOMPARE(jobs->index(0, J::Chosen).data().toString(), QStringLiteral("M60 x1"));
    QCOMPARE(jobs->index(0, J::Node).data().toString(), QStringLiteral("node-1"));
    QCOMPARE(jobs->index(0, J::Phase).data().toString(), QStringLiteral("0:29:10"));
    // Pressure: now + fastest time (1800 s) - due date (2500 s).
    QCOMPARE(jobs->index(0, J::Pressure).data().toString(), QStringLiteral("-700"));
    // Its header says what it is, as its cells do (a student asked about the negative numbers).
    QCOMPARE(jobs->headerData(J::Pressure, Qt::Horizontal, Qt::ToolTipRole).toString(),
             jobs->index(0, J::Pressure).data(Qt::ToolTipRole).toString());
    QVERIFY(jobs->headerData(J::Pressure, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("Pressure, in seconds: when the job would finish")));
    QCOMPARE(jobs->index(0, J::Reason).data().toString(),
             QStringLiteral("cheapest expected cost"));

    using C = StsCandidateModel;
    StsCandidateModel *c = stepper.candidateModel();
    QCOMPARE(c->rowCount(), 2);
    QCOMPARE(c->chosenRow(), 0);
    QCOMPARE(c->index(0, C::GpuType).data().toString(), QStringLiteral("M60"));
    QCOMPARE(c->index(0, C::Kind).data().toString(), QStringLiteral("optimised"));
    QCOMPARE(c->index(0, C::Expected).data().toString(), QStringLiteral("0.56"));
    QCOMPARE(c->index(0, C::Energy).data().toString(), QStringLiteral("0.56"));
    QCOMPARE(c->index(0, C::Tardiness).data().toString(), QStringLiteral("0.00"));
    QCOMPARE(c->index(0, C::Phases).data().toString(),
             QStringLiteral("M60 x1 epochs 0–5.83, M60 x2 5.83–10"));
    QCOMPARE(c->index(0, C::Enacted).data().toString(), QStringLiteral("M60 x1 for 0:29:10"));
    QCOMPARE(c->index(1, C::GpuType).data().toString(), QStringLiteral("K80"));
    QCOMPARE(c->index(1, C::Expected).data().toString(), QStringLiteral("0.61"));
    QCOMPARE(c->index(1, C::Phases).data().toString(),
             QStringLiteral("K80 x1 epochs 0–3.13, K80 x2 3.13–10"));
    QVERIFY(qAbs(c->index(1, C::Expected).data(Qt::UserRole).toDouble() - 0.606597222) < 1e-8);
    QVERIFY(c->index(0, 0).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(c->index(0, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(!c->index(1, 0).data(Qt::BackgroundRole).isValid());
    QCOMPARE(stepper.whyText(),
             QStringLiteral("<b>a</b> runs on <b>M60 x1</b> at node-1: cheapest expected cost."));

    stepper.step();
    QCOMPARE(stepper.cursor(), 1);
    QCOMPARE(moved.count(), 2);
    QCOMPARE(c->rowCount(), 2);
    QCOMPARE(c->index(0, C::Kind).data().toString(), QStringLiteral("loose"));
    QCOMPARE(c->index(0, C::Expected).data().toString(), QStringLiteral("0.26"));
    QCOMPARE(c->index(0, C::Phases).data().toString(), QStringLiteral("M60 x2 epochs 5.83–10"));
    QCOMPARE(c->index(1, C::Kind).data().toString(), QStringLiteral("tardy"));
    QCOMPARE(c->index(1, C::Energy).data().toString(), QStringLiteral("0.26"));
    QCOMPARE(c->index(1, C::Tardiness).data().toString(), QStringLiteral("0.83"));
    QCOMPARE(c->index(1, C::Expected).data().toString(), QStringLiteral("1.09"));
    QCOMPARE(c->chosenRow(), 0);
    QCOMPARE(jobs->index(0, J::Phase).data().toString(), QStringLiteral("to the end"));
    QCOMPARE(jobs->index(0, J::Pressure).data().toString(), QStringLiteral("0"));
    QCOMPARE(jobs->index(0, J::DoneEpochs).data().toString(), QStringLiteral("5.83"));
    stepper.step(); // at the last event: stays
    QCOMPARE(stepper.cursor(), 1);
    stepper.first();
    QCOMPARE(stepper.cursor(), 0);
}

void TestStsStepper::baselineLogsNoCandidates()
{
    auto session = computeStsSession(handCheckedScenario(), "FIFO", 1);
    QVERIFY(session.ok());
    // FIFO takes the authors' best ranked configuration that fits, with no phase plans.
    StsStepper stepper;
    stepper.setSession(std::make_shared<const RunSession>(std::move(session).value()));
    QVERIFY(stepper.eventCount() >= 1);
    QCOMPARE(stepper.jobModel()->rowCount(), 1);
    QCOMPARE(stepper.candidateModel()->rowCount(), 0);
    QCOMPARE(stepper.candidateModel()->chosenRow(), -1);
    QVERIFY(stepper.whyText().endsWith(QStringLiteral("FIFO plans no phases, so it logs no "
                                                      "candidates.")));
    QVERIFY(stepper.summaryText().contains(QStringLiteral("<b>FIFO seed 1</b>")));
}

void TestStsStepper::unknownMethodFails()
{
    auto session = computeStsSession(handCheckedScenario(), "XYZ", 1);
    QVERIFY(!session.ok());
    QVERIFY(QString::fromStdString(session.error()).contains(QStringLiteral("unknown STS method \"XYZ\"")));
    std::atomic<bool> cancel{true};
    auto cancelled = computeStsSession(handCheckedScenario(), "STS", 1, &cancel);
    QVERIFY(!cancelled.ok());
    QCOMPARE(cancelled.error(), std::string("cancelled"));
}

void TestStsStepper::agreesWithTerminalLog()
{
    // The window and the terminal run the same STS: equal logs, equal costs.
    const QString file = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString logPath = dir.filePath(QStringLiteral("log.json"));
    QProcess p;
    p.start(QStringLiteral(CB_CLUSTERBENCH),
            {QStringLiteral("experiment"), QStringLiteral("sts"), QStringLiteral("--scenario"),
             file, QStringLiteral("--seeds"), QStringLiteral("1"), QStringLiteral("--methods"),
             QStringLiteral("STS"), QStringLiteral("--log"), logPath, QStringLiteral("--json")});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    const auto report = nlohmann::json::parse(p.readAllStandardOutput().toStdString());
    std::ifstream in(logPath.toStdString());
    const auto log = nlohmann::json::parse(in);

    auto scenario = loadScenarioFile(file.toStdString());
    QVERIFY(scenario.ok());
    auto session = computeStsSession(scenario.value(), "STS", 1);
    QVERIFY(session.ok());
    QVERIFY(session->sts->log.toJson() == log);
    const double total = report["methods"][0]["total_cost"].get<double>();
    QCOMPARE(session->result->totalCost(), total);
    QVERIFY(session->sts->log.events().size() > 100);
}

void TestStsStepper::runPanelRunsStsOnWorker()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    Document doc;
    doc.setScenario(handCheckedScenario());
    RunPanel panel(&doc);
    panel.setWorkspacePath(dir.filePath(QStringLiteral("ws.sqlite")));
    QVERIFY(panel.policyNames().contains(QStringLiteral("sts")));
    QVERIFY(panel.policyNames().contains(QStringLiteral("sts-ls")));
    for (const QString &p : panel.checkedPolicies())
        panel.setPolicyChecked(p, false);
    panel.setPolicyChecked(QStringLiteral("sts"), true);
    panel.setPolicyChecked(QStringLiteral("sts-g"), true);
    panel.setSeeds(QStringLiteral("1-2"));
    QSignalSpy ready(&panel, &RunPanel::sessionReady);
    QSignalSpy finished(&panel, &RunPanel::batchFinished);
    QVERIFY(panel.start());
    QVERIFY(panel.isRunning());
    QVERIFY(finished.wait(30000));
    QCOMPARE(ready.count(), 4);
    QCOMPARE(panel.storedRuns().size(), std::size_t(4)); // STS runs are stored like any run
    const auto first = ready.at(0).at(0).value<std::shared_ptr<const RunSession>>();
    QVERIFY(first && first->sts);
    QCOMPARE(first->sts->method, std::string("STS"));
    QVERIFY(qAbs(first->result->totalCost() - 0.559722222) < 1e-8);
    const auto last = ready.at(3).at(0).value<std::shared_ptr<const RunSession>>();
    QCOMPARE(last->sts->method, std::string("G"));
    QCOMPARE(last->seed, std::uint64_t(2));
    QVERIFY2(panel.statusText().contains(QStringLiteral("4 run(s) stored")),
             qPrintable(panel.statusText()));
    QVERIFY2(!panel.statusText().contains(QStringLiteral("Problems")), qPrintable(panel.statusText()));
}

void TestStsStepper::placeRunDialogOffersSts()
{
    // Where the scenario has what STS needs: listed after the placement policies, enabled;
    // picking it ticks "simulate" and locks it, and a placement policy gets the user's
    // choice back.
    PlaceRunDialog dialog(handCheckedScenario());
    auto *combo = dialog.findChild<QComboBox *>();
    auto *box = dialog.findChild<QCheckBox *>();
    QVERIFY(combo && box);
    const auto *model = qobject_cast<const QStandardItemModel *>(combo->model());
    const int sts = combo->findText(QStringLiteral("sts"));
    const int ls = combo->findText(QStringLiteral("sts-ls"));
    QVERIFY(sts > combo->findText(QStringLiteral("dltap")));
    QVERIFY(ls > sts);
    QVERIFY(model->item(sts)->isEnabled());
    QCOMPARE(dialog.policy(), std::string("dltap"));
    dialog.setSimulate(false);
    QVERIFY(!dialog.simulate());
    dialog.setPolicy("sts");
    QCOMPARE(dialog.policy(), std::string("sts"));
    QVERIFY(dialog.stochastic());
    QVERIFY(dialog.simulate());
    QVERIFY(!box->isEnabled());
    dialog.setSimulate(false); // a remembered placement choice does not untick it
    QVERIFY(dialog.simulate());
    dialog.setPolicy("k8s-default");
    QVERIFY(!dialog.stochastic());
    QVERIFY(box->isEnabled());
    QVERIFY(!dialog.simulate());

    // Without due dates: listed, disabled, with the reason; it cannot be picked.
    Scenario noDue = handCheckedScenario();
    noDue.jobs[0].dueSeconds.reset();
    PlaceRunDialog without(noDue);
    auto *combo2 = without.findChild<QComboBox *>();
    const int sts2 = combo2->findText(QStringLiteral("sts"));
    QVERIFY(sts2 >= 0);
    QVERIFY(!qobject_cast<const QStandardItemModel *>(combo2->model())->item(sts2)->isEnabled());
    const QString why = combo2->itemData(sts2, Qt::ToolTipRole).toString();
    QVERIFY2(why.startsWith(QStringLiteral("Not available on this scenario: ")), qPrintable(why));
    without.setPolicy("sts");
    QCOMPARE(without.policy(), std::string("dltap"));
}

void TestStsStepper::placeAndSimulateRunsSts()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("sts.json"));
    QVERIFY(saveScenarioFile(path.toStdString(), handCheckedScenario()).ok());
    QSettings().setValue(QStringLiteral("placeRun/simulate"), false); // placed only, last time
    MainWindow window;
    window.resize(1366, 768);
    QVERIFY(window.openFile(path));
    QSignalSpy shown(&window, &MainWindow::runShown);
    QAction *action = window.findChild<QAction *>(QStringLiteral("placeAndSimulateAction"));
    QVERIFY(action);
    bool picked = false;
    QTimer::singleShot(0, &window, [&picked] {
        auto *dialog = qobject_cast<PlaceRunDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->setPolicy("sts");
        dialog->setSeed(2);
        picked = true;
        dialog->accept();
    });
    action->trigger();
    QVERIFY(picked);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 30000);
    QTRY_VERIFY(!window.isRunning());
    const auto run = window.currentRun();
    QVERIFY(run && run->sts && run->result);
    QCOMPARE(run->policy, std::string("sts"));
    QCOMPARE(run->sts->method, std::string("STS"));
    QCOMPARE(run->seed, std::uint64_t(2));
    QVERIFY(qAbs(run->result->totalCost() - 0.559722222) < 1e-8);
    // The forced box of the STS pick is not remembered as the user's choice.
    QCOMPARE(QSettings().value(QStringLiteral("placeRun/simulate")).toBool(), false);
    // A what-if on it says why an STS run has nothing to pin (it said "step a placement run
    // first", as if the user had not stepped one).
    QVERIFY(!window.whatIfHere(0));
    QVERIFY2(window.statusBar()->currentMessage().contains(
                 QStringLiteral("an STS run chooses configurations over time")),
             qPrintable(window.statusBar()->currentMessage()));

    // Opened again, the dialog defaults to what the user just ran; a placement policy gets
    // the remembered choice (placed only) back.
    bool checked = false;
    QTimer::singleShot(0, &window, [&checked] {
        auto *dialog = qobject_cast<PlaceRunDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QCOMPARE(dialog->policy(), std::string("sts"));
        QCOMPARE(dialog->seed(), std::uint64_t(2));
        QVERIFY(dialog->simulate());
        dialog->setPolicy("dltap");
        QVERIFY(!dialog->simulate());
        checked = true;
        dialog->reject();
    });
    action->trigger();
    QVERIFY(checked);

    // The next session (another window, a scenario without runs) opens on the policy last
    // run, as it does on the simulate box (the policy went back to dltap).
    Scenario other = handCheckedScenario();
    other.name += " (copy)";
    const QString otherPath = dir.filePath(QStringLiteral("other.json"));
    QVERIFY(saveScenarioFile(otherPath.toStdString(), other).ok());
    MainWindow next;
    QVERIFY(next.openFile(otherPath));
    QTest::qWait(20);
    QVERIFY(!next.currentRun());
    bool remembered = false;
    QTimer::singleShot(0, &next, [&remembered] {
        auto *dialog = qobject_cast<PlaceRunDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QCOMPARE(dialog->policy(), std::string("sts"));
        remembered = true;
        dialog->reject();
    });
    next.findChild<QAction *>(QStringLiteral("placeAndSimulateAction"))->trigger();
    QVERIFY(remembered);

    // A scenario whose jobs carry no STS time tables is not offered the stochastic policy
    // chosen for another (its multi-GPU jobs may fit no node under it): a placement policy.
    Scenario placement = other;
    placement.name = "placement only";
    for (Job &job : placement.jobs)
        job.sts.reset();
    const QString placementPath = dir.filePath(QStringLiteral("placement.json"));
    QVERIFY(saveScenarioFile(placementPath.toStdString(), placement).ok());
    MainWindow third;
    QVERIFY(third.openFile(placementPath));
    bool offered = false;
    QTimer::singleShot(0, &third, [&offered] {
        auto *dialog = qobject_cast<PlaceRunDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        QVERIFY2(!dialog->stochastic(), dialog->policy().c_str());
        offered = true;
        dialog->reject();
    });
    third.findChild<QAction *>(QStringLiteral("placeAndSimulateAction"))->trigger();
    QVERIFY(offered);
}

void TestStsStepper::candidateCostsShowWhatOrdersThem()
{
    // To the cent, unless two candidates would then read alike (1.2341 and 1.2344).
    auto makeRun = [](double a, double b) {
        auto run = std::make_shared<StsRun>();
        StsJobDecision d;
        d.job = "j";
        d.chosen = "K80 x1";
        d.candidates = {StsCandidateRecord{"M60", "loose", b, b, 0, {}, "M60 x1", 0},
                        StsCandidateRecord{"K80", "loose", a, a, 0, {}, "K80 x1", 0}};
        run->log.add(StsEventRecord{0, "arrival", {d}});
        return std::shared_ptr<const StsRun>(run);
    };
    StsCandidateModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    using C = StsCandidateModel;
    model.setJob(makeRun(1.2341, 1.2344), 0, 0);
    QCOMPARE(model.index(0, C::Expected).data().toString(), QStringLiteral("1.2341"));
    QCOMPARE(model.index(1, C::Expected).data().toString(), QStringLiteral("1.2344"));
    QCOMPARE(model.index(1, C::Tardiness).data().toString(), QStringLiteral("0.0000"));
    QCOMPARE(model.chosenRow(), 0);
    model.setJob(makeRun(1.2341, 1.2444), 0, 0);
    QCOMPARE(model.index(0, C::Expected).data().toString(), QStringLiteral("1.23"));
    QCOMPARE(model.index(1, C::Expected).data().toString(), QStringLiteral("1.24"));
    // Equal costs read alike at any precision: the cent is enough.
    model.setJob(makeRun(2.5, 2.5), 0, 0);
    QCOMPARE(model.index(1, C::Expected).data().toString(), QStringLiteral("2.50"));
}

void TestStsStepper::jobsAtTimeFollowSegments()
{
    // "a" runs on 1 M60 of node-1 until 1750 s, then on 2 M60 until 2500 s: the jobs at a
    // time list it on the configuration of that time, its TIME counting both segments.
    auto session = computeStsSession(handCheckedScenario(), "STS", 1);
    QVERIFY(session.ok());
    const RunSession &s = session.value();
    const std::vector<QueuedJob> early = jobsAt(s, 1000);
    QCOMPARE(early.size(), std::size_t(1));
    QVERIFY(early[0].running);
    QCOMPARE(early[0].nodes, QStringLiteral("node-1"));
    QCOMPARE(early[0].nodeCount, 1);
    QCOMPARE(early[0].configuration, QStringLiteral("M60 x1"));
    QCOMPARE(early[0].seconds, 1000.0);
    const std::vector<QueuedJob> late = jobsAt(s, 2000);
    QCOMPARE(late.size(), std::size_t(1));
    QCOMPARE(late[0].configuration, QStringLiteral("M60 x2"));
    QVERIFY2(qAbs(late[0].seconds - 2000) < 1e-9, qPrintable(QString::number(late[0].seconds)));
    QCOMPARE(jobsAt(s, 2500).size(), std::size_t(0)); // finished

    // The job queue's status: finished, after one reconfiguration.
    const auto states = jobStates(s);
    QCOMPARE(states.size(), std::size_t(1));
    QCOMPARE(int(states.at("a").kind), int(JobState::Kind::Finished));
    QCOMPARE(states.at("a").reason, QStringLiteral("JCT 0:41:40, waited 0:00:00, reconfigured once"));

    // The view lists it too (an STS run used to leave it empty).
    JobsAtTimeView view;
    view.setSession(std::make_shared<const RunSession>(s));
    view.setTime(1000);
    QCOMPARE(view.model()->rowCount(), 1);
    QCOMPARE(view.model()->index(0, JobsAtTimeModel::NodeListOrReason).data().toString(),
             QStringLiteral("node-1 (M60 x1)"));
    QCOMPARE(view.summaryText(), QStringLiteral("At 0:16:40 (the timeline's scrubber): 1 running, 0 pending"));
}

void TestStsStepper::waitingJobsSayWhy()
{
    // One node with 2 M60 and three jobs at 0 s: each takes at least one GPU, so one waits,
    // and says what STS logged for it.
    Scenario sc = handCheckedScenario();
    sc.cluster.nodes.erase(sc.cluster.nodes.begin());
    sc.cluster.links.erase(sc.cluster.links.begin());
    for (const char *id : {"b", "c"}) {
        Job j = sc.jobs[0];
        j.id = j.name = id;
        sc.jobs.push_back(j);
    }
    auto session = computeStsSession(sc, "STS", 1);
    QVERIFY2(session.ok(), session.ok() ? "" : session.error().c_str());
    const RunSession &s = session.value();
    const std::vector<QueuedJob> at0 = jobsAt(s, 0);
    QCOMPARE(at0.size(), std::size_t(3));
    QCOMPARE(int(std::count_if(at0.begin(), at0.end(), [](const QueuedJob &q) { return q.running; })), 2);
    const QueuedJob &pending = at0.back();
    QVERIFY(!pending.running);
    const std::string id = s.scenario.jobs[std::size_t(pending.job)].id;
    const StsJobDecision *logged = nullptr;
    for (const StsJobDecision &d : s.sts->log.events().front().jobs)
        if (d.job == id)
            logged = &d;
    QVERIFY(logged && logged->chosen.empty() && !logged->reason.empty());
    QCOMPARE(pending.reason, QStringLiteral("Resources: %1").arg(QString::fromStdString(logged->reason)));
}

/// The hand-checked scenario saved to `dir`, opened in `window`, its STS run shown.
static void openHandCheckedRun(MainWindow &window, QTemporaryDir &dir)
{
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("sts.json"));
    QVERIFY(saveScenarioFile(path.toStdString(), handCheckedScenario()).ok());
    window.resize(1366, 768);
    QVERIFY(window.openFile(path));
    auto session = computeStsSession(handCheckedScenario(), "STS", 1);
    QVERIFY(session.ok());
    window.showRun(std::make_shared<const RunSession>(std::move(session).value()));
}

void TestStsStepper::topologyFollowsTheStepper()
{
    // At the arrival "a" takes 1 M60 of node-1; after the reconfiguration at 1750 s, 2.
    QTemporaryDir dir;
    MainWindow window;
    openHandCheckedRun(window, dir);
    if (QTest::currentTestFailed())
        return;
    auto *stepper = window.findChild<StsStepper *>();
    QVERIFY(stepper);
    QCOMPARE(stepper->cursor(), 0);
    const NodeOverlay *overlay = &window.findChild<TopologyScene *>()->nodeOverlay();
    QVERIFY(overlay->active());
    QCOMPARE(overlay->marked, 1);
    QCOMPARE(overlay->gpusUsed, (std::vector<float>{0.0f, 1.0f}));
    QCOMPARE(int(window.topologyView()->nodeLegend()), int(TopologyView::NodeLegend::Schedule));
    stepper->step();
    overlay = &window.findChild<TopologyScene *>()->nodeOverlay();
    QCOMPARE(overlay->gpusUsed, (std::vector<float>{0.0f, 2.0f}));
    QCOMPARE(overlay->marked, 1);
    // The jobs at the scrubber's time follow too.
    QCOMPARE(window.jobsAtTime()->model()->rowCount(), 1);
    QCOMPARE(window.jobsAtTime()->model()->index(0, JobsAtTimeModel::NodeListOrReason).data().toString(),
             QStringLiteral("node-1 (M60 x2)"));
    // Closing the run clears the colours and the legend.
    window.showRun(nullptr);
    QVERIFY(!window.findChild<TopologyScene *>()->nodeOverlay().active());
    QCOMPARE(int(window.topologyView()->nodeLegend()), int(TopologyView::NodeLegend::None));
    // The run chooser offers this document's runs only: opening a file forgets them.
    auto *chooser = window.findChild<RunChooser *>();
    QVERIFY(chooser);
    QCOMPARE(chooser->count(), 1);
    const QString other = dir.filePath(QStringLiteral("other.json"));
    QVERIFY(saveScenarioFile(other.toStdString(), handCheckedScenario()).ok());
    QVERIFY(window.openFile(other));
    QCOMPARE(chooser->count(), 0);
}

void TestStsStepper::scrubberMovesTheStepper()
{
    // The timeline's scrubber takes the stepper to the last event at or before its time; a
    // step moves the scrubber to the event's time without being pulled to a later event.
    QTemporaryDir dir;
    MainWindow window;
    openHandCheckedRun(window, dir);
    if (QTest::currentTestFailed())
        return;
    auto *stepper = window.stsStepper();
    const auto &events = window.currentRun()->sts->log.events();
    QVERIFY(events.size() >= 2);
    QCOMPARE(events[0].time, 0.0);
    QCOMPARE(events[1].time, 1750.0);
    QCOMPARE(stepper->cursor(), 0);
    window.runTimeline()->setTime(1800);
    QCOMPARE(stepper->cursor(), 1);
    window.runTimeline()->setTime(1749);
    QCOMPARE(stepper->cursor(), 0);
    for (int e = 0; e < int(events.size()); ++e) {
        stepper->seek(e);
        QCOMPARE(stepper->cursor(), e);
        QCOMPARE(window.runTimeline()->time(), events[std::size_t(e)].time);
    }
}

QTEST_MAIN(TestStsStepper)
#include "tst_sts_stepper.moc"
