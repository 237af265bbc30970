#pragma once
// Semantic checks of a scenario, beyond what its JSON structure says. Each problem carries the
// JSON pointer of the offending value in the scenario file layout.

#include "model/scenario.h"
#include "util/result.h"

#include <map>
#include <string>

namespace cb {

/// Unique ids, links between existing endpoints, a connected network, positive finite
/// capacities, known GPU types, jobs whose roles match their kind, distributions that sum
/// to 1, sane settings. A scenario with problems cannot be loaded.
Problems validateScenario(const Scenario &scenario);

/// Jobs that can never start on the scenario's cluster, even empty: a task that no node can
/// hold, or more GPUs at once (the job's non-worker tasks and min_available workers, every
/// worker without it) than the cluster has. Not problems that stop a scenario loading: the
/// cluster is a what-if being edited (a rack removed, nodes still to add); `validate` warns,
/// and such a job waits for ever in a run. Each message starts with "job ID: ".
Problems jobsThatNeverStart(const Scenario &scenario);

/// The same for one job (its problems under `pointer`, e.g. "/jobs/3").
Problems jobNeverStarts(const Cluster &cluster, const Job &job, const std::string &pointer);

/// jobNeverStarts for many jobs of one cluster, its GPUs counted once (per job, the count
/// made a 100k-job trace on 16k nodes quadratic). Keeps a reference to the cluster.
class NeverStartCheck
{
public:
    explicit NeverStartCheck(const Cluster &cluster);
    Problems operator()(const Job &job, const std::string &pointer) const;

private:
    const Cluster &m_cluster;
    std::map<std::string, int> m_gpusByType;
    int m_gpus = 0;
};

/// Whether a task of `group` could run on `node` if the node were empty (ignores load).
/// When it cannot, `why` (if given) gets the first reason.
bool taskFitsEmptyNode(const TaskGroup &group, const Node &node, std::string *why = nullptr);

} // namespace cb
