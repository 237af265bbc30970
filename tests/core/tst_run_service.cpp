// The one run pipeline (core/runs/run_service.h): placement runs give what placing and
// simulating give on their own; stochastic runs (STS and its baselines) simulate in core/sim
// with typed events, reconfigurations as segments, traffic and costs; every Run survives the
// workspace exactly; the terminal commands go through it (simulate, history, show, export
// --policy sts, place refusing STS).

#include "cli/command.h"
#include "io/run_json.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "runs/run_service.h"
#include "runs/sts_experiment.h"
#include "io/sts_data.h"
#include "sched/placer.h"
#include "io/policy_json.h"
#include "sim/simulator.h"
#include "store/workspace.h"

#include <QtTest>

#include <QTemporaryDir>

#include <cmath>
#include <set>
#include <sstream>

using namespace cb;

namespace {

Scenario sample(const char *name)
{
    auto s = loadScenarioFile(std::string(CB_SOURCE_DIR "/sample-clusters/") + name);
    if (!s)
        qFatal("%s", s.error().c_str());
    return s.value();
}

struct CliRun
{
    int code = -1;
    std::string out, err;
};

CliRun command(const std::vector<std::string> &args)
{
    std::ostringstream out, err;
    cli::Io io{out, err};
    CliRun r;
    r.code = cli::runCommand(args, io);
    r.out = out.str();
    r.err = err.str();
    return r;
}

int count(const RunResult &r, RunEventKind kind)
{
    int n = 0;
    for (const SimLogEntry &e : r.log)
        n += e.kind == kind ? 1 : 0;
    return n;
}

} // namespace

class TestRunService : public QObject
{
    Q_OBJECT

private slots:
    void placementRunIsPlaceAndSimulate()
    {
        const Scenario s = sample("dltap-testbed.json");
        RunRequest request;
        request.policy = "dltap";
        request.seed = 3;
        auto run = executeRun(s, request);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
        QCOMPARE(run->family, SchedulerFamily::Placement);
        QCOMPARE(run->kind, std::string("simulate"));
        QCOMPARE(run->label(), std::string("dltap seed 3 (simulated)"));
        const Policy policy = resolvePolicy("dltap", {}).value();
        const Topology topo(s.cluster);
        DecisionLog log;
        const Placement placement = placeScenario(s, topo, policy, 3, &log);
        QVERIFY(run->placement == placement);
        QCOMPARE(run->decisions.decisions.size(), log.decisions.size());
        SimOptions options;
        options.policy = policy;
        options.seed = 3;
        auto simulated = simulate(s, options);
        QVERIFY(simulated.ok());
        QVERIFY(*run->result == simulated.value());
        // Metrics: the simulation's figures, the placement's per iteration beside them.
        const TrafficReport traffic = computeTraffic(s.jobs, s.cluster, topo, placement);
        QCOMPARE(run->metrics.at("iteration_cross_node_bytes"), traffic.crossNodeBytes);
        QCOMPARE(run->metrics.at("iteration_intra_node_bytes"), traffic.intraNodeBytes);
        QCOMPARE(run->metrics.at("iteration_max_link_bytes"), traffic.maxLinkBytes);
        QCOMPARE(run->metrics.at("iteration_max_link_seconds"), traffic.maxLinkSeconds);
        // (the whole run's figures have the plain names; per-iteration ones never do)
        QCOMPARE(run->metrics.count("intra_node_bytes"), std::size_t(0));
        QCOMPARE(run->metrics.count("max_link_bytes"), std::size_t(0));
        QCOMPARE(run->metrics.at("cross_node_bytes"), simulated->crossNodeBytes());
        QCOMPARE(run->metrics.at("total_cost"), simulated->cost + simulated->tardinessCost);
        QVERIFY(run->stsLog.empty());
    }

