// Stochastic runs (STS and its baselines) in the analysis views like every run: the traffic
// heatmap at an event where a split job runs, the timeline with a job's reconfiguration, a
// stored STS run reopened equal to the fresh one, and an STS run beside a DLTAP run in the
// comparison, and its schedule at a chosen time in the export dialog. Screenshots of each go to CB_BINARY_DIR/screenshots/.

#include "analysis/run_chooser.h"
#include "analysis/run_timeline.h"
#include "analysis/sts_session.h"
#include "analysis/sts_stepper.h"
#include "analysis/traffic_heatmap.h"
#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/scenario_json.h"
#include "runs/comparison_view.h"
#include "runs/export_dialog.h"
#include "runs/run_comparison.h"
#include "runs/run_service.h"
#include "runs/run_store.h"
#include "store/workspace.h"

#include <QtTest>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTemporaryDir>

#include <qcustomplot.h>

using namespace cb;
using namespace cb::views;

namespace {

Scenario stsDatacenter()
{
    auto s = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json");
    if (!s)
        qFatal("%s", s.error().c_str());
    return s.value();
}

void save(QWidget &w, const QString &name)
{
    QDir out(QStringLiteral(CB_BINARY_DIR "/screenshots"));
    QVERIFY(out.mkpath(QStringLiteral(".")));
    const QString path = out.filePath(name + QStringLiteral(".png"));
    QVERIFY(w.grab().save(path));
    qInfo("wrote %s", qPrintable(path));
}

/// A job segment of `run` that spans nodes, as (job, segment), or (-1, -1).
std::pair<int, int> splitSegment(const RunResult &run)
{
    for (std::size_t j = 0; j < run.jobs.size(); ++j)
        for (std::size_t k = 0; k < run.jobs[j].segments.size(); ++k) {
            const auto &tasks = run.jobs[j].segments[k].placement.tasks;
            for (const TaskAssignment &a : tasks)
                if (a.node != tasks.front().node)
                    return {int(j), int(k)};
        }
    return {-1, -1};
}

} // namespace

class TestStochasticViews : public QObject
{
    Q_OBJECT

private slots:
    void heatmapFollowsTheEvents()
    {
        // STS-net on its data centre splits some configurations over nodes (seed 1 onward):
        // at a time such a configuration runs, the heatmap shows its cross-node ring.
        const Scenario s = stsDatacenter();
        std::shared_ptr<const RunSession> session;
        std::pair<int, int> split{-1, -1};
        for (std::uint64_t seed = 1; seed <= 10 && split.first < 0; ++seed) {
            auto r = computeRunSession(s, "sts-net", seed, true);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            session = std::make_shared<const RunSession>(std::move(r.value()));
            split = splitSegment(*session->result);
        }
        QVERIFY2(split.first >= 0, "no split configuration in seeds 1-10");
        const JobSegment &seg = session->result->jobs[std::size_t(split.first)]
                                    .segments[std::size_t(split.second)];
        const double t = (seg.startSeconds + seg.endSeconds.value()) / 2;

        TrafficHeatmap heatmap;
        heatmap.resize(700, 600);
        heatmap.setSession(session, nullptr);
        QCOMPARE(heatmap.source(), TrafficHeatmap::Source::Decision);
        heatmap.setTime(t);
        const TrafficReport expected = stochasticTrafficAt(s, *session->result, t);
        QVERIFY(expected.crossNodeBytes > 0);
        double offDiagonal = 0;
        for (int row = 0; row < heatmap.rows(); ++row)
            for (int col = 0; col < heatmap.columns(); ++col) {
                auto it = expected.pairBytes.find({row, col});
                QCOMPARE(heatmap.value(col, row), it == expected.pairBytes.end() ? 0.0 : it->second);
                if (row != col)
                    offDiagonal += heatmap.value(col, row);
            }
        QCOMPARE(offDiagonal, expected.crossNodeBytes);
        // Before the first start nothing runs.
        heatmap.setTime(0);
        double total = 0;
        for (double v : heatmap.values())
            total += v;
        QCOMPARE(total, stochasticTrafficAt(s, *session->result, 0).totalBytes);
        heatmap.setTime(t);
        heatmap.show();
        QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
        save(heatmap, QStringLiteral("sts-net-heatmap-split-job"));
    }

