#pragma once
// The line syntax shared by slurm.conf, gres.conf and topology.conf: "Key=Value" pairs
// separated by blanks, keys case-insensitive, "#" starts a comment, a trailing "\" joins the
// next line, values may be double-quoted. Also the GRES specification "gpu[:type]:count".

#include "util/result.h"

#include <optional>
#include <string>
#include <vector>

namespace cb {

struct SlurmConfigLine
{
    int line = 0;
    /// Pairs in written order; keys lower-cased; a word without "=" has an empty value.
    std::vector<std::pair<std::string, std::string>> pairs;

    const std::string &firstKey() const { return pairs.front().first; }
    bool has(const std::string &key) const;
    /// The last value given for `key` (Slurm uses the latest of repeated keys).
    std::string value(const std::string &key, const std::string &fallback = {}) const;
    /// How often `key` appears on the line.
    int count(const std::string &key) const;
};

/// Splits a configuration file into its non-empty logical lines.
std::vector<SlurmConfigLine> parseSlurmConfig(const std::string &text);

/// One GRES of a node: name ("gpu"), type ("a100", may be empty) and count.
struct SlurmGres
{
    std::string name;
    std::string type;
    long long count = 1;
};

/// The largest GRES count read (10^12: MPS shares and memory sizes are counted too); a
/// negative or larger count is malformed.
inline constexpr long long kMaxGresCount = 1000000000000LL;

/// Parses "gpu:a100:4,gpu:2(S:0-1),mps:100" (a socket binding in parentheses and the
/// no_consume flag are ignored). nullopt with `error` set on a malformed item: a count that
/// is negative or above kMaxGresCount included.
std::optional<std::vector<SlurmGres>> parseSlurmGres(const std::string &spec,
                                                     std::string *error = nullptr);

/// What in a Slurm node state (scontrol's State=, such as "IDLE+DRAIN" or "DOWN*") keeps the
/// node from taking a new job: "DOWN", "DRAIN", "FAIL", "FUTURE", "INVAL" or
/// "NOT_RESPONDING" (a '*' after the state); empty when nothing does (IDLE, MIXED, ALLOCATED,
/// a powered-down cloud node, ...).
std::string slurmStateBlocking(const std::string &state);

} // namespace cb
