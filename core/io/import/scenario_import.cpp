#include "io/import/scenario_import.h"

#include "io/file_io.h"
#include "io/import/import_into_scenario.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/importer_registry.h"
#include "io/import/text_fields.h"
#include "io/scenario_json.h"
#include "io/scenario_limits.h"
#include "model/gen_host.h"
#include "model/validation.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

namespace cb {

namespace {

std::string importBaseName(const std::string &path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string formatList()
{
    std::string s;
    for (const Importer *i : importers())
        s += (s.empty() ? "" : ", ") + i->name();
    return s;
}

bool producesCluster(const Importer &i)
{
    return i.produces() == Importer::Produces::Cluster ||
           i.produces() == Importer::Produces::ClusterAndJobs;
}

/// What a problem's place in the written cluster ("/cluster/nodes/3/memory_gib") is in the
/// user's terms: the node or switch by its name, which the input has too.
std::string clusterPart(const Cluster &c, const std::string &where)
{
    auto indexAfter = [&](const std::string &prefix) -> std::optional<std::size_t> {
        if (!where.starts_with(prefix))
            return std::nullopt;
        std::size_t k = 0, at = prefix.size();
        if (at >= where.size() || !std::isdigit(static_cast<unsigned char>(where[at])))
            return std::nullopt;
        for (; at < where.size() && std::isdigit(static_cast<unsigned char>(where[at])); ++at)
            k = k * 10 + std::size_t(where[at] - '0');
        return k;
    };
    if (const auto k = indexAfter("/cluster/nodes/"); k && *k < c.nodes.size())
        return "node " + importtext::shown(c.nodes[*k].id);
    if (const auto k = indexAfter("/cluster/switches/"); k && *k < c.switches.size())
        return "switch " + importtext::shown(c.switches[*k].id);
    return "the cluster it gives";
}

} // namespace

void assumeHostPower(Cluster &c, ImportReport &report)
{
    if (c.nodes.empty() ||
        std::any_of(c.nodes.begin(), c.nodes.end(), [](const Node &n) { return n.baseWatts > 0; }))
        return;
    const double watts = HostParams{}.baseWatts;
    for (Node &n : c.nodes)
        n.baseWatts = watts;
    report.assume("no host power in the input: each node draws " +
                  importtext::formatNumber(watts) +
                  " W besides its GPUs, as a generated server does (base_watts in the scenario "
                  "sets it)");
}

ScenarioImport::ScenarioImport(ImportRequest request, Progress progress)
    : m_request(std::move(request)), m_progress(std::move(progress))
{}

std::string ScenarioImport::formats() const
{
    std::string s;
    for (const std::string &f : m_formats)
        s += (s.empty() ? "" : " + ") + f;
    return s;
}

bool ScenarioImport::fail(ImportFailure kind, Problems problems)
{
    m_failure = kind;
    m_problems = std::move(problems);
    return false;
}

bool ScenarioImport::report(const std::string &phase, double fraction)
{
    if (m_progress && !m_progress(phase, std::clamp(fraction, 0.0, 1.0))) {
        m_failure = ImportFailure::Cancelled;
        m_problems = {{{}, "import cancelled; nothing written"}};
        return false;
    }
    return true;
}

bool ScenarioImport::resolveFormats(std::vector<Group> &groups)
{
    const auto &files = m_request.files;
    if (!m_request.format.empty()) {
        const Importer *imp = findImporter(m_request.format);
        if (!imp)
            return fail(
                ImportFailure::BadInput,
                {{{}, "unknown format \"" + m_request.format + "\"; formats: " + formatList()}});
        // A file that cannot be this format but looks like another: say so, rather than
        // what the parser makes of it.
        for (const std::string &f : files) {
            auto sample = sampleFile(f);
            if (!sample)
                return fail(ImportFailure::BadInput, sample.problems());
            if (imp->detect(sample.value()).score > 0)
                continue;
            FormatMatch other;
            if (const Importer *o = detectFormat(sample.value(), &other); o && o != imp)
                return fail(ImportFailure::BadInput,
                            {{f, "this is not " + imp->name() + " input; it looks like " +
                                     o->name() + " (" + other.why + "): clusterbench import " +
                                     o->name() + " " + f + " ..."}});
        }
        groups.push_back({imp, files});
        m_formats.push_back(imp->name());
        return true;
    }
    for (const std::string &f : files) {
        auto sample = sampleFile(f);
        if (!sample)
            return fail(ImportFailure::BadInput, sample.problems());
        FormatMatch match;
        if (sample->head.find_first_not_of(" \t\r\n") == std::string::npos)
            return fail(ImportFailure::BadInput,
                        {{f, "the file is empty: no cluster and no jobs to import"}});
        // A CSV mapping takes every file after it: a trace it maps need not look like any
        // format of its own.
        if (!groups.empty() && groups.back().importer->name() == "csv-mapping") {
            m_detected.push_back(f + ": csv-mapping (a trace read through the mapping before it)");
            groups.back().files.push_back(f);
            continue;
        }
        const Importer *imp = detectFormat(sample.value(), &match);
        // A Helm (Go) template of nodes is not the nodes: say what to run first, whatever
        // the text of the template looks like to the detectors (it read as "a CSV file").
        if (!imp && sample->head.find("{{") != std::string::npos &&
            sample->head.find("}}") != std::string::npos)
            match.why = "a Helm or Go template ({{ ... }}), not the objects it makes: render it "
                        "first (helm template CHART > nodes.yaml) and import what it writes";
        if (!imp && match.why.empty()) { // (every format reads text: say so when it is not)
            if (const std::string why = detection::notText(sample->head); !why.empty())
                match.why = "it is not text: " + why;
            else if (const auto keys = detection::yamlTopKeys(sample->head); !keys.empty()) {
                std::string list;
                for (std::size_t k = 0; k < keys.size() && k < 4; ++k)
                    list += (k ? ", " : "") + keys[k];
                match.why = "a YAML document with top-level keys " + list +
                            (keys.size() > 4 ? ", ..." : "") +
                            ", which no format reads; Kubernetes nodes are read from Node "
                            "objects (kind: Node or NodeList, as kubectl get nodes -o yaml "
                            "writes them)";
            }
        }
        // ClusterBench's own files are not imported: say what takes them.
        const std::string own = imp ? std::string() : detection::jsonString(sample->head, "format");
        if (own == Scenario::kFormatName)
            return fail(ImportFailure::BadInput,
                        {{f, "this is a ClusterBench scenario already, not a file to import: "
                             "open it (clusterbench " +
                                 f + "), or give it with a trace: --cluster " + f +
                                 " (the trace's jobs go to its cluster) or --append-to " + f +
                                 " (its cluster and jobs are kept)"}});
        if (own == "clusterbench-run")
            return fail(ImportFailure::BadInput,
                        {{f, "this is a ClusterBench run file (what simulate --out writes), "
                             "not a cluster or a trace to import"}});
        if (!imp)
            return fail(ImportFailure::BadInput,
                        {{f, "cannot tell which format this is" +
                                 (match.why.empty() ? std::string() : " (" + match.why + ")") +
                                 "; name it: clusterbench import FORMAT FILE..., with FORMAT "
                                 "one of " +
                                 formatList()}});
        m_detected.push_back(f + ": " + imp->name() + " (" + match.why + ")");
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const Group &g) { return g.importer == imp; });
        if (it == groups.end())
            groups.push_back({imp, {f}});
        else
            it->files.push_back(f);
    }
    // One cluster format and one trace format; a format that gives either (the Alibaba CSVs)
    // goes with both, and whether two clusters came of it is checked once the files are read.
    const auto both = [&](const Group &g) {
        return g.importer->produces() == Importer::Produces::ClusterAndJobs;
    };
    if (groups.size() > 2 ||
        (groups.size() == 2 && !both(groups[0]) && !both(groups[1]) &&
         producesCluster(*groups[0].importer) == producesCluster(*groups[1].importer))) {
        std::string list;
        for (const std::string &d : m_detected)
            list += "\n  " + d;
        return fail(ImportFailure::BadInput,
                    {{{},
                      "the files are of formats that do not go together (at most one "
                      "cluster format and one trace format):" +
                          list}});
    }
    // The cluster first, so the trace's jobs go to it.
    const auto rank = [](const Group &g) {
        switch (g.importer->produces()) {
        case Importer::Produces::Cluster:
            return 0;
        case Importer::Produces::ClusterAndJobs:
            return 1;
        default:
            return 2;
        }
    };
    std::stable_sort(groups.begin(), groups.end(),
                     [&](const Group &a, const Group &b) { return rank(a) < rank(b); });
    for (const Group &g : groups)
        m_formats.push_back(g.importer->name());
    return true;
}

