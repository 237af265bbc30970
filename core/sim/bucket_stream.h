#pragma once
// TimeBuckets fed from a second thread. A replay adds a running job's bytes to the time
// buckets of every link and node pair it uses at each change of its rate: a sixth of the
// replay of fat-tree-1024.json's job mix on one thread (measured). Nothing the run decides
// reads the buckets, so the adds are queued in the order they are made, in batches, and a
// worker thread applies them in that order: every bucket receives the same additions in the
// same order as on one thread, so the series is the same to the bit.
//
// The thread starts with the first full batch (a short run applies everything at finish(),
// on the caller's thread). The series belongs to the worker until finish() returns; the
// stream must not be used from more than one thread.

#include "sim/time_buckets.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace cb {

class BucketStream
{
public:
    /// A job's bytes per iteration on each link and node pair it uses (sorted by link and by
    /// pair), shared by the adds queued while it runs.
    struct Traffic
    {
        std::vector<std::pair<int, double>> links;
        std::vector<std::pair<std::pair<int, int>, double>> pairs;
    };

    /// As TimeBuckets' constructor; `threaded` false applies every add at once, on the
    /// caller's thread.
    BucketStream(RunSeries &series, double initialWidth, int maxBuckets, bool pairs, int links,
                 bool threaded = true);
    /// Stops the worker (what it has not applied is dropped: the run was abandoned).
    ~BucketStream();
    BucketStream(const BucketStream &) = delete;
    BucketStream &operator=(const BucketStream &) = delete;

    void addGpuBusy(double t0, double t1, double gpuSeconds)
    {
        push({t0, t1, gpuSeconds, nullptr, Kind::GpuBusy});
    }
    /// TimeBuckets::addLinkBytes then addPairBytes of `traffic` x scale.
    void addTraffic(double t0, double t1, std::shared_ptr<const Traffic> traffic, double scale)
    {
        push({t0, t1, scale, std::move(traffic), Kind::Traffic});
    }
    void addCost(double t0, double t1, double amount)
    {
        push({t0, t1, amount, nullptr, Kind::Cost});
    }
    void addStranded(double t0, double t1, double gpuSeconds)
    {
        push({t0, t1, gpuSeconds, nullptr, Kind::Stranded});
    }
    /// Applies every add made so far, stops the worker and calls TimeBuckets::finish(t);
    /// rethrows what the worker threw (e.g. std::bad_alloc). The series is then complete.
    void finish(double t);

    /// Adds per batch handed to the worker.
    static constexpr std::size_t kBatch = 2048;
    /// Batches queued at most: the run waits for the worker beyond (bounds the memory).
    static constexpr std::size_t kMaxQueued = 16;

private:
    enum class Kind : std::uint8_t { GpuBusy, Traffic, Cost, Stranded };
    struct Add
    {
        double t0, t1, amount;
        std::shared_ptr<const Traffic> traffic;
        Kind kind;
    };
    void push(Add add)
    {
        if (m_finished) { // (as TimeBuckets takes an add after its finish)
            m_pending.push_back(std::move(add));
            apply(m_pending);
            m_pending.clear();
            return;
        }
        m_pending.push_back(std::move(add));
        if (m_pending.size() >= kBatch && m_threaded)
            handOver();
    }
    void handOver();
    void apply(const std::vector<Add> &batch);
    void work();
    void stop(bool abandon);

    TimeBuckets m_buckets;
    bool m_threaded;
    std::vector<Add> m_pending;
    std::thread m_worker;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_room;
    std::deque<std::vector<Add>> m_queue;
    std::vector<std::vector<Add>> m_spare; ///< emptied batches, their memory reused
    bool m_closing = false, m_abandon = false, m_finished = false;
    std::exception_ptr m_error; ///< written by the worker, read after it is joined
};

} // namespace cb
