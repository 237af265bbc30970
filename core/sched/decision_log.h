#pragma once
// The explanation of a placement: one record per scheduling decision with the table of
// nodes x plugins (filtered out and why / raw / weighted / total), the pick and why it won.
// The GUI and terminal steppers read it; it serialises to JSON with a stable, versioned
// layout.
//
// Representation (sized for 1,024+ node clusters and thousands of decisions):
// - A row is four numbers: node, reason (an index into the log's table of distinct filter
//   reasons, -1 when the node fits), the offset of its raw plugin scores in the decision's
//   flat `raw` array, and the total. Weighted scores are not stored: they are
//   weights[p] * raw[p], the same product the placer computes.
// - Detail levels (LogDetail). Full keeps a row for every node. Top:K keeps the K best
//   feasible nodes (best total first, ties in cluster order) and the pick; the other nodes
//   are summarised per decision (OmittedRows: filtered nodes counted per reason, the other
//   feasible nodes counted with their range of totals and how many of them tied with the
//   pick). Decision::tied then lists the tied nodes that have a row: on a cluster that is
//   still empty every node ties, which would otherwise put 1,024 nodes into every decision. Auto, the default, is Full up to kAutoFullNodes nodes (every
//   sample cluster but the fat-tree, so nothing visible changes there) and Top:kAutoTop above.
//   Rows are always in cluster order. The pick, ties and `why` never depend on the detail, and
//   neither does the cluster state a replay derives (it reads picks and jobs, never rows).
// Why not a sparse "feasible rows only" level: on a filling cluster most nodes stay feasible,
// so it would keep ~all rows; top:K bounds the size by K whatever the cluster.

#include "model/job.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cb {

/// How many candidate rows a log keeps per decision.
struct LogDetail
{
    enum class Kind { Auto, Full, Top };
    Kind kind = Kind::Auto;
    int top = 0; ///< K of Top (0: the pick and its ties only)

    static constexpr int kAutoFullNodes = 256;
    static constexpr int kAutoTop = 32;

    static LogDetail full() { return {Kind::Full, 0}; }
    static LogDetail topK(int k) { return {Kind::Top, k}; }
    /// "auto", "full", "top:K" (K >= 0) or "summary" (= top:0); nullopt-like failure otherwise.
    static Result<LogDetail> parse(const std::string &text);
    /// "auto", "full" or "top:K".
    std::string toString() const;
    /// Auto made concrete for a cluster of `nodes` nodes.
    LogDetail resolved(int nodes) const;
    bool operator==(const LogDetail &) const = default;
};

struct CandidateRow
{
    int node = 0;    ///< node index (cluster order)
    int reason = -1; ///< index into DecisionLog::reasons when filtered out; -1 when it fits
    int scores = -1; ///< offset of the row's raw scores in Decision::raw; -1 when filtered out
    double total = 0; ///< the sum that was compared (feasible rows)
    bool feasible() const { return reason < 0; }
    bool operator==(const CandidateRow &) const = default;
};

/// The nodes of a decision that have no row (detail Top).
struct OmittedRows
{
    std::vector<std::pair<int, int>> filtered; ///< (reason index, nodes), by reason index
    int scored = 0;                             ///< feasible nodes without a row
    int tied = 0;                               ///< of those, tied with the pick
    double minTotal = 0, maxTotal = 0;          ///< their totals (when scored > 0)
    int filteredNodes() const;
    int nodes() const { return filteredNodes() + scored; }
    bool operator==(const OmittedRows &) const = default;
};

struct Decision
{
    int index = 0;           ///< 0-based decision number within the run
    std::string jobId;
    TaskRole role = TaskRole::Worker;
    int group = 0;
    int indexInRole = 0;
    std::vector<CandidateRow> rows; ///< kept rows, cluster order (every node with Full)
    std::vector<double> raw; ///< raw scores (0..10) of the feasible rows, plugin order
    OmittedRows omitted;
    int pick = -1;           ///< node index, -1 when no node was feasible
    /// Nodes that shared the best total (including the pick) and have a row; the others are
    /// counted in omitted.tied.
    std::vector<int> tied;
    std::string why;
    std::string task() const; ///< "ps-0", "worker-3"
    /// The row of `node`, or null when the decision kept none for it.
    const CandidateRow *row(int node) const;
    /// Raw score of plugin `p` on a feasible row.
    double rawScore(const CandidateRow &r, std::size_t p) const { return raw[std::size_t(r.scores) + p]; }
    bool operator==(const Decision &) const = default;
};