    void timelineShowsReconfigurations()
    {
        auto r = computeRunSession(stsDatacenter(), "sts", 1, true);
        QVERIFY(r.ok());
        auto session = std::make_shared<const RunSession>(std::move(r.value()));
        RunTimeline timeline;
        timeline.resize(1100, 700);
        timeline.setSession(session);
        // Every segment of every job has its bars: a reconfigured job has bars of two
        // configurations that meet where the reconfiguration happened.
        std::size_t bars = 0;
        for (const JobRun &j : session->result->jobs)
            for (const JobSegment &seg : j.segments)
                bars += seg.placement.tasks.size();
        QCOMPARE(timeline.bars().size(), bars);
        const GanttBar *second = nullptr;
        for (const GanttBar &b : timeline.bars())
            if (b.segment == 1) {
                second = &b;
                break;
            }
        QVERIFY(second);
        const JobRun &jr = session->result->jobs[std::size_t(second->job)];
        QCOMPARE(second->start, *jr.segments[0].endSeconds);
        QCOMPARE(second->config, jr.segments[1].config->toString());
        QVERIFY(second->config != jr.segments[0].config->toString() ||
                !(jr.segments[1].placement == jr.segments[0].placement));
        // The cost curve is the run's own (the price list per busy GPUs), ending at its cost.
        QVERIFY(!timeline.series().cost.empty());
        QCOMPARE(std::round(timeline.series().cost.back() * 1e6),
                 std::round(session->result->cost * 1e6));
        // The tooltip over that bar names the configuration.
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        timeline.plot()->replot();
        auto *rect = timeline.plot()->axisRects().first();
        const auto &rows = timeline.rowNodes();
        const int row = int(std::find(rows.begin(), rows.end(), second->node) - rows.begin());
        const double gpus = session->scenario.cluster.nodes[std::size_t(second->node)].gpus;
        const double lane = row - 0.42 + (second->gpus.front() + 0.5) * 0.84 / gpus;
        const QPoint pos(
            int(rect->axis(QCPAxis::atBottom)->coordToPixel((second->start + second->end) / 2)),
            int(rect->axis(QCPAxis::atLeft)->coordToPixel(lane)));
        const QString tip = timeline.toolTipAt(pos);
        QVERIFY2(tip.contains(QStringLiteral("configuration 2 of")), qPrintable(tip));
        timeline.setTime(second->start);
        save(timeline, QStringLiteral("sts-timeline-reconfiguration"));
    }

