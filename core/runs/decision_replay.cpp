#include "runs/decision_replay.h"

#include "sched/traffic.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <map>
#include <unordered_map>

namespace cb {

struct DecisionReplay::Contribution
{
    std::vector<std::pair<std::int64_t, double>> cells; ///< key source * nodes + destination
    std::vector<std::pair<std::int64_t, double>> groupCells; ///< key source * groups + dest.
    std::vector<std::pair<int, double>> links;
};

namespace {
constexpr int kNodesPerRacklessGroup = 64;
} // namespace

NodeGroups groupNodesByRack(const Cluster &cluster)
{
    NodeGroups out;
    const int nodes = int(cluster.nodes.size());
    std::unordered_map<std::string, int> rackGroup;
    out.groupOf.assign(std::size_t(nodes), -1);
    for (int n = 0; n < nodes; ++n) {
        const std::string &rack = cluster.nodes[std::size_t(n)].rack;
        if (rack.empty())
            continue;
        auto [it, added] = rackGroup.emplace(rack, out.count());
        if (added) {
            out.names.push_back(rack);
            out.sizes.push_back(0);
        }
        out.groupOf[std::size_t(n)] = it->second;
        ++out.sizes[std::size_t(it->second)];
    }
    for (int n = 0; n < nodes;) {
        if (out.groupOf[std::size_t(n)] >= 0) {
            ++n;
            continue;
        }
        out.allRacks = false;
        int last = n;
        while (last + 1 < nodes && out.groupOf[std::size_t(last + 1)] < 0 &&
               last + 1 - n < kNodesPerRacklessGroup)
            ++last;
        const int g = out.count();
        const auto &list = cluster.nodes;
        out.names.push_back(last == n ? list[std::size_t(n)].id
                                      : list[std::size_t(n)].id + " … " +
                                            list[std::size_t(last)].id);
        out.sizes.push_back(last - n + 1);
        for (int i = n; i <= last; ++i)
            out.groupOf[std::size_t(i)] = g;
        n = last + 1;
    }
    return out;
}

NodeGroups groupNodesByPod(const Topology &topo, const NodeGroups &racks)
{
    const int nodes = topo.nodeCount(), vertices = topo.vertexCount();
    // A switch's tier: its hops to the nearest node (breadth first from every node at once).
    std::vector<int> hops(static_cast<std::size_t>(vertices), -1);
    std::vector<int> frontier;
    for (int n = 0; n < nodes; ++n) {
        hops[std::size_t(n)] = 0;
        frontier.push_back(n);
    }
    for (std::size_t k = 0; k < frontier.size(); ++k)
        for (const Topology::Edge &e : topo.edges(frontier[k]))
            if (hops[std::size_t(e.to)] < 0) {
                hops[std::size_t(e.to)] = hops[std::size_t(frontier[k])] + 1;
                frontier.push_back(e.to);
            }
    const int top = vertices > 0 ? *std::max_element(hops.begin(), hops.end()) : 0;
    if (top < 2)
        return {}; // nodes and one tier of switches: no pods
    // The parts without the top tier, numbered from the nodes in order (breadth first).
    std::vector<int> part(static_cast<std::size_t>(vertices), -1);
    int parts = 0;
    for (int n = 0; n < nodes; ++n) {
        if (part[std::size_t(n)] >= 0)
            continue;
        part[std::size_t(n)] = parts;
        frontier.assign(1, n);
        for (std::size_t k = 0; k < frontier.size(); ++k)
            for (const Topology::Edge &e : topo.edges(frontier[k]))
                if (part[std::size_t(e.to)] < 0 && hops[std::size_t(e.to)] < top) {
                    part[std::size_t(e.to)] = parts;
                    frontier.push_back(e.to);
                }
        ++parts;
    }
    // Pods in the order of their first rack; a rack goes to its first node's part.
    NodeGroups out;
    out.allRacks = racks.allRacks;
    std::vector<int> podOfRack(std::size_t(racks.count()), -1);
    std::vector<int> podOfPart(std::size_t(parts), -1);
    std::vector<std::vector<int>> racksOf;
    for (int n = 0; n < nodes; ++n) {
        const int rack = racks.groupOf[std::size_t(n)];
        if (podOfRack[std::size_t(rack)] >= 0)
            continue;
        int &pod = podOfPart[std::size_t(part[std::size_t(n)])];
        if (pod < 0) {
            pod = int(racksOf.size());
            racksOf.emplace_back();
        }
        podOfRack[std::size_t(rack)] = pod;
        racksOf[std::size_t(pod)].push_back(rack);
    }
    const int pods = int(racksOf.size());
    if (pods <= 1 || pods == racks.count())
        return {};
    out.groupOf.resize(std::size_t(nodes));
    out.sizes.assign(std::size_t(pods), 0);
    for (int n = 0; n < nodes; ++n) {
        out.groupOf[std::size_t(n)] = podOfRack[std::size_t(racks.groupOf[std::size_t(n)])];
        ++out.sizes[std::size_t(out.groupOf[std::size_t(n)])];
    }
    for (const std::vector<int> &members : racksOf) {
        const std::string &first = racks.names[std::size_t(members.front())];
        const std::string &last = racks.names[std::size_t(members.back())];
        // What every member's name starts with, up to a separator ("pod-03-edge-" -> "pod-03").
        std::size_t common = first.size();
        for (int r : members) {
            const std::string &name = racks.names[std::size_t(r)];
            std::size_t k = 0;
            while (k < common && k < name.size() && name[k] == first[k])
                ++k;
            common = k;
        }
        std::string prefix = first.substr(0, common);
        const auto cut = prefix.find_last_of("-_.");
        const bool whole = members.size() == 1;
        if (!whole && cut != std::string::npos && cut > 0) {
            prefix.resize(cut);
            // "pod-03-edge" -> "pod-03": drop the racks' own word after the pod's.
            const auto word = prefix.find_last_of("-_.");
            const std::string tail = word == std::string::npos ? "" : prefix.substr(word + 1);
            if (!tail.empty() && !std::isdigit(static_cast<unsigned char>(tail.back())))
                prefix.resize(word);
            out.names.push_back(prefix);
        } else {
            out.names.push_back(whole ? first : first + " … " + last);
        }
    }
    // Two pods that share a name ("rack" for rack-1 ... rack-4 and rack-5 ... rack-8) are
    // named by their first and last racks instead.
    std::map<std::string, int> uses;
    for (const std::string &name : out.names)
        ++uses[name];
    for (int p = 0; p < pods; ++p)
        if (uses[out.names[std::size_t(p)]] > 1) {
            const std::vector<int> &members = racksOf[std::size_t(p)];
            out.names[std::size_t(p)] = racks.names[std::size_t(members.front())] + " … " +
                                        racks.names[std::size_t(members.back())];
        }
    return out;
}

DecisionReplay::DecisionReplay(const cb::Scenario &scenario, const cb::DecisionLog &log)
    : m_scenario(scenario)
    , m_log(log)
    , m_topology(std::make_unique<cb::Topology>(scenario.cluster))
    , m_nodes(int(scenario.cluster.nodes.size()))
{
    std::unordered_map<std::string, int> jobIndex;
    for (std::size_t j = 0; j < scenario.jobs.size(); ++j)
        jobIndex.emplace(scenario.jobs[j].id, int(j));
    const std::size_t jobs = scenario.jobs.size();
    m_jobFirst.assign(jobs, -1);
    m_jobLast.assign(jobs, -1);
    m_jobRollback.assign(jobs, INT_MAX);
    m_jobBound.assign(jobs, {});
    m_jobContribution.assign(jobs, nullptr);
    m_gpuMicro.assign(std::size_t(m_nodes), 0);
    m_tasksOnNode.assign(std::size_t(m_nodes), 0);
    m_linkBytes.assign(std::size_t(m_topology->directedLinkCount()), 0.0);
    m_groups = groupNodesByRack(scenario.cluster);

    for (const Decision &d : log.decisions) {
        auto it = jobIndex.find(d.jobId);
        const int j = it == jobIndex.end() ? -1 : it->second;
        std::int64_t micro = 0;
        if (j >= 0 && d.pick >= 0 && d.pick < m_nodes) {
            const Job &job = scenario.jobs[std::size_t(j)];
            if (d.group >= 0 && d.group < int(job.tasks.size())) {
                const TaskGroup &g = job.tasks[std::size_t(d.group)];
                if (g.gpus == 1 && g.gpuFraction < 1.0)
                    micro = std::llround(g.gpuFraction * 1e6);
                else
                    micro = std::int64_t(g.gpus) * 1'000'000;
            }
            if (m_jobFirst[std::size_t(j)] < 0)
                m_jobFirst[std::size_t(j)] = d.index;
            m_jobLast[std::size_t(j)] = d.index;
        } else if (j >= 0) {
            if (m_jobFirst[std::size_t(j)] < 0)
                m_jobFirst[std::size_t(j)] = d.index;
            m_jobLast[std::size_t(j)] = d.index;
        }
        m_decisionJob.push_back(j >= 0 && (d.pick < 0 || d.pick < m_nodes) ? j : -1);
        m_decisionGpuMicro.push_back(micro);
    }
    // Gang rollback: the job's tasks bound so far are unbound after the event's decision.
    for (const JobEvent &e : log.events) {
        if (e.kind != JobEvent::Kind::RolledBack)
            continue;
        auto it = jobIndex.find(e.jobId);
        if (it != jobIndex.end())
            m_jobRollback[std::size_t(it->second)] =
                std::min(m_jobRollback[std::size_t(it->second)], std::max(e.afterDecision, 0));
    }
}

DecisionReplay::~DecisionReplay() = default;

double DecisionReplay::pairBytes(int a, int b) const
{
    const auto it = m_cells.find(std::int64_t(a) * m_nodes + b);
    return it == m_cells.end() ? 0.0 : it->second;
}

double DecisionReplay::groupBytes(int a, int b) const
{
    const auto it = m_groupCells.find(std::int64_t(a) * groupCount() + b);
    return it == m_groupCells.end() ? 0.0 : it->second;
}

std::vector<double> DecisionReplay::denseMatrix() const
{
    std::vector<double> out(std::size_t(m_nodes) * std::size_t(m_nodes), 0.0);
    for (const auto &[key, bytes] : m_cells)
        out[std::size_t(key)] = bytes;
    return out;
}

int DecisionReplay::jobsWithTasks() const
{
    int n = 0;
    for (const auto &b : m_jobBound)
        n += b.empty() ? 0 : 1;
    return n;
}

std::vector<int> DecisionReplay::boundDecisions(int job, int c) const
{
    std::vector<int> out;
    const int first = m_jobFirst[std::size_t(job)];
    if (first < 0 || c < first || c >= m_jobRollback[std::size_t(job)])
        return out;
    const int last = std::min(c, m_jobLast[std::size_t(job)]);
    for (int i = first; i <= last; ++i)
        if (m_decisionJob[std::size_t(i)] == job && m_log.decisions[std::size_t(i)].pick >= 0)
            out.push_back(i);
    return out;
}

const DecisionReplay::Contribution &DecisionReplay::contribution(int job,
                                                                 const std::vector<int> &decisions)
{
    auto &slot = m_cache[{job, decisions.size()}];
    if (slot)
        return *slot;
    slot = std::make_unique<Contribution>();
    const Job &j = m_scenario.jobs[std::size_t(job)];
    JobPlacement jp;
    jp.jobId = j.id;
    for (int i : decisions) {
        const Decision &d = m_log.decisions[std::size_t(i)];
        TaskAssignment a;
        a.role = d.role;
        a.group = d.group;
        a.indexInRole = d.indexInRole;
        a.node = m_scenario.cluster.nodes[std::size_t(d.pick)].id;
        jp.tasks.push_back(std::move(a));
    }
    std::stable_sort(jp.tasks.begin(), jp.tasks.end(), [](const auto &a, const auto &b) {
        return std::make_pair(a.group, a.indexInRole) < std::make_pair(b.group, b.indexInRole);
    });
    Placement p;
    p.jobs.push_back(std::move(jp));
    const TrafficReport report =
        computeTraffic({j}, m_scenario.cluster, *m_topology, p, m_scenario.settings.allreduce);
    std::map<std::int64_t, double> groups; // summed in node-pair order: the same every time
    const std::int64_t groupCount = std::int64_t(m_groups.count());
    for (const auto &[pair, bytes] : report.pairBytes)
        if (bytes != 0) {
            slot->cells.emplace_back(std::int64_t(pair.first) * m_nodes + pair.second, bytes);
            groups[std::int64_t(m_groups.groupOf[std::size_t(pair.first)]) * groupCount +
                   m_groups.groupOf[std::size_t(pair.second)]] += bytes;
        }
    slot->groupCells.assign(groups.begin(), groups.end());
    for (std::size_t l = 0; l < report.linkBytes.size(); ++l)
        if (report.linkBytes[l] != 0)
            slot->links.emplace_back(int(l), report.linkBytes[l]);
    return *slot;
}

namespace {

template<typename Key>
void setEntry(std::unordered_map<Key, std::vector<std::pair<int, double>>> &index, Key key,
              int job, const double *bytes)
{
    auto &entries = index[key];
    auto it = std::lower_bound(entries.begin(), entries.end(), job,
                               [](const std::pair<int, double> &e, int j) { return e.first < j; });
    const bool present = it != entries.end() && it->first == job;
    if (!bytes) {
        if (present)
            entries.erase(it);
    } else if (present) {
        it->second = *bytes;
    } else {
        entries.insert(it, {job, *bytes});
    }
}

template<typename Key>
double sumEntries(std::unordered_map<Key, std::vector<std::pair<int, double>>> &index, Key key)
{
    auto it = index.find(key);
    if (it == index.end())
        return 0;
    if (it->second.empty()) {
        index.erase(it);
        return 0;
    }
    double sum = 0;
    for (const auto &e : it->second)
        sum += e.second;
    return sum;
}

} // namespace

void DecisionReplay::applyJob(int job, int c)
{
    std::vector<int> bound = boundDecisions(job, c);
    std::vector<int> &old = m_jobBound[std::size_t(job)];
    if (bound == old)
        return;
    for (int i : old) {
        const int n = m_log.decisions[std::size_t(i)].pick;
        m_gpuMicro[std::size_t(n)] -= m_decisionGpuMicro[std::size_t(i)];
        --m_tasksOnNode[std::size_t(n)];
        m_changedNodes.push_back(n);
    }
    for (int i : bound) {
        const int n = m_log.decisions[std::size_t(i)].pick;
        m_gpuMicro[std::size_t(n)] += m_decisionGpuMicro[std::size_t(i)];
        ++m_tasksOnNode[std::size_t(n)];
        m_changedNodes.push_back(n);
    }

    const Contribution *before = m_jobContribution[std::size_t(job)];
    const Contribution *after = bound.empty() ? nullptr : &contribution(job, bound);
    std::vector<std::int64_t> cells, groupCells;
    std::vector<int> links;
    if (before) {
        for (const auto &[key, bytes] : before->cells) {
            setEntry(m_cellJobs, key, job, nullptr);
            cells.push_back(key);
        }
        for (const auto &[key, bytes] : before->groupCells) {
            setEntry(m_groupJobs, key, job, nullptr);
            groupCells.push_back(key);
        }
        for (const auto &[l, bytes] : before->links) {
            setEntry(m_linkJobs, l, job, nullptr);
            links.push_back(l);
        }
    }
    if (after) {
        for (const auto &[key, bytes] : after->cells) {
            setEntry(m_cellJobs, key, job, &bytes);
            cells.push_back(key);
        }
        for (const auto &[key, bytes] : after->groupCells) {
            setEntry(m_groupJobs, key, job, &bytes);
            groupCells.push_back(key);
        }
        for (const auto &[l, bytes] : after->links) {
            setEntry(m_linkJobs, l, job, &bytes);
            links.push_back(l);
        }
    }
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    const auto store = [](std::map<std::int64_t, double> &values, std::int64_t key, double v) {
        if (v != 0)
            values[key] = v;
        else
            values.erase(key);
    };
    for (std::int64_t key : cells) {
        store(m_cells, key, sumEntries(m_cellJobs, key));
        m_changedCells.emplace_back(int(key / m_nodes), int(key % m_nodes));
    }
    std::sort(groupCells.begin(), groupCells.end());
    groupCells.erase(std::unique(groupCells.begin(), groupCells.end()), groupCells.end());
    const std::int64_t groups = groupCount();
    for (std::int64_t key : groupCells) {
        store(m_groupCells, key, sumEntries(m_groupJobs, key));
        m_changedGroupCells.emplace_back(int(key / groups), int(key % groups));
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    for (int l : links)
        m_linkBytes[std::size_t(l)] = sumEntries(m_linkJobs, l);
    m_jobContribution[std::size_t(job)] = after;
    old = std::move(bound);
}

void DecisionReplay::seek(int cursor)
{
    cursor = std::clamp(cursor, -1, decisionCount() - 1);
    m_changedCells.clear();
    m_changedGroupCells.clear();
    m_changedNodes.clear();
    if (cursor == m_cursor)
        return;
    const int lo = std::min(cursor, m_cursor) + 1, hi = std::max(cursor, m_cursor);
    m_cursor = cursor;
    std::vector<int> jobs;
    for (int i = lo; i <= hi; ++i) {
        const int j = m_decisionJob[std::size_t(i)];
        if (j >= 0 && (jobs.empty() || jobs.back() != j))
            jobs.push_back(j);
    }
    std::sort(jobs.begin(), jobs.end());
    jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
    for (int j : jobs)
        applyJob(j, cursor);
    std::sort(m_changedNodes.begin(), m_changedNodes.end());
    m_changedNodes.erase(std::unique(m_changedNodes.begin(), m_changedNodes.end()),
                         m_changedNodes.end());
}

Placement DecisionReplay::placement() const
{
    std::vector<int> jobs;
    for (std::size_t j = 0; j < m_jobBound.size(); ++j)
        if (!m_jobBound[j].empty())
            jobs.push_back(int(j));
    std::sort(jobs.begin(), jobs.end(), [this](int a, int b) {
        return m_jobFirst[std::size_t(a)] < m_jobFirst[std::size_t(b)];
    });
    Placement out;
    for (int j : jobs) {
        JobPlacement jp;
        jp.jobId = m_scenario.jobs[std::size_t(j)].id;
        for (int i : m_jobBound[std::size_t(j)]) {
            const Decision &d = m_log.decisions[std::size_t(i)];
            jp.tasks.push_back({d.role, d.group, d.indexInRole,
                                m_scenario.cluster.nodes[std::size_t(d.pick)].id, {}});
        }
        out.jobs.push_back(std::move(jp));
    }
    return out;
}

} // namespace cb
