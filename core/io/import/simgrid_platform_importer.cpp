#include "io/import/simgrid_platform_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "io/import/xml_document.h"
#include "io/scenario_limits.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <set>

namespace cb {

namespace {

// Splits "125MBps" into 125 and "MBps".
std::pair<std::optional<double>, std::string> numberAndUnit(const std::string &text)
{
    const std::string t = importtext::trim(text);
    std::size_t i = 0;
    while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.' ||
                            t[i] == 'e' || t[i] == 'E' || t[i] == '-' || t[i] == '+')) {
        // An 'e' is an exponent only when a digit follows.
        if ((t[i] == 'e' || t[i] == 'E') &&
            (i + 1 >= t.size() || !(std::isdigit(static_cast<unsigned char>(t[i + 1])) ||
                                    t[i + 1] == '-' || t[i + 1] == '+')))
            break;
        ++i;
    }
    return {importtext::parseNumber(t.substr(0, i)), importtext::trim(t.substr(i))};
}

constexpr std::size_t kMaxHosts = 1000000;

struct Build
{
    Cluster &c;
    ImportReport &report;
    const ImportOptions &options;
    std::string file;
    std::set<std::string> ids;
    std::vector<std::pair<std::string, double>> tops; // top switch of each cluster, its bb
    std::size_t hostsWithoutGpuSpec = 0;
};

void addLink(Cluster &c, const std::string &a, const std::string &b, double gbps, double us)
{
    Link l;
    l.a = a;
    l.b = b;
    l.capacityGbps = gbps;
    l.latencyUs = us;
    c.links.push_back(l);
}

std::string uniqueId(Build &b, std::string id)
{
    while (b.ids.count(id))
        id += "_";
    b.ids.insert(id);
    return id;
}

Node hostNode(Build &b, const std::string &id, const XmlElement &e)
{
    Node n;
    n.id = id;
    const auto cores = importtext::parseInteger(e.attribute("core", ""));
    n.cpus = cores && *cores > 0 ? double(*cores) : 64;
    n.memoryGiB = 512;
    n.gpus = 8;
    n.gpuType = unnamedGpuType(b.options.gpuType);
    applyNodeTemplate(b.options.nodeTemplate, n);
    if (const std::string speed = e.attribute("speed", ""); !speed.empty())
        n.labels["simgrid.org/speed"] = speed;
    n.labels["kubernetes.io/hostname"] = id;
    ++b.hostsWithoutGpuSpec;
    return n;
}

// Radical "0-99" or "1-29,58,59,60" (SimGrid's documentation writes ';' too).
Result<std::vector<long long>> radical(const std::string &text, const std::string &where)
{
    std::vector<long long> out;
    std::string t = text;
    std::replace(t.begin(), t.end(), ';', ',');
    for (const std::string &part : importtext::split(t, ',')) {
        const std::string p = importtext::trim(part);
        if (p.empty())
            continue;
        const auto dash = p.find('-', 1);
        const auto lo = importtext::parseInteger(p.substr(0, dash));
        const auto hi =
            dash == std::string::npos ? lo : importtext::parseInteger(p.substr(dash + 1));
        if (!lo || !hi || *hi < *lo || *lo < 0)
            return Result<std::vector<long long>>::failure(
                where, "radical: expected numbers and ranges such as \"0-99\" or \"1-29,58\", "
                       "found \"" +
                           text + "\"");
        if (*hi - *lo + double(out.size()) >= double(kMaxHosts))
            return Result<std::vector<long long>>::failure(
                where,
                "radical \"" + text + "\" gives more than " + std::to_string(kMaxHosts) + " hosts");
        for (long long v = *lo; v <= *hi; ++v)
            out.push_back(v);
    }
    if (out.empty())
        return Result<std::vector<long long>>::failure(where, "radical is empty: no host");
    return out;
}

std::vector<long long> integers(const std::string &text)
{
    std::vector<long long> out;
    for (const std::string &p : importtext::split(text, ','))
        if (auto v = importtext::parseInteger(importtext::trim(p)))
            out.push_back(*v);
    return out;
}