/// Something that happened to a whole job during placement, typed so that replays need
/// not read the text.
struct JobEvent
{
    enum class Kind {
        RolledBack,   ///< gang: a task did not fit, the job's placed tasks were unbound
        PartlyPlaced, ///< gang off: some tasks did not fit, the placed ones stay bound
        NotTried,     ///< an earlier job waits and backfilling is off
        /// gang with min_available: some workers did not fit, the job starts without them
        Admitted,
    };
    int afterDecision = -1;  ///< index of the last decision before it (-1: before any)
    std::string jobId;
    Kind kind = Kind::RolledBack;
    std::string what;        ///< the explanation shown to the user
    bool operator==(const JobEvent &) const = default;
};
/// "rolled-back", "partly-placed", "not-tried", "admitted".
const char *toString(JobEvent::Kind kind);

struct DecisionLog
{
    /// Layout written by toJson. Version 1 (no "version" field) had one object per node per
    /// decision with names, reasons and weighted scores spelled out; it still reads.
    static constexpr int kJsonVersion = 2;

    /// Requested by the caller before placing; the placer stores the resolved level.
    LogDetail detail;
    std::string policy;
    std::uint64_t seed = 0;
    std::vector<std::string> nodeNames;
    std::vector<std::string> pluginNames;
    std::vector<double> weights;
    std::vector<std::string> reasons; ///< distinct filter reasons, in order of first use
    std::vector<Decision> decisions;
    std::vector<JobEvent> events;

    /// weights[p] * raw score of plugin `p` on a feasible row.
    double weighted(const Decision &d, const CandidateRow &r, std::size_t p) const
    {
        return weights[p] * d.rawScore(r, p);
    }
    const std::string &reason(const CandidateRow &r) const { return reasons[std::size_t(r.reason)]; }
    /// Rows kept over all decisions.
    std::size_t rowCount() const;
    /// One line about the nodes of `d` without a row, empty when there are none:
    /// "+ 992 more nodes: 960 filtered (needs 4 free GPUs, 0 of 4 free: 950; ...), 32 fit
    /// but scored lower (totals 12.5 to 20)"; when some of them tied with the pick, "32 fit:
    /// 5 tied with the pick, 27 scored lower (...)". At most `maxReasons` reasons, most
    /// nodes first.
    std::string omittedSummary(const Decision &d, std::size_t maxReasons = 3) const;

    /// {"version": 2, "policy", "seed", "detail", "nodes": [names], "plugins": [{name,
    /// weight}], "reasons": [text], "decisions": [{index, job, task, group, pick, tied, why,
    /// "scored": [[node, total, raw...]], "filtered": [[node, reason]], "omitted"?:
    /// {"filtered": [[reason, nodes]], "scored", "tied", "min_total", "max_total"}}], "events":
    /// [{after_decision, job, kind, what}]}; node and reason numbers index "nodes" and
    /// "reasons";
    /// pick is a node name; tied lists node numbers, a run of consecutive ones as [first,
    /// last] ([3, [5, 9]] is 3, 5, 6, 7, 8, 9).
    nlohmann::ordered_json toJson() const;
    /// Reads what toJson wrote (a stored run's decision log) back; fromJson(toJson()) == *this.
    /// Also reads version 1 (where logs written before "nodes" and "group" were stored take
    /// the node order from the first decision's rows and group 0). Problems carry JSON
    /// pointers.
    static Result<DecisionLog> fromJson(const nlohmann::json &j);
    bool operator==(const DecisionLog &) const = default;
};

} // namespace cb