    void exportDialogExportsTheScheduleAtATime()
    {
        auto r = computeRunSession(stsDatacenter(), "sts", 1, true);
        QVERIFY(r.ok());
        auto session = std::make_shared<const RunSession>(std::move(r.value()));
        const RunResult &result = *session->result;
        // A job that was reconfigured: before and after its reconfiguration it runs in two
        // shapes, so the schedules at those times differ.
        const JobRun *moved = nullptr;
        for (const JobRun &j : result.jobs)
            if (j.segments.size() > 1 && j.segments[0].endSeconds) {
                moved = &j;
                break;
            }
        QVERIFY(moved);
        const double before = (moved->segments[0].startSeconds + *moved->segments[0].endSeconds) / 2;
        const double after = *moved->segments[0].endSeconds + 1;

        ExportDialog dialog(session->scenario);
        dialog.setFormat(QStringLiteral("slurm"));
        dialog.setShownSchedule(
            session->label,
            [session](double t) { return stochasticScheduleAt(session->scenario, *session->result, t); },
            result.makespanSeconds, before);
        QCOMPARE(dialog.scheduleTime(), std::round(before * 10) / 10);
        auto *source = dialog.findChild<QComboBox *>(QStringLiteral("exportSource"));
        QVERIFY(source);
        QCOMPARE(source->currentText(), QStringLiteral("Shown run: STS seed 1, its schedule"));
        QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));

        // The preview is what the exporter writes for the schedule at that time.
        const Exporter *slurm = ExporterRegistry::find("slurm");
        QVERIFY(slurm);
        auto expected = [&](double t) {
            auto [scenario, placement] = stochasticScheduleAt(session->scenario, result, t);
            auto out = slurm->exportPlacement(scenario, placement, ExportOptions{});
            if (!out)
                qFatal("%s", out.error().c_str());
            // Each script names the run, the moment and the scenario it ran.
            ExportWriter::stampOrigin(
                out.value(), "run " + session->label.toStdString() + ": the jobs running at " +
                                 QString::number(t, 'g', 12).toStdString() + " s; " +
                                 ExportWriter::scenarioTag(session->scenario));
            return std::move(out).value();
        };
        const ExportResult atBefore = expected(dialog.scheduleTime());
        QCOMPARE(dialog.fileNames().size(), qsizetype(atBefore.files.size()));
        for (std::size_t i = 0; i < atBefore.files.size(); ++i)
            QCOMPARE(dialog.previewText(int(i)).toStdString(), atBefore.files[i].content);

        dialog.setScheduleTime(after);
        const ExportResult atAfter = expected(dialog.scheduleTime());
        QCOMPARE(dialog.previewText(0).toStdString(), atAfter.files[0].content);
        std::string all0, all1;
        for (const ExportedFile &f : atBefore.files)
            all0 += f.content;
        for (const ExportedFile &f : atAfter.files)
            all1 += f.content;
        QVERIFY(all0 != all1);
    }

    // A placement policy's simulated run is offered as its schedule too, every job as it
    // first ran by default: its placement has only the jobs that fit at once (on
    // leaf-spine-gpu dltap leaves some waiting), the schedule every job.
    void exportDialogExportsEveryJobOfASimulatedRun()
    {
        auto loaded = loadScenarioFile(CB_SOURCE_DIR "/sample-clusters/leaf-spine-gpu.json");
        QVERIFY(loaded.ok());
        auto r = computeRunSession(loaded.value(), "dltap", loaded->settings.seed, true);
        QVERIFY(r.ok());
        auto session = std::make_shared<const RunSession>(std::move(r.value()));
        QVERIFY(!session->placement.waiting.empty());
        ExportDialog dialog(session->scenario, session->placement, session->label);
        dialog.setFormat(QStringLiteral("slurm"));
        dialog.setShownSchedule(
            session->label,
            [session](double t) {
                return stochasticScheduleAt(
                    session->scenario, *session->result,
                    t <= ExportDialog::kFirstRuns ? std::nullopt : std::optional<double>(t));
            },
            session->result->makespanSeconds, ExportDialog::kFirstRuns);
        auto *at = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("exportScheduleTime"));
        QVERIFY(at);
        QCOMPARE(at->text(), QStringLiteral("every job as it first runs"));
        QVERIFY2(dialog.error().isEmpty(), qPrintable(dialog.error()));
        QCOMPARE(dialog.fileNames().size(), qsizetype(session->scenario.jobs.size()));
        // Applied at once on Kubernetes they would overask nodes: said.
        dialog.setFormat(QStringLiteral("k8s-pods"));
        bool said = false;
        for (const QString &w : dialog.warnings())
            said = said || w.contains(QStringLiteral("applied at once they do not fit"));
        QVERIFY2(said, qPrintable(dialog.warnings().join(QLatin1Char('\n'))));
        // Slurm holds a script until its nodes have room: said too, as the terminal says it.
        dialog.setFormat(QStringLiteral("slurm"));
        said = false;
        for (const QString &w : dialog.warnings())
            said = said || (w.startsWith(QStringLiteral("slurm: the jobs are exported as each "
                                                        "first runs")) &&
                            w.contains(QStringLiteral("Slurm holds each script until its nodes "
                                                      "have room")));
        QVERIFY2(said, qPrintable(dialog.warnings().join(QLatin1Char('\n'))));
        dialog.setFormat(QStringLiteral("k8s-pods"));
        // The run's own placement (one moment) is still offered: fewer jobs.
        auto *source = dialog.findChild<QComboBox *>(QStringLiteral("exportSource"));
        QVERIFY(source);
        QCOMPARE(source->count() >= 2, true);
        dialog.setFormat(QStringLiteral("slurm"));
        source->setCurrentIndex(1);
        QCOMPARE(dialog.fileNames().size(), qsizetype(session->placement.jobs.size()));
    }

    void reopenedEqualsFresh()
    {
        const Scenario s = stsDatacenter();
        QTemporaryDir dir;
        auto ws = Workspace::open(dir.filePath(QStringLiteral("ws.sqlite")).toStdString());
        QVERIFY(ws.ok());
        RunRequest run = runRequestFor("sts", 1, true, nullptr, true);
        auto made = executeRun(s, run);
        QVERIFY(made.ok());
        PanelRequest request;
        request.policy = "sts";
        request.seed = 1;
        auto id = saveRecord(*ws.value(), s, recordForRun(made.value(), s, request));
        QVERIFY(id.ok());
        const RunSession fresh = sessionFromRun(std::move(made.value()), s);
        auto reopened = loadStoredSession(*ws.value(), id.value());
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : reopened.error().c_str());
        const RunSession &back = *reopened.value();
        QVERIFY(back.sts);
        QCOMPARE(back.family, SchedulerFamily::Stochastic);
        QVERIFY(*back.result == *fresh.result);
        QVERIFY(back.sts->log == fresh.sts->log);
        QCOMPARE(back.sts->pricesFrom, fresh.sts->pricesFrom);
        QVERIFY(back.placement == fresh.placement);
        QVERIFY(back.placedScenario && fresh.placedScenario);
        QVERIFY(*back.placedScenario == *fresh.placedScenario);
        QCOMPARE(back.label, QStringLiteral("#%1 STS seed 1").arg(id.value()));
        // The reopened run steps like the fresh one.
        StsStepper a, b;
        a.setSession(std::make_shared<const RunSession>(fresh));
        b.setSession(reopened.value());
        QCOMPARE(b.eventCount(), a.eventCount());
    }

    void comparedBesideDltap()
    {
        const Scenario s = stsDatacenter();
        QTemporaryDir dir;
        auto ws = Workspace::open(dir.filePath(QStringLiteral("ws.sqlite")).toStdString());
        QVERIFY(ws.ok());
        std::vector<ComparedRun> runs;
        for (const char *policy : {"dltap", "sts"}) {
            auto made = executeRun(s, runRequestFor(policy, 1, true, nullptr, false));
            QVERIFY2(made.ok(), made.ok() ? "" : made.error().c_str());
            PanelRequest request;
            request.policy = policy;
            request.decisionLog = false;
            auto id = saveRecord(*ws.value(), s, recordForRun(made.value(), s, request));
            QVERIFY(id.ok());
            auto record = ws.value()->run(id.value());
            QVERIFY(record.ok());
            runs.push_back(comparedRun(record.value()));
        }
        // Named as the steppers name them: "STS", as in the Decisions dock.
        QVERIFY2(runs[1].label.endsWith(QStringLiteral(" STS seed 1")), qPrintable(runs[1].label));
        QVERIFY2(runs[0].label.endsWith(QStringLiteral(" dltap seed 1")),
                 qPrintable(runs[0].label));
        ComparisonModel model;
        model.setRuns(runs, 0);
        QCOMPARE(model.runs().size(), std::size_t(2));
        for (const char *key : {"total_cost", "tardiness_cost", "violations", "cost",
                                "cross_node_bytes", "mean_jct_s", "energy_kwh"}) {
            auto delta = metricDelta(runs[0], runs[1], key);
            QVERIFY2(delta.has_value(), key);
            QCOMPARE(delta->absolute, runs[1].metrics.at(key) - runs[0].metrics.at(key));
        }
        QVERIFY(!runs[1].jctSeconds.empty());
        ComparisonView view;
        view.resize(1200, 800);
        view.setRuns(runs, 0);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        save(view, QStringLiteral("comparison-dltap-vs-sts"));
    }

    void chooserSwitchesBetweenMethods()
    {
        const Scenario s = stsDatacenter();
        RunChooser chooser;
        std::vector<std::shared_ptr<const RunSession>> sessions;
        for (const char *policy : {"sts", "sts-fifo"}) {
            auto r = computeRunSession(s, policy, 1, true);
            QVERIFY(r.ok());
            sessions.push_back(std::make_shared<const RunSession>(std::move(r.value())));
            chooser.setCurrent(sessions.back());
        }
        QCOMPARE(chooser.count(), 2);
        QCOMPARE(chooser.currentIndex(), 0); // the newest first
        QCOMPARE(chooser.comboBox()->itemText(0), QStringLiteral("FIFO seed 1"));
        QCOMPARE(chooser.comboBox()->itemText(1), QStringLiteral("STS seed 1"));
        QSignalSpy chosen(&chooser, &RunChooser::runChosen);
        chooser.comboBox()->activated(1);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).value<std::shared_ptr<const RunSession>>(), sessions[0]);
        chooser.setCurrent(sessions[0]); // showing it does not add it again
        QCOMPARE(chooser.count(), 2);
        QCOMPARE(chooser.currentIndex(), 1);
    }
};

QTEST_MAIN(TestStochasticViews)
#include "tst_stochastic_views.moc"
