// What a decision log costs on sample-clusters/fat-tree-1024.json (1,024 nodes, 300 jobs,
// 4,013 decisions) under dltap: placing with the log at each detail level (summary = top:0,
// auto = top:32 on this cluster, full) against placing without one (the baseline, same run),
// then writing the log as the workspace stores it (toJson + dump) and reading it back.
// Full detail takes ~15 s (most of it building the JSON of 4.1 million rows), so it runs only
// with CB_BENCH_FULL=1. Each case runs in its own child process so that its peak resident memory (getrusage
// ru_maxrss) is its own; "load" is the peak after loading the scenario, before placing.
// Prints figures; exits 1 only if a logged placement differs from the unlogged one or a log
// does not read back equal.

#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/decision_log.h"
#include "sched/placer.h"
#include "sched/policy.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

using namespace cb;

namespace {

double peakMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0; // kilobytes on Linux
}

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

struct Figures
{
    double loadMiB = 0, placeS = 0, placeMiB = 0, jsonS = 0, jsonMiB = 0, jsonMB = 0, readS = 0;
    double rows = 0, decisions = 0;
    int ok = 1;
};

/// One case, in the calling (child) process. `detail` null: no log.
Figures runCase(const Scenario &s, const Policy &policy, const std::optional<LogDetail> &detail,
                const Placement *expected)
{
    Figures f;
    f.loadMiB = peakMiB();
    const Topology topo(s.cluster);
    DecisionLog log;
    if (detail)
        log.detail = *detail;
    auto t0 = std::chrono::steady_clock::now();
    const Placement p = placeScenario(s, topo, policy, 1, detail ? &log : nullptr);
    f.placeS = seconds(t0);
    f.placeMiB = peakMiB();
    if (expected && !(p == *expected))
        f.ok = 0;
    if (!detail)
        return f;
    f.rows = double(log.rowCount());
    f.decisions = double(log.decisions.size());
    t0 = std::chrono::steady_clock::now();
    std::string text = log.toJson().dump();
    f.jsonS = seconds(t0);
    f.jsonMiB = peakMiB();
    f.jsonMB = double(text.size()) / 1e6;
    t0 = std::chrono::steady_clock::now();
    auto back = DecisionLog::fromJson(nlohmann::json::parse(text));
    f.readS = seconds(t0);
    if (!back || !(back.value() == log))
        f.ok = 0;
    return f;
}

/// Runs a case in a child process; the child's own peak RSS comes back through wait4.
std::optional<Figures> inChild(const Scenario &s, const Policy &policy,
                               const std::optional<LogDetail> &detail, const Placement *expected)
{
    int fd[2];
    if (pipe(fd) != 0)
        return std::nullopt;
    const pid_t child = fork();
    if (child < 0)
        return std::nullopt;
    if (child == 0) {
        close(fd[0]);
        const Figures f = runCase(s, policy, detail, expected);
        const ssize_t n = write(fd[1], &f, sizeof f);
        _exit(n == ssize_t(sizeof f) ? 0 : 1);
    }
    close(fd[1]);
    Figures f;
    const ssize_t n = read(fd[0], &f, sizeof f);
    close(fd[0]);
    int status = 0;
    rusage u{};
    wait4(child, &status, 0, &u);
    if (n != ssize_t(sizeof f) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return std::nullopt;
    return f;
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
    const Placement expected = placeScenario(s, topo, policy, 1);

    std::printf("Decision log on %s: %zu nodes, %zu jobs, policy dltap, seed 1\n",
                s.name.c_str(), s.cluster.nodes.size(), s.jobs.size());
    std::printf("%-16s %10s %9s %10s %12s %9s %10s %9s %9s\n", "detail", "decisions", "place s",
                "x no log", "rows", "peak MiB", "JSON MB", "write s", "read s");
    struct Case
    {
        const char *name;
        std::optional<LogDetail> detail;
    };
    const Case cases[] = {{"no log", std::nullopt},
                          {"summary", LogDetail::topK(0)},
                          {"auto (top:32)", LogDetail{}},
                          {"full", LogDetail::full()}};
    double base = 0;
    int failures = 0;
    const char *fullEnv = std::getenv("CB_BENCH_FULL");
    const bool withFull = fullEnv && std::string(fullEnv) == "1";
    for (const Case &c : cases) {
        if (c.detail && c.detail->kind == LogDetail::Kind::Full && !withFull) {
            std::printf("%-16s (set CB_BENCH_FULL=1 to measure)\n", c.name);
            continue;
        }
        // The unlogged placement is the baseline; timings are best of two runs.
        std::optional<Figures> best;
        for (int rep = 0; rep < 2; ++rep) {
            auto f = inChild(s, policy, c.detail, &expected);
            if (!f) {
                std::printf("%-16s failed to run\n", c.name);
                ++failures;
                break;
            }
            if (!best || f->placeS < best->placeS)
                best = f;
            if (c.detail && c.detail->kind == LogDetail::Kind::Full)
                break; // the slow one: once
        }
        if (!best)
            continue;
        const Figures &f = *best;
        if (!f.ok) {
            std::printf("%-16s WRONG: the logged placement or the log read back differs\n", c.name);
            ++failures;
        }
        if (!c.detail) {
            base = f.placeS;
            std::printf("%-16s %10s %9.3f %10s %12s %9.0f %10s %9s %9s   (load %.0f MiB)\n",
                        c.name, "-", f.placeS, "1.0", "-", f.placeMiB, "-", "-", "-", f.loadMiB);
            continue;
        }
        std::printf("%-16s %10.0f %9.3f %10.1f %12.0f %9.0f %10.1f %9.3f %9.3f   (place peak %.0f MiB)\n",
                    c.name, f.decisions, f.placeS, base > 0 ? f.placeS / base : 0.0, f.rows,
                    f.jsonMiB, f.jsonMB, f.jsonS, f.readS, f.placeMiB);
    }
    return failures == 0 ? 0 : 1;
}
