#include "cli/run_text.h"

#include "io/run_json.h"
#include "util/text.h"

#include <sstream>

namespace cb::cli {

std::string runSummaryText(const Run &run)
{
    std::ostringstream out;
    if (!run.result)
        return {};
    const RunResult &r = *run.result;
    const auto summary = runSummaryJson(r);
    const bool stochastic = run.family == SchedulerFamily::Stochastic;
    out << "Policy " << r.policy << " (seed " << r.seed << "): " << r.finishedJobs() << " of "
        << r.jobs.size() << " jobs finished\n"
        << "  makespan        " << formatFixed(r.makespanSeconds, 1) << " s\n"
        << "  mean JCT        " << formatFixed(r.meanJctSeconds(), 1) << " s\n"
        << "  mean slowdown   " << formatFixed(summary["mean_slowdown"].get<double>(), 3)
        << "\n"
        << "  cross-node      " << formatFixed(r.crossNodeBytes() / 1e9, 3) << " GB of "
        << formatFixed(r.totalBytes() / 1e9, 3) << " GB\n"
        << "  energy          " << formatFixed(r.energyKWh, 3) << " kWh\n"
        << "  cost            " << formatFixed(r.cost, 2) << " (" << toString(r.costModel)
        << (!run.pricesFrom.empty() ? ": " + run.pricesFrom : std::string())
        << ")\n"
        << "  tardiness       " << formatFixed(r.totalTardinessSeconds(), 1) << " s, cost "
        << formatFixed(r.tardinessCost, 2) << "\n"
        << "  total cost      " << formatFixed(r.totalCost(), 2) << "\n"
        << "  violations      " << r.violations() << " of " << r.jobs.size()
        << " jobs past their due date\n";
    if (stochastic)
        out << "  reconfigurations " << r.reconfigurations << " (" << r.multiNodePlacements
            << " decisions split a job over nodes)\n";
    if (r.failures > 0)
        out << "  node failures   " << r.failures << "\n";
    return out.str();
}

} // namespace cb::cli
