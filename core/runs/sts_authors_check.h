#pragma once
// ClusterBench's STS stack against the STS authors' own simulator, on their own instances
// (io/sts_instance.h): every method runs each instance's exact job list, with the stop point
// the authors' generator drew, on the instance's nodes and prices; the report sets our total
// cost beside theirs per instance and method. RG and LS are random: both sides are means over
// several runs (theirs over their C++ seeds, ours over as many seeds of ours).

#include "io/sts_instance.h"
#include "sim/run_result.h"
#include "stochastic/sts_policy.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace cb {

struct StsAuthorsCheckParams
{
    std::vector<std::string> methods = {"FIFO", "EDF", "PS", "G", "RG", "LS", "STS"};
    int randomIterations = 1000; ///< RG and LS iterations per event (the authors' default)
    /// Our runs of RG and LS per instance; 0: as many as the authors' result rows.
    int randomRuns = 0;
    bool saturationGuard = true;
    StsRanking ranking = StsRanking::ExpectedCost; ///< how STS ranks plans (sts_policy.h)
    /// Which of several best-fit nodes takes a job (gpu_pool.h): ours or the authors'.
    StsTieOrder ties = StsTieOrder::Index;
};

struct StsAuthorsCheckRow
{
    std::string instance;
    std::string method;
    int theirRuns = 0;       ///< 0: the authors did not run it on this instance
    double theirs = 0;       ///< mean total cost
    double theirTardiness = 0; ///< mean tardiness cost
    int ourRuns = 0;
    double ours = 0;
    double ourTardiness = 0;
    double ourViolations = 0; ///< mean due-date violations (jobs ending late)
    /// ours / theirs - 1 (0 when they have no figure)
    double difference() const { return theirRuns > 0 && theirs > 0 ? ours / theirs - 1 : 0; }
};

struct StsAuthorsCheck
{
    StsAuthorsCheckParams params;
    std::vector<StsAuthorsCheckRow> rows;

    /// Per method over the instances both sides ran: (method, their sum, our sum, instances).
    struct Total
    {
        std::string method;
        double theirs = 0, ours = 0;
        int instances = 0;
    };
    std::vector<Total> totals() const;
    nlohmann::json toJson() const;
    std::string toText() const;
};

/// Runs `params.methods` on every instance. Fails on an unknown method.
Result<StsAuthorsCheck> checkAgainstStsAuthors(const std::vector<StsAuthorsInstance> &instances,
                                              const StsAuthorsData &data,
                                              const StsAuthorsCheckParams &params);

} // namespace cb
