// Why a job waits and what would let it run (runs/wait_explanation.h): the reasons grouped
// over the nodes and the changes on a 3-node cluster checked by hand, then validity and
// minimality of every suggested change on generated over-full clusters: each change makes the
// job fit (placed again by the policy), and dropping any part of it (one ended job, one added
// node, one replica or GPU less of the shrinking) makes it not fit.
//
// Hand case: nodes a, b, c, each 16 CPUs, 64 GiB, 4 GPUs (K80), one switch. Running: j1 3
// GPUs on a (100 s left), j2 2 GPUs on b (50 s left), j3 4 GPUs on c (200 s left): free GPUs
// a 1, b 2, c 0. Job w: all-reduce, 2 workers x 2 GPUs. Worker 0 takes b (the only node with
// 2 free); worker 1 then finds b with 0 of 4 free, c 0 of 4, a 1 of 4.

#include "cli/command.h"
#include "io/policy_json.h"
#include "io/scenario_json.h"
#include "model/validation.h"
#include "net/topology.h"
#include "runs/wait_explanation.h"
#include "sched/placer.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <sstream>

using namespace cb;
using nlohmann::json;

namespace {

json gpuNode(const std::string &id, int gpus)
{
    return {{"id", id}, {"cpus", 16}, {"memory_gib", 64}, {"gpus", gpus}, {"gpu_type", "K80"}};
}

json gpuJob(const std::string &id, const char *kind, int replicas, int gpus)
{
    std::vector<json> tasks = {{{"role", std::string(kind) == "single" ? "single" : "worker"},
                                {"replicas", replicas}, {"cpus", 1}, {"memory_gib", 2},
                                {"gpus", gpus}}};
    return {{"id", id}, {"kind", kind}, {"submit_s", 0}, {"tasks", tasks},
            {"model", {{"name", "m"}, {"parameter_bytes", 1000000}}}};
}

Scenario build(const std::vector<json> &nodes, const std::vector<json> &jobs)
{
    json links = json::array();
    for (const json &n : nodes)
        links.push_back({{"a", n["id"]}, {"b", "s"}, {"capacity_gbps", 10}});
    json cluster = {{"gpu_types", {{{"name", "K80"}, {"memory_gib", 12}}}},
                    {"nodes", nodes},
                    {"switches", {{{"id", "s"}}}},
                    {"links", links}};
    json doc = {{"format", "clusterbench-scenario"}, {"version", 1}, {"cluster", cluster},
                {"jobs", jobs}};
    auto s = scenarioFromJson(doc);
    if (!s)
        qFatal("test scenario invalid: %s", s.error().c_str());
    return s.value();
}

RunningJob running(const std::string &job, const std::string &node, int gpus, double left)
{
    RunningJob r;
    r.jobId = job;
    r.placement.jobId = job;
    TaskAssignment a;
    a.role = TaskRole::Single;
    a.node = node;
    for (int g = 0; g < gpus; ++g)
        a.gpuIndices.push_back(g);
    r.placement.tasks.push_back(a);
    r.remainingSeconds = left;
    return r;
}

Policy policy(const char *name)
{
    Policy p = *builtinPolicy(name);
    p.tieBreak = TieBreak::First;
    return p;
}

/// Every fix is valid (the job fits with it) and minimal (it does not without any one part).
void checkFixes(const Scenario &s, const Policy &p, const std::vector<RunningJob> &state,
                const WaitExplanation &w, int *checked)
{
    const Job &job = *s.job(w.jobId);
    for (const WaitFix &f : w.fixes) {
        const QByteArray what = QByteArray::fromStdString(w.jobId + ": " + f.text);
        switch (f.kind) {
        case WaitFix::Kind::EndJobs: {
            auto without = [&](const std::vector<std::string> &ended) {
                std::vector<RunningJob> rest;
                for (const RunningJob &r : state)
                    if (std::find(ended.begin(), ended.end(), r.jobId) == ended.end())
                        rest.push_back(r);
                return placeOnState(s.cluster, s.jobs, p, 1, rest, job);
            };
            QVERIFY2(without(f.endJobs).has_value(), what.constData());
            QVERIFY(*without(f.endJobs) == f.placement);
            for (std::size_t k = 0; k < f.endJobs.size(); ++k) {
                std::vector<std::string> fewer;
                for (std::size_t i = 0; i < f.endJobs.size(); ++i)
                    if (i != k)
                        fewer.push_back(f.endJobs[i]);
                QVERIFY2(!without(fewer).has_value(), what.constData());
            }
            break;
        }
        case WaitFix::Kind::AddNodes: {
            const std::size_t t = *s.cluster.nodeIndex(f.nodeTemplate);
            QVERIFY2(placeOnState(withNodeCopies(s.cluster, t, f.addNodes), s.jobs, p, 1, state,
                                  job)
                         .has_value(),
                     what.constData());
            QVERIFY2(!placeOnState(withNodeCopies(s.cluster, t, f.addNodes - 1), s.jobs, p, 1,
                                   state, job)
                          .has_value(),
                     what.constData());
            break;
        }
        case WaitFix::Kind::FewerReplicas:
        case WaitFix::Kind::FewerGpus: {
            auto with = [&](int v) {
                Job j = job;
                if (f.kind == WaitFix::Kind::FewerReplicas)
                    j.tasks[std::size_t(f.group)].replicas = v;
                else
                    j.tasks[std::size_t(f.group)].gpus = v;
                return placeOnState(s.cluster, s.jobs, p, 1, state, j);
            };
            QVERIFY2(with(f.value).has_value(), what.constData());
            QVERIFY2(!with(f.value + 1).has_value(), what.constData());
            break;
        }
        case WaitFix::Kind::RelaxGang:
            QVERIFY(f.startedTasks > 0 && f.startedTasks < job.taskCount());
            break;
        case WaitFix::Kind::RelaxGpuType:
        case WaitFix::Kind::RelaxSelector:
            QVERIFY(!f.placement.tasks.empty());
            break;
        }
        ++*checked;
    }
}

} // namespace

