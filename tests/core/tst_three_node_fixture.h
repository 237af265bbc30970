#pragma once
// The hand-checked case shared by tst_run_diff and tst_task_pin.
//
// Nodes a, b, c: 16 CPUs, 64 GiB, 4 K80 GPUs each, under one switch. Jobs j1 and j2 take
// 1 CPU, 2 GiB and 1 GPU, j3 2 CPUs, 4 GiB and 2 GPUs (single-task jobs, 100 iterations).
// firstTiePolicy(kind) scores one resource plugin over CPU, memory and GPUs with the first
// node winning a tie. A resource scores trunc(10 x unused / capacity) (LeastAllocated) or
// trunc(10 x used / capacity) (MostAllocated), counting the task, and the node's score is
// trunc of their mean.

#include "../common/three_node_scenario.h"
#include "cli/command.h"
#include "io/scenario_json.h"
#include "sched/policy.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace cbtest {

inline cb::Scenario threeNodeScenario()
{
    auto s = cb::scenarioFromJson(threeNodeDocument());
    if (!s)
        qFatal("test scenario invalid: %s", s.error().c_str());
    return s.value();
}

inline cb::Policy firstTiePolicy(const char *name, cb::PluginKind kind)
{
    cb::Policy p;
    p.name = name;
    cb::PluginConfig c;
    c.kind = kind;
    c.includeGpu = true;
    p.plugins = {c};
    p.tieBreak = cb::TieBreak::First;
    return p;
}

/// Writes the scenario as a file for the terminal commands.
inline bool writeScenarioFile(const cb::Scenario &s, const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) &&
           f.write(QByteArray::fromStdString(cb::scenarioToJson(s).dump(2))) > 0;
}

/// A terminal command run in-process: its exit code and what it printed.
struct CliOutcome
{
    int code = -1;
    std::string out, err;
};

inline CliOutcome runCli(const std::vector<std::string> &args)
{
    std::ostringstream out, err;
    cb::cli::Io io{out, err, false};
    const int code = cb::cli::runCommand(args, io);
    return {code, out.str(), err.str()};
}

} // namespace cbtest
