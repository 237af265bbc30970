#pragma once
// The terminal stepper's screen, as a pure function of the decision log and a cursor, so
// that it can be tested without a terminal: a header ("Decision k/N", job/task, pick and
// why), the score table of the current decision (nodes x plugins: filtered-out reason, raw x
// weight = weighted, total; the winner marked), and a node x node heatmap of the
// per-iteration traffic of the placement made up to the cursor (sched/traffic.h) with a
// legend. Lines never exceed the width: long rows end in "...", rows that do not fit are
// summarised ("... 12 more nodes").

#include "model/scenario.h"
#include "net/topology.h"
#include "sched/decision_log.h"
#include "model/placement.h"
#include "runs/decision_replay.h"
#include "stochastic/sts_decision_log.h"

#include <cstdint>

#include <memory>

#include <string>
#include <vector>

namespace cb::cli {

struct StepScreen
{
    int width = 100;
    int height = 40;
    bool colour = false;  ///< ANSI colours (background heatmap, bold winner)
    bool playing = false;
    int speed = 1;        ///< decisions per second while playing
    /// A line under the title when not empty (jobs that can never start): in the terminal's
    /// alternate screen, a warning on stderr would only show once the stepper quits.
    std::string notice;
};

class StepView
{
public:
    /// `scenario` and `topology` must outlive the view.
    StepView(const Scenario &scenario, const Topology &topology, DecisionLog log);
    StepView(const StepView &) = delete; // the replay refers to the log it holds
    StepView &operator=(const StepView &) = delete;

    int decisionCount() const { return int(m_log.decisions.size()); }
    const DecisionLog &log() const { return m_log; }
    /// The placement after decision `cursor` (its picks, minus jobs rolled back by then), as
    /// the decision replay every stepper uses gives it.
    Placement placementUpTo(int cursor) const;
    /// The lines of the screen for decision `cursor` (0-based), each at most screen.width
    /// visible characters (ANSI escapes do not count).
    std::vector<std::string> render(int cursor, const StepScreen &screen) const;

private:
    const Scenario &m_scenario;
    const Topology &m_topology;
    DecisionLog m_log;
    std::unique_ptr<DecisionReplay> m_replay; ///< moved only by placementUpTo
    /// The heatmap's scale: the most one node pair sends at any decision of a run of up to
    /// kSpanDecisions; 0 for a longer run (each decision's own scale).
    static constexpr int kSpanDecisions = 500;
    double m_spanMax = 0;
};

/// The terminal stepper's screen for a stochastic run (STS and its baselines): per
/// scheduling event its time and trigger, then the jobs in the order the method took them
/// (pressure, epochs done, the configuration chosen, its node, the planned phase, why), each
/// followed by its candidate plans per GPU type, cheapest first (STS only), as many as fit.
class StsStepView
{
public:
    /// `summary`: the run's line under the title (its costs).
    StsStepView(std::string scenarioName, std::string policy, std::uint64_t seed,
                StsDecisionLog log, std::string summary);
    int eventCount() const { return int(m_log.events().size()); }
    const StsDecisionLog &log() const { return m_log; }
    /// The lines of the screen for event `cursor` (0-based), each at most screen.width
    /// visible characters.
    std::vector<std::string> render(int cursor, const StepScreen &screen) const;

private:
    std::string m_scenario, m_policy, m_summary;
    std::uint64_t m_seed;
    StsDecisionLog m_log;
};

/// Keys of the stepper.
enum class StepKey { None, Next, Previous, First, Last, PlayPause, Faster, Slower, Quit };

/// Decodes one key from the bytes at `input[pos]` (a character or an escape sequence for the
/// arrow, Home and End keys) and advances pos past it.
StepKey decodeStepKey(const std::string &input, std::size_t &pos);

} // namespace cb::cli
