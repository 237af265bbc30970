#pragma once
// The hand-checked three-node case of the run-diff, pin and two-run tests (core and views),
// as a scenario document.
//
// Nodes a, b, c: 16 CPUs, 64 GiB, 4 K80 GPUs each, under one switch s (10 Gbit/s links). Jobs
// j1 and j2 take 1 CPU, 2 GiB and 1 GPU, j3 2 CPUs, 4 GiB and 2 GPUs (single-task jobs of a
// 1 MB model, 100 iterations, all submitted at 0).

#include <nlohmann/json.hpp>

namespace cbtest {

inline nlohmann::json threeNodeDocument()
{
    using nlohmann::json;
    json nodes = json::array(), links = json::array();
    for (const char *id : {"a", "b", "c"}) {
        nodes.push_back({{"id", id}, {"cpus", 16}, {"memory_gib", 64}, {"gpus", 4},
                         {"gpu_type", "K80"}});
        links.push_back({{"a", id}, {"b", "s"}, {"capacity_gbps", 10}});
    }
    const auto job = [](const char *id, int cpus, int mem, int gpus) {
        return json{{"id", id}, {"kind", "single"}, {"submit_s", 0},
                    {"tasks", {{{"role", "single"}, {"replicas", 1}, {"cpus", cpus},
                                {"memory_gib", mem}, {"gpus", gpus}}}},
                    {"model", {{"name", "m"}, {"parameter_bytes", 1000000},
                               {"iterations", 100}}}};
    };
    return {{"format", "clusterbench-scenario"},
            {"version", 1},
            {"name", "three-nodes"},
            {"cluster", {{"gpu_types", {{{"name", "K80"}, {"memory_gib", 12}}}},
                         {"nodes", nodes},
                         {"switches", {{{"id", "s"}}}},
                         {"links", links}}},
            {"jobs", {job("j1", 1, 2, 1), job("j2", 1, 2, 1), job("j3", 2, 4, 2)}}};
}

} // namespace cbtest
