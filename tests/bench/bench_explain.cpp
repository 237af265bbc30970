// What explaining a decision costs on sample-clusters/fat-tree-1024.json (1,024 nodes, 300
// jobs, 4,013 decisions) under dltap. Baseline, same run: placing the queue without a log.
//  - "from the log": contrast with the next best node, every single-weight flip and the
//    narration of one decision whose every row is kept (what a stepper with the log in memory
//    does on a click), for 40 decisions spread over the run: mean and worst per decision;
//  - "explain command": placing with a summary log that keeps the one decision's rows in full
//    (Placer::keepAllRowsAt) plus the above, as `clusterbench explain` does.
// Prints figures; exits 1 only if a kept decision does not have a row for every node.

#include "io/scenario_json.h"
#include "net/topology.h"
#include "runs/decision_explanation.h"
#include "sched/decision_contrast.h"
#include "sched/placer.h"
#include "sched/policy.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

using namespace cb;

namespace {

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

} // namespace

int main()
{
    const std::string path = std::string(CB_SOURCE_DIR) + "/sample-clusters/fat-tree-1024.json";
    auto loaded = loadScenarioFile(path);
    if (!loaded) {
        std::fprintf(stderr, "%s\n", loaded.error(path).c_str());
        return 1;
    }
    const Scenario &s = loaded.value();
    const Policy policy = *builtinPolicy("dltap");
    const Topology topo(s.cluster);

    auto t0 = std::chrono::steady_clock::now();
    (void)placeScenario(s, topo, policy, 1);
    const double baseline = seconds(t0);

    DecisionLog probe;
    probe.detail = LogDetail::topK(0);
    (void)placeScenario(s, topo, policy, 1, &probe);
    const int decisions = int(probe.decisions.size());
    const int samples = std::min(40, decisions);

    double fromLogSum = 0, fromLogMax = 0, commandSum = 0, commandMax = 0;
    std::size_t narrationChars = 0;
    int flipsFound = 0, ok = 1;
    for (int k = 0; k < samples; ++k) {
        const int index = int((long long)k * (decisions - 1) / std::max(1, samples - 1));
        const auto c0 = std::chrono::steady_clock::now();
        DecisionLog log;
        log.detail = LogDetail::topK(0);
        Placer placer(s.cluster, topo, policy, 1);
        placer.keepAllRowsAt(index);
        (void)placer.place(s.jobs, &log);
        const auto l0 = std::chrono::steady_clock::now();
        const Decision &d = log.decisions[std::size_t(index)];
        if (d.rows.size() != s.cluster.nodes.size())
            ok = 0;
        const int other = defaultContrastNode(log, index);
        if (other >= 0)
            (void)contrastDecision(log, index, other);
        flipsFound += weightFlips(log, index).smallest() ? 1 : 0;
        narrationChars += narrateDecision(s, topo, log, index).size();
        const double fromLog = seconds(l0), command = seconds(c0);
        fromLogSum += fromLog;
        fromLogMax = std::max(fromLogMax, fromLog);
        commandSum += command;
        commandMax = std::max(commandMax, command);
    }
    std::printf("bench_explain: fat-tree-1024.json, dltap, %d decisions, %zu nodes\n", decisions,
                s.cluster.nodes.size());
    std::printf("  baseline: placing without a log            %8.1f ms\n", baseline * 1e3);
    std::printf("  from the log (contrast, flips, narration)  %8.2f ms mean, %.2f ms worst "
                "per decision (%d decisions, %d with a flip, %zu chars of narration)\n",
                fromLogSum / samples * 1e3, fromLogMax * 1e3, samples, flipsFound,
                narrationChars);
    std::printf("  explain command (place + one full row set) %8.1f ms mean, %.1f ms worst "
                "(%.2fx the baseline)\n",
                commandSum / samples * 1e3, commandMax * 1e3, commandSum / samples / baseline);
    return ok ? 0 : 1;
}