bool ScenarioImport::resolveNodeTemplate()
{
    const std::string &spec = m_request.nodeTemplate;
    if (spec.empty())
        return true;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(spec, ec)) {
        auto t = NodeTemplate::parse(spec);
        if (!t)
            return fail(ImportFailure::BadInput, t.problems());
        m_request.options.nodeTemplate = t.value();
        return true;
    }
    // A node description: its first node is the template.
    auto sample = sampleFile(spec);
    if (!sample)
        return fail(ImportFailure::BadInput, sample.problems());
    FormatMatch match;
    const Importer *imp = detectFormat(sample.value(), &match);
    if (!imp || !producesCluster(*imp))
        return fail(ImportFailure::BadInput,
                    {{"--node-template " + spec,
                      "expected KEY=VALUE,... or a file describing a node (NCCL topology XML, "
                      "hwloc XML)" +
                          std::string(imp ? ", found " + imp->name() + " input" : "")}});
    ImportOptions options;
    auto r = importFiles(*imp, {spec}, options);
    if (!r)
        return fail(ImportFailure::BadInput, r.problems());
    if (!r->cluster || r->cluster->nodes.empty())
        return fail(ImportFailure::BadInput, {{spec, "describes no node"}});
    const Node &n = r->cluster->nodes.front();
    NodeTemplate t;
    t.cpus = n.cpus;
    t.memoryGiB = n.memoryGiB;
    t.gpus = n.gpus;
    t.gpuType = n.gpuType;
    t.interconnect = n.interconnect;
    t.source = spec + " (" + imp->name() + ")";
    m_request.options.nodeTemplate = t;
    for (const std::string &a : r->assumptions)
        m_report.assume("node template " + importBaseName(spec) + ": " + a);
    return true;
}

