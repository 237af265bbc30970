#include "analysis/run_session.h"

#include "net/topology.h"
#include "sched/placer.h"
#include "io/policy_json.h"
#include "sim/simulator.h"

namespace cb::views {

namespace {
bool cancelled(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}
} // namespace

QString defaultRunLabel(const std::string &policy, std::uint64_t seed, bool simulated)
{
    QString label = QStringLiteral("%1 seed %2").arg(QString::fromStdString(policy)).arg(seed);
    if (simulated)
        label += QStringLiteral(" (simulated)");
    return label;
}

cb::Result<RunSession> computeRunSession(const cb::Scenario &scenario, const std::string &policy,
                                         std::uint64_t seed, bool simulate,
                                         const std::atomic<bool> *cancel, bool decisionLog)
{
    auto presets = userPresets(scenario, {});
    if (!presets)
        return presets.problems();
    auto resolved = resolvePolicy(policy, presets.value());
    if (!resolved)
        return Result<RunSession>::failure("policy", resolved.error());
    if (cancelled(cancel))
        return Result<RunSession>::failure({}, "cancelled");

    RunSession session;
    session.scenario = scenario;
    session.policy = policy;
    session.seed = seed;
    {
        const Topology topology(scenario.cluster);
        session.placement =
            placeScenario(scenario, topology, resolved.value(), seed,
                          decisionLog ? &session.log : nullptr);
    }
    if (simulate) {
        if (cancelled(cancel))
            return Result<RunSession>::failure({}, "cancelled");
        SimOptions options;
        options.policy = resolved.value();
        options.seed = seed;
        if (cancel)
            options.progress = [cancel](double) { return !cancelled(cancel); };
        auto run = cb::simulate(session.scenario, options);
        if (!run) {
            if (cancelled(cancel))
                return Result<RunSession>::failure({}, "cancelled");
            return run.problems();
        }
        session.result = std::move(run.value());
    }
    if (cancelled(cancel))
        return Result<RunSession>::failure({}, "cancelled");
    session.label = defaultRunLabel(policy, seed, session.result.has_value());
    return session;
}

} // namespace cb::views
