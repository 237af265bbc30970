#include "analysis/run_session.h"

#include "analysis/sts_session.h"

#include <nlohmann/json.hpp>

namespace cb::views {

namespace {
bool cancelled(const std::atomic<bool> *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}
} // namespace

QString runningCostBasis(const cb::RunResult &run)
{
    switch (run.costModel) {
    case cb::CostModel::Energy:
        return QObject::tr("energy");
    case cb::CostModel::GpuHours:
        return QObject::tr("GPU-hours");
    case cb::CostModel::Catalogue:
        return QObject::tr("catalogue prices");
    }
    return {};
}

QString defaultRunLabel(const std::string &policy, std::uint64_t seed, bool simulated)
{
    const std::string method = cb::stochasticMethod(policy);
    QString label = QStringLiteral("%1 seed %2")
                        .arg(QString::fromStdString(method.empty() ? policy : method))
                        .arg(seed);
    if (simulated && method.empty())
        label += QStringLiteral(" (simulated)");
    return label;
}

QString stochasticPolicyToolTip(const std::string &policy, const QString &unavailable)
{
    if (!unavailable.isEmpty())
        return QObject::tr("Not available on this scenario: %1").arg(unavailable);
    const std::string method = cb::stochasticMethod(policy);
    return QObject::tr("Runs %1 in the simulator: at every arrival, completion and planned "
                       "reconfiguration it chooses each job's GPU type, count and node; costs "
                       "from the STS authors' price list. The decision stepper shows its "
                       "scheduling events%2.")
        .arg(QString::fromStdString(method),
             method.rfind("STS", 0) == 0 ? QObject::tr(" and each job's candidate plans")
                                         : QString());
}

RunSession sessionFromRun(cb::Run run, cb::Scenario scenario)
{
    RunSession session;
    session.scenario = std::move(scenario);
    session.policy = run.policy;
    session.seed = run.seed;
    session.family = run.family;
    session.placement = std::move(run.placement);
    session.log = std::move(run.decisions);
    session.result = std::move(run.result);
    session.metrics = std::move(run.metrics);
    if (run.family == cb::SchedulerFamily::Stochastic) {
        auto sts = std::make_shared<StsRun>();
        sts->method = cb::stochasticMethod(run.policy);
        sts->log = std::move(run.stsLog);
        sts->pricesFrom = std::move(run.pricesFrom);
        session.sts = std::move(sts);
        session.placedScenario = std::move(run.placedScenario);
    }
    const nlohmann::json &params = run.parameters;
    if (params.is_object()) {
        if (auto base = params.find("base"); base != params.end() && base->is_string())
            session.basePolicy = base->get<std::string>();
        if (auto w = params.find("weights"); w != params.end() && w->is_object())
            for (const auto &[plugin, weight] : w->items())
                if (weight.is_number())
                    session.weights[plugin] = weight.get<double>();
        if (auto pins = params.find("pins"); pins != params.end() && pins->is_array())
            for (const nlohmann::json &p : *pins)
                if (p.is_string())
                    if (auto pin = cb::parseTaskPin(p.get<std::string>()); pin)
                        session.pins.push_back(pin.value());
    }
    session.label = defaultRunLabel(session.policy, session.seed, session.result.has_value());
    if (!session.pins.empty())
        session.label += QStringLiteral(" +pin");
    return session;
}

cb::RunRequest runRequestFor(const std::string &policy, std::uint64_t seed, bool simulate,
                             const std::atomic<bool> *cancel, bool decisionLog)
{
    cb::RunRequest request;
    request.policy = policy;
    request.seed = seed;
    request.simulate = simulate;
    request.decisionLog = decisionLog;
    if (cancel)
        request.progress = [cancel](double) { return !cancelled(cancel); };
    return request;
}

cb::Result<RunSession> computeRunSession(const cb::Scenario &scenario, const std::string &policy,
                                         std::uint64_t seed, bool simulate,
                                         const std::atomic<bool> *cancel, bool decisionLog)
{
    if (cancelled(cancel))
        return cb::Result<RunSession>::failure({}, "cancelled");
    auto run = cb::executeRun(scenario, runRequestFor(policy, seed, simulate, cancel, decisionLog));
    if (cancelled(cancel))
        return cb::Result<RunSession>::failure({}, "cancelled");
    if (!run)
        return run.problems();
    return sessionFromRun(std::move(run.value()), scenario);
}

} // namespace cb::views