    void stochasticRunInTheSimulator()
    {
        const Scenario s = sample("sts-datacenter.json");
        RunRequest request;
        request.policy = "sts";
        request.seed = 1;
        auto run = executeRun(s, request);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
        QCOMPARE(run->family, SchedulerFamily::Stochastic);
        QCOMPARE(run->label(), std::string("STS seed 1"));
        const RunResult &r = *run->result;
        QCOMPARE(r.costModel, CostModel::Catalogue);
        // The figure the README gives for the window and `experiment sts --scenario`.
        QCOMPARE(std::round(r.totalCost() * 1e4) / 1e4, 2260.564);
        QCOMPARE(run->stsLog.events().size(), std::size_t(213));
        QCOMPARE(r.finishedJobs(), 101);
        QCOMPARE(count(r, RunEventKind::Arrival), 101);
        QCOMPARE(count(r, RunEventKind::Completion), 101);
        QVERIFY(count(r, RunEventKind::Start) >= 101);
        // Every reconfiguration is an event and a new segment of its job.
        int segments = 0, configChanges = 0, mostGpus = 0;
        for (const JobRun &j : r.jobs) {
            QVERIFY(!j.segments.empty());
            segments += int(j.segments.size());
            configChanges += j.reconfigurations;
            for (std::size_t k = 0; k < j.segments.size(); ++k) {
                const JobSegment &seg = j.segments[k];
                QVERIFY(seg.config.has_value());
                QCOMPARE(int(seg.placement.tasks.size()), seg.config->gpus);
                QVERIFY(seg.endSeconds.has_value());
                if (k + 1 < j.segments.size())
                    QCOMPARE(*seg.endSeconds, j.segments[k + 1].startSeconds);
            }
            // Its GPUs are those its last configuration ran on (the sample's jobs ask for one;
            // some run on more).
            QCOMPARE(j.gpus, j.segments.back().config->gpus);
            mostGpus = std::max(mostGpus, j.gpus);
        }
        QVERIFY(mostGpus > 1);
        QCOMPARE(r.reconfigurations, configChanges);
        QVERIFY(configChanges > 0);
        QCOMPARE(count(r, RunEventKind::Reconfiguration) + count(r, RunEventKind::Start),
                 segments);
        // The GPUs it charged are in the timeline.
        double busy = 0;
        for (double b : r.series.gpuBusySeconds)
            busy += b;
        QVERIFY(busy > 0);
        QVERIFY(r.energyKWh > 0);
        QCOMPARE(run->metrics.at("violations"), double(r.violations()));
        // The placement is each job's first configuration.
        QCOMPARE(run->placement.jobs.size(), std::size_t(101));
        QCOMPARE(run->placedScenario.jobs[0].gpuCount(), r.jobs[0].segments[0].config->gpus);
    }

    void stochasticRunSameAsExperiment()
    {
        // The run service and `experiment sts --scenario` give the same costs per method.
        const Scenario s = sample("sts-datacenter.json");
        auto data = builtinStsAuthorsData();
        QVERIFY(data.ok());
        const StsPrices prices = stsCloudPrices(data.value(), s);
        for (const char *method : {"STS", "FIFO", "G"}) {
            auto direct = runStsOnScenario(s, data.value(), prices.catalogue, method, 2);
            RunRequest request;
            request.policy = stochasticPolicyName(method);
            request.seed = 2;
            auto run = executeRun(s, request);
            QVERIFY(direct.ok() && run.ok());
            QCOMPARE(run->result->totalCost(), direct->totalCost());
            QCOMPARE(run->result->violations(), direct->violations());
        }
    }

    void splitJobsLoadTheNetwork()
    {
        // STS-net splits configurations that fit no node: their ring crosses nodes, so the
        // run has cross-node bytes, on links and between nodes in the time buckets.
        const Scenario s = sample("sts-datacenter.json");
        bool found = false;
        for (std::uint64_t seed = 1; seed <= 10 && !found; ++seed) {
            RunRequest request;
            request.policy = "sts-net";
            request.seed = seed;
            auto run = executeRun(s, request);
            QVERIFY(run.ok());
            const RunResult &r = *run->result;
            if (r.multiNodePlacements == 0)
                continue;
            found = true;
            QVERIFY(r.crossNodeBytes() > 0);
            double offDiagonal = 0;
            for (const auto &bucket : r.series.pairBytes)
                for (const auto &[pair, bytes] : bucket)
                    if (pair.first != pair.second)
                        offDiagonal += bytes;
            QVERIFY(offDiagonal > 0);
            double linkBytes = 0;
            for (double b : r.linkBytes)
                linkBytes += b;
            QVERIFY(linkBytes > 0);
        }
        QVERIFY2(found, "STS-net split no job in seeds 1-10");
    }