// Extended generalised fat tree XGFT(h; m; w): level-0 nodes are the hosts, labelled
// (a_1..a_h) with a_i < m_i; a level-l switch is (a_{l+1}..a_h; b_1..b_l) with b_i < w_i, and
// a level-(l-1) node links to every level-l switch that keeps its a_{l+1..h} and b_{1..l-1}.
Status fatTree(Build &b, const std::string &id, const std::vector<std::string> &hosts,
               const std::string &params, double gbps, double us, const std::string &where,
               std::string &top)
{
    const std::vector<std::string> parts = importtext::split(params, ';');
    const auto bad = [&](const std::string &why) {
        return Status::failure(where, "topo_parameters \"" + params + "\" for FAT_TREE: " + why +
                                          " (expected levels;down,...;up,...;parallel,...)");
    };
    if (parts.size() != 4)
        return bad("four ';'-separated parts needed");
    const auto levels = importtext::parseInteger(importtext::trim(parts[0]));
    const auto m = integers(parts[1]), w = integers(parts[2]), p = integers(parts[3]);
    if (!levels || *levels < 1 || *levels > 8 || m.size() != std::size_t(*levels) ||
        w.size() != m.size() || p.size() != m.size())
        return bad("each list needs one number per level");
    for (std::size_t i = 0; i < m.size(); ++i)
        if (m[i] < 1 || w[i] < 1 || p[i] < 1 || m[i] > 4096 || w[i] > 4096 || p[i] > 4096)
            return bad("every number must be from 1 to 4096");
    const std::size_t h = m.size();
    double hostsExpected = 1;
    for (long long v : m)
        hostsExpected *= double(v);
    if (hostsExpected != double(hosts.size()))
        return bad("the downlinks give " + importtext::formatNumber(hostsExpected) +
                   " hosts, the radical " + std::to_string(hosts.size()));
    // Count of level-l nodes: prod m_{l+1..h} x prod w_{1..l}.
    auto count = [&](std::size_t l) {
        double n = 1;
        for (std::size_t i = l; i < h; ++i)
            n *= double(m[i]);
        for (std::size_t i = 0; i < l; ++i)
            n *= double(w[i]);
        return n;
    };
    for (std::size_t l = 1; l <= h; ++l)
        if (count(l) > double(kMaxHosts))
            return bad("too many switches");
    // Radices of a level-l label, in encoding order: a_{l+1..h}, then b_{1..l}.
    auto radices = [&](std::size_t l) {
        std::vector<long long> r;
        for (std::size_t i = l; i < h; ++i)
            r.push_back(m[i]);
        for (std::size_t i = 0; i < l; ++i)
            r.push_back(w[i]);
        return r;
    };
    auto decode = [](long long index, const std::vector<long long> &r) {
        std::vector<long long> digits(r.size());
        for (std::size_t i = 0; i < r.size(); ++i) {
            digits[i] = index % r[i];
            index /= r[i];
        }
        return digits;
    };
    auto encode = [](const std::vector<long long> &digits, const std::vector<long long> &r) {
        long long index = 0;
        for (std::size_t i = r.size(); i-- > 0;)
            index = index * r[i] + digits[i];
        return index;
    };
    std::vector<std::vector<std::string>> names(h + 1);
    names[0] = hosts;
    for (std::size_t l = 1; l <= h; ++l) {
        const long long n = (long long)count(l);
        for (long long i = 0; i < n; ++i) {
            const std::string sw =
                uniqueId(b, id + "-l" + std::to_string(l) + "-" + std::to_string(i));
            b.c.switches.push_back({sw, l == h ? "core" : l == 1 ? "leaf" : "spine"});
            names[l].push_back(sw);
        }
        // Level l-1 label (a_l..a_h; b_1..b_{l-1}) -> parents (a_{l+1}..a_h; b_1..b_{l-1}, b_l).
        const auto below = radices(l - 1), above = radices(l);
        for (long long i = 0; i < (long long)names[l - 1].size(); ++i) {
            const auto d = decode(i, below);
            // d = [a_l, a_{l+1}..a_h, b_1..b_{l-1}]
            std::vector<long long> up(d.begin() + 1, d.end());
            up.push_back(0);
            for (long long bl = 0; bl < w[l - 1]; ++bl) {
                up.back() = bl;
                const long long parent = encode(up, above);
                addLink(b.c, names[l - 1][std::size_t(i)], names[l][std::size_t(parent)],
                        gbps * double(p[l - 1]), us);
            }
        }
    }
    top = names[h].size() == 1 ? names[h].front() : std::string();
    if (top.empty()) {
        top = uniqueId(b, id + "-top");
        b.c.switches.push_back({top, "core"});
        for (const std::string &s : names[h])
            addLink(b.c, s, top, gbps * double(p[h - 1]) * double(names[h].size()), us);
        b.report.assume(b.file + ": fat tree " + id + " has " + std::to_string(names[h].size()) +
                        " top switches: joined by \"" + top + "\" so it links to the rest");
    }
    std::string shape;
    for (std::size_t l = 1; l <= h; ++l)
        shape += (shape.empty() ? "" : ", ") + std::to_string(names[l].size()) + " at level " +
                 std::to_string(l);
    b.report.assume(b.file + ": fat tree " + id + " (" + params + "): " + shape +
                    " switches; parallel cables as one link of their summed bandwidth");
    return Ok{};
}

