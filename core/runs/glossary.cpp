#include "runs/glossary.h"

#include <map>

namespace cb {

std::string pluginGlossary(const std::string &plugin)
{
    static const std::map<std::string, std::string> text = {
        {"least-allocated",
         "Spreads load: scores 0..10 by the share of the node's CPU and memory (and GPUs, if "
         "configured) still free after the task; the emptiest node scores highest "
         "(kube-scheduler's LeastRequestedPriority)."},
        {"most-allocated",
         "Packs load (bin-packing): scores 0..10 by the share of the node's CPU and memory "
         "used after the task; the fullest node that still fits scores highest, leaving whole "
         "nodes free for big jobs (kube-scheduler's MostRequestedPriority)."},
        {"balanced-allocation",
         "Keeps CPU and memory use in step: 10 minus ten times the gap between the node's "
         "CPU and memory fractions after the task, so no resource is stranded "
         "(kube-scheduler's BalancedResourceAllocation)."},
        {"selector-spread",
         "Spreads a job's tasks: 10 on nodes holding none of the job's tasks, less on nodes "
         "that hold the most (kube-scheduler's SelectorSpreadPriority); it works against "
         "DLTAP."},
        {"dltap",
         "Keeps traffic inside nodes (DLTAP, Liu et al.): scores round(10 x A), A the share "
         "of the task's counterparts (its parameter servers for a worker, its workers for a "
         "parameter server) already on the node, so gradients travel over the node's own bus "
         "instead of the network."},
        {"topology-distance",
         "Keeps a job's tasks close in the network: 10 on the nodes fewest switch hops from "
         "the job's placed tasks, falling to 0 on the farthest feasible node."},
        {"nvlink-packing",
         "Prefers nodes where the task's GPUs fit inside one NVLink domain: 10 when that "
         "domain is already partly used (packing), 8 when it is empty, 0 when no domain can "
         "hold them."},
        {"nvlink-domain",
         "Keeps a job's GPUs inside one NVLink domain (a multi-node domain such as a GB200 "
         "NVL72 rack, else the node): 10 on the domains that already hold the job's tasks "
         "while they have room; for a new job 10 on the tightest domain that holds all its "
         "GPUs, 7 on the other domains that hold them; when none does, the largest domains "
         "first, so the job spans as few as it can."},
        {"node-affinity",
         "Prefers nodes carrying all of the policy's preferred labels: 10 there, 0 elsewhere "
         "(a soft Kubernetes node affinity)."},
        {"random",
         "A seeded uniform draw 0..10 per node and decision: the baseline that any real "
         "policy should beat; the same seed gives the same draws."},
        {"energy-efficiency",
         "Prefers GPUs that train this job with the least energy per step: 10 x the best "
         "feasible node's joules per step / this node's (busy watts x seconds per "
         "iteration on its GPU type)."},
    };
    auto it = text.find(plugin);
    return it == text.end() ? std::string() : it->second;
}

std::string metricGlossary(const std::string &key)
{
    static const std::map<std::string, std::string> text = {
        {"cross_node_bytes",
         "Bytes that crossed the network between nodes (per training iteration for a "
         "placement, over the whole run when simulated); what DLTAP lowers. Lower is better."},
        {"total_bytes",
         "All bytes the jobs exchanged, inside nodes and across the network."},
        {"mean_jct_s",
         "Mean job completion time: from a job's submission to its end, waiting included, "
         "over the jobs that finished. Lower is better."},
        {"makespan_s", "Time from the first submission to the last job's end. Lower is better."},
        {"energy_kwh",
         "Energy the cluster drew: idle and busy watts of nodes and GPUs over time, times "
         "the PUE. Lower is better."},
        {"cost",
         "What the run paid for resources: energy at the scenario's price, GPU-hours at list "
         "price, or the STS price catalogue, as the run's cost model says."},
        {"tardiness_s",
         "Seconds by which jobs finished after their due dates, summed (early jobs count 0)."},
        {"tardiness_cost",
         "Each late job's seconds late times its tardiness weight, summed: the penalty STS "
         "minimises with the resource cost."},
        {"total_cost", "Resource cost plus tardiness cost: the figure STS minimises."},
        {"violations", "Jobs that finished after their due date (by more than a microsecond)."},
        {"stranded_gpu_h",
         "GPU-hours free while jobs waited, on nodes where a waiting job's smallest GPU task "
         "would fit: a task could use them, its gang could not start (fragmentation). "
         "Simulated runs; lower is better."},
        {"intra_node_bytes",
         "Bytes the jobs exchanged inside nodes (over their own bus), per training iteration."},
        {"max_link_bytes",
         "Bytes per training iteration on the busiest link: where the network is hot."},
        {"max_link_seconds",
         "Seconds per training iteration the busiest link needs to carry its bytes at its "
         "capacity."},
        {"mean_hops",
         "Byte-weighted mean number of links the traffic crossed (0 inside a node)."},
    };
    auto it = text.find(key);
    if (it == text.end() && key.starts_with("iteration_"))
        it = text.find(key.substr(10)); // a simulated run's placement figures, per iteration
    if (it == text.end())
        return std::string();
    if (key == "iteration_cross_node_bytes" || key == "iteration_total_bytes")
        return it->second + " Of the placement at the start, per training iteration.";
    return it->second;
}

} // namespace cb
