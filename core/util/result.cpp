#include "util/result.h"

#include <cstdio>
#include <stdexcept>

namespace cb {

std::string formatProblems(const Problems &problems, const std::string &prefix)
{
    std::string out;
    for (const Problem &p : problems) {
        if (!out.empty())
            out += '\n';
        // (a problem that names the file itself, "cannot open", names it once)
        if (!prefix.empty() && p.where != prefix)
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

void failedResultUsed(const Problems &problems)
{
    const std::string text =
        "internal error: the value of a failed result was used: " + formatProblems(problems);
    std::fputs((text + "\n").c_str(), stderr);
    throw std::logic_error(text);
}

} // namespace cb