Status dragonfly(Build &b, const std::string &id, const std::vector<std::string> &hosts,
                 const std::string &params, double gbps, double us, const std::string &where,
                 std::string &top)
{
    const auto bad = [&](const std::string &why) {
        return Status::failure(where, "topo_parameters \"" + params + "\" for DRAGONFLY: " + why +
                                          " (expected groups,links;chassis,links;routers,links;"
                                          "nodes)");
    };
    const std::vector<std::string> parts = importtext::split(params, ';');
    if (parts.size() != 4)
        return bad("four ';'-separated parts needed");
    const auto g = integers(parts[0]), c = integers(parts[1]), r = integers(parts[2]);
    const auto n = importtext::parseInteger(importtext::trim(parts[3]));
    if (g.size() != 2 || c.size() != 2 || r.size() != 2 || !n)
        return bad("each of the first three parts needs a count and a link count");
    for (long long v : {g[0], g[1], c[0], c[1], r[0], r[1], *n})
        if (v < 1 || v > 4096)
            return bad("every number must be from 1 to 4096");
    const double expected = double(g[0]) * double(c[0]) * double(r[0]) * double(*n);
    if (expected != double(hosts.size()))
        return bad("it gives " + importtext::formatNumber(expected) + " hosts, the radical " +
                   std::to_string(hosts.size()));
    auto router = [&](long long gi, long long ci, long long ri) {
        return id + "-g" + std::to_string(gi) + "-c" + std::to_string(ci) + "-r" +
               std::to_string(ri);
    };
    std::size_t h = 0;
    for (long long gi = 0; gi < g[0]; ++gi)
        for (long long ci = 0; ci < c[0]; ++ci)
            for (long long ri = 0; ri < r[0]; ++ri) {
                const std::string sw = uniqueId(b, router(gi, ci, ri));
                b.c.switches.push_back({sw, "router"});
                for (long long k = 0; k < *n; ++k)
                    addLink(b.c, hosts[h++], sw, gbps, us);
            }
    // Routers of a chassis all linked; routers of a group linked to the same-numbered router
    // of each other chassis; groups linked pairwise.
    for (long long gi = 0; gi < g[0]; ++gi)
        for (long long ci = 0; ci < c[0]; ++ci)
            for (long long ri = 0; ri < r[0]; ++ri) {
                for (long long rj = ri + 1; rj < r[0]; ++rj)
                    addLink(b.c, router(gi, ci, ri), router(gi, ci, rj), gbps * double(r[1]), us);
                for (long long cj = ci + 1; cj < c[0]; ++cj)
                    addLink(b.c, router(gi, ci, ri), router(gi, cj, ri), gbps * double(c[1]), us);
            }
    const long long perGroup = c[0] * r[0];
    for (long long gi = 0; gi < g[0]; ++gi)
        for (long long gj = gi + 1; gj < g[0]; ++gj) {
            const long long a = gj % perGroup, z = gi % perGroup;
            addLink(b.c, router(gi, a / r[0], a % r[0]), router(gj, z / r[0], z % r[0]),
                    gbps * double(g[1]), us);
        }
    top = router(0, 0, 0);
    b.report.assume(b.file + ": dragonfly " + id + " (" + params +
                    "): " + std::to_string(g[0] * c[0] * r[0]) +
                    " routers; global links between the routers chosen by group number (SimGrid's "
                    "own choice of router is not reproduced)");
    return Ok{};
}

