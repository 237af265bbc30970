#include "net/maxmin_network.h"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>

namespace cb {

namespace {

/// A candidate bottleneck: a link (kind 0) at its fair share or a capped flow (kind 1).
struct Candidate
{
    double share;
    int kind;
    int id;
    bool operator>(const Candidate &o) const
    {
        return std::tie(share, kind, id) > std::tie(o.share, o.kind, o.id);
    }
};

} // namespace

MaxMinNetwork::MaxMinNetwork(std::vector<double> linkCapacity)
    : m_capacity(std::move(linkCapacity))
{
    const std::size_t n = m_capacity.size();
    for (double &c : m_capacity)
        c = std::max(0.0, c);
    m_linkFlows.resize(n);
    m_linkMark.assign(n, 0);
    m_remaining.assign(n, 0.0);
    m_unfrozen.assign(n, 0);
    m_active.assign(n, 1);
    m_load.assign(n, 0.0);
}

namespace {

/// A left-out link is taken back in at (1 - kTakeIn) of its capacity and left out again only
/// below (1 - kLeaveOut): far enough from full that rounding in progressive filling (about
/// 1e-16 per step) cannot matter, and with room between the two so links do not flap.
constexpr double kTakeIn = 1e-9;
constexpr double kLeaveOut = 1e-6;

} // namespace

bool MaxMinNetwork::alive(int flow) const
{
    return flow >= 0 && std::size_t(flow) < m_flows.size() && m_flows[std::size_t(flow)].alive;
}

int MaxMinNetwork::activeLinkCount() const
{
    return int(std::count(m_active.begin(), m_active.end(), std::uint8_t(1)));
}

int MaxMinNetwork::addFlow(const std::vector<int> &route, double capacityCap)
{
    int id;
    if (!m_freeIds.empty()) {
        id = m_freeIds.back();
        m_freeIds.pop_back();
    } else {
        id = int(m_flows.size());
        m_flows.emplace_back();
        m_flowMark.push_back(0);
        m_frozen.push_back(0);
        m_oldRate.push_back(0.0);
        m_touchMark.push_back(0);
    }
    Flow &f = m_flows[std::size_t(id)];
    f.route = route;
    f.slot.resize(route.size());
    f.cap = capacityCap < 0 ? 0.0 : capacityCap;
    f.rate = 0;
    f.alive = true;
    f.fresh = true;
    for (std::size_t k = 0; k < route.size(); ++k) {
        auto &list = m_linkFlows[std::size_t(route[k])];
        f.slot[k] = int(list.size());
        list.push_back(id);
    }
    ++m_liveFlows;
    m_dirtyFlows.push_back(id);
    return id;
}

void MaxMinNetwork::removeFlow(int flow)
{
    if (!alive(flow))
        return;
    Flow &f = m_flows[std::size_t(flow)];
    for (std::size_t k = 0; k < f.route.size(); ++k) {
        const int link = f.route[k];
        auto &list = m_linkFlows[std::size_t(link)];
        const int pos = f.slot[k];
        const int moved = list.back();
        list[std::size_t(pos)] = moved;
        list.pop_back();
        if (moved != flow) {
            Flow &m = m_flows[std::size_t(moved)];
            for (std::size_t j = 0; j < m.route.size(); ++j)
                if (m.route[j] == link) {
                    m.slot[j] = pos;
                    break;
                }
        }
        m_load[std::size_t(link)] -= f.rate;
        if (!std::isfinite(m_load[std::size_t(link)]) || list.empty())
            m_load[std::size_t(link)] = list.empty() ? 0.0 : kUnlimited; // recount when checked
        // A left-out link only gets more room: nothing to re-solve there.
        if (m_active[std::size_t(link)])
            m_dirtyLinks.push_back(link);
    }
    f.alive = false;
    f.fresh = false;
    f.route.clear();
    f.slot.clear();
    f.rate = 0;
    --m_liveFlows;
    m_freeIds.push_back(flow);
}

double MaxMinNetwork::load(int link) const
{
    double sum = 0;
    for (int f : m_linkFlows[std::size_t(link)])
        sum += m_flows[std::size_t(f)].rate;
    return sum;
}

void MaxMinNetwork::addToComponent(int f, bool all, std::vector<int> &stack)
{
    m_flowMark[std::size_t(f)] = m_epoch;
    m_compFlows.push_back(f);
    const Flow &flow = m_flows[std::size_t(f)];
    bool any = all;
    for (int l : flow.route)
        any = any || m_active[std::size_t(l)];
    if (!any && !flow.route.empty() && !(flow.cap < kUnlimited)) {
        // Nothing would limit it: one of its links is a bottleneck for sure.
        for (int l : flow.route)
            m_active[std::size_t(l)] = 1;
    }
    for (int l : flow.route)
        if ((all || m_active[std::size_t(l)]) && m_linkMark[std::size_t(l)] != m_epoch) {
            m_linkMark[std::size_t(l)] = m_epoch;
            stack.push_back(l);
        }
}

void MaxMinNetwork::collect(const std::vector<int> &seedLinks, const std::vector<int> &seedFlows,
                            bool all)
{
    ++m_epoch;
    m_compFlows.clear();
    m_compLinks.clear();
    std::vector<int> &stack = m_stack;
    stack.clear();
    for (int l : seedLinks)
        if ((all || m_active[std::size_t(l)]) && m_linkMark[std::size_t(l)] != m_epoch) {
            m_linkMark[std::size_t(l)] = m_epoch;
            stack.push_back(l);
        }
    for (int f : seedFlows)
        if (alive(f) && m_flowMark[std::size_t(f)] != m_epoch)
            addToComponent(f, all, stack);
    while (!stack.empty()) {
        const int l = stack.back();
        stack.pop_back();
        m_compLinks.push_back(l);
        for (int f : m_linkFlows[std::size_t(l)])
            if (m_flowMark[std::size_t(f)] != m_epoch)
                addToComponent(f, all, stack);
    }
}

void MaxMinNetwork::setRate(Flow &flow, double rate)
{
    const double delta = rate - flow.rate;
    for (int l : flow.route) {
        double &load = m_load[std::size_t(l)];
        load += delta;
        if (!std::isfinite(load))
            load = kUnlimited; // recounted when checked
    }
    flow.rate = rate;
}

void MaxMinNetwork::fill(bool all)
{
    std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
    for (int f : m_compFlows) {
        Flow &flow = m_flows[std::size_t(f)];
        if (m_touchMark[std::size_t(f)] != m_solveEpoch) {
            m_touchMark[std::size_t(f)] = m_solveEpoch;
            m_oldRate[std::size_t(f)] = flow.rate;
            m_touched.push_back(f);
        }
        m_frozen[std::size_t(f)] = 0;
        if (flow.cap < kUnlimited)
            heap.push({flow.cap, 1, f});
        else if (flow.route.empty()) {
            flow.rate = kUnlimited;
            m_frozen[std::size_t(f)] = 1;
        }
    }
    for (int l : m_compLinks) {
        const auto i = std::size_t(l);
        m_remaining[i] = m_capacity[i];
        m_unfrozen[i] = int(m_linkFlows[i].size());
        if (m_unfrozen[i] > 0)
            heap.push({m_remaining[i] / m_unfrozen[i], 0, l});
    }
    auto freeze = [&](int f, double r) {
        Flow &flow = m_flows[std::size_t(f)];
        setRate(flow, r);
        m_frozen[std::size_t(f)] = 1;
        for (int l : flow.route) {
            const auto i = std::size_t(l);
            if (!all && !m_active[i])
                continue;
            m_remaining[i] = std::max(0.0, m_remaining[i] - r);
            if (--m_unfrozen[i] > 0)
                heap.push({m_remaining[i] / m_unfrozen[i], 0, l});
        }
    };
    while (!heap.empty()) {
        const Candidate c = heap.top();
        heap.pop();
        if (c.kind == 1) {
            if (!m_frozen[std::size_t(c.id)])
                freeze(c.id, c.share);
            continue;
        }
        const auto i = std::size_t(c.id);
        if (m_unfrozen[i] <= 0 || m_remaining[i] / m_unfrozen[i] != c.share)
            continue; // stale: a newer entry for this link is in the heap
        // Copy: freezing pushes entries but never changes the link's flow list.
        for (int f : m_linkFlows[i])
            if (!m_frozen[std::size_t(f)])
                freeze(f, c.share);
    }
}

bool MaxMinNetwork::staysSlack(int link)
{
    const auto i = std::size_t(link);
    const double cap = m_capacity[i];
    if (m_load[i] < cap * (1 - kLeaveOut))
        return true;
    double sum = 0;
    for (int f : m_linkFlows[i])
        sum += m_flows[std::size_t(f)].rate;
    m_load[i] = std::isfinite(sum) ? sum : kUnlimited;
    return sum < cap * (1 - kTakeIn);
}

void MaxMinNetwork::beginSolve()
{
    ++m_solveEpoch;
    if (m_solveEpoch == 0) { // wrapped: forget every mark
        std::fill(m_touchMark.begin(), m_touchMark.end(), 0u);
        m_solveEpoch = 1;
    }
    m_touched.clear();
}

void MaxMinNetwork::listChanged()
{
    m_changed.clear();
    for (int f : m_touched) {
        Flow &flow = m_flows[std::size_t(f)];
        if (!flow.alive)
            continue;
        if (flow.fresh || flow.rate != m_oldRate[std::size_t(f)])
            m_changed.push_back(f);
        flow.fresh = false;
    }
    std::sort(m_changed.begin(), m_changed.end());
}

int MaxMinNetwork::solve()
{
    if (m_dirtyLinks.empty() && m_dirtyFlows.empty()) {
        m_changed.clear();
        return 0;
    }
    beginSolve();
    std::vector<int> seedLinks = std::move(m_dirtyLinks), seedFlows = std::move(m_dirtyFlows);
    m_dirtyLinks.clear();
    m_dirtyFlows.clear();
    for (;;) {
        collect(seedLinks, seedFlows, false);
        fill(false);
        // Every left-out link these flows cross must still have room; the ones that do not
        // are taken in and the (now larger) component is filled again.
        seedLinks.clear();
        seedFlows.clear();
        ++m_epoch; // marks the links checked in this round
        for (int f : m_compFlows)
            for (int l : m_flows[std::size_t(f)].route) {
                const auto i = std::size_t(l);
                if (m_active[i] || m_linkMark[i] == m_epoch)
                    continue;
                m_linkMark[i] = m_epoch;
                if (!staysSlack(l)) {
                    m_active[i] = 1;
                    seedLinks.push_back(l);
                }
            }
        if (seedLinks.empty())
            break;
    }
    // Links of this component with room to spare are left out from now on.
    for (int l : m_compLinks) {
        const auto i = std::size_t(l);
        if (m_remaining[i] > kLeaveOut * m_capacity[i] && m_unfrozen[i] <= 0)
            m_active[i] = 0;
    }
    listChanged();
    return int(m_compFlows.size());
}

void MaxMinNetwork::solveAll()
{
    beginSolve();
    std::vector<int> links(m_capacity.size()), flows;
    for (std::size_t l = 0; l < links.size(); ++l)
        links[l] = int(l);
    for (std::size_t f = 0; f < m_flows.size(); ++f)
        if (m_flows[f].alive)
            flows.push_back(int(f));
    collect(links, flows, true);
    m_dirtyLinks.clear();
    m_dirtyFlows.clear();
    fill(true);
    std::fill(m_active.begin(), m_active.end(), std::uint8_t(1));
    for (std::size_t l = 0; l < m_capacity.size(); ++l)
        m_load[l] = load(int(l));
    listChanged();
}

} // namespace cb
