#include "cli/command.h"
#include "io/scenario_json.h"
#include "io/sts_data.h"
#include "io/sts_setup.h"
#include "model/gen_dgx.h"
#include "model/gen_fat_tree.h"
#include "model/gen_jobs.h"
#include "model/gen_leaf_spine.h"
#include "model/gen_nvl72.h"
#include "model/model_catalog.h"
#include "model/validation.h"
#include "net/topology.h"
#include "util/count_text.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <type_traits>

namespace cb::cli {

namespace {

const std::vector<std::string> kKinds = {"leaf-spine", "fat-tree", "dgx", "nvl72", "jobs",
                                         "sts"};

// Options that apply to each kind (besides out, name, description, seed, json).
const std::set<std::string> kHostOptions = {"gpus-per-host", "gpu-type", "cpus", "memory",
                                            "base-watts", "prefix", "partition"};
const std::set<std::string> kJobOptions = {
    "jobs", "mean-interarrival", "first-arrival", "models", "single-fraction", "ps-fraction",
    "workers", "ps", "gpus-per-worker", "worker-cpus", "worker-memory", "ps-cpus", "ps-memory",
    "slack", "weight", "job-gpu-type", "id-prefix", "first-index", "min-available"};
const std::set<std::string> kCommonOptions = {"out", "name", "description", "seed", "json"};

std::set<std::string> optionsOf(const std::string &kind)
{
    std::set<std::string> s = kCommonOptions;
    auto add = [&](const std::set<std::string> &more) { s.insert(more.begin(), more.end()); };
    if (kind == "leaf-spine") {
        add(kHostOptions);
        add(kJobOptions);
        add({"leaves", "spines", "hosts-per-leaf", "oversubscription", "host-gbps", "latency"});
    } else if (kind == "fat-tree") {
        add(kHostOptions);
        add(kJobOptions);
        add({"k", "hosts-per-edge", "link-gbps", "latency"});
    } else if (kind == "dgx") {
        add(kHostOptions);
        add(kJobOptions);
        add({"nodes", "nics", "nic-gbps", "nodes-per-unit", "spines", "oversubscription",
             "nvlink-gbps", "latency"});
    } else if (kind == "nvl72") {
        add(kHostOptions);
        s.erase("base-watts"); // from --rack-kw
        add(kJobOptions);
        add({"racks", "variant", "nodes-per-rack", "nics", "nic-gbps", "racks-per-unit", "spines",
             "oversubscription", "nvlink-gbps", "latency", "rack-kw"});
    } else if (kind == "jobs") {
        add(kJobOptions);
        add({"into"});
    } else if (kind == "sts") {
        add({"data", "nodes", "jobs-per-node", "arrival-scale", "link-gbps"});
    }
    return s;
}

/// Reads typed option values, collecting every problem ("--leaves: expected ...").
class OptionReader
{
public:
    explicit OptionReader(const Args &args) : m_args(args) {}

