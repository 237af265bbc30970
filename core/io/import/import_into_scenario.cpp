#include "io/import/import_into_scenario.h"

#include "io/import/cluster_links.h"
#include "io/import/imported_gpu_types.h"
#include "model/validation.h"

#include <set>

namespace cb {

Cluster defaultImportCluster()
{
    Cluster c;
    c.gpuTypes.push_back(importedGpuType("V100"));
    c.switches.push_back({"switch0", "tor"});
    for (int i = 0; i < 4; ++i) {
        Node n;
        n.id = "node" + std::to_string(i);
        n.cpus = 64;
        n.memoryGiB = 512;
        n.gpus = 8;
        n.gpuType = "V100";
        n.rack = "switch0";
        n.labels["kubernetes.io/hostname"] = n.id;
        c.nodes.push_back(n);
        addImportLink(c, n.id, "switch0", true);
    }
    return c;
}

void addImportedJobs(Scenario &scenario, ImportReport &report)
{
    std::set<std::string> ids;
    for (const Job &j : scenario.jobs)
        ids.insert(j.id);
    std::set<std::string> droppedTypes;
    std::size_t droppedJobs = 0, renamed = 0;
    for (std::size_t i = 0; i < report.jobs.size(); ++i) {
        Job job = report.jobs[i];
        const ImportNote origin =
            i < report.jobOrigins.size() ? report.jobOrigins[i] : ImportNote{};
        bool dropped = false;
        for (TaskGroup &g : job.tasks)
            if (!g.gpuType.empty() && !scenario.cluster.gpuType(g.gpuType)) {
                droppedTypes.insert(g.gpuType);
                g.gpuType.clear();
                dropped = true;
            }
        droppedJobs += dropped;
        std::string why;
        bool fits = true;
        for (const TaskGroup &g : job.tasks) {
            bool any = false;
            std::string reason;
            for (const Node &n : scenario.cluster.nodes) {
                if (taskFitsEmptyNode(g, n, &reason)) {
                    any = true;
                    break;
                }
                reason = n.id + ": " + reason;
            }
            if (!any) {
                fits = false;
                why = reason;
                break;
            }
        }
        if (!fits) {
            report.skip(origin.file, origin.line,
                        "job \"" + job.id +
                            "\" cannot run on this cluster: no node can hold "
                            "its task (last node checked, " +
                            why + ")");
            continue;
        }
        if (ids.count(job.id)) {
            int k = 2;
            while (ids.count(job.id + "~" + std::to_string(k)))
                ++k;
            job.id += "~" + std::to_string(k);
            ++renamed;
        }
        ids.insert(job.id);
        scenario.jobs.push_back(std::move(job));
    }
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
    for (const auto &[model, table] : report.stepTimeModels) {
        if (scenario.stepTimeModels.count(model))
            report.assume("the scenario's step-time model for \"" + model + "\" was replaced");
        scenario.stepTimeModels[model] = table;
    }
}

} // namespace cb