    void catalogueCostForPlacementRuns()
    {
        // One node with 2 K80s priced 1 per GPU-second alone and 2 per GPU-second when both
        // are busy (14,400 per hour for two). A runs [0, 100], B [50, 150], one GPU each:
        // A pays 50 x 1 + 50 x 2 = 150, B 50 x 2 + 50 x 1 = 150.
        Scenario s;
        s.name = "catalogue";
        GpuType k80;
        k80.name = "K80";
        s.cluster.gpuTypes = {k80};
        Node n;
        n.id = "n0";
        n.cpus = 8;
        n.memoryGiB = 64;
        n.gpus = 2;
        n.gpuType = "K80";
        s.cluster.nodes = {n};
        for (const auto &[id, submit] : {std::pair{"a", 0.0}, std::pair{"b", 50.0}}) {
            Job j;
            j.id = id;
            j.kind = JobKind::Single;
            j.submitSeconds = submit;
            TaskGroup t;
            t.role = TaskRole::Single;
            t.gpus = 1;
            j.tasks = {t};
            j.model.iterations = 100;
            j.model.computeSecondsPerIteration = 1;
            s.jobs.push_back(j);
        }
        auto prices = std::make_shared<PriceCatalogue>();
        prices->set("K80", 1, 3600);
        prices->set("K80", 2, 14400);
        SimOptions options;
        options.policy = resolvePolicy("k8s-default", {}).value();
        options.costModel = CostModel::Catalogue;
        options.catalogue = prices;
        auto r = simulate(s, options);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        QCOMPARE(r->jobs[0].finishSeconds.value_or(-1), 100.0);
        QCOMPARE(r->jobs[1].finishSeconds.value_or(-1), 150.0);
        QCOMPARE(r->jobs[0].cost, 150.0);
        QCOMPARE(r->jobs[1].cost, 150.0);
        QCOMPARE(r->cost, 300.0);
        QCOMPARE(r->costModel, CostModel::Catalogue);
        double series = 0;
        for (double c : r->series.cost)
            series += c;
        QCOMPARE(series, 300.0);
        // Without prices the model is refused, not silently free.
        options.catalogue.reset();
        auto refused = simulate(s, options);
        QVERIFY(!refused);
        QCOMPARE(refused.problems().front().where, std::string("--cost"));
        // Through the run service a placement policy pays the STS authors' prices, as STS.
        RunRequest request;
        request.policy = "k8s-default";
        request.costModel = CostModel::Catalogue;
        auto run = executeRun(sample("sts-datacenter.json"), request);
        QVERIFY(run.ok());
        QCOMPARE(run->result->costModel, CostModel::Catalogue);
        QVERIFY(run->result->cost > 0);
        QVERIFY2(run->pricesFrom.find("GPU-cost_server.csv") != std::string::npos,
                 run->pricesFrom.c_str());
        // Stored, the source is the "prices" parameter, once (`show` printed it twice, as
        // "prices" and "prices_from"); read back, the run has it again.
        const RunRecord record = runRecord(run.value(), sample("sts-datacenter.json"));
        QCOMPARE(record.parameters.value("prices", std::string()), run->pricesFrom);
        QVERIFY(!record.parameters.contains("prices_from"));
        auto back = runFromRecord(record, sample("sts-datacenter.json"));
        QVERIFY(back.ok());
        QCOMPARE(back->pricesFrom, run->pricesFrom);
        // A record written before (both names) reads the same.
        RunRecord older = record;
        older.parameters["prices_from"] = run->pricesFrom;
        auto olderBack = runFromRecord(older, sample("sts-datacenter.json"));
        QVERIFY(olderBack.ok());
        QCOMPARE(olderBack->pricesFrom, run->pricesFrom);
    }

