#pragma once
// The STS decision log: for every scheduling event, the jobs in the order the method took
// them, for STS per GPU type the candidate phase plan and its expected cost, and the choice
// with where it was placed. Serialisable to JSON for the steppers and for tests.

#include "util/result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cb {

struct StsPhaseRecord
{
    std::string config;   ///< "K80 x2"
    double fromEpoch = 0;
    double toEpoch = 0;
    bool operator==(const StsPhaseRecord &) const = default;
};

struct StsCandidateRecord
{
    std::string gpuType;
    std::string kind;     ///< loose, optimised, tardy
    double expectedCost = 0;
    double expectedEnergyCost = 0;
    double expectedTardinessCost = 0;
    std::vector<StsPhaseRecord> phases;
    std::string enacted;  ///< configuration of the first phase
    double enactedSeconds = 0;
    bool operator==(const StsCandidateRecord &) const = default;
};

struct StsJobDecision
{
    std::string job;
    double pressure = 0;
    double doneEpochs = 0;
    std::vector<StsCandidateRecord> candidates; ///< STS only, cheapest first
    std::string chosen;       ///< empty: waits
    std::string node;
    int sharedGpu = -1;
    double phaseSeconds = 0;  ///< until the planned reconfiguration (0: runs to the end)
    std::string reason;       ///< why this choice ("cheapest expected cost", "fallback", ...)
    bool operator==(const StsJobDecision &) const = default;
};

struct StsEventRecord
{
    double time = 0;
    std::string trigger;      ///< "arrival", "completion", "reconfiguration" (comma-joined)
    std::vector<StsJobDecision> jobs; ///< in the order the method took them
    bool operator==(const StsEventRecord &) const = default;
};

class StsDecisionLog
{
public:
    void add(StsEventRecord record) { m_events.push_back(std::move(record)); }
    const std::vector<StsEventRecord> &events() const { return m_events; }
    bool empty() const { return m_events.empty(); }
    nlohmann::json toJson() const;
    /// Reads what toJson wrote (a stored run's log): fromJson(toJson()) == *this. Problems
    /// carry JSON pointers.
    static Result<StsDecisionLog> fromJson(const nlohmann::json &j);
    bool operator==(const StsDecisionLog &) const = default;

private:
    std::vector<StsEventRecord> m_events;
};

} // namespace cb