class TestWait : public QObject
{
    Q_OBJECT

private slots:
    void handCheckedReasonsAndFixes()
    {
        const Scenario s = build({gpuNode("a", 4), gpuNode("b", 4), gpuNode("c", 4)},
                                 {gpuJob("j1", "single", 1, 3), gpuJob("j2", "single", 1, 2),
                                  gpuJob("j3", "single", 1, 4), gpuJob("w", "allreduce", 2, 2)});
        const std::vector<RunningJob> state = {running("j1", "a", 3, 100),
                                               running("j2", "b", 2, 50),
                                               running("j3", "c", 4, 200)};
        const Policy p = policy("k8s-default");
        const WaitExplanation w = explainWait(s, p, 1, state, "w");
        QVERIFY(!w.fits);
        QCOMPARE(w.failedTask, std::string("worker-1"));
        QCOMPARE(w.placedBefore, 1);
        QCOMPARE(w.reasons.size(), std::size_t(2));
        QCOMPARE(w.reasons[0].first, std::string("needs 2 free GPUs, 0 of 4 free"));
        QCOMPARE(w.reasons[0].second, 2);
        QCOMPARE(w.reasons[1].first, std::string("needs 2 free GPUs, 1 of 4 free"));
        QCOMPARE(w.reasons[1].second, 1);
        QCOMPARE(w.status(), std::string("waits: worker-1: 2 nodes: needs 2 free GPUs, 0 of 4 "
                                         "free; 1 node: needs 2 free GPUs, 1 of 4 free"));

        // End j2 (50 s left, the soonest): b then has 4 free GPUs for both workers.
        QVERIFY(w.fixes.size() >= 4);
        const WaitFix &end = w.fixes[0];
        QCOMPARE(end.kind, WaitFix::Kind::EndJobs);
        QCOMPARE(end.endJobs, std::vector<std::string>{"j2"});
        QCOMPARE(end.freedNodes, std::vector<std::string>{"b"});
        QCOMPARE(end.text, std::string("end or preempt j2 (on b, 50 s left)"));
        QCOMPARE(end.placement.tasks.size(), std::size_t(2));
        QCOMPARE(end.placement.tasks[0].node, std::string("b"));
        QCOMPARE(end.placement.tasks[1].node, std::string("b"));
        std::map<WaitFix::Kind, const WaitFix *> byKind;
        for (const WaitFix &f : w.fixes)
            byKind[f.kind] = &f;
        QVERIFY(byKind.count(WaitFix::Kind::RelaxGang));
        QCOMPARE(byKind[WaitFix::Kind::RelaxGang]->startedTasks, 1);
        // One more node of the (only) kind: worker 1 goes there.
        QVERIFY(byKind.count(WaitFix::Kind::AddNodes));
        QCOMPARE(byKind[WaitFix::Kind::AddNodes]->addNodes, 1);
        QCOMPARE(byKind[WaitFix::Kind::AddNodes]->nodeTemplate, std::string("a"));
        // One worker fits (b); two workers of 1 GPU fit (a 1, b 2).
        QVERIFY(byKind.count(WaitFix::Kind::FewerReplicas));
        QCOMPARE(byKind[WaitFix::Kind::FewerReplicas]->value, 1);
        QVERIFY(byKind.count(WaitFix::Kind::FewerGpus));
        QCOMPARE(byKind[WaitFix::Kind::FewerGpus]->value, 1);
        int checked = 0;
        checkFixes(s, p, state, w, &checked);
        QCOMPARE(checked, int(w.fixes.size()));
    }

