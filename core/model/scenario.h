#pragma once
// A scenario is what a user opens: a cluster, a queue of jobs and the settings to run them.

#include "model/cluster.h"
#include "model/job.h"
#include "model/step_time_table.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cb {

/// Energy price for hours [fromHour, next entry's fromHour) of each day.
struct PricePeriod
{
    double fromHour = 0;
    double pricePerKWh = 0;
    bool operator==(const PricePeriod &) const = default;
};

/// What a scenario is checked against beyond the format's value ranges: sizes a simulation
/// or a stored run can afford, and link speeds below which a file is a unit mistake (a
/// denormal capacity would make a simulation run for hours). A scenario may set other values
/// in settings.limits when it needs to.
struct ScenarioLimits
{
    static constexpr std::int64_t kDefaultMaxTasks = 1000000;
    static constexpr std::int64_t kDefaultMaxTasksPerJob = 100000;
    static constexpr double kDefaultMinLinkGbps = 1e-3; ///< 1 Mbit/s
    /// The widest settings.limits accepts.
    static constexpr std::int64_t kMostTasks = 100000000;
    static constexpr double kLeastLinkGbps = 1e-9; ///< 1 bit/s

    std::int64_t maxTasks = kDefaultMaxTasks;             ///< tasks in all jobs together
    std::int64_t maxTasksPerJob = kDefaultMaxTasksPerJob; ///< tasks in one job
    double minLinkGbps = kDefaultMinLinkGbps; ///< slowest link or node interconnect
    bool operator==(const ScenarioLimits &) const = default;
};

struct Settings
{
    double energyPricePerKWh = 0.17;  ///< flat price; used when priceSchedule is empty
    std::vector<PricePeriod> priceSchedule; ///< optional time-of-day prices
    double pue = 1.0;                 ///< power usage effectiveness, >= 1
    std::uint64_t seed = 1;
    /// Fraction of the compute time during which communication can run, 0..1, for models
    /// that do not state their own (ModelProfile::overlap).
    double overlap = 0.0;
    ScenarioLimits limits;
    /// Currency of every price (energy per kWh, GPU-hour list prices): an ISO 4217 code.
    std::string currency = "USD";
    AllReduceAlgorithm allreduce = AllReduceAlgorithm::Ring;
    bool operator==(const Settings &) const = default;
};

struct Scenario
{
    static constexpr int kFormatVersion = 1;
    static constexpr const char *kFormatName = "clusterbench-scenario";

    std::string name;
    std::string description;
    Cluster cluster;
    std::vector<Job> jobs;
    Settings settings;
    /// Early-termination distributions by name: pmf over 1..100 % of max epochs (100 values).
    std::map<std::string, std::vector<double>> distributions;
    /// User-defined scheduling policy presets, kept as written (interpreted by core/sched).
    std::vector<nlohmann::json> policies;
    /// Measured step-time models by model profile name (ModelProfile::name): jobs of that
    /// model take their iteration time from the table (model/step_time_table.h).
    std::map<std::string, StepTimeTable> stepTimeModels{};

    const Job *job(const std::string &id) const;
    bool operator==(const Scenario &) const = default;
};

} // namespace cb
