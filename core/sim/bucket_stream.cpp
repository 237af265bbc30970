#include "sim/bucket_stream.h"

namespace cb {

BucketStream::BucketStream(RunSeries &series, double initialWidth, int maxBuckets, bool pairs,
                           int links, bool threaded)
    : m_buckets(series, initialWidth, maxBuckets, pairs, links), m_threaded(threaded)
{
    m_pending.reserve(kBatch);
}

BucketStream::~BucketStream()
{
    stop(true);
}

void BucketStream::apply(const std::vector<Add> &batch)
{
    for (const Add &a : batch)
        switch (a.kind) {
        case Kind::GpuBusy:
            m_buckets.addGpuBusy(a.t0, a.t1, a.amount);
            break;
        case Kind::Traffic:
            m_buckets.addLinkBytes(a.t0, a.t1, a.traffic->links, a.amount);
            m_buckets.addPairBytes(a.t0, a.t1, a.traffic->pairs, a.amount);
            break;
        case Kind::Cost:
            m_buckets.addCost(a.t0, a.t1, a.amount);
            break;
        case Kind::Stranded:
            m_buckets.addStranded(a.t0, a.t1, a.amount);
            break;
        }
}

void BucketStream::work()
{
    for (;;) {
        std::vector<Add> batch;
        bool skip = false;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return !m_queue.empty() || m_closing; });
            if (m_queue.empty())
                return; // closing, and everything applied
            batch = std::move(m_queue.front());
            m_queue.pop_front();
            skip = m_abandon || m_error;
        }
        m_room.notify_one();
        if (!skip) {
            try {
                apply(batch);
            } catch (...) {
                std::lock_guard lock(m_mutex);
                m_error = std::current_exception(); // the rest is dropped; finish() rethrows
            }
        }
        batch.clear(); // (the traffic it held goes back now)
        std::lock_guard lock(m_mutex);
        m_spare.push_back(std::move(batch));
    }
}

void BucketStream::handOver()
{
    if (!m_worker.joinable())
        m_worker = std::thread([this] { work(); });
    std::vector<Add> next;
    {
        std::unique_lock lock(m_mutex);
        m_room.wait(lock, [&] { return m_queue.size() < kMaxQueued; });
        m_queue.push_back(std::move(m_pending));
        if (!m_spare.empty()) {
            next = std::move(m_spare.back());
            m_spare.pop_back();
        }
    }
    m_wake.notify_one();
    m_pending = std::move(next);
    m_pending.reserve(kBatch);
}

void BucketStream::stop(bool abandon)
{
    if (!m_worker.joinable())
        return;
    {
        std::lock_guard lock(m_mutex);
        m_closing = true;
        m_abandon = m_abandon || abandon;
    }
    m_wake.notify_one();
    m_worker.join();
}

void BucketStream::finish(double t)
{
    if (m_worker.joinable()) {
        if (!m_pending.empty())
            handOver();
        stop(false);
        if (m_error)
            std::rethrow_exception(m_error);
    } else {
        apply(m_pending);
    }
    m_pending.clear();
    m_finished = true;
    m_buckets.finish(t);
}

} // namespace cb