    // Three workers of 3 GPUs on two 4-GPU nodes (8 GPUs): each fits a node, the job never
    // fits the cluster. Starting without gang scheduling is not offered (the other workers
    // would wait for room that never comes); fewer workers is.
    void aJobThatNeverStartsIsNotOfferedAPartialStart()
    {
        const Scenario s =
            build({gpuNode("a", 4), gpuNode("b", 4)}, {gpuJob("w", "allreduce", 3, 3)});
        QCOMPARE(jobsThatNeverStart(s).size(), std::size_t(1));
        const Policy p = policy("k8s-default");
        const WaitExplanation w = explainWait(s, p, 1, {}, "w");
        QVERIFY(!w.fits);
        bool fewer = false;
        for (const WaitFix &f : w.fixes) {
            QVERIFY2(f.kind != WaitFix::Kind::RelaxGang, f.text.c_str());
            fewer = fewer || (f.kind == WaitFix::Kind::FewerReplicas && f.value == 2);
        }
        QVERIFY(fewer);
    }

    void aJobThatFitsIsSaidToFit()
    {
        const Scenario s = build({gpuNode("a", 4), gpuNode("b", 4)},
                                 {gpuJob("j1", "single", 1, 3), gpuJob("w", "single", 1, 1)});
        const WaitExplanation w =
            explainWait(s, policy("k8s-default"), 1, {running("j1", "a", 3, 10)}, "w");
        QVERIFY(w.fits);
        QVERIFY(w.fixes.empty());
        QCOMPARE(w.status(), std::string("fits now"));
        QVERIFY(!explainWait(s, policy("k8s-default"), 1, {}, "nope").known);
    }