    void unavailableSaysWhy()
    {
        const Scenario s = sample("dltap-testbed.json");
        const std::string why = stochasticUnavailableReason(s);
        QVERIFY2(why.find("due date") != std::string::npos, why.c_str());
        RunRequest request;
        request.policy = "sts";
        auto run = executeRun(s, request);
        QVERIFY(!run);
        QCOMPARE(run.problems().front().where, std::string("policy"));
        QCOMPARE(stochasticUnavailableReason(sample("sts-datacenter.json")), std::string());
    }

    void unplaceableJobsNamedBeforeTheRun()
    {
        // A job none of whose configurations fits one node is named with its smallest one.
        GpuPool pool;
        pool.addNode("a", "K80", 4);
        pool.addNode("b", "V100", 2);
        StsJob big, small;
        big.id = "big";
        big.times = {{{"K80", 8, 1.0}, 100}, {{"V100", 4, 1.0}, 50}};
        small.id = "small";
        small.times = {{{"K80", 2, 1.0}, 100}};
        QCOMPARE(unplaceableJobsText({big, small}, pool),
                 std::string("1 job fits no node of the cluster on any configuration: big "
                             "(V100 x4) (the cluster has at most 4 K80 on a node, at most 2 "
                             "V100 on a node)"));
        // Split over nodes: 4 K80 and 2 V100 in all, still short of K80 x8 and V100 x4.
        pool.setSplit(StsSplit::BestFit);
        QCOMPARE(unplaceableJobsText({big, small}, pool).substr(0, 10), std::string("1 job fits"));
        pool.addNode("c", "K80", 4); // 8 K80 in all
        QCOMPARE(unplaceableJobsText({big, small}, pool), std::string());

        // The leaf-spine sample's 5-8 worker jobs need more than a 4-GPU node: said before
        // the run, with the way out; split over nodes, the run goes.
        const Scenario s = sample("leaf-spine-gpu.json");
        RunRequest request;
        request.policy = "sts";
        auto run = executeRun(s, request);
        QVERIFY(!run);
        const std::string why = run.problems().front().message;
        QVERIFY2(why.find("16 jobs fit no node of the cluster on any configuration: job-01 "
                          "(V100 x5), job-04 (V100 x7)") != std::string::npos,
                 why.c_str());
        QVERIFY2(why.find("at most 4 V100 on a node); sts-net, or simulate --multi-node") !=
                     std::string::npos,
                 why.c_str());
        request.multiNode = true;
        QVERIFY(executeRun(s, request).ok());
    }

