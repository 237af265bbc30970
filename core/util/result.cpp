#include "util/result.h"

namespace cb {

std::string formatProblems(const Problems &problems, const std::string &prefix)
{
    std::string out;
    for (const Problem &p : problems) {
        if (!out.empty())
            out += '\n';
        if (!prefix.empty())
            out += prefix + ": ";
        out += p.toString();
    }
    return out;
}

Problems prefixed(const Problems &problems, const std::string &prefix)
{
    Problems out;
    for (const Problem &p : problems)
        out.push_back({prefix + p.where, p.message});
    return out;
}

} // namespace cb