bool ScenarioImport::run()
{
    m_ran = false;
    m_failure = ImportFailure::None;
    m_problems.clear();
    m_report = ImportReport{};
    m_formats.clear();
    m_detected.clear();
    if (m_request.files.empty())
        return fail(ImportFailure::BadInput, {{{}, "expected at least one input FILE"}});
    if (!m_request.clusterFile.empty() && !m_request.appendTo.empty())
        return fail(ImportFailure::BadInput,
                    {{"--cluster", "give --cluster (its cluster only) or --append-to (its "
                                   "cluster and jobs), not both"}});
    std::vector<Group> groups;
    if (!resolveFormats(groups))
        return false;
    m_report.format = formats(); // (a failure from here on names the formats too)
    if (!resolveNodeTemplate())
        return false;

    // Reading: the bytes of every input, over all groups.
    const TimeFormats &named = m_request.options.timeFormats;
    if (named.asked)
        named.asked->clear();
    std::size_t total = 0, before = 0;
    for (const Group &g : groups)
        for (const std::string &f : g.files) {
            std::error_code ec;
            total += std::size_t(std::filesystem::file_size(f, ec));
        }
    total = std::max<std::size_t>(total, 1);
    bool cancelled = false;
    std::vector<ImportReport> reports;
    for (const Group &g : groups) {
        ImportOptions options = m_request.options;
        std::size_t groupBytes = 0;
        options.progress = [&, this](std::size_t done, std::size_t) {
            groupBytes = done;
            if (!cancelled &&
                !report("reading", kImportReadShare * double(before + done) / double(total)))
                cancelled = true;
        };
        auto r = importFiles(*g.importer, g.files, options);
        if (cancelled)
            return fail(ImportFailure::Cancelled, {{{}, "import cancelled; nothing written"}});
        if (!r)
            return fail(ImportFailure::BadInput, r.problems());
        before += groupBytes;
        reports.push_back(std::move(r.value()));
    }

    // A time column named in --time-format that no input has (a misspelling, or a column
    // of another format) would be ignored in silence.
    if (named.asked)
        for (const auto &[column, format] : named.byColumn)
            if (!named.asked->count(column)) {
                std::string known;
                for (const std::string &c : *named.asked)
                    known += (known.empty() ? "" : ", ") + c;
                return fail(ImportFailure::BadInput,
                            {{"--time-format",
                              "no time column \"" + column + "\" in " + formats() + " input " +
                                  (known.empty() ? std::string("(it reads no time column)")
                                                 : "(its time columns: " + known + ")")}});
            }

    // Options of one format's own, given to others, are said rather than ignored in silence.
    const ImportOptions &o = m_request.options;
    const std::pair<const char *, bool> given[] = {
        {"nodes", o.nodeCount != 1},
        {"date", !o.date.empty()},
        {"node-template", !m_request.nodeTemplate.empty()},
        {"throughputs", !o.throughputsFile.empty()},
        {"model", !o.model.empty()}};
    auto reads = [](const Importer &imp, const std::string &option) {
        const auto r = imp.readsOptions();
        return std::find(r.begin(), r.end(), option) != r.end();
    };
    for (const auto &entry : given) {
        const std::string option = entry.first; // (a lambda may not capture a binding here)
        if (!entry.second || std::any_of(groups.begin(), groups.end(), [&](const Group &g) {
                return reads(*g.importer, option);
            }))
            continue;
        std::string readers;
        for (const Importer *imp : importers())
            if (reads(*imp, option))
                readers += (readers.empty() ? "" : ", ") + imp->name();
        m_report.assume("--" + std::string(option) + " is not used: " + formats() +
                        " input does not read it (read by " + readers + ")");
    }

    // The scenario the jobs go to: one cluster among the inputs at most.
    std::string clusterInputs;
    int clusters = 0;
    for (std::size_t i = 0; i < reports.size(); ++i)
        if (reports[i].cluster) {
            ++clusters;
            for (const std::string &f : groups[i].files)
                clusterInputs += "\n  " + f + " (" + groups[i].importer->name() + ")";
        }
    if (clusters > 1)
        return fail(ImportFailure::BadInput,
                    {{{},
                      "the inputs define more than one cluster (give one cluster source "
                      "and one trace):" +
                          clusterInputs}});
    const bool inputCluster =
        std::any_of(reports.begin(), reports.end(),
                    [](const ImportReport &r) { return r.cluster.has_value(); });
    // Was a trace given? A format that reads either (the Alibaba tables) was given a trace
    // unless its files made a cluster and nothing else (a node list alone).
    bool anyJobs = false;
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const Importer::Produces p = groups[i].importer->produces();
        const ImportReport &r = reports[i];
        if (p == Importer::Produces::Jobs ||
            (p == Importer::Produces::ClusterAndJobs &&
             (!r.cluster || !r.jobs.empty() || r.skippedCount > 0)))
            anyJobs = true;
    }
    m_report.format = formats();
    Scenario &s = m_scenario;
    s = Scenario{};
    // Named after the first input, or for a CSV mapping (given first) after its trace.
    const bool mapped = !groups.empty() && groups.front().importer->name() == "csv-mapping" &&
                        groups.front().files.size() > 1;
    s.name = !m_request.name.empty() ? m_request.name
             : mapped               ? importBaseName(groups.front().files[1])
                                    : importBaseName(m_request.files.front());
    s.description = "Imported with clusterbench import " + formats() + ".";
    const std::string &base =
        !m_request.appendTo.empty() ? m_request.appendTo : m_request.clusterFile;
    if (!base.empty()) {
        const char *option = m_request.appendTo.empty() ? "--cluster" : "--append-to";
        if (inputCluster)
            return fail(ImportFailure::BadInput,
                        {{option, std::string(option) + " " + base +
                                      " cannot be combined with input that defines a cluster (" +
                                      formats() + ")"}});
        auto loaded = loadScenarioFile(base);
        if (!loaded) {
            // Blamed on the file, as `validate` says them: "file: /jobs/3: ..." (a problem
            // that names the file itself, "cannot open", names it once).
            Problems blamed;
            for (const Problem &p : loaded.problems())
                blamed.push_back({base, p.where.empty() || p.where == base
                                            ? p.message
                                            : p.where + ": " + p.message});
            if (blamed.front().message.rfind("not valid JSON", 0) == 0)
                blamed.push_back({{}, std::string(option) +
                                              " takes a ClusterBench scenario (JSON); to "
                                              "import a cluster from " + base +
                                              ", give it as an input: clusterbench import " +
                                              base + " TRACE... --out SCENARIO.json"});
            return fail(ImportFailure::BadInput, blamed);
        }
        if (!m_request.appendTo.empty()) {
            s = std::move(loaded.value());
            if (!m_request.name.empty())
                s.name = m_request.name;
            m_report.jobsBefore = s.jobs.size();
            if (!s.jobs.empty())
                m_report.assume("--append-to " + base + ": its " + std::to_string(s.jobs.size()) +
                                " jobs are kept");
        } else {
            // Everything but the jobs: the cluster, and the settings and model data that go
            // with it (step-time tables, distributions, policies).
            const std::string name = s.name, description = s.description;
            const std::size_t dropped = loaded->jobs.size();
            s = std::move(loaded.value());
            s.jobs.clear();
            s.name = name;
            s.description = description;
            m_report.assume("--cluster " + base + ": its cluster" +
                            (s.stepTimeModels.empty() ? std::string() : ", its step-time models") +
                            " and settings" +
                            (dropped > 0 ? "; its " + std::to_string(dropped) +
                                               " jobs are not kept (--append-to keeps them)"
                                         : std::string()));
        }
        m_clusterSources = {base};
    }
    for (std::size_t i = 0; i < reports.size(); ++i) {
        ImportReport &r = reports[i];
        if (r.cluster) {
            s.cluster = std::move(*r.cluster);
            r.cluster.reset();
            m_clusterSources = groups[i].files;
        }
    }
    if (inputCluster && !m_request.options.gpuType.empty())
        reportUnusedGpuType(s.cluster, m_request.options.gpuType, m_report);
    if (s.cluster.nodes.empty() && base.empty()) {
        const bool needed =
            anyJobs || std::any_of(reports.begin(), reports.end(),
                                   [](const ImportReport &r) { return !r.stepTimeModels.empty(); });
        if (needed) {
            s.cluster = defaultImportCluster(m_request.options.gpuType);
            const std::string type =
                m_request.options.gpuType.empty() ? "V100" : m_request.options.gpuType;
            m_report.assume("no cluster given (--cluster, or a cluster file among the inputs): "
                            "default cluster of 4 nodes x 8 " +
                            type + " GPUs (64 CPUs, 512 GiB each) on one switch");
            bool known = false;
            (void)importedGpuType(type, &known);
            if (!known) // (as a cluster file's unknown GPU types are said)
                m_report.assume("GPU type " + type +
                                " is not in the catalogue: default entry (16 GiB, 50 W idle, "
                                "250 W busy, relative speed 1.0, price 0)");
        }
    }
    if (base.empty()) // (a scenario's own cluster keeps what it says)
        assumeHostPower(s.cluster, m_report);

    // The jobs: checked against the cluster and the format's limits.
    for (std::size_t i = 0; i < reports.size(); ++i) {
        ImportReport &r = reports[i];
        const std::size_t jobs = r.jobs.size();
        const double from = kImportReadShare;
        const bool ok = addImportedJobs(s, r, [&, this](std::size_t done) {
            return report("checking", from + kImportCheckShare * double(done) /
                                                 double(std::max<std::size_t>(jobs, 1)));
        });
        if (!ok)
            return fail(ImportFailure::Cancelled, {{{}, "import cancelled; nothing written"}});
        m_report.files.insert(m_report.files.end(), r.files.begin(), r.files.end());
        m_report.merge(r);
        m_report.jobsWritten += r.jobsWritten;
        for (const auto &[model, table] : r.stepTimeModels)
            m_report.stepTimeModels[model] = table;
        // Origins of the added jobs, re-pointed into the merged list of files.
        const int offset = int(m_report.files.size() - r.files.size());
        for (ImportOrigin o : r.jobOrigins) {
            o.file += offset;
            m_report.jobOrigins.push_back(o);
        }
    }
    if (!s.cluster.nodes.empty())
        m_report.cluster = s.cluster;

    // Something usable?
    if (anyJobs && m_report.jobsWritten == 0) {
        std::string why = "no job could be kept from " + formats() +
                          " input: " + std::to_string(m_report.rowsRead) + " rows read, " +
                          std::to_string(m_report.skippedCount) + " skipped";
        if (!m_report.skipGroups.empty())
            why += " (" + m_report.skipGroups.front().reason +
                   (m_report.skipGroups.size() > 1 ? ", and more: see the list" : "") + ")";
        return fail(ImportFailure::NothingUsable, {{m_request.files.back(), why}});
    }
    if (s.cluster.nodes.empty())
        return fail(ImportFailure::NothingUsable,
                    {{m_request.files.front(), "no node could be imported"}});
    if (s.cluster.totalGpus() == 0)
        return fail(ImportFailure::NothingUsable,
                    {{m_request.files.front(),
                      "no node of the " + std::to_string(s.cluster.nodes.size()) +
                          " imported has a GPU, so no training job runs on the cluster: give "
                          "the nodes GPUs (slurm.conf: Gres=gpu:N or a gres.conf; a Kubernetes "
                          "node: nvidia.com/gpu; a topology file: --node-template gpus=N)"}});

    // The checks `validate` makes, blamed on the inputs.
    Problems problems = limits::clusterProblems(s.cluster);
    for (const Problem &p : validateScenario(s))
        problems.push_back(p);
    if (!problems.empty()) {
        const std::size_t first = s.jobs.size() - m_report.jobOrigins.size();
        Problems blamed;
        for (const Problem &p : problems) {
            std::string where = p.where;
            if (p.where.starts_with("/jobs/")) {
                const std::size_t k = std::stoul(p.where.substr(6));
                if (k >= first && k - first < m_report.jobOrigins.size()) {
                    const ImportOrigin &o = m_report.jobOrigins[k - first];
                    where = m_report.files[std::size_t(o.file)] + ":" + std::to_string(o.line) +
                            ": job " + importtext::shown(s.jobs[k].id) + " (" + p.where + ")";
                } else if (!base.empty()) {
                    where = base + ":" + p.where;
                }
            } else {
                std::string from;
                for (const std::string &f : m_clusterSources)
                    from += (from.empty() ? "" : ", ") + f;
                where = (from.empty() ? std::string("the default cluster") : from) + ": " +
                        clusterPart(s.cluster, p.where) + " (" + p.where + ")";
            }
            blamed.push_back({where, p.message});
        }
        return fail(ImportFailure::BadInput, blamed);
    }
    m_ran = true;
    return report("checking", kImportReadShare + kImportCheckShare);
}

