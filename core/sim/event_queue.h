#pragma once
// The simulator's clock: a min-priority queue of events ordered by (time, sequence number),
// so events at the same time run in the order they were scheduled, on every platform.

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
    bool empty() const { return m_heap.empty(); }
    std::size_t size() const { return m_heap.size(); }
    const QueuedEvent &top() const { return m_heap.top(); }
    QueuedEvent pop()
    {
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
    std::uint64_t m_next = 0;
};

} // namespace cb
