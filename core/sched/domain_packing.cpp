#include "sched/domain_packing.h"

#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cb {

namespace {

/// Whole GPUs of a group that count for domains (shared GPU fractions do not).
int wholeGpus(const TaskGroup &g) { return g.gpus > 0 && g.gpuFraction >= 1.0 ? g.gpus : 0; }

double roundScore(double x) { return std::floor(x + 0.5); }

} // namespace

DomainPacking::DomainPacking(const Cluster &cluster)
{
    const std::vector<int> of = cluster.nvlinkDomainOfNodes();
    m_domain.assign(of.size(), -1);
    for (const NvlinkDomain &d : cluster.nvlinkDomains)
        m_names.push_back(d.id);
    m_members.resize(m_names.size());
    for (std::size_t i = 0; i < of.size(); ++i) {
        int d = of[i];
        if (d < 0) {
            d = int(m_names.size());
            m_names.push_back(cluster.nodes[i].id);
            m_members.emplace_back();
        }
        m_domain[i] = d;
        m_members[std::size_t(d)].push_back(int(i));
    }
    m_jobTasks.assign(m_names.size(), 0);
    m_room.assign(m_names.size(), 0.0);
    m_raw.assign(of.size(), 0.0);
}

void DomainPacking::beginJob(const Job &job)
{
    for (int d : m_jobDomains)
        m_jobTasks[std::size_t(d)] = 0;
    m_jobDomains.clear();
    m_shapeGpus = 0;
    m_jobGpus = m_boundGpus = 0;
    for (const TaskGroup &g : job.tasks) {
        const int w = wholeGpus(g);
        m_shapeGpus = std::max(m_shapeGpus, w);
        m_jobGpus += double(w) * g.replicas;
    }
}

void DomainPacking::noteBound(int n, const TaskGroup &group, int sign)
{
    const int d = m_domain[std::size_t(n)];
    int &count = m_jobTasks[std::size_t(d)];
    if (count == 0 && sign > 0 &&
        std::find(m_jobDomains.begin(), m_jobDomains.end(), d) == m_jobDomains.end())
        m_jobDomains.push_back(d);
    count += sign;
    m_boundGpus += sign * double(wholeGpus(group));
}

void DomainPacking::prepare(const ClusterState &state, const TaskGroup &group,
                            const double *total)
{
    const int gs = wholeGpus(group) > 0 ? wholeGpus(group) : m_shapeGpus;
    m_need = std::max(0.0, m_jobGpus - m_boundGpus);
    m_best = -1;
    m_fitting = 0;
    if (gs <= 0) {
        m_mode = Mode::NoGpus;
        bool anywhere = false;
        for (int d : m_jobDomains)
            anywhere = anywhere || m_jobTasks[std::size_t(d)] > 0;
        for (std::size_t i = 0; i < m_raw.size(); ++i)
            m_raw[i] = !anywhere || m_jobTasks[std::size_t(m_domain[i])] > 0 ? 10.0 : 0.0;
        return;
    }
    // Room: tasks of gs GPUs (with this task's CPU and memory) each feasible node could take.
    const double *cpuCap = state.cpuCap(), *cpuUsed = state.cpuUsed();
    const double *memCap = state.memCap(), *memUsed = state.memUsed();
    const double *free = state.gpuFreeWhole();
    constexpr double eps = 1e-9;
    for (std::size_t d = 0; d < m_members.size(); ++d) {
        double room = 0;
        for (int i : m_members[d]) {
            if (total[i] < 0)
                continue;
            double k = std::floor(free[i] / gs + eps);
            if (group.cpus > 0)
                k = std::min(k, std::floor((cpuCap[i] - cpuUsed[i]) / group.cpus + eps));
            if (group.memoryGiB > 0)
                k = std::min(k, std::floor((memCap[i] - memUsed[i]) / group.memoryGiB + eps));
            room += std::max(0.0, k) * gs;
        }
        m_room[d] = room;
    }
    bool stay = false;
    for (int d : m_jobDomains)
        stay = stay || (m_jobTasks[std::size_t(d)] > 0 && m_room[std::size_t(d)] >= gs);
    if (stay) {
        m_mode = Mode::Stay;
        for (std::size_t i = 0; i < m_raw.size(); ++i)
            m_raw[i] = m_jobTasks[std::size_t(m_domain[i])] > 0 ? 10.0 : 0.0;
        return;
    }
    const double need = std::max(m_need, double(gs));
    double tightest = std::numeric_limits<double>::infinity(), largest = 0;
    for (std::size_t d = 0; d < m_room.size(); ++d) {
        const double room = m_room[d];
        if (room >= need) {
            ++m_fitting;
            if (room < tightest) {
                tightest = room;
                m_best = int(d);
            }
        }
        largest = std::max(largest, room);
    }
    if (m_fitting > 0) {
        m_mode = Mode::Fits;
        for (std::size_t i = 0; i < m_raw.size(); ++i) {
            const double room = m_room[std::size_t(m_domain[i])];
            m_raw[i] = room == tightest ? 10.0
                       : room >= need   ? 7.0
                                        : std::min(3.0, roundScore(3.0 * room / need));
        }
        return;
    }
    m_mode = Mode::Spread;
    for (std::size_t d = 0; d < m_room.size(); ++d)
        if (m_room[d] == largest && largest > 0) {
            m_best = int(d);
            break;
        }
    for (std::size_t i = 0; i < m_raw.size(); ++i)
        m_raw[i] = largest > 0 ? roundScore(10.0 * m_room[std::size_t(m_domain[i])] / largest)
                               : 0.0;
}

std::string DomainPacking::reason(int n) const
{
    const int d = m_domain[std::size_t(n)];
    const std::string name = "NVLink domain " + m_names[std::size_t(d)];
    const std::string gpus = wholeOrNumberText(m_need) + " GPU" + (m_need == 1 ? "" : "s");
    switch (m_mode) {
    case Mode::NoGpus:
        return "no whole GPUs to keep together; stays with its tasks";
    case Mode::Stay:
        if (m_jobTasks[std::size_t(d)] > 0)
            return "keeps the job in " + name + ", which holds " +
                   std::to_string(m_jobTasks[std::size_t(d)]) + " of its tasks";
        return "leaves the domains that hold the job's tasks (" + name + ")";
    case Mode::Fits: {
        const std::string best = "NVLink domain " + m_names[std::size_t(m_best)];
        const std::string room = wholeOrNumberText(m_room[std::size_t(d)]);
        if (m_room[std::size_t(d)] == m_room[std::size_t(m_best)])
            return "the whole job (" + gpus + ") fits in " + name + " (room for " + room +
                   "), the tightest of " + std::to_string(m_fitting) + " domain" +
                   (m_fitting == 1 ? "" : "s") + " that hold it";
        if (m_room[std::size_t(d)] >= m_need)
            return "the job (" + gpus + ") fits in " + name + " (room for " + room +
                   "), but " + best + " fits tighter";
        return "the job (" + gpus + ") does not fit in " + name + " (room for " + room +
               "); it fits in " + best;
    }
    case Mode::Spread:
        return "no NVLink domain has room for the job's " + gpus + " (largest: " +
               wholeOrNumberText(m_best >= 0 ? m_room[std::size_t(m_best)] : 0.0) + " in " +
               (m_best >= 0 ? m_names[std::size_t(m_best)] : std::string("none")) +
               "); the fewest domains, largest first (" + name + ": room for " +
               wholeOrNumberText(m_room[std::size_t(d)]) + ")";
    }
    return {};
}

} // namespace cb