bool ScenarioImport::write(const std::string &path)
{
    if (!m_ran)
        return fail(ImportFailure::WriteFailed, {{path, "nothing to write"}});
    // The scenario never replaces an input (--append-to S --out S updates S, which is meant).
    std::vector<std::string> inputs = m_request.files;
    if (!m_request.clusterFile.empty())
        inputs.push_back(m_request.clusterFile);
    if (!m_request.nodeTemplate.empty())
        inputs.push_back(m_request.nodeTemplate);
    if (const Status notInput = checkNotAnInput(path, inputs, "the scenario"); !notInput)
        return fail(ImportFailure::BadInput,
                    {{"--out " + path, notInput.problems().front().message}});
    const double from = kImportReadShare + kImportCheckShare;
    const std::size_t jobs = std::max<std::size_t>(m_scenario.jobs.size(), 1);
    bool cancelled = false;
    const Status written = writeScenarioFile(path, m_scenario, [&, this](std::size_t done) {
        if (!report("writing", from + (1 - from) * double(done) / double(jobs)))
            cancelled = true;
        return !cancelled;
    });
    if (cancelled)
        return false;
    if (!written)
        return fail(ImportFailure::WriteFailed, written.problems());
    m_report.out = path;
    m_report.nodesWritten = m_scenario.cluster.nodes.size();
    return report("writing", 1.0);
}

} // namespace cb
