#pragma once
// The nvlink-domain scoring plugin: keeps a job's GPUs inside one NVLink domain when it fits,
// otherwise in the fewest domains. A domain is a multi-node NVLink domain of the cluster
// (Cluster::nvlinkDomains, e.g. a GB200 NVL72 rack); a node outside all of them is a domain
// of its own. Per decision, with R the GPUs the job still needs (this task's included) and a
// domain's room the GPUs that tasks of the job's shape (its GPUs per task, this task's CPU
// and memory) could still take on the domain's feasible nodes:
//   - the job already has tasks in a domain that has room for one more: 10 on the nodes of
//     the job's domains, 0 elsewhere (stay);
//   - else, domains whose room holds all R GPUs: 10 on the tightest (least room, so larger
//     free domains stay whole for larger jobs), 7 on the others that fit, and
//     round(3 x room / R) on the domains that do not fit;
//   - else (no domain holds the job): round(10 x room / largest room), the largest domain
//     first, so the job spreads over as few domains as it can.
// Jobs without whole-GPU tasks score 10 everywhere (they stay with their tasks like above).
// With weight 10 next to the dltap preset's plugins (at most 50 points apart on one node) the
// stay rule always wins, and so does a fitting domain on a job's first task (the other
// plugins differ by at most 20 there: selector-spread and dltap are equal on every node).

#include "model/cluster.h"
#include "model/job.h"
#include "sched/cluster_state.h"

#include <string>
#include <vector>

namespace cb {

class DomainPacking
{
public:
    explicit DomainPacking(const Cluster &cluster);

    void beginJob(const Job &job);
    /// A task of the job was bound to (sign +1) or taken off (sign -1) node `n`.
    void noteBound(int n, const TaskGroup &group, int sign);
    /// Computes the scores of the next decision for a task of `group`; `total[i] >= 0` marks
    /// the nodes that are feasible for it.
    void prepare(const ClusterState &state, const TaskGroup &group, const double *total);
    /// Score of node `n` (0..10) as last prepared.
    double raw(int n) const { return m_raw[std::size_t(n)]; }
    /// Why node `n` scores what it does, for the decision log.
    std::string reason(int n) const;

    /// Domain of node `n`: an index into Cluster::nvlinkDomains, or for a node outside them
    /// nvlinkDomains.size() + its rank among such nodes.
    int domainOf(int n) const { return m_domain[std::size_t(n)]; }
    const std::string &domainName(int d) const { return m_names[std::size_t(d)]; }
    int domainCount() const { return int(m_names.size()); }

private:
    enum class Mode { NoGpus, Stay, Fits, Spread };

    std::vector<int> m_domain;                  // per node
    std::vector<std::vector<int>> m_members;    // per domain, node indices
    std::vector<std::string> m_names;           // per domain
    std::vector<int> m_jobTasks;                // per domain, tasks of the job being placed
    std::vector<int> m_jobDomains;              // domains with such tasks, in first-use order
    std::vector<double> m_room;                 // per domain, as last prepared
    std::vector<double> m_raw;                  // per node
    int m_shapeGpus = 0;                        // GPUs per task of the job's GPU tasks
    double m_jobGpus = 0, m_boundGpus = 0;
    double m_need = 0;                          // as last prepared
    Mode m_mode = Mode::NoGpus;
    int m_best = -1;                            // tightest fitting / largest domain
    int m_fitting = 0;                          // domains that hold the job
};

} // namespace cb
