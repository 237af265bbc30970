// `clusterbench explain`: why this node and not that one, for one decision of a placement.

#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/policy_input.h"
#include "net/topology.h"
#include "runs/decision_explanation.h"
#include "sched/decision_contrast.h"
#include "sched/placer.h"
#include "util/count_text.h"
#include "util/json_number.h"
#include "util/text.h"
#include "util/text_table.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <sstream>

namespace cb::cli {

namespace {

std::string signedText(double v)
{
    return (v > 0 ? "+" : "") + numberText(v);
}

nlohmann::ordered_json flipJson(const DecisionLog &log, const WeightFlip &f)
{
    nlohmann::ordered_json j;
    j["plugin"] = f.name;
    j["weight"] = f.weight;
    j["threshold"] = f.threshold;
    j["direction"] = f.raise ? "above" : "below";
    j["winner"] = f.winner >= 0 ? log.nodeNames[std::size_t(f.winner)] : "";
    j["text"] = describeFlip(log, f);
    return j;
}

void printFlips(const DecisionLog &log, const std::vector<WeightFlip> &flips, std::ostream &out,
                bool withWinner, const std::string &indent = "  ")
{
    for (const WeightFlip &f : flips) {
        out << indent << padRight(f.name + (f.raise ? " > " : " < ") + numberText(f.threshold), 30)
            << "(now " << numberText(f.weight)
            << ", "
            // (a tie: any step past the weight itself flips it, "change 0" read as none)
            << (f.change() == 0 ? std::string(f.raise ? "any increase" : "any decrease")
                                : "change " + signedText(f.change()))
            << ")";
        if (withWinner && f.winner >= 0)
            out << ": " << log.nodeNames[std::size_t(f.winner)] << " wins";
        out << "\n";
    }
}

} // namespace

Command explainCommand()
{
    Command c;
    c.name = "explain";
    c.synopsis = "explain SCENARIO --policy P --decision N [--versus NODE] [--seed S] "
                 "[--policy-file F] [--json]";
    c.summary = "Why a decision picked its node and not another; what weight would change it";
    c.description =
        "Places the scenario's queue with the policy and explains decision N (numbered from 1 "
        "as the steppers show them; place --log prints decision N as #N-1): the nodes ruled "
        "out, grouped by reason; the contrast of the pick with NODE (default: the runner-up, "
        "a node tied with the pick when there is one, else the next best): each plugin's raw "
        "and weighted score on both and the difference, the plugin "
        "that decided it and by how much, or the filter reason when NODE was ruled out; the "
        "job's cross-node traffic per iteration with the pick and with NODE instead; and every "
        "change of one plugin's weight that would change the pick (computed exactly from the "
        "scores: the totals tie at the threshold, the other node wins beyond it; the earlier "
        "decisions stay as they were). Ends with the decision told in words. The decision "
        "keeps every node's row whatever the cluster's size.";
    c.options = policyInputOptions();
    c.options.push_back({"decision", "N", "the decision to explain, 1 = the first (required)"});
    c.options.push_back(
        {"versus", "NODE", "the node to contrast the pick with (default: the runner-up)"});
    c.options.push_back({"json", "", "print the explanation as JSON"});
    c.run = [](const Args &args, Io &io) {
        auto input = readPlacementPolicyInput(args, io, "explain");
        if (!input)
            return int(ExitBadInput);
        if (!args.has("decision")) {
            io.err << "clusterbench explain: --decision N is required (1 = the first)\n";
            return int(ExitBadInput);
        }
        auto number = args.integer("decision", 0);
        if (!number || number.value() < 1) {
            io.err << "clusterbench explain: --decision: expected a decision number >= 1\n";
            return int(ExitBadInput);
        }
        const Scenario &s = input->scenario;
        const Topology topo(s.cluster);
        DecisionLog log;
        log.detail = LogDetail::topK(0);
        Placer placer(s.cluster, topo, input->policy, input->seed);
        placer.keepAllRowsAt(number.value() - 1);
        (void)placer.place(s.jobs, &log);
        const int total = int(log.decisions.size());
        if (number.value() > total) {
            io.err << "clusterbench explain: --decision " << number.value() << ": "
                   << input->policy.name << " makes " << total << " decisions on this scenario\n";
            return int(ExitBadInput);
        }
        const int index = int(number.value() - 1);
        const Decision &d = log.decisions[std::size_t(index)];
        int other = -1;
        if (args.has("versus")) {
            const std::string want = args.value("versus");
            for (std::size_t i = 0; i < log.nodeNames.size(); ++i)
                if (log.nodeNames[i] == want)
                    other = int(i);
            if (other < 0) {
                io.err << "clusterbench explain: --versus: no node \"" << want
                       << "\" in the scenario\n";
                return int(ExitBadInput);
            }
            if (other == d.pick) {
                io.err << "clusterbench explain: --versus: " << want
                       << " is the pick of decision " << index + 1 << "\n";
                return int(ExitBadInput);
            }
        } else {
            other = defaultContrastNode(log, index);
        }
        std::optional<Contrast> contrast;
        if (other >= 0)
            if (auto cr = contrastDecision(log, index, other))
                contrast = cr.value();
        const DecisionFlips flips = weightFlips(log, index);
        const DecisionTraffic traffic = decisionTraffic(s, topo, log, index, other);
        const std::string words = narrateDecision(s, topo, log, index);
        const auto groups = filterGroups(log, d);
        const auto name = [&](int n) {
            return n >= 0 ? log.nodeNames[std::size_t(n)] : std::string("(none)");
        };

        if (args.flag("json")) {
            nlohmann::ordered_json j;
            j["scenario"] = s.name;
            j["policy"] = input->policy.name;
            j["seed"] = input->seed;
            j["decision"] = index + 1;
            j["decisions"] = total;
            j["job"] = d.jobId;
            j["task"] = d.task();
            j["pick"] = d.pick >= 0 ? nlohmann::ordered_json(name(d.pick)) : nlohmann::ordered_json();
            j["why"] = d.why;
            nlohmann::ordered_json ruled = nlohmann::ordered_json::array();
            for (const auto &[reason, nodes] : groups)
                ruled.push_back({{"reason", reason}, {"nodes", nodes}});
            j["ruled_out"] = ruled;
            if (contrast) {
                nlohmann::ordered_json v;
                v["node"] = name(other);
                if (contrast->otherFiltered) {
                    v["filtered"] = contrast->filterReason;
                } else {
                    v["total"] = contrast->otherTotal;
                    v["pick_total"] = contrast->pickTotal;
                    v["margin"] = contrast->margin();
                    nlohmann::ordered_json ps = nlohmann::ordered_json::array();
                    for (const PluginDifference &p : contrast->plugins)
                        ps.push_back({{"plugin", p.name}, {"weight", p.weight},
                                      {"raw_pick", p.rawPick}, {"raw_other", p.rawOther},
                                      {"weighted_pick", p.weightedPick()},
                                      {"weighted_other", p.weightedOther()},
                                      {"difference", p.weightedDifference()}});
                    v["plugins"] = ps;
                    v["deciding"] = contrast->deciding >= 0
                                        ? nlohmann::ordered_json(contrast->plugins[std::size_t(contrast->deciding)].name)
                                        : nlohmann::ordered_json();
                    v["decisive"] = contrast->decisive();
                    nlohmann::ordered_json fs = nlohmann::ordered_json::array();
                    for (const WeightFlip &f : contrast->flips)
                        fs.push_back(flipJson(log, f));
                    v["flips"] = fs;
                }
                if (traffic.hasOther)
                    v["cross_node_bytes_if_here"] = traffic.crossIfOther;
                j["versus"] = v;
            }
            j["cross_node_bytes_before"] = traffic.crossBefore;
            j["cross_node_bytes_after"] = traffic.crossAfter;
            nlohmann::ordered_json fs = nlohmann::ordered_json::array();
            for (const WeightFlip &f : flips.flips)
                fs.push_back(flipJson(log, f));
            j["flips"] = fs;
            j["narration"] = words;
            io.out << j.dump(2) << "\n";
            return int(ExitOk);
        }

        std::ostream &out = io.out;
        out << "Decision " << index + 1 << "/" << total << " (" << input->policy.name << ", seed "
            << input->seed << "): job " << d.jobId << " " << d.task() << " -> " << name(d.pick)
            << "\n  " << wrapText(d.why, outputColumns(), 2, 2) << "\n";
        if (!groups.empty()) {
            int n = 0;
            for (const auto &g : groups)
                n += g.second;
            out << "Ruled out: " << groupedCount(n) << " of " << groupedCount(int(log.nodeNames.size()))
                << " nodes\n";
            for (const auto &[reason, nodes] : groups)
                out << "  " << padRight(groupedCount(nodes) + (nodes == 1 ? " node" : " nodes") + ":", 14)
                    << reason << "\n";
        }
        if (contrast) {
            const Contrast &ct = *contrast;
            out << "\nVersus " << name(other);
            if (ct.otherFiltered) {
                out << ": ruled out: " << ct.filterReason << "\n";
            } else if (d.pick < 0) {
                out << "\n";
            } else {
                out << ": total " << wholeOrNumberText(ct.otherTotal);
                if (ct.tied())
                    out << ", tied with the pick (the tie-break chose " << name(d.pick) << ")\n";
                else
                    out << ", " << numberText(ct.margin()) << " behind the pick's "
                        << wholeOrNumberText(ct.pickTotal) << "\n";
                const std::string o = name(other), p = name(d.pick);
                TextTable table;
                table.indent = 2;
                table.headers = {"", "", "raw", "", "weighted", "", ""};
                table.rows.push_back({"plugin", "weight", p, o, p, o, "difference"});
                for (const PluginDifference &pd : ct.plugins)
                    table.rows.push_back(
                        {pd.name, numberText(pd.weight), wholeOrNumberText(pd.rawPick),
                         wholeOrNumberText(pd.rawOther), numberText(pd.weightedPick()),
                         numberText(pd.weightedOther()), signedText(pd.weightedDifference())});
                table.rows.push_back({"total", "", "", "", wholeOrNumberText(ct.pickTotal),
                                      wholeOrNumberText(ct.otherTotal),
                                      signedText(ct.pickTotal - ct.otherTotal)});
                out << table.render(outputColumns());
                if (ct.tied()) {
                    // No plugin decided: what one gives, another takes back.
                    std::string cancel;
                    for (const PluginDifference &pd : ct.plugins)
                        if (pd.weightedDifference() != 0)
                            cancel += (cancel.empty() ? "" : ", ") + pd.name + " " +
                                      signedText(pd.weightedDifference());
                    const std::string tied =
                        (cancel.empty() ? std::string("Tied: every plugin scores them alike")
                                        : "Tied: the differences cancel (" + cancel + ")") +
                        "; the tie-break decided";
                    out << "  " << wrapText(tied, outputColumns(), 4, 2) << "\n";
                } else if (ct.deciding >= 0) {
                    const PluginDifference &pd = ct.plugins[std::size_t(ct.deciding)];
                    std::string decided = "Decided by " + pd.name + ": " +
                                          signedText(pd.weightedDifference()) + " of the " +
                                          numberText(ct.margin()) + "-point lead";
                    if (ct.decisive())
                        decided += " (without it " + o + " would lead by " +
                                   numberText(pd.weightedDifference() - ct.margin()) + ")";
                    out << "  " << wrapText(decided, outputColumns(), 4, 2) << "\n";
                }
                if (!ct.flips.empty()) {
                    out << "  " << o << " would beat " << p << " if (one weight changed):\n";
                    printFlips(log, ct.flips, out, false, "    ");
                }
            }
            if (traffic.hasOther && d.pick >= 0)
                out << "  "
                    << wrapText("The job's cross-node traffic per iteration: " +
                                    bytesText(traffic.crossBefore) + " before, " +
                                    bytesText(traffic.crossAfter) + " with " + name(d.pick) + ", " +
                                    bytesText(traffic.crossIfOther) + " on " + name(other),
                                outputColumns(), 4, 2)
                    << "\n";
        }
        if (d.pick >= 0) {
            out << "\nWeight changes that change the pick (one plugin, the others as they are):\n";
            if (flips.flips.empty())
                out << "  none: no single weight (>= 0) makes another node win\n";
            printFlips(log, flips.flips, out, true);
            if (!flips.complete)
                out << "  (only the nodes the log kept were considered)\n";
        }
        out << "\n" << wrapText("In words: " + words, outputColumns()) << "\n";
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