/// The hosts a <cluster> or a <cabinet> declares (prefix, radical, suffix), each with a
/// private link of bw and lat.
struct HostRange
{
    std::vector<std::string> hosts;
    double gbps = 0, us = 0;
};

Result<HostRange> readHostRange(Build &b, const XmlElement &e, const std::string &what,
                                const std::string &rackPrefix = {})
{
    const std::string where = b.file + ":" + std::to_string(e.line());
    const std::string id = e.attribute("id", what);
    auto numbers = radical(e.attribute("radical", ""), where);
    if (!numbers)
        return numbers.problems();
    const auto bw = simgridBandwidthGbps(e.attribute("bw", ""));
    const auto lat = simgridLatencyUs(e.attribute("lat", "0"));
    if (!bw || *bw <= 0 || *bw > limits::kMaxGbps)
        return Result<HostRange>::failure(where, what + " " + id +
                                                     ": bw: expected a bandwidth such as "
                                                     "\"125MBps\", found \"" +
                                                     e.attribute("bw", "") + "\"");
    if (!lat || *lat < 0 || *lat > limits::kMaxLatencyUs)
        return Result<HostRange>::failure(where, what + " " + id +
                                                     ": lat: expected a latency such as "
                                                     "\"50us\", found \"" +
                                                     e.attribute("lat", "") + "\"");
    HostRange r;
    r.gbps = *bw;
    r.us = *lat;
    const std::string prefix = e.attribute("prefix", ""), suffix = e.attribute("suffix", "");
    for (long long v : numbers.value()) {
        const std::string hid = uniqueId(b, prefix + std::to_string(v) + suffix);
        Node n = hostNode(b, hid, e);
        n.rack = rackPrefix + id;
        b.c.nodes.push_back(std::move(n));
        r.hosts.push_back(hid);
        if (b.c.nodes.size() > kMaxHosts)
            return Result<HostRange>::failure(where, "more than " + std::to_string(kMaxHosts) +
                                                         " hosts");
    }
    return r;
}

Status readCluster(Build &b, const XmlElement &e)
{
    const std::string where = b.file + ":" + std::to_string(e.line());
    const std::string id = e.attribute("id", "cluster");
    auto range = readHostRange(b, e, "cluster");
    if (!range)
        return range.problems();
    const std::vector<std::string> &hosts = range->hosts;
    const double *bw = &range->gbps, *lat = &range->us;
    const std::string topology = e.attribute("topology", "");
    std::string top;
    if (topology == "FAT_TREE") {
        if (auto ok =
                fatTree(b, id, hosts, e.attribute("topo_parameters", ""), *bw, *lat, where, top);
            !ok)
            return ok;
    } else if (topology == "DRAGONFLY") {
        if (auto ok =
                dragonfly(b, id, hosts, e.attribute("topo_parameters", ""), *bw, *lat, where, top);
            !ok)
            return ok;
    } else {
        if (topology == "TORUS")
            b.report.assume(b.file + ": cluster " + id + " is a torus (" +
                            e.attribute("topo_parameters", "") +
                            "), which is not modelled: its hosts share one switch");
        else if (!topology.empty() && topology != "FLAT")
            b.report.assume(b.file + ": cluster " + id + ": topology \"" + topology +
                            "\" is not known: its hosts share one switch");
        top = uniqueId(b, id);
        b.c.switches.push_back({top, "tor"});
        for (const std::string &h : hosts)
            addLink(b.c, h, top, *bw, *lat);
    }
    double bb = 0;
    if (e.attribute("bb_bw")) {
        const auto v = simgridBandwidthGbps(e.attribute("bb_bw", ""));
        if (!v || *v <= 0 || *v > limits::kMaxGbps)
            return Status::failure(where, "cluster " + id +
                                              ": bb_bw: expected a bandwidth, found \"" +
                                              e.attribute("bb_bw", "") + "\"");
        bb = *v;
        b.report.assume(b.file + ": cluster " + id + " has a backbone of " +
                        importtext::formatNumber(bb) +
                        " Gbit/s: here it links the cluster to the others (in SimGrid all "
                        "traffic inside the cluster shares it too)");
    }
    if (e.attribute("limiter_link") || e.attribute("loopback_bw"))
        b.report.assume(b.file + ": cluster " + id +
                        ": limiter_link and loopback links are not modelled");
    b.tops.emplace_back(top, bb);
    b.report.assume(b.file + ": cluster " + id + ": " + std::to_string(hosts.size()) +
                    " hosts, private links of " + importtext::formatNumber(*bw) + " Gbit/s and " +
                    importtext::formatNumber(*lat) + " us");
    return Ok{};
}

