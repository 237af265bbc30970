#include "sim/sim_options.h"

#include <cmath>
#include <sstream>

namespace cb {

namespace {

std::optional<double> number(const std::string &s)
{
    if (s.empty())
        return std::nullopt;
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        if (used == s.size() && std::isfinite(v) && v >= 0)
            return v;
    } catch (const std::exception &) {
    }
    return std::nullopt;
}

} // namespace

const char *toString(CostModel model)
{
    switch (model) {
    case CostModel::Energy:
        return "energy";
    case CostModel::GpuHours:
        return "gpu-hours";
    case CostModel::Catalogue:
        return "catalogue";
    }
    return "?";
}

std::optional<CostModel> costModelFromString(const std::string &name)
{
    for (CostModel m : {CostModel::Energy, CostModel::GpuHours, CostModel::Catalogue})
        if (name == toString(m))
            return m;
    return std::nullopt;
}

Result<NodeFailure> parseNodeFailure(const std::string &text)
{
    const auto at = text.rfind('@');
    if (at == std::string::npos || at == 0)
        return Result<NodeFailure>::failure(
            "--fail " + text, "expected NODE@SECONDS or NODE@SECONDS+REPAIR_SECONDS");
    NodeFailure f;
    f.node = text.substr(0, at);
    std::string rest = text.substr(at + 1);
    if (auto plus = rest.find('+'); plus != std::string::npos) {
        auto repair = number(rest.substr(plus + 1));
        if (!repair)
            return Result<NodeFailure>::failure("--fail " + text,
                                                "repair time after '+' must be seconds >= 0");
        f.repairAfterSeconds = *repair;
        rest = rest.substr(0, plus);
    }
    auto t = number(rest);
    if (!t)
        return Result<NodeFailure>::failure("--fail " + text,
                                            "time after '@' must be seconds >= 0");
    f.atSeconds = *t;
    return f;
}

Result<std::vector<NodeFailure>> parseNodeFailures(const std::string &text)
{
    std::vector<NodeFailure> out;
    Problems problems;
    std::stringstream s(text);
    std::string item;
    while (std::getline(s, item, ',')) {
        if (item.empty())
            continue;
        auto f = parseNodeFailure(item);
        if (f)
            out.push_back(f.value());
        else
            problems.insert(problems.end(), f.problems().begin(), f.problems().end());
    }
    if (!problems.empty())
        return problems;
    return out;
}

} // namespace cb