    void integer(const char *name, int &into)
    {
        if (!m_args.has(name))
            return;
        auto v = m_args.integer(name, into);
        if (!v)
            add(v.problems());
        else if (v.value() < -2147483647LL || v.value() > 2147483647LL)
            m_problems.push_back({std::string("--") + name, "the value is out of range"});
        else
            into = int(v.value());
    }
    void seed(std::uint64_t &into)
    {
        if (!m_args.has("seed"))
            return;
        auto v = m_args.integer("seed", 0);
        if (!v || v.value() < 0)
            m_problems.push_back({"--seed", "expected an integer >= 0, found \"" +
                                                m_args.value("seed") + "\""});
        else
            into = std::uint64_t(v.value());
    }
    void number(const char *name, double &into)
    {
        if (!m_args.has(name))
            return;
        if (auto v = parse(name, m_args.value(name)))
            into = *v;
    }
    /// "MIN-MAX" or a single value for both.
    template<typename T>
    void range(const char *name, T &lo, T &hi)
    {
        if (!m_args.has(name))
            return;
        const std::string text = m_args.value(name);
        const std::size_t dash = text.find('-', 1);
        auto a = parse(name, text.substr(0, dash));
        auto b = dash == std::string::npos ? a : parse(name, text.substr(dash + 1));
        if (!a || !b)
            return;
        if constexpr (std::is_integral_v<T>) {
            if (*a != std::floor(*a) || *b != std::floor(*b) || std::fabs(*a) > 1e9 ||
                std::fabs(*b) > 1e9) {
                m_problems.push_back({std::string("--") + name,
                                      "expected integers MIN-MAX, found \"" + text + "\""});
                return;
            }
        }
        lo = T(*a);
        hi = T(*b);
    }
    void text(const char *name, std::string &into)
    {
        if (m_args.has(name))
            into = m_args.value(name);
    }
    void add(const Problems &p) { m_problems.insert(m_problems.end(), p.begin(), p.end()); }
    const Problems &problems() const { return m_problems; }

private:
    std::optional<double> parse(const char *name, const std::string &text)
    {
        try {
            std::size_t used = 0;
            const double v = std::stod(text, &used);
            if (used == text.size() && std::isfinite(v))
                return v;
        } catch (const std::exception &) {
        }
        m_problems.push_back(
            {std::string("--") + name, "expected a number, found \"" + text + "\""});
        return std::nullopt;
    }

