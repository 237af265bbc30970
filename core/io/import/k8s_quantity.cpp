#include "io/import/k8s_quantity.h"

#include "io/import/text_fields.h"

#include <array>
#include <string>
#include <utility>

namespace cb {

std::optional<double> parseK8sQuantity(std::string_view in)
{
    const std::string s = importtext::trim(in);
    static const std::array<std::pair<const char *, double>, 13> suffixes{{
        {"Ki", 1024.0},
        {"Mi", 1048576.0},
        {"Gi", 1073741824.0},
        {"Ti", 1099511627776.0},
        {"Pi", 1125899906842624.0},
        {"Ei", 1152921504606846976.0},
        {"n", 1e-9},
        {"u", 1e-6},
        {"m", 1e-3},
        {"k", 1e3},
        {"M", 1e6},
        {"G", 1e9},
        {"T", 1e12},
    }};
    for (const auto &[suffix, factor] : suffixes) {
        const std::string sf = suffix;
        if (s.size() > sf.size() && s.compare(s.size() - sf.size(), sf.size(), sf) == 0) {
            auto v = importtext::parseNumber(s.substr(0, s.size() - sf.size()));
            if (!v || *v < 0)
                return std::nullopt;
            return *v * factor;
        }
    }
    for (const auto &[suffix, factor] : {std::pair{"P", 1e15}, std::pair{"E", 1e18}}) {
        if (s.size() > 1 && s.back() == suffix[0]) {
            auto v = importtext::parseNumber(s.substr(0, s.size() - 1));
            if (!v || *v < 0)
                return std::nullopt;
            return *v * factor;
        }
    }
    auto v = importtext::parseNumber(s); // plain number or exponent form ("1e9")
    if (!v || *v < 0)
        return std::nullopt;
    return v;
}

} // namespace cb
