#include "io/import/scontrol_nodes_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/slurm_config_text.h"
#include "io/import/text_fields.h"
#include "io/scenario_limits.h"

#include <map>
#include <set>

namespace cb {

namespace {

struct Record
{
    int line = 0;
    std::map<std::string, std::string> values; // lower-case key -> value
};

// Splits the output into records; a word without "=" continues the previous value.
std::vector<Record> records(const std::string &input)
{
    std::string text = input;
    importtext::stripBom(text);
    std::vector<Record> out;
    std::string lastKey;
    const std::vector<std::string> lines = importtext::split(text, '\n');
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::vector<std::string> words = importtext::splitWhitespace(lines[i]);
        for (const std::string &w : words) {
            const auto eq = w.find('=');
            const std::string key =
                eq == std::string::npos ? std::string() : importtext::lower(w.substr(0, eq));
            if (key == "nodename") {
                out.push_back({int(i) + 1, {}});
                lastKey.clear();
            }
            if (out.empty())
                continue; // text before the first record (e.g. a prompt line)
            if (eq == std::string::npos || key.empty()) {
                if (!lastKey.empty())
                    out.back().values[lastKey] += " " + w;
                continue;
            }
            out.back().values[key] = w.substr(eq + 1);
            lastKey = key;
        }
    }
    return out;
}

} // namespace

FormatMatch ScontrolNodesImporter::detect(const ImportSample &sample) const
{
    const std::string &h = sample.head;
    if (detection::lineStartsWithKey(h, "NodeName") &&
        (h.find("CPUAlloc=") != std::string::npos || h.find("AllocMem=") != std::string::npos ||
         h.find("CPUTot=") != std::string::npos))
        return {3, "scontrol show node records (NodeName=... CPUAlloc=...)"};
    return {};
}

Result<ImportReport> ScontrolNodesImporter::read(const std::vector<ImportInput> &inputs,
                                                 const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    Cluster c;
    std::set<std::string> ids;
    std::size_t multiType = 0;
    for (const ImportInput &in : inputs) {
        auto text = in.wholeUtf8Text();
        if (!text)
            return text.problems();
        const std::vector<Record> recs = records(text.value());
        in.done();
        report.rowsRead += recs.size();
        if (recs.empty())
            return Result<ImportReport>::failure(in.name, "no \"NodeName=\" record found "
                                                          "(expected `scontrol show node` output)");
        for (const Record &r : recs) {
            auto get = [&](const char *k) {
                auto it = r.values.find(k);
                return it == r.values.end() ? std::string() : importtext::trim(it->second);
            };
            Node n;
            n.id = get("nodename");
            if (n.id.empty() || ids.count(n.id)) {
                report.skip(in.name, r.line,
                            n.id.empty() ? "NodeName is empty" : "duplicate node \"" + n.id + "\"",
                            n.id.empty() ? "NodeName is empty" : "duplicate node");
                continue;
            }
            if (const std::string blocking = slurmStateBlocking(get("state"));
                !blocking.empty() && !options.keepUnavailableNodes) {
                report.skip(in.name, r.line,
                            "node " + importtext::shown(n.id) + ": State=" + get("state") +
                                ": it takes no new job (" + blocking +
                                "); --keep-unavailable-nodes keeps it",
                            "State: down, drained, failed or not responding (takes no new job)");
                continue;
            }
            const std::string cpuText = get("cputot").empty() ? get("cpus") : get("cputot");
            const auto cpus = importtext::parseNumber(cpuText);
            const auto mem = importtext::parseNumber(get("realmemory"));
            if (!cpus || *cpus <= 0) {
                report.skip(in.name, r.line,
                            "node \"" + n.id +
                                "\": CPUTot: expected a "
                                "positive number, found \"" +
                                cpuText + "\"");
                continue;
            }
            if (!mem || *mem <= 0) {
                report.skip(in.name, r.line,
                            "node \"" + n.id +
                                "\": RealMemory: expected a "
                                "positive number of MiB, found \"" +
                                get("realmemory") + "\"");
                continue;
            }
            n.cpus = *cpus;
            n.memoryGiB = *mem / 1024.0;
            std::string err;
            auto gres = parseSlurmGres(get("gres"), &err);
            if (!gres) {
                report.skip(in.name, r.line, "node \"" + n.id + "\": Gres: " + err);
                continue;
            }
            int types = 0;
            long long gpus = 0;
            for (const SlurmGres &g : *gres)
                if (g.name == "gpu") {
                    gpus += g.count; // each at most kMaxGresCount: no overflow
                    if (n.gpuType.empty())
                        n.gpuType = g.type;
                    ++types;
                }
            if (gpus > limits::kMaxGpusPerNode) {
                report.skip(in.name, r.line,
                            "node " + importtext::shown(n.id) + ": Gres: " + std::to_string(gpus) +
                                " GPUs; a node holds at most " +
                                std::to_string(limits::kMaxGpusPerNode),
                            "Gres: more GPUs than a node can hold");
                continue;
            }
            n.gpus = int(gpus);
            if (types > 1) {
                ++multiType;
                n.labels["slurm.gres/gpu"] = get("gres");
            }
            if (n.gpus > 0 && n.gpuType.empty())
                n.gpuType = unnamedGpuType(options.gpuType);
            for (const std::string &f : importtext::split(get("availablefeatures"), ','))
                if (!importtext::trim(f).empty() && importtext::trim(f) != "(null)")
                    n.labels["slurm.feature/" + importtext::trim(f)] = "true";
            const std::string parts = get("partitions");
            n.partition = importtext::trim(importtext::split(parts, ',').front());
            ids.insert(n.id);
            c.nodes.push_back(std::move(n));
        }
    }
    if (c.nodes.empty())
        return Result<ImportReport>::failure(inputs.front().name, "no node could be imported");
    if (multiType > 0)
        report.assume(std::to_string(multiType) +
                      " nodes have several GPU types: all GPUs "
                      "take the first type (full Gres kept in the label slurm.gres/gpu)");
    report.assume("a node's partition is the first of its Partitions");
    addMissingGpuTypes(c, report);
    linkAllNodesToOneSwitch(c, report, "scontrol show node has no topology");
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
