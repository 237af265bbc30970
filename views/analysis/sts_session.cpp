#include "analysis/sts_session.h"

#include "io/sts_data.h"
#include "runs/sts_experiment.h"

#include <QDir>

#include <filesystem>

namespace cb::views {

std::string stsMethodOfPolicy(const std::string &policy)
{
    const std::string prefix = kStsPolicyPrefix;
    return policy.rfind(prefix, 0) == 0 ? policy.substr(prefix.size()) : std::string();
}

std::vector<std::string> stsPolicyNames()
{
    std::vector<std::string> out;
    for (const std::string &m : stsMethodNames())
        out.push_back(kStsPolicyPrefix + m);
    return out;
}

QString defaultStsDataDir()
{
    return QDir::cleanPath(QStringLiteral(CB_SAMPLES_DIR "/../tests/data/sts"));
}

cb::Result<RunSession> computeStsSession(const cb::Scenario &scenario, const std::string &method,
                                         std::uint64_t seed, const QString &dataDir,
                                         const std::atomic<bool> *cancel)
{
    using R = cb::Result<RunSession>;
    auto cancelled = [cancel] { return cancel && cancel->load(std::memory_order_relaxed); };
    if (cancelled())
        return R::failure({}, "cancelled");
    const std::string dir = dataDir.toStdString();
    // The authors' files give prices (and template memory); a scenario whose jobs carry
    // their own STS tables runs without them, at its GPU list prices.
    StsAuthorsData data;
    std::string pricesDir;
    if (!dir.empty() && std::filesystem::is_directory(dir)) {
        auto loaded = loadStsAuthorsData(dir);
        if (!loaded)
            return loaded.problems();
        data = std::move(loaded.value());
        pricesDir = dir;
    }
    auto prices = stsCloudPrices(pricesDir, data, scenario);
    if (!prices)
        return prices.problems();
    auto run = std::make_shared<StsRun>();
    run->method = method;
    const std::filesystem::path folder(pricesDir);
    if (prices->entries() == PriceCatalogue::cloudFromScenario(scenario).entries())
        run->pricesFrom = "the scenario's GPU list prices";
    else if (std::filesystem::exists(folder / "GPU-cost_server.csv"))
        run->pricesFrom = (folder / "GPU-cost_server.csv").string();
    else
        run->pricesFrom = (folder / "GPU-cost.csv").string();
    auto result = runStsOnScenario(scenario, data, prices.value(), method, seed, &run->log);
    if (!result)
        return result.problems();
    if (cancelled())
        return R::failure({}, "cancelled");
    run->result = std::move(result.value());

    RunSession session;
    session.scenario = scenario;
    session.policy = kStsPolicyPrefix + method;
    session.seed = seed;
    session.label = QStringLiteral("%1 seed %2").arg(QString::fromStdString(method)).arg(seed);
    session.sts = std::move(run);
    return session;
}

} // namespace cb::views
