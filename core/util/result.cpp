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

} // namespace cb
