#pragma once
// Small hand-checkable scenarios and placements shared by the exporter tests.
//
// Cluster: gpu-01..gpu-04 (32 CPUs, 256 GiB, 8 A100 each; racks r1 = 01,02 and r2 = 03,04;
// partition gpu) and cpu-01 (16 CPUs, 64 GiB, no GPU; partition cpu). leaf-1 links gpu-01,
// gpu-02, cpu-01; leaf-2 links gpu-03, gpu-04; spine-1 links both leaves.
// Jobs:
//   tf-disjoint  PS job: ps-0 on cpu-01; worker-0 on gpu-01, worker-1 on gpu-02 (2 GPUs each)
//   tf-shared    PS job whose roles share nodes: ps-0, worker-0, worker-2 on gpu-03;
//                ps-1, worker-1 on gpu-04
//   ring         all-reduce: worker-0 on gpu-01, worker-1 on gpu-02 (2 GPUs each)
//   solo         single task on gpu-04 (1 GPU)

#include "model/scenario.h"
#include "model/placement.h"

#include <map>
#include <string>
#include <vector>

namespace cbtest {

inline cb::Node exportNode(const std::string &id, double cpus, double mem, int gpus,
                           const std::string &rack, const std::string &partition)
{
    cb::Node n;
    n.id = id;
    n.cpus = cpus;
    n.memoryGiB = mem;
    n.gpus = gpus;
    n.gpuType = gpus > 0 ? "A100" : "";
    n.rack = rack;
    n.partition = partition;
    return n;
}

inline cb::TaskGroup exportGroup(cb::TaskRole role, int replicas, double cpus, double mem, int gpus)
{
    cb::TaskGroup g;
    g.role = role;
    g.replicas = replicas;
    g.cpus = cpus;
    g.memoryGiB = mem;
    g.gpus = gpus;
    return g;
}

inline cb::Job exportJob(const std::string &id, cb::JobKind kind, std::vector<cb::TaskGroup> groups)
{
    cb::Job j;
    j.id = id;
    j.name = id;
    j.kind = kind;
    j.tasks = std::move(groups);
    j.image = "registry.example.com/train:1.0";
    j.command = {"python3", "train.py", "--epochs", "3"};
    return j;
}

inline cb::Scenario exportScenario()
{
    using cb::TaskRole;
    cb::Scenario s;
    s.name = "export fixture";
    cb::GpuType a100;
    a100.name = "A100";
    a100.memoryGiB = 80;
    s.cluster.gpuTypes = {a100};
    s.cluster.nodes = {exportNode("gpu-01", 32, 256, 8, "r1", "gpu"),
                       exportNode("gpu-02", 32, 256, 8, "r1", "gpu"),
                       exportNode("gpu-03", 32, 256, 8, "r2", "gpu"),
                       exportNode("gpu-04", 32, 256, 8, "r2", "gpu"),
                       exportNode("cpu-01", 16, 64, 0, "r1", "cpu")};
    s.cluster.switches = {{"leaf-1", "leaf"}, {"leaf-2", "leaf"}, {"spine-1", "spine"}};
    for (const char *n : {"gpu-01", "gpu-02", "cpu-01"})
        s.cluster.links.push_back({"leaf-1", n, 100, 1});
    for (const char *n : {"gpu-03", "gpu-04"})
        s.cluster.links.push_back({"leaf-2", n, 100, 1});
    s.cluster.links.push_back({"leaf-1", "spine-1", 400, 1});
    s.cluster.links.push_back({"leaf-2", "spine-1", 400, 1});
    s.jobs = {
        exportJob(
            "tf-disjoint", cb::JobKind::ParameterServer,
            {exportGroup(TaskRole::Ps, 1, 4, 8, 0), exportGroup(TaskRole::Worker, 2, 8, 32, 2)}),
        exportJob(
            "tf-shared", cb::JobKind::ParameterServer,
            {exportGroup(TaskRole::Ps, 2, 4, 8, 0), exportGroup(TaskRole::Worker, 3, 8, 32, 2)}),
        exportJob("ring", cb::JobKind::AllReduce, {exportGroup(TaskRole::Worker, 2, 8, 64, 2)}),
        exportJob("solo", cb::JobKind::Single, {exportGroup(TaskRole::Single, 1, 2, 4, 1)}),
    };
    return s;
}

inline cb::TaskAssignment exportTask(cb::TaskRole role, int group, int index,
                                     const std::string &node, std::vector<int> gpus = {})
{
    cb::TaskAssignment a;
    a.role = role;
    a.group = group;
    a.indexInRole = index;
    a.node = node;
    a.gpuIndices = std::move(gpus);
    return a;
}

inline cb::Placement exportPlacement()
{
    using cb::TaskRole;
    cb::Placement p;
    p.jobs.push_back({"tf-disjoint",
                      {exportTask(TaskRole::Ps, 0, 0, "cpu-01"),
                       exportTask(TaskRole::Worker, 1, 0, "gpu-01", {0, 1}),
                       exportTask(TaskRole::Worker, 1, 1, "gpu-02", {0, 1})},
                      0});
    p.jobs.push_back(
        {"tf-shared",
         {exportTask(TaskRole::Ps, 0, 0, "gpu-03"), exportTask(TaskRole::Ps, 0, 1, "gpu-04"),
          exportTask(TaskRole::Worker, 1, 0, "gpu-03", {0, 1}),
          exportTask(TaskRole::Worker, 1, 1, "gpu-04", {0, 1}),
          exportTask(TaskRole::Worker, 1, 2, "gpu-03", {2, 3})},
         0});
    p.jobs.push_back({"ring",
                      {exportTask(TaskRole::Worker, 0, 0, "gpu-01", {2, 3}),
                       exportTask(TaskRole::Worker, 0, 1, "gpu-02", {2, 3})},
                      0});
    p.jobs.push_back({"solo", {exportTask(TaskRole::Single, 0, 0, "gpu-04", {4})}, 0});
    return p;
}

/// tf-shared and ring, every task on gpu-01 without GPU indices: 48 CPUs and 10 GPUs on a
/// node of 32 and 8 (memory fits: 240 of 256 GiB). CPUs go over at ring's worker-0 (40),
/// GPUs at its worker-1 (10).
inline cb::Placement overloadedPlacement()
{
    using cb::TaskRole;
    cb::Placement p;
    p.jobs.push_back(
        {"tf-shared",
         {exportTask(TaskRole::Ps, 0, 0, "gpu-01"), exportTask(TaskRole::Ps, 0, 1, "gpu-01"),
          exportTask(TaskRole::Worker, 1, 0, "gpu-01"),
          exportTask(TaskRole::Worker, 1, 1, "gpu-01"),
          exportTask(TaskRole::Worker, 1, 2, "gpu-01")},
         0});
    p.jobs.push_back({"ring",
                      {exportTask(TaskRole::Worker, 0, 0, "gpu-01"),
                       exportTask(TaskRole::Worker, 0, 1, "gpu-01")},
                      0});
    return p;
}

/// A first-fit placement of every job of `s` (tasks in order, on the first node with room),
/// so tests can export scenarios that come without one. Jobs that do not fit are waiting.
inline cb::Placement firstFitPlacement(const cb::Scenario &s)
{
    struct Free
    {
        double cpus, mem;
        int gpus;
        int nextGpu = 0;
    };
    std::map<std::string, Free> free;
    for (const cb::Node &n : s.cluster.nodes)
        free[n.id] = {n.cpus, n.memoryGiB, n.gpus};
    cb::Placement p;
    for (const cb::Job &job : s.jobs) {
        auto saved = free;
        cb::JobPlacement jp;
        jp.jobId = job.id;
        std::map<cb::TaskRole, int> next;
        bool ok = true;
        for (std::size_t g = 0; g < job.tasks.size() && ok; ++g) {
            const cb::TaskGroup &tg = job.tasks[g];
            for (int r = 0; r < tg.replicas && ok; ++r) {
                ok = false;
                for (const cb::Node &n : s.cluster.nodes) {
                    Free &f = free[n.id];
                    const bool typeOk =
                        tg.gpus == 0 || tg.gpuType.empty() || tg.gpuType == n.gpuType;
                    if (f.cpus >= tg.cpus && f.mem >= tg.memoryGiB && f.gpus >= tg.gpus && typeOk) {
                        cb::TaskAssignment a;
                        a.role = tg.role;
                        a.group = int(g);
                        a.indexInRole = next[tg.role]++;
                        a.node = n.id;
                        for (int k = 0; k < tg.gpus; ++k)
                            a.gpuIndices.push_back(f.nextGpu++);
                        f.cpus -= tg.cpus;
                        f.mem -= tg.memoryGiB;
                        f.gpus -= tg.gpus;
                        jp.tasks.push_back(a);
                        ok = true;
                        break;
                    }
                }
            }
        }
        if (ok) {
            p.jobs.push_back(jp);
        } else {
            free = saved;
            p.waiting.push_back(job.id);
        }
    }
    return p;
}

} // namespace cbtest