Status readZone(Build &b, const XmlElement &zone, double &backbone)
{
    std::vector<std::string> loose;
    std::vector<HostRange> cabinets;
    double zoneBackbone = 0;
    for (const XmlElement &e : zone.children()) {
        const std::string n = e.name();
        if (n == "cabinet") {
            // (cabinets of two zones may share an id: the rack is named by both)
            auto range = readHostRange(b, e, "cabinet", zone.attribute("id", "zone") + "/");
            if (!range)
                return range.problems();
            cabinets.push_back(std::move(range.value()));
        } else if (n == "backbone") {
            if (auto v = simgridBandwidthGbps(e.attribute("bandwidth", "")); v && *v > 0)
                zoneBackbone = *v;
        } else if (n == "cluster") {
            if (auto ok = readCluster(b, e); !ok)
                return ok;
        } else if (n == "zone" || n == "AS") {
            if (auto ok = readZone(b, e, backbone); !ok)
                return ok;
        } else if (n == "host") {
            const std::string hid = uniqueId(b, e.attribute("id", "host"));
            b.c.nodes.push_back(hostNode(b, hid, e));
            loose.push_back(hid);
        } else if (n == "link" && e.attribute("id", "").find("backbone") != std::string::npos) {
            if (auto v = simgridBandwidthGbps(e.attribute("bandwidth", "")); v && *v > 0)
                backbone = std::max(backbone, *v);
        }
    }
    if (!cabinets.empty()) {
        // A zone of cabinets (routing="Cluster"): every host on its private link to the
        // zone's backbone, one switch here; the cabinets are the hosts' racks.
        const std::string sw = uniqueId(b, zone.attribute("id", "zone"));
        b.c.switches.push_back({sw, "tor"});
        std::size_t hosts = 0;
        for (const HostRange &r : cabinets) {
            for (const std::string &h : r.hosts)
                addLink(b.c, h, sw, r.gbps, r.us);
            hosts += r.hosts.size();
        }
        b.tops.emplace_back(sw, zoneBackbone);
        b.report.assume(b.file + ": zone " + zone.attribute("id", "") + ": " +
                        std::to_string(cabinets.size()) + " cabinets of " +
                        std::to_string(hosts) +
                        " hosts on one switch, each host on its private link" +
                        (zoneBackbone > 0 ? "; the backbone of " +
                                                importtext::formatNumber(zoneBackbone) +
                                                " Gbit/s links the zone to the others (in "
                                                "SimGrid all traffic inside it shares it too)"
                                          : std::string()));
    }
    if (!loose.empty()) {
        const std::string sw = uniqueId(b, zone.attribute("id", "zone"));
        b.c.switches.push_back({sw, "tor"});
        for (const std::string &h : loose)
            addLink(b.c, h, sw, kImportHostLinkGbps, 1);
        b.tops.emplace_back(sw, 0.0);
        b.report.assume(b.file + ": zone " + zone.attribute("id", "") + ": " +
                        std::to_string(loose.size()) +
                        " hosts declared one by one share one switch at " +
                        importtext::formatNumber(kImportHostLinkGbps) +
                        " Gbit/s (their <link> and <route> elements are not modelled)");
    }
    return Ok{};
}

} // namespace

