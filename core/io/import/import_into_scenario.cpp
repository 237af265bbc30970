#include "io/import/import_into_scenario.h"

#include "io/import/cluster_links.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "io/scenario_limits.h"
#include "model/gpu_catalog.h"
#include "model/validation.h"
#include "util/count_text.h"
#include "util/text.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

namespace cb {

Cluster defaultImportCluster(const std::string &gpuType)
{
    const std::string type = gpuType.empty() ? "V100" : gpuType;
    Cluster c;
    c.gpuTypes.push_back(importedGpuType(type));
    c.switches.push_back({"switch0", "tor"});
    for (int i = 0; i < 4; ++i) {
        Node n;
        n.id = "node" + std::to_string(i);
        n.cpus = 64;
        n.memoryGiB = 512;
        n.gpus = 8;
        n.gpuType = type;
        n.rack = "switch0";
        n.labels["kubernetes.io/hostname"] = n.id;
        c.nodes.push_back(n);
        addImportLink(c, n.id, "switch0", true);
    }
    return c;
}

namespace {

/// The largest of each resource over the nodes, for "needs more than any node has".
struct Largest
{
    double cpus = 0, memoryGiB = 0;
    int gpus = 0;
    std::map<std::string, int> gpusByType;
};

Largest largestNode(const Cluster &c)
{
    Largest l;
    for (const Node &n : c.nodes) {
        l.cpus = std::max(l.cpus, n.cpus);
        l.memoryGiB = std::max(l.memoryGiB, n.memoryGiB);
        l.gpus = std::max(l.gpus, n.gpus);
        if (n.gpus > 0)
            l.gpusByType[n.gpuType] = std::max(l.gpusByType[n.gpuType], n.gpus);
    }
    return l;
}

// Why no node holds task group g: a reason to group by, and the detail.
std::pair<std::string, std::string> whyNoNode(const TaskGroup &g, const Cluster &c,
                                              const Largest &l)
{
    if (g.gpus > l.gpus)
        return {"a task needs more GPUs than any node has (" + std::to_string(l.gpus) + " at most)",
                "needs " + std::to_string(g.gpus) + " GPUs in one task"};
    if (g.gpus > 0 && !g.gpuType.empty()) {
        auto it = l.gpusByType.find(g.gpuType);
        if (it == l.gpusByType.end())
            return {"needs GPU type " + g.gpuType + ", which no node has",
                    "needs " + std::to_string(g.gpus) + " " + g.gpuType + " GPUs"};
        if (g.gpus > it->second)
            return {"a task needs more " + g.gpuType + " GPUs than any node has (" +
                        std::to_string(it->second) + ")",
                    "needs " + std::to_string(g.gpus) + " in one task"};
    }
    if (g.cpus > l.cpus)
        return {"a task needs more CPUs than any node has (" + numberText(l.cpus) + ")",
                "needs " + numberText(g.cpus) + " CPUs"};
    if (g.memoryGiB > l.memoryGiB)
        return {"a task needs more memory than any node has (" + memoryText(l.memoryGiB) + ")",
                "needs " + memoryText(g.memoryGiB)};
    // Each resource fits some node, but no node has them all.
    std::string why;
    for (const Node &n : c.nodes)
        if (!taskFitsEmptyNode(g, n, &why))
            break;
    return {"no node has all that a task needs", "last node checked: " + why};
}

std::string describeLimit(const Problem &p, const Job &job)
{
    // "/jobs/0/model/iterations: ..." -> a hint where one helps.
    if (p.where.ends_with("/model/iterations"))
        return "too long: " + std::to_string(job.model.iterations) +
               " iterations is beyond the scenario format's 10^12 (give a larger "
               "--seconds-per-iteration)";
    if (p.where.ends_with("/submit_s"))
        return "submitted more than 10^12 s after the first job";
    if (p.where.ends_with("/gpu_fraction"))
        return "a GPU share below 1 % of one GPU (the scenario format's smallest)";
    return p.where.substr(p.where.find('/', 1) + 1) + ": " + p.message;
}

bool validText(const Job &job)
{
    if (importtext::invalidUtf8At(job.id) || importtext::invalidUtf8At(job.name) ||
        importtext::invalidUtf8At(job.model.name))
        return false;
    for (const TaskGroup &g : job.tasks)
        if (importtext::invalidUtf8At(g.gpuType))
            return false;
    return true;
}

} // namespace

bool addImportedJobs(Scenario &scenario, ImportReport &report,
                     const std::function<bool(std::size_t)> &progress)
{
    // Ids already taken: the scenario's own (the report's are unique among themselves: the
    // trace builder skips repeated ids). A renamed job's new id is checked against both.
    std::unordered_set<std::string> ids;
    ids.reserve(scenario.jobs.size());
    for (const Job &j : scenario.jobs)
        ids.insert(j.id);
    std::unordered_set<std::string> reportIds; // filled at the first clash only
    const Largest largest = largestNode(scenario.cluster);
    const long long clusterGpus = scenario.cluster.totalGpus();
    // Measured times keyed by GPU model ("V100" in Gavel's table) go to the cluster's GPU
    // types of that model ("Tesla-V100-SXM2-32GB"), once per key.
    std::map<std::string, std::vector<std::string>> typesOf;
    auto clusterTypes = [&](const std::string &key) -> const std::vector<std::string> & {
        auto [it, fresh] = typesOf.try_emplace(key);
        if (fresh) {
            if (scenario.cluster.gpuType(key)) {
                it->second.push_back(key);
            } else if (const std::string model = recogniseGpu(key).model; !model.empty()) {
                for (const GpuType &t : scenario.cluster.gpuTypes)
                    if (recogniseGpu(t.name).model == model)
                        it->second.push_back(t.name);
            }
        }
        return it->second;
    };
    std::set<std::string> measuredUsed, measuredUnused;
    std::map<std::string, std::string> matchedTypes; // trace's GPU type -> the cluster's
    std::set<std::string> droppedTypes;
    std::size_t droppedJobs = 0, renamed = 0;
    const std::size_t before = scenario.jobs.size();
    // (the reader's notes count the jobs it read: said so below if some are left out here)
    const std::size_t skippedBefore = report.skippedCount, notesBefore = report.assumptions.size();
    // Kept jobs are compacted to the front of report.jobs, then moved over in one go, so the
    // jobs are never held twice (a trace of millions of jobs).
    std::size_t kept = 0;
    for (std::size_t i = 0; i < report.jobs.size(); ++i) {
        if (progress && i % 4096 == 4095 && !progress(i + 1))
            return false;
        Job &job = report.jobs[i];
        const ImportNote origin = report.origin(i);
        if (!validText(job)) {
            report.skip(origin.file, origin.line,
                        "job " + importtext::shown(job.id) + " has a name that is not UTF-8",
                        "text that is not UTF-8");
            continue;
        }
        const Problems limits = limits::jobProblems(job, "/jobs/" + std::to_string(i));
        if (!limits.empty()) {
            const std::string why = describeLimit(limits.front(), job);
            report.skip(origin.file, origin.line, "job " + importtext::shown(job.id) + ": " + why,
                        why.substr(0, why.find(':')));
            continue;
        }
        if (!job.model.computeSecondsByGpuType.empty()) {
            std::map<std::string, double> mapped;
            for (const auto &[key, secs] : job.model.computeSecondsByGpuType) {
                const auto &types = clusterTypes(key);
                for (const std::string &t : types)
                    mapped[t] = secs;
                (types.empty() ? measuredUnused : measuredUsed).insert(key);
            }
            job.model.computeSecondsByGpuType = std::move(mapped);
        }
        bool dropped = false;
        for (TaskGroup &g : job.tasks)
            if (!g.gpuType.empty() && !scenario.cluster.gpuType(g.gpuType)) {
                // The same model under the cluster's name for it ("V100M32" -> "V100").
                if (const auto &types = clusterTypes(g.gpuType); !types.empty()) {
                    matchedTypes[g.gpuType] = types.front();
                    g.gpuType = types.front();
                    continue;
                }
                droppedTypes.insert(g.gpuType);
                g.gpuType.clear();
                dropped = true;
            }
        droppedJobs += dropped;
        bool fits = true;
        for (const TaskGroup &g : job.tasks) {
            bool any = false;
            for (const Node &n : scenario.cluster.nodes)
                if (taskFitsEmptyNode(g, n)) {
                    any = true;
                    break;
                }
            if (!any) {
                const auto [reason, detail] = whyNoNode(g, scenario.cluster, largest);
                report.skip(origin.file, origin.line,
                            "job " + importtext::shown(job.id) +
                                " cannot run on this cluster: " + detail + "; " + reason,
                            "cannot run on this cluster: " + reason);
                fits = false;
                break;
            }
        }
        if (!fits)
            continue;
        // All tasks run at once: the cluster must hold the whole job.
        if (const long long need = job.gpuCount(); need > clusterGpus) {
            report.skip(origin.file, origin.line,
                        "job " + importtext::shown(job.id) +
                            " cannot run on this cluster: it "
                            "needs " +
                            std::to_string(need) + " GPUs at once, the cluster has " +
                            std::to_string(clusterGpus),
                        "cannot run on this cluster: needs more GPUs at once than the cluster "
                        "has (" +
                            std::to_string(clusterGpus) + ")");
            continue;
        }
        if (ids.count(job.id)) {
            if (reportIds.empty())
                for (const Job &j : report.jobs)
                    reportIds.insert(j.id);
            int k = 2;
            while (ids.count(job.id + "~" + std::to_string(k)) ||
                   reportIds.count(job.id + "~" + std::to_string(k)))
                ++k;
            job.id += "~" + std::to_string(k);
            ids.insert(job.id);
            ++renamed;
        }
        if (kept != i) {
            report.jobs[kept] = std::move(job);
            if (i < report.jobOrigins.size())
                report.jobOrigins[kept] = report.jobOrigins[i];
        }
        ++kept;
    }
    report.jobs.resize(kept);
    report.jobOrigins.resize(std::min(kept, report.jobOrigins.size()));
    if (scenario.jobs.empty()) {
        scenario.jobs.swap(report.jobs);
    } else {
        scenario.jobs.reserve(before + kept);
        for (Job &j : report.jobs)
            scenario.jobs.push_back(std::move(j));
    }
    report.jobsWritten = scenario.jobs.size() - before;
    report.jobs = {};
    if (!droppedTypes.empty()) {
        std::string names;
        for (const std::string &t : droppedTypes)
            names += (names.empty() ? "" : ", ") + t;
        report.assume("GPU types " + names +
                      " are not in the cluster: that requirement was "
                      "dropped for " +
                      std::to_string(droppedJobs) + " jobs (any GPU type)");
    }
    if (renamed > 0)
        report.assume(std::to_string(renamed) + " job ids were already in the scenario: "
                                                "suffix ~N added");
    if (!matchedTypes.empty()) {
        std::string list;
        for (const auto &[from, to] : matchedTypes)
            list += (list.empty() ? "" : ", ") + from + " -> " + to;
        report.assume("GPU-type requirements matched to the cluster's type of the same model: " +
                      list);
    }
    if (!measuredUsed.empty() || !measuredUnused.empty()) {
        std::string used, unused;
        for (const std::string &k : measuredUsed) {
            std::string types;
            for (const std::string &t : typesOf[k])
                types += (types.empty() ? "" : ", ") + t;
            used += (used.empty() ? "" : "; ") + k + (types == k ? "" : " -> " + types);
        }
        for (const std::string &k : measuredUnused)
            unused += (unused.empty() ? "" : ", ") + k;
        report.assume("measured times per GPU type used for the cluster's " +
                      (used.empty() ? std::string("(none)") : used) +
                      (unused.empty() ? std::string()
                                      : "; not used (no such GPU in the cluster): " + unused));
    }
    for (const auto &[model, table] : report.stepTimeModels) {
        if (scenario.stepTimeModels.count(model))
            report.assume("the scenario's step-time model for \"" + model + "\" was replaced");
        scenario.stepTimeModels[model] = table;
    }
    if (const std::size_t leftOut = report.skippedCount - skippedBefore;
        leftOut > 0 && notesBefore > 0)
        report.assume("the counts of jobs in the notes on reading are of the jobs read: " +
                      std::to_string(leftOut) + (leftOut == 1 ? " was" : " were") +
                      " then left out against the cluster (listed above)");
    return true;
}

} // namespace cb
