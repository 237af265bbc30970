#include "io/import/slurm_topology_yaml.h"

#include "io/import/format_detection.h"
#include "io/import/text_fields.h"
#include "io/import/yaml_expansion.h"

#include <yaml-cpp/yaml.h>

namespace cb {

namespace {

int slurmYamlLineOf(const YAML::Node &n)
{
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

std::string slurmYamlScalarOf(const YAML::Node &n)
{
    if (!n || !n.IsScalar())
        return {};
    return n.Scalar();
}

SlurmConfigLine line(int at, std::vector<std::pair<std::string, std::string>> pairs)
{
    SlurmConfigLine l;
    l.line = at;
    l.pairs = std::move(pairs);
    return l;
}

} // namespace

bool looksLikeSlurmTopologyYaml(const std::string &text)
{
    return detection::yamlKey(text, "topology") &&
           (detection::yamlKey(text, "tree") || detection::yamlKey(text, "block") ||
            detection::yamlKey(text, "flat") || detection::yamlKey(text, "ring") ||
            detection::yamlKey(text, "torus3d"));
}

Result<std::vector<SlurmConfigLine>>
slurmTopologyYamlLines(const std::string &text, const std::string &file, ImportReport &report)
{
    using Lines = std::vector<SlurmConfigLine>;
    if (auto ok = checkYamlExpansion(text, file); !ok)
        return ok.problems();
    YAML::Node doc;
    try {
        doc = YAML::Load(text);
    } catch (const YAML::Exception &e) {
        return Result<Lines>::failure(file + ":" + std::to_string(e.mark.line + 1),
                                      "column " + std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
    if (!doc.IsSequence() || doc.size() == 0)
        return Result<Lines>::failure(file, "expected a list of topologies (\"- topology: "
                                            "NAME\" with tree, block or flat)");
    try {
        // The cluster default, else the first.
        std::size_t chosen = 0;
        for (std::size_t i = 0; i < doc.size(); ++i)
            if (doc[i].IsMap() && doc[i]["cluster_default"] &&
                importtext::lower(slurmYamlScalarOf(doc[i]["cluster_default"])) == "true") {
                chosen = i;
                break;
            }
        std::string others;
        for (std::size_t i = 0; i < doc.size(); ++i)
            if (i != chosen)
                others += (others.empty() ? "" : ", ") +
                          slurmYamlScalarOf(doc[i].IsMap() ? doc[i]["topology"] : YAML::Node());
        const YAML::Node t = doc[chosen];
        if (!t.IsMap())
            return Result<Lines>::failure(file + ":" + std::to_string(slurmYamlLineOf(t)),
                                          "expected a topology (topology: NAME, then tree, "
                                          "block or flat)");
        const std::string name = slurmYamlScalarOf(t["topology"]);
        Lines out;
        std::string kind;
        if (const YAML::Node tree = t["tree"]) {
            kind = "tree";
            const YAML::Node switches = tree["switches"];
            if (!switches || !switches.IsSequence())
                return Result<Lines>::failure(file + ":" + std::to_string(slurmYamlLineOf(tree)),
                                              "tree: expected a list \"switches\"");
            for (const YAML::Node &sw : switches) {
                const std::string id = slurmYamlScalarOf(sw["switch"]);
                if (id.empty())
                    return Result<Lines>::failure(file + ":" + std::to_string(slurmYamlLineOf(sw)),
                                                  "tree switch without a name (switch: NAME)");
                std::vector<std::pair<std::string, std::string>> pairs = {{"switchname", id}};
                if (sw["children"])
                    pairs.emplace_back("switches", slurmYamlScalarOf(sw["children"]));
                if (sw["nodes"])
                    pairs.emplace_back("nodes", slurmYamlScalarOf(sw["nodes"]));
                out.push_back(line(slurmYamlLineOf(sw), std::move(pairs)));
            }
        } else if (const YAML::Node block = t["block"]) {
            kind = "block";
            const YAML::Node blocks = block["blocks"];
            if (!blocks || !blocks.IsSequence())
                return Result<Lines>::failure(file + ":" + std::to_string(slurmYamlLineOf(block)),
                                              "block: expected a list \"blocks\"");
            for (const YAML::Node &b : blocks) {
                const std::string id = slurmYamlScalarOf(b["block"]);
                if (id.empty())
                    return Result<Lines>::failure(file + ":" + std::to_string(slurmYamlLineOf(b)),
                                                  "block without a name (block: NAME)");
                out.push_back(line(slurmYamlLineOf(b),
                                   {{"blockname", id}, {"nodes", slurmYamlScalarOf(b["nodes"])}}));
            }
            if (const YAML::Node sizes = block["block_sizes"]; sizes && sizes.IsSequence()) {
                std::string list;
                for (const YAML::Node &v : sizes)
                    list += (list.empty() ? "" : ",") + slurmYamlScalarOf(v);
                out.push_back(line(slurmYamlLineOf(sizes), {{"blocksizes", list}}));
            }
        } else if (t["flat"]) {
            kind = "flat";
        } else if (t["ring"] || t["torus3d"]) {
            kind = t["ring"] ? "ring" : "torus3d";
            report.assume(file + ": topology " + name + " is a " + kind +
                          ", which is not modelled: its nodes share one switch");
        } else {
            return Result<Lines>::failure(file + ":" + std::to_string(slurmYamlLineOf(t)),
                                          "topology " + name +
                                              ": expected tree, block, flat, ring or torus3d");
        }
        report.assume(
            file + ": topology " + name + " (" + kind + ")" +
            (doc.size() > 1
                 ? std::string(chosen > 0 || (t["cluster_default"] &&
                                              slurmYamlScalarOf(t["cluster_default"]) == "true")
                                   ? ", the cluster default"
                                   : ", the first") +
                       "; not used: " + others
                 : std::string()));
        return out;
    } catch (const YAML::Exception &e) {
        return Result<Lines>::failure(file + ":" + std::to_string(e.mark.line + 1), e.msg);
    }
}

} // namespace cb