    const Args &m_args;
    Problems m_problems;
};

void readHost(OptionReader &r, HostParams &host)
{
    r.integer("gpus-per-host", host.gpus);
    r.text("gpu-type", host.gpuType);
    r.number("cpus", host.cpus);
    r.number("memory", host.memoryGiB);
    r.number("base-watts", host.baseWatts);
    r.text("prefix", host.prefix);
    r.text("partition", host.partition);
}

void readJobs(OptionReader &r, JobSetParams &p, const Args &args)
{
    r.integer("jobs", p.jobs);
    r.number("mean-interarrival", p.meanInterarrivalSeconds);
    r.number("first-arrival", p.firstArrivalSeconds);
    if (args.has("models")) {
        auto mix = parseModelMix(args.value("models"));
        if (mix)
            p.modelMix = mix.value();
        else
            r.add(mix.problems());
    }
    r.number("single-fraction", p.singleFraction);
    r.number("ps-fraction", p.psFraction);
    r.range("workers", p.minWorkers, p.maxWorkers);
    r.range("ps", p.minPs, p.maxPs);
    r.integer("gpus-per-worker", p.gpusPerWorker);
    r.number("min-available", p.psMinAvailableFraction);
    r.number("worker-cpus", p.workerCpus);
    r.number("worker-memory", p.workerMemoryGiB);
    r.number("ps-cpus", p.psCpus);
    r.number("ps-memory", p.psMemoryGiB);
    r.range("slack", p.minSlack, p.maxSlack);
    r.range("weight", p.minWeight, p.maxWeight);
    r.text("job-gpu-type", p.gpuType);
    r.text("id-prefix", p.idPrefix);
    r.integer("first-index", p.firstIndex);
    r.seed(p.seed);
}

std::string hostText(const HostParams &h)
{
    if (h.gpus == 0)
        return "no GPUs";
    return std::to_string(h.gpus) + " x " + h.gpuType;
}

int fail(Io &io, const Problems &problems, int code)
{
    io.err << formatProblems(problems, "clusterbench generate") << "\n";
    return code;
}

int run(const Args &args, Io &io)
{
    if (args.positional().size() != 1) {
        io.err << "clusterbench generate: expected one KIND (leaf-spine, fat-tree, dgx, nvl72, "
                  "jobs or sts; see --help)\n";
        return ExitBadInput;
    }
    const std::string kind = args.positional()[0];
    if (std::find(kKinds.begin(), kKinds.end(), kind) == kKinds.end()) {
        io.err << "clusterbench generate: unknown KIND \"" << kind
               << "\"; expected leaf-spine, fat-tree, dgx, nvl72, jobs or sts\n";
        return ExitBadInput;
    }
    Problems usage;
    const std::set<std::string> allowed = optionsOf(kind);
    for (const Option &o : generateCommand().options)
        if (args.has(o.name) && !allowed.count(o.name))
            usage.push_back({"--" + o.name, "does not apply to " + kind + " (see --help)"});
    if (kind != "jobs" && kind != "sts" && !args.has("jobs"))
        for (const std::string &o : kJobOptions)
            if (args.has(o))
                usage.push_back({"--" + o, "job options need --jobs N"});
    if (!args.has("out"))
        usage.push_back({"--out", "missing: where to write the scenario"});
    if (kind == "jobs" && !args.has("into"))
        usage.push_back({"--into", "missing: the scenario to add the jobs to"});
    if (!usage.empty())
        return fail(io, usage, ExitBadInput);

    OptionReader r(args);
    Scenario scenario;
    std::uint64_t seed = 1;
    r.seed(seed);
    scenario.settings.seed = seed;
    Problems generated;
    std::string description;
    bool withJobs = kind == "jobs" || args.has("jobs");

    if (kind == "leaf-spine") {
        LeafSpineParams p;
        r.integer("leaves", p.leaves);
        r.integer("spines", p.spines);
        r.integer("hosts-per-leaf", p.hostsPerLeaf);
        r.number("oversubscription", p.oversubscription);
        r.number("host-gbps", p.hostLinkGbps);
        r.number("latency", p.latencyUs);
        readHost(r, p.host);
        if (!r.problems().empty())
            return fail(io, r.problems(), ExitBadInput);
        auto c = generateLeafSpine(p);
        if (!c)
            return fail(io, asOptions(c.problems()), ExitBadInput);
        scenario.cluster = c.value();
        scenario.name = "leaf-spine " + std::to_string(p.leaves) + "x" +
                        std::to_string(p.hostsPerLeaf);
        description = "Leaf-spine cluster: " + std::to_string(p.leaves) + " leaves x " +
                      std::to_string(p.hostsPerLeaf) + " hosts (" + hostText(p.host) + " each), " +
                      std::to_string(p.spines) + " spines, " + numberText(p.oversubscription) +
                      ":1 oversubscription, " + numberText(p.hostLinkGbps) + " Gbit/s host links.";
    } else if (kind == "fat-tree") {
        FatTreeParams p;
        p.host.gpus = 1;
        r.integer("k", p.k);
        r.integer("hosts-per-edge", p.hostsPerEdge);
        // (0 is the generator's "k/2", which leaving the option out gives: given, it is a count)
        if (args.has("hosts-per-edge") && p.hostsPerEdge == 0)
            r.add({{"--hosts-per-edge", "expected 1 to 256 hosts per edge switch, found 0"}});
        r.number("link-gbps", p.linkGbps);
        r.number("latency", p.latencyUs);
        readHost(r, p.host);
        if (!r.problems().empty())
            return fail(io, r.problems(), ExitBadInput);
        auto c = generateFatTree(p);
        if (!c)
            return fail(io, asOptions(c.problems()), ExitBadInput);
        scenario.cluster = c.value();
        const int perEdge = p.hostsPerEdge > 0 ? p.hostsPerEdge : p.k / 2;
        scenario.name = "fat-tree k=" + std::to_string(p.k) +
                        (p.hostsPerEdge > 0 ? " x" + std::to_string(perEdge) : std::string());
        description = "k-ary fat-tree (Al-Fares et al. 2008), k = " + std::to_string(p.k) + ": " +
                      std::to_string(c->nodes.size()) + " hosts (" + hostText(p.host) +
                      " each" +
                      (p.hostsPerEdge > 0 ? ", " + std::to_string(perEdge) + " per edge switch"
                                          : std::string()) +
                      "), " + std::to_string(5 * p.k * p.k / 4) + " switches, " +
                      numberText(p.linkGbps) + " Gbit/s links, " +
                      (2 * perEdge == p.k ? std::string("full bisection.")
                                          : numberText(2.0 * perEdge / p.k) +
                                                ":1 oversubscribed at the edge.");
    } else if (kind == "dgx") {
        DgxParams p;
        r.integer("nodes", p.nodes);
        r.integer("nics", p.nicsPerNode);
        r.number("nic-gbps", p.nicGbps);
        r.integer("nodes-per-unit", p.nodesPerUnit);
        r.integer("spines", p.spines);
        r.number("oversubscription", p.oversubscription);
        r.number("nvlink-gbps", p.nvlinkGbps);
        r.number("latency", p.latencyUs);
        readHost(r, p.host);
        if (!r.problems().empty())
            return fail(io, r.problems(), ExitBadInput);
        auto c = generateDgx(p);
        if (!c)
            return fail(io, asOptions(c.problems()), ExitBadInput);
        scenario.cluster = c.value();
        scenario.name = "dgx x" + std::to_string(p.nodes);
        description = "DGX-style cluster: " + std::to_string(p.nodes) + " nodes of " +
                      hostText(p.host) + " in one NVLink domain, " + std::to_string(p.nicsPerNode) +
                      " x " + numberText(p.nicGbps) +
                      " Gbit/s NICs per node on a rail-optimised fabric (NIC r to rail leaf r), " +
                      std::to_string(p.spines) + " spines.";
    } else if (kind == "nvl72") {
        std::string variant = "gb200";
        r.text("variant", variant);
        if (variant != "gb200" && variant != "hgx-h100" && variant != "hgx-h200")
            return fail(io,
                        {{"--variant", "expected gb200, hgx-h100 or hgx-h200, found \"" +
                                           variant + "\""}},
                        ExitBadInput);
        Nvl72Params p = nvl72Defaults(variant == "gb200"      ? Nvl72Params::Variant::Gb200Nvl72
                                      : variant == "hgx-h100" ? Nvl72Params::Variant::HgxH100
                                                              : Nvl72Params::Variant::HgxH200);
        r.integer("racks", p.racks);
        r.integer("nodes-per-rack", p.nodesPerRack);
        r.integer("nics", p.nicsPerNode);
        r.number("nic-gbps", p.nicGbps);
        r.integer("racks-per-unit", p.racksPerUnit);
        r.integer("spines", p.spines);
        r.number("oversubscription", p.oversubscription);
        r.number("nvlink-gbps", p.nvlinkGbps);
        r.number("latency", p.latencyUs);
        r.number("rack-kw", p.rackKw);
        readHost(r, p.host);
        if (!r.problems().empty())
            return fail(io, r.problems(), ExitBadInput);
        auto c = generateNvl72(p);
        if (!c)
            return fail(io, asOptions(c.problems()), ExitBadInput);
        scenario.cluster = c.value();
        const int gpus = scenario.cluster.totalGpus();
        if (variant == "gb200") {
            scenario.name = "nvl72 x" + std::to_string(p.racks);
            description = "GB200 NVL72 cluster: " + std::to_string(p.racks) + " rack(s), each one " +
                          std::to_string(p.nodesPerRack * p.host.gpus) +
                          "-GPU multi-node NVLink domain of " + std::to_string(p.nodesPerRack) +
                          " compute trays (" + hostText(p.host) + ", " +
                          numberText(scenario.cluster.nvlinkDomains.front().bandwidthGbps) +
                          " Gbit/s NVLink per GPU and direction), " +
                          std::to_string(p.nicsPerNode) + " x " + numberText(p.nicGbps) +
                          " Gbit/s scale-out NICs per tray on a rail-optimised fabric, " +
                          std::to_string(gpus) + " GPUs.";
        } else {
            const bool h200 = variant == "hgx-h200";
            scenario.name = variant + " x" + std::to_string(p.racks);
            description = std::string(h200 ? "HGX H200" : "HGX H100") + " cluster: " + std::to_string(p.racks) + " rack(s) of " +
                          std::to_string(p.nodesPerRack) + " nodes (" + hostText(p.host) +
                          ", the NVLink domain is the node), " + std::to_string(p.nicsPerNode) +
                          " x " + numberText(p.nicGbps) +
                          " Gbit/s NICs per node on a rail-optimised fabric, " +
                          std::to_string(gpus) + " GPUs.";
        }
    } else if (kind == "sts") {
        StsSetupParams p;
        p.seed = seed;
        r.integer("nodes", p.nodes);
        r.integer("jobs-per-node", p.jobsPerNode);
        r.number("arrival-scale", p.arrivalScale);
        r.number("link-gbps", p.linkGbps);
        if (!r.problems().empty())
            return fail(io, r.problems(), ExitBadInput);
        // (the copy built into the program unless --data names a folder, as for experiment)
        auto data =
            args.has("data") ? loadStsAuthorsData(args.value("data")) : builtinStsAuthorsData();
        if (!data)
            return fail(io, data.problems(), ExitBadInput);
        auto s = buildStsScenario(data.value(), p);
        if (!s)
            return fail(io, asOptions(s.problems()), ExitBadInput);
        scenario = s.value();
    } else { // jobs
        const std::string into = args.value("into");
        auto loaded = loadScenarioFile(into);
        if (!loaded) {
            io.err << loaded.error(into) << "\n";
            return ExitBadInput;
        }
        scenario = loaded.value();
        description = scenario.description;
    }

    if (withJobs) {
        JobSetParams jp;
        jp.firstIndex = int(scenario.jobs.size());
        jp.seed = seed;
        readJobs(r, jp, args);
        if (!r.problems().empty())
            return fail(io, r.problems(), ExitBadInput);
        auto jobs = generateJobs(jp);
        if (!jobs)
            return fail(io, asOptions(jobs.problems()), ExitBadInput);
        scenario.jobs.insert(scenario.jobs.end(), jobs->begin(), jobs->end());
        std::string mix;
        for (const ModelShare &m : jp.modelMix)
            mix += (mix.empty() ? "" : ", ") + m.model +
                   (m.weight != 1 ? ":" + numberText(m.weight) : "");
        description += (description.empty() ? "" : " ") + std::to_string(jp.jobs) +
                       " generated jobs (Poisson arrivals, mean gap " +
                       numberText(jp.meanInterarrivalSeconds) + " s; models " +
                       (mix.empty() ? "all catalogue models" : mix) + "; seed " +
                       std::to_string(jp.seed) + ").";
    }
    if (kind != "sts" && kind != "jobs")
        description += " Generated by 'clusterbench generate " + kind + "'.";
    if (kind != "sts")
        scenario.description = description;
    r.text("name", scenario.name);
    r.text("description", scenario.description);

    // Generated jobs that could never start on the generated cluster are a parameter
    // mistake too (a scenario file with such jobs loads, with a warning).
    Problems invalid = validateScenario(scenario);
    for (Problem &p : jobsThatNeverStart(scenario))
        invalid.push_back(std::move(p));
    if (!invalid.empty()) {
        io.err << "clusterbench generate: the generated scenario is not valid with these "
                  "parameters:\n"
               << formatProblems(invalid) << "\n";
        return ExitBadInput;
    }
    const std::string out = args.value("out");
    if (auto saved = saveScenarioFile(out, scenario); !saved) {
        io.err << "clusterbench generate: " << saved.error() << "\n";
        return ExitFailure;
    }

    const Topology topo(scenario.cluster);
    nlohmann::ordered_json j;
    j["file"] = out;
    j["kind"] = kind;
    j["nodes"] = scenario.cluster.nodes.size();
    j["gpus"] = scenario.cluster.totalGpus();
    j["switches"] = scenario.cluster.switches.size();
    j["links"] = scenario.cluster.links.size();
    if (!scenario.cluster.nvlinkDomains.empty())
        j["nvlink_domains"] = scenario.cluster.nvlinkDomains.size();
    j["bisection_gbps"] = jsonNumber(topo.bisectionGbps());
    j["jobs"] = scenario.jobs.size();
    if (args.flag("json")) {
        io.out << j.dump(2) << "\n";
    } else {
        io.out << "Wrote " << out << ": " << counted(j["nodes"].get<long long>(), "node") << ", "
               << counted(j["gpus"].get<long long>(), "GPU") << ", "
               << counted(j["switches"].get<long long>(), "switch", "switches") << ", "
               << counted(j["links"].get<long long>(), "link") << ", "
               << (scenario.cluster.nvlinkDomains.empty()
                       ? std::string()
                       : std::to_string(scenario.cluster.nvlinkDomains.size()) +
                             " multi-node NVLink domains, ")
               << "bisection " << groupedNumber(topo.bisectionGbps()) << " Gbit/s, "
               << j["jobs"].get<std::size_t>() << " jobs\n";
    }
    return ExitOk;
}

} // namespace

Command generateCommand()
{
    Command c;
    c.name = "generate";
    c.synopsis = "generate KIND [OPTIONS] --out FILE";
    c.summary =
        "Generate a cluster (leaf-spine, fat-tree, dgx, nvl72), a job set, or the STS setup";
    c.description =
        "KIND is one of:\n"
        "  leaf-spine  hosts on leaf switches, every leaf linked to every spine\n"
        "  fat-tree    k-ary fat-tree: k^3/4 hosts, 5k^2/4 switches, full bisection\n"
        "  dgx         8-GPU NVLink nodes with one NIC per rail leaf (rail-optimised)\n"
        "  nvl72       GB200 NVL72 racks: each rack one 72-GPU NVLink domain of 18 trays x 4 "
        "GPUs (NVLink 5: 1.8 TB/s per GPU bidirectional = 900 GB/s = 7,200 Gbit/s per "
        "direction, NVIDIA GB200 NVL72 product page), 4 x 400 Gb/s ConnectX-7 NICs per tray "
        "(DGX GB200 user guide), 120 kW per rack; --variant hgx-h100 or hgx-h200: 8-GPU H100 "
        "or H200 nodes (DGX H100 and DGX H200 datasheets), 4 per rack, the node's domain\n"
        "  jobs        add a generated job set to the scenario given by --into\n"
        "  sts         the STS authors' data-centre setup from their CSV files (built in, or "
        "--data DIR)\n"
        "Cluster kinds add a job set too when --jobs N is given. The scenario is written "
        "canonically and atomically; the same options and --seed give the same bytes.\n"
        "GPU types: " +
        gpuCatalogNames() + ".\nModels: " + trainingModelNames() + ".";
    c.options = {
        {"out", "FILE", "where to write the scenario (required)"},
        {"name", "TEXT", "scenario name"},
        {"description", "TEXT", "scenario description (default: what was generated)"},
        {"seed", "N", "random seed for jobs and the STS setup (default 1)"},
        {"json", "", "print a summary of the written scenario as JSON"},
        {"leaves", "N", "leaf-spine: leaf switches (default 4)"},
        {"spines", "N", "leaf-spine, dgx, nvl72: spine switches (default 2)"},
        {"racks", "N", "nvl72: racks (default 1), each one NVLink domain for gb200"},
        {"variant", "V", "nvl72: gb200 (default), hgx-h100 or hgx-h200"},
        {"nodes-per-rack", "N", "nvl72: compute trays per rack (gb200 18, hgx-h100 4)"},
        {"racks-per-unit", "N", "nvl72: racks per scalable unit of rail leaves (default 8)"},
        {"rack-kw", "KW", "nvl72: rack draw at full load (gb200 120, hgx-h100 40.8)"},
        {"hosts-per-leaf", "N", "leaf-spine: hosts per leaf (default 8)"},
        {"oversubscription", "R",
         "leaf-spine, dgx, nvl72: leaf down:up bandwidth ratio "
         "(default 1)"},
        {"host-gbps", "G", "leaf-spine: host link Gbit/s (default 100)"},
        {"k", "K", "fat-tree: even switch radix, 2..64 (default 4; 16 gives 1,024 hosts)"},
        {"hosts-per-edge", "H",
         "fat-tree: hosts per edge switch, 1..256 (default k/2, full bisection; --k 32 "
         "--hosts-per-edge 32 gives 16,384 hosts, 2:1 at the edge)"},
        {"link-gbps", "G", "fat-tree: every link's Gbit/s (default 100); sts: node links"},
        {"latency", "US", "link latency in microseconds (default 1)"},
        {"nodes", "N", "dgx: nodes (default 4); sts: nodes (default 10)"},
        {"nics", "N",
         "dgx: compute NICs (rails) per node (default 8); nvl72: gb200 4, "
         "hgx-h100 8"},
        {"nic-gbps", "G", "dgx: Gbit/s per NIC (default 200); nvl72: 400"},
        {"nodes-per-unit", "N", "dgx: nodes per scalable unit of rail leaves (default 32)"},
        {"nvlink-gbps", "G",
         "dgx, nvl72: NVLink Gbit/s per GPU and direction (default: GPU "
         "type's; GB200 7200)"},
        {"gpus-per-host", "N", "GPUs per host (leaf-spine 8, fat-tree 1, dgx 8)"},
        {"gpu-type", "T",
         "GPU type from the catalogue (leaf-spine, fat-tree A100-40GB; dgx "
         "A100-80GB)"},
        {"cpus", "N", "CPU cores per host (default 64; dgx 128)"},
        {"memory", "GIB", "memory per host in GiB (default 512; dgx 2048)"},
        {"base-watts", "W", "host draw without GPUs (default 400; dgx 3300)"},
        {"prefix", "P", "hostname prefix (default node; dgx dgx)"},
        {"partition", "P", "Slurm partition of the hosts (default gpu; dgx dgx)"},
        {"into", "SCENARIO", "jobs: the scenario to add the jobs to"},
        {"jobs", "N", "number of jobs to generate (default 20)"},
        {"mean-interarrival", "S", "mean seconds between arrivals (default 300)"},
        {"first-arrival", "S", "arrival time of the first job (default 0)"},
        {"models", "LIST", "model mix, e.g. resnet50:2,vgg16,bert-base (default: all equal)"},
        {"single-fraction", "F", "share of single-task jobs (default 0.2)"},
        {"ps-fraction", "F", "share of parameter-server among distributed jobs (default 0.5)"},
        {"workers", "MIN-MAX", "workers per distributed job (default 2-8)"},
        {"ps", "MIN-MAX", "parameter servers per PS job (default 1-2)"},
        {"gpus-per-worker", "N", "GPUs per worker (default 1)"},
        {"min-available", "F", "PS jobs may start with ceil(F x workers) workers (default: all)"},
        {"worker-cpus", "N", "CPUs per worker (default 4)"},
        {"worker-memory", "GIB", "GiB per worker (default 16)"},
        {"ps-cpus", "N", "CPUs per parameter server (default 4)"},
        {"ps-memory", "GIB", "GiB per parameter server (default 16)"},
        {"slack", "MIN-MAX", "due = submit + slack x ideal run time (default 1.5-4; 0 = none)"},
        {"weight", "MIN-MAX", "tardiness weight per second (default 0.0254-0.0444)"},
        {"job-gpu-type", "T", "GPU type every task requires (default any)"},
        {"id-prefix", "P", "job id prefix (default job)"},
        {"first-index", "N", "index of the first job id (default: jobs already there)"},
        {"data", "DIR", "sts: folder with the authors' CSV files (default: the copy built in)"},
        {"jobs-per-node", "N", "sts: jobs per node, plus one at time 0 (default 10)"},
        {"arrival-scale", "S", "sts: mean inter-arrival = S / nodes seconds (default 50000)"},
    };
    c.run = run;
    return c;
}

} // namespace cb::cli