std::optional<double> simgridBandwidthGbps(const std::string &text)
{
    const auto [v, unit] = numberAndUnit(text);
    if (!v)
        return std::nullopt;
    static const std::map<std::string, double> kBits = {
        {"bps", 1},
        {"kbps", 1e3},
        {"Kbps", 1e3},
        {"Mbps", 1e6},
        {"Gbps", 1e9},
        {"Tbps", 1e12},
        {"Bps", 8},
        {"kBps", 8e3},
        {"KBps", 8e3},
        {"MBps", 8e6},
        {"GBps", 8e9},
        {"TBps", 8e12},
        {"KiBps", 8.0 * 1024},
        {"MiBps", 8.0 * 1024 * 1024},
        {"GiBps", 8.0 * 1024 * 1024 * 1024},
        {"TiBps", 8.0 * 1024 * 1024 * 1024 * 1024},
        {"Kibps", 1024.0},
        {"Mibps", 1024.0 * 1024},
        {"Gibps", 1024.0 * 1024 * 1024},
        {"", 8},
    };
    auto it = kBits.find(unit);
    if (it == kBits.end())
        return std::nullopt;
    return *v * it->second / 1e9;
}

std::optional<double> simgridLatencyUs(const std::string &text)
{
    const auto [v, unit] = numberAndUnit(text);
    if (!v)
        return std::nullopt;
    static const std::map<std::string, double> kUs = {
        {"ps", 1e-6}, {"ns", 1e-3}, {"us", 1},    {"ms", 1e3},    {"s", 1e6},
        {"", 1e6},    {"m", 6e7},   {"h", 3.6e9}, {"d", 8.64e10}, {"w", 6.048e11},
    };
    auto it = kUs.find(unit);
    if (it == kUs.end())
        return std::nullopt;
    return *v * it->second;
}

FormatMatch SimgridPlatformImporter::detect(const ImportSample &sample) const
{
    if (detection::xmlRoot(sample.head) == "platform")
        return {3, "XML root <platform> (SimGrid)"};
    return {};
}

Result<ImportReport> SimgridPlatformImporter::read(const std::vector<ImportInput> &inputs,
                                                   const ImportOptions &options) const
{
    const ImportInput &in = inputs.front();
    ImportReport report;
    report.format = name();
    auto doc = XmlDocument::read(in);
    if (!doc)
        return doc.problems();
    auto top = doc->rootNamed("platform", "a SimGrid platform", in.name);
    if (!top)
        return top.problems();
    const XmlElement root = top.value();
    const std::string version = root.attribute("version", "");
    if (!version.empty() && !version.starts_with("4"))
        report.assume(in.name + ": platform version " + version +
                      " (this reader follows version 4.1)");
    Cluster c;
    Build b{c, report, options, in.name, {}, {}, 0};
    double backbone = 0;
    if (auto ok = readZone(b, root, backbone); !ok)
        return ok.problems();
    if (c.nodes.empty())
        return Result<ImportReport>::failure(
            in.name, "no <cluster>, <cabinet> or <host>: no host to import");
    if (b.tops.size() > 1) {
        std::string core = "core";
        while (b.ids.count(core))
            core += "_";
        c.switches.push_back({core, "core"});
        for (const auto &[top, bb] : b.tops)
            addLink(c, top, core, bb > 0 ? bb : backbone > 0 ? backbone : kImportSwitchLinkGbps, 1);
        report.assume(std::to_string(b.tops.size()) + " clusters under one core switch \"" + core +
                      "\", each linked at its backbone bandwidth (else the zone's backbone link, "
                      "else " +
                      importtext::formatNumber(kImportSwitchLinkGbps) + " Gbit/s)");
    }
    const NodeTemplate &t = options.nodeTemplate;
    report.assume("SimGrid hosts are CPUs: each of the " + std::to_string(c.nodes.size()) +
                  " hosts holds " +
                  (t.empty() ? std::string("8 GPUs of type ") + unnamedGpuType(options.gpuType) +
                                   ", 64 CPUs (or the cluster's core count) and 512 GiB; "
                                   "--node-template gives them"
                             : "the node template (" + t.source + "): " + t.toString()));
    addMissingGpuTypes(c, report);
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
