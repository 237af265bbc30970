#pragma once
// The simulator's clock: a min-priority queue of events ordered by (time, sequence number),
// so events at the same time run in the order they were scheduled, on every platform.

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

namespace cb {

enum class SimEventKind {
    Arrival,        ///< a job is submitted (subject = job index)
    SchedulingPass, ///< place waiting jobs in queue order
    Completion,     ///< a running job ends (subject = job index; stale unless version matches)
    NodeFailure,    ///< subject = failure index in SimOptions::failures
    NodeRepair,     ///< subject = failure index
    Callback,       ///< a planned hook (subject = callback index), e.g. an STS reconfiguration
};

struct QueuedEvent
{
    double time = 0;
    std::uint64_t seq = 0;
    SimEventKind kind = SimEventKind::Arrival;
    int subject = -1;
    std::uint64_t version = 0;
};

class EventQueue
{
public:
    void push(double time, SimEventKind kind, int subject, std::uint64_t version = 0)
    {
        m_heap.push({time, m_next++, kind, subject, version});
    }
    /// The same as push() for an event known before the run starts (a job's arrival), which
    /// waits in a list sorted once beside the heap: the heap then holds only what the run
    /// schedules as it goes (about one event per running job) instead of every job's arrival,
    /// and the order of events is the same. Once events are popped it is a push().
    void pushKnown(double time, SimEventKind kind, int subject)
    {
        const QueuedEvent e{time, m_next++, kind, subject, 0};
        if (m_popping) {
            m_heap.push(e);
        } else {
            m_known.push_back(e);
        }
    }
    bool empty() const { return m_heap.empty() && m_nextKnown == m_known.size(); }
    std::size_t size() const { return m_heap.size() + (m_known.size() - m_nextKnown); }
    QueuedEvent pop()
    {
        if (!m_popping) {
            std::sort(m_known.begin(), m_known.end(),
                      [](const QueuedEvent &a, const QueuedEvent &b) { return Later{}(b, a); });
            m_popping = true;
        }
        if (m_nextKnown < m_known.size() &&
            (m_heap.empty() || Later{}(m_heap.top(), m_known[m_nextKnown])))
            return m_known[m_nextKnown++];
        QueuedEvent e = m_heap.top();
        m_heap.pop();
        return e;
    }

private:
    struct Later
    {
        bool operator()(const QueuedEvent &a, const QueuedEvent &b) const
        {
            return a.time != b.time ? a.time > b.time : a.seq > b.seq;
        }
    };
    std::priority_queue<QueuedEvent, std::vector<QueuedEvent>, Later> m_heap;
    std::vector<QueuedEvent> m_known; ///< sorted (earliest first) from the first pop()
    std::size_t m_nextKnown = 0;
    bool m_popping = false;
    std::uint64_t m_next = 0;
};

} // namespace cb