    void runsSurviveTheWorkspace_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("policy");
        QTest::addColumn<bool>("simulate");
        QTest::newRow("dltap placed") << "dltap-testbed.json" << "dltap" << false;
        QTest::newRow("dltap simulated") << "dltap-testbed.json" << "dltap" << true;
        QTest::newRow("sts") << "sts-datacenter.json" << "sts" << true;
        QTest::newRow("sts-fifo") << "sts-datacenter.json" << "sts-fifo" << true;
    }
    void runsSurviveTheWorkspace()
    {
        QFETCH(QString, file);
        QFETCH(QString, policy);
        QFETCH(bool, simulate);
        const Scenario s = sample(file.toUtf8().constData());
        RunRequest request;
        request.policy = policy.toStdString();
        request.simulate = simulate;
        auto run = executeRun(s, request);
        QVERIFY2(run.ok(), run.ok() ? "" : run.error().c_str());
        QTemporaryDir dir;
        auto ws = Workspace::open(dir.filePath("ws.sqlite").toStdString());
        QVERIFY(ws.ok());
        auto stored = ws.value()->addScenario(s);
        QVERIFY(stored.ok());
        RunRecord record = runRecord(run.value(), s);
        record.scenarioDigest = stored->digest;
        QCOMPARE(record.scenarioDigest, run->scenarioDigest);
        auto id = ws.value()->saveRun(record);
        QVERIFY(id.ok());
        auto back = readRun(*ws.value(), id.value());
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().c_str());
        const Run &b = back->first;
        QCOMPARE(b.family, run->family);
        QCOMPARE(b.policy, run->policy);
        QVERIFY(b.placement == run->placement);
        QVERIFY(b.decisions == run->decisions);
        QVERIFY(b.stsLog == run->stsLog);
        QCOMPARE(b.result.has_value(), run->result.has_value());
        if (run->result)
            QVERIFY(*b.result == *run->result);
        QVERIFY(b.metrics == run->metrics);
        QCOMPARE(b.traffic.crossNodeBytes, run->traffic.crossNodeBytes);
        QCOMPARE(b.pricesFrom, run->pricesFrom);
    }

    void scheduleAtATime()
    {
        const Scenario s = sample("sts-datacenter.json");
        RunRequest request;
        request.policy = "sts";
        auto run = executeRun(s, request);
        QVERIFY(run.ok());
        const RunResult &r = *run->result;
        // Half-way through the run: exactly the jobs with a segment covering that time.
        const double t = r.makespanSeconds / 2;
        auto [shaped, placement] = stochasticScheduleAt(s, r, t);
        std::size_t running = 0;
        for (const JobRun &j : r.jobs)
            for (const JobSegment &seg : j.segments)
                if (seg.startSeconds <= t && t < seg.endSeconds.value_or(1e300))
                    ++running;
        QCOMPARE(placement.jobs.size(), running);
        QCOMPARE(placement.jobs.size() + placement.waiting.size(), s.jobs.size());
        // One task per node for the exporters: a job of g GPUs on one node is one task.
        oneTaskPerNode(shaped, placement);
        for (const JobPlacement &jp : placement.jobs) {
            const Job *job = shaped.job(jp.jobId);
            QVERIFY(job);
            std::set<std::string> nodes;
            int gpus = 0;
            for (const TaskAssignment &a : jp.tasks) {
                nodes.insert(a.node);
                gpus += int(a.gpuIndices.size());
            }
            QCOMPARE(jp.tasks.size(), nodes.size());
            QCOMPARE(gpus, job->gpuCount());
        }
    }

    void commandsRunStochasticPolicies()
    {
        QTemporaryDir dir;
        const std::string ws = dir.filePath("ws.sqlite").toStdString();
        const std::string scenario = CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json";
        const CliRun sim = command({"simulate", scenario, "--policy", "sts", "--json", "--workspace", ws});
        QVERIFY2(sim.code == 0, sim.err.c_str());
        const auto j = nlohmann::json::parse(sim.out);
        for (const char *key : {"makespan_s", "mean_jct_s", "cross_node_bytes", "energy_kwh",
                                "cost", "total_cost", "energy_cost", "tardiness_cost",
                                "violations", "reconfigurations"})
            QVERIFY2(j["summary"].contains(key), key);
        QCOMPARE(std::round(j["summary"]["total_cost"].get<double>() * 1e4) / 1e4, 2260.564);
        QCOMPARE(j["summary"]["cost_model"].get<std::string>(), std::string("catalogue"));
        QVERIFY(sim.err.find("Saved as run 1") != std::string::npos);

        const CliRun history = command({"history", "--workspace", ws});
        QVERIFY2(history.code == 0, history.err.c_str());
        QVERIFY2(history.out.find("sts") != std::string::npos, history.out.c_str());
        const CliRun show = command({"show", "1", "--workspace", ws});
        QVERIFY2(show.code == 0, show.err.c_str());
        QVERIFY2(show.out.find("213 scheduling events stored") != std::string::npos,
                 show.out.c_str());
        QVERIFY2(show.out.find("total_cost") != std::string::npos, show.out.c_str());

        // One split said in the singular (seed 5: STS-net splits one configuration).
        const CliRun split =
            command({"simulate", scenario, "--policy", "sts-net", "--seed", "5", "--no-save"});
        QVERIFY2(split.code == 0, split.err.c_str());
        QVERIFY2(split.out.find(" times (1 decision splits a job over nodes)") != std::string::npos,
                 split.out.c_str());
        const CliRun text = command({"simulate", scenario, "--policy", "sts-g", "--no-save"});
        QVERIFY2(text.code == 0, text.err.c_str());
        QVERIFY2(text.out.find("violations") != std::string::npos, text.out.c_str());
        // (the cost line continues under its value's column at 80 columns)
        std::string flat = text.out;
        for (std::size_t at; (at = flat.find("\n" + std::string(18, ' '))) != std::string::npos;)
            flat.replace(at, 19, " ");
        QVERIFY2(flat.find("catalogue: GPU-cost_server.csv, built in (the STS authors' "
                           "data") != std::string::npos,
                 text.out.c_str());

        const CliRun place = command({"place", scenario, "--policy", "sts", "--no-save"});
        QCOMPARE(place.code, 2);
        QVERIFY2(place.err.find("use simulate") != std::string::npos, place.err.c_str());
        const CliRun testbed = command({"simulate", CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json",
                                    "--policy", "sts", "--no-save"});
        QCOMPARE(testbed.code, 2);
        QVERIFY2(testbed.err.find("due date") != std::string::npos, testbed.err.c_str());

        const std::string out = dir.filePath("export").toStdString();
        const CliRun exported = command({"export", scenario, "--policy", "sts", "--format",
                                     "pytorchjob", "--out", out, "--json"});
        QVERIFY2(exported.code == 0, exported.err.c_str());
        const auto report = nlohmann::json::parse(exported.out);
        QCOMPARE(report["files"].size(), std::size_t(101));
        // Each job as it first runs: they start at different times and, applied at once, do
        // not fit; the report says so first.
        QVERIFY2(report["warnings"][0].get<std::string>().rfind(
                     "the jobs are exported as each first runs, from 0:00:00 to 5d 8:25:21; ", 0) ==
                     0,
                 exported.out.c_str());
        QVERIFY2(report["warnings"][0].get<std::string>().find(
                     "apply each job at its start, or export one moment with --at SECONDS") !=
                     std::string::npos,
                 exported.out.c_str());
        // A job the run reconfigured runs as a file deploys it only in one configuration: said
        // once for the 58 of them, each with its changes (job-000: one, at 5:41:34; they were
        // 58 warnings of their own).
        const std::string reconfigured =
            "the run reconfigures 58 jobs; a file deploys one configuration for the whole job: "
            "resubmit each at its changes to run it as the run costed it (the run's timeline "
            "shows them): job-000 (a change at 5:41:34), job-002 (7 changes, the first at 1d "
            "4:28:12), ";
        const auto said = std::find_if(report["warnings"].begin(), report["warnings"].end(),
                                       [&](const nlohmann::json &w) {
                                           return w.get<std::string>().rfind(reconfigured, 0) == 0;
                                       });
        QVERIFY2(said != report["warnings"].end(), exported.out.c_str());
        QVERIFY2(said->get<std::string>().ends_with(" and 38 more"), exported.out.c_str());
        QCOMPARE(std::count_if(report["warnings"].begin(), report["warnings"].end(),
                               [](const nlohmann::json &w) {
                                   return w.get<std::string>().find("reconfigures") !=
                                          std::string::npos;
                               }),
                 std::ptrdiff_t(1));
        // One moment: the jobs not running then are counted by why, not called waiting.
        const CliRun moment =
            command({"export", scenario, "--policy", "sts", "--format", "pytorchjob", "--out",
                     dir.filePath("moment").toStdString(), "--at", "100000", "--json"});
        QVERIFY2(moment.code == 0, moment.err.c_str());
        const auto atReport = nlohmann::json::parse(moment.out);
        QCOMPARE(atReport["warnings"][0].get<std::string>(),
                 std::string("at 100000 s, 11 jobs had finished and 75 were not yet submitted: "
                             "not exported"));
        QCOMPARE(atReport["files"].size(), std::size_t(101 - 11 - 75));
        QVERIFY2(moment.out.find("is waiting") == std::string::npos, moment.out.c_str());
        const CliRun late = command({"export", scenario, "--policy", "sts", "--format", "slurm",
                                 "--out", dir.filePath("late").toStdString(), "--at", "1e12"});
        QCOMPARE(late.code, 1);
        QVERIFY2(late.err.find("nothing to export") != std::string::npos, late.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRunService)
#include "tst_run_service.moc"