    void whyCommand()
    {
        // leaf-spine-gpu.json under dltap leaves job-33 waiting: the command's JSON lists the
        // reasons and at least one verified change; a placed job does not wait; bad names and
        // times are refused with exit 2.
        const std::string file = std::string(CB_SOURCE_DIR) + "/sample-clusters/leaf-spine-gpu.json";
        auto run = [&](std::vector<std::string> args, std::string *out = nullptr) {
            std::ostringstream o, e;
            cli::Io io{o, e, false};
            const int code = cli::runCommand(args, io);
            if (out)
                *out = o.str() + e.str();
            return code;
        };
        std::string text;
        QCOMPARE(run({"why", file, "job-33", "--policy", "dltap", "--json"}, &text), 0);
        const json j = json::parse(text);
        QCOMPARE(j["waits"].get<bool>(), true);
        QVERIFY(!j["reasons"].empty());
        QVERIFY(!j["fixes"].empty());
        for (const json &f : j["fixes"])
            QVERIFY(!f["placement"].empty());
        QCOMPARE(run({"why", file, "job-33", "--policy", "dltap"}, &text), 0);
        QVERIFY2(text.find("What would let it run now") != std::string::npos, text.c_str());
        QCOMPARE(run({"why", file, "job-00", "--policy", "dltap"}, &text), 0);
        QVERIFY2(text.find("it does not wait") != std::string::npos, text.c_str());
        // One task, one GPU: said in the singular ("1 GPUs" before).
        QCOMPARE(run({"why", file, "job-39", "--policy", "dltap"}, &text), 0);
        QVERIFY2(text.rfind("Job job-39 (1 task, 1 GPU) under dltap (seed 7)", 0) == 0,
                 text.c_str());
        QCOMPARE(run({"why", file, "no-such-job", "--policy", "dltap"}, &text), 2);
        QVERIFY2(text.find("no-such-job") != std::string::npos, text.c_str());
        QCOMPARE(run({"why", file, "job-33", "--policy", "dltap", "--at", "-5"}), 2);
        QCOMPARE(run({"why", file, "job-33", "--policy", "dltap", "--at", "0", "--json"}, &text), 0);
        QVERIFY(json::parse(text).contains("at"));
        // Before its submit time a job is not in the queue: not said "not to wait".
        QCOMPARE(run({"why", file, "job-39", "--policy", "dltap", "--at", "5000"}, &text), 0);
        // (times grouped, with the clock the other commands print; 80 columns)
        QVERIFY2(text.find("\n  it is not submitted yet: its submit time is 31,607.4 s "
                           "(8:46:47), after\n    5,000 s (1:23:20)\n") != std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("does not wait") == std::string::npos, text.c_str());
    }

    void fixesAreValidAndMinimalOnOverFullClusters()
    {
        // Clusters of 6..20 nodes with 4 or 8 GPUs, filled by random single-task jobs of 1..3
        // GPUs (spread, so the free GPUs are fragmented); then a job of 3..6 workers x 2..4
        // GPUs that waits.
        int tried = 0, checked = 0, endings = 0;
        for (unsigned seed = 1; seed <= 12; ++seed) {
            std::mt19937 rng(seed);
            auto pick = [&](int lo, int hi) {
                return lo + int(rng() % unsigned(hi - lo + 1));
            };
            std::vector<json> nodes, jobs;
            const int n = pick(6, 20);
            for (int i = 0; i < n; ++i)
                nodes.push_back(gpuNode("n" + std::to_string(i), pick(0, 1) ? 8 : 4));
            const int fillers = n * 3; // ~6 GPUs per node asked for, ~6 per node there
            for (int i = 0; i < fillers; ++i)
                jobs.push_back(gpuJob("f" + std::to_string(i), "single", 1, pick(1, 3)));
            jobs.push_back(gpuJob("big", "allreduce", pick(3, 6), pick(2, 4)));
            const Scenario s = build(nodes, jobs);
            const Policy p = policy("spread");
            const Topology topo(s.cluster);
            const Placement placed = placeScenario(s, topo, p, 1);
            if (!std::count(placed.waiting.begin(), placed.waiting.end(), "big"))
                continue;
            std::vector<RunningJob> state = runningAfterPlacement(placed);
            for (std::size_t i = 0; i < state.size(); ++i)
                state[i].remainingSeconds = double((i * 37) % 11 + 1) * 60;
            const WaitExplanation w = explainWait(s, p, 1, state, "big");
            QVERIFY(!w.fits);
            QVERIFY(!w.reasons.empty());
            QVERIFY(!w.fixes.empty());
            for (const WaitFix &f : w.fixes)
                endings += f.kind == WaitFix::Kind::EndJobs;
            checkFixes(s, p, state, w, &checked);
            ++tried;
        }
        QVERIFY(tried >= 6);
        QVERIFY(endings >= 6);
        QVERIFY(checked >= 3 * tried);
    }
};

QTEST_GUILESS_MAIN(TestWait)
#include "tst_wait.moc"
