#pragma once
// Scenarios built in code for the view tests: small and hand-checkable, or large for
// benchmarks. Deterministic: no randomness.

#include "../common/three_node_scenario.h"
#include "io/scenario_json.h"
#include "model/scenario.h"

#include <QtGlobal>

#include <nlohmann/json.hpp>

#include <string>

namespace cb::testing {

/// A two-tier leaf-spine cluster: `leaves` leaf switches each with `hostsPerLeaf` nodes of
/// `gpusPerHost` V100 GPUs (rack "rNN"), `spines` spine switches linked to every leaf.
/// Host links are 100 Gbit/s, leaf-spine links 400 Gbit/s. Jobs: one of each kind.
inline Scenario leafSpineScenario(int leaves, int spines, int hostsPerLeaf, int gpusPerHost = 8)
{
    Scenario s;
    s.name = "Leaf-spine test cluster";
    s.description = "Built in code by the view tests.";
    s.cluster.gpuTypes.push_back(GpuType{"V100", 32, 1.0, 50, 300, 2.48});
    auto num = [](int v, int width) {
        std::string t = std::to_string(v);
        return std::string(std::size_t(std::max(0, width - int(t.size()))), '0') + t;
    };
    for (int sp = 0; sp < spines; ++sp)
        s.cluster.switches.push_back(Switch{"spine" + num(sp + 1, 2), "spine"});
    for (int l = 0; l < leaves; ++l) {
        const std::string leaf = "leaf" + num(l + 1, 3);
        s.cluster.switches.push_back(Switch{leaf, "leaf"});
        for (int sp = 0; sp < spines; ++sp)
            s.cluster.links.push_back(Link{leaf, "spine" + num(sp + 1, 2), 400, 1});
        for (int h = 0; h < hostsPerLeaf; ++h) {
            Node n;
            n.id = "r" + num(l + 1, 3) + "-n" + num(h + 1, 2);
            n.cpus = 64;
            n.memoryGiB = 512;
            n.gpus = gpusPerHost;
            n.gpuType = gpusPerHost > 0 ? "V100" : "";
            n.rack = "r" + num(l + 1, 3);
            n.partition = "gpu";
            n.baseWatts = 400;
            if (gpusPerHost > 0) {
                n.interconnect.kind = GpuInterconnect::Kind::Nvlink;
                n.interconnect.bandwidthGbps = 1200;
            }
            s.cluster.nodes.push_back(n);
            s.cluster.links.push_back(Link{n.id, leaf, 100, 2});
        }
    }
    auto task = [](TaskRole role, int replicas, int gpus) {
        TaskGroup g;
        g.role = role;
        g.replicas = replicas;
        g.cpus = 4;
        g.memoryGiB = 16;
        g.gpus = gpus;
        return g;
    };
    Job ps;
    ps.id = "resnet50-ps";
    ps.name = "ResNet-50 parameter server";
    ps.kind = JobKind::ParameterServer;
    ps.submitSeconds = 0;
    ps.dueSeconds = 7200;
    ps.tasks = {task(TaskRole::Ps, 2, 0), task(TaskRole::Worker, 4, 1)};
    ps.model = ModelProfile{"resnet50", 102'400'000, 5000, 0.25, {}, 0, std::nullopt};
    Job ar;
    ar.id = "bert-ar";
    ar.name = "BERT-large all-reduce";
    ar.kind = JobKind::AllReduce;
    ar.submitSeconds = 600;
    ar.tasks = {task(TaskRole::Worker, 8, gpusPerHost > 0 ? 1 : 0)};
    ar.model = ModelProfile{"bert-large", 1'340'000'000, 20000, 0.4, {}, 0, std::nullopt};
    Job single;
    single.id = "vgg16-1";
    single.name = "VGG-16 single";
    single.kind = JobKind::Single;
    single.submitSeconds = 3725;
    single.dueSeconds = 90061;
    single.tasks = {task(TaskRole::Single, 1, gpusPerHost > 0 ? 1 : 0)};
    single.model = ModelProfile{"vgg16", 553'000'000, 1000, 0.3, {}, 0, std::nullopt};
    s.jobs = {ps, ar, single};
    return s;
}

/// Three nodes a, b, c (16 CPUs, 64 GiB, 4 K80 each) under one switch; jobs j1 and j2 take
/// 1 CPU, 2 GiB and 1 GPU, j3 2 CPUs, 4 GiB and 2 GPUs. Two presets, the first node winning a
/// tie: "spread-first" (least-allocated over CPU, memory and GPUs) places j1, j2, j3 on a, b,
/// c; "pack-first" (most-allocated) all on a. They part at decision 2, on the same cluster:
/// spread scores b 8 and a 7, pack a 2 and b 0 (a resource scores trunc(10 x unused or used /
/// capacity) counting the task, a node trunc of their mean).
inline Scenario threeNodeScenario()
{
    using nlohmann::json;
    const auto preset = [](const char *name, const char *plugin) {
        return json{{"name", name},
                    {"plugins", {{plugin, {{"weight", 1}, {"gpu", true}}}}},
                    {"tie_break", "first"}};
    };
    json doc = cbtest::threeNodeDocument();
    doc["policies"] = {preset("spread-first", "least-allocated"),
                       preset("pack-first", "most-allocated")};
    auto s = scenarioFromJson(doc);
    if (!s)
        qFatal("three-node scenario invalid: %s", s.error().c_str());
    return s.value();
}

} // namespace cb::testing
