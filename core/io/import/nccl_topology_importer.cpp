#include "io/import/nccl_topology_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/node_hardware.h"
#include "io/import/text_fields.h"
#include "io/import/xml_document.h"

#include <bit>
#include <cctype>
#include <map>
#include <set>

namespace cb {

namespace {

// Bits set in an affinity mask "ffff0000,00000000" (32-bit words in hex).
int cpusIn(const std::string &mask)
{
    int n = 0;
    for (char c : mask) {
        if (c == ',' || c == ' ' || c == 'x' || c == 'X')
            continue;
        const int v = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
        if (v < 0)
            return -1;
        n += std::popcount(unsigned(v));
    }
    return n;
}

bool classIs(const std::string &cls, const char *prefix)
{
    return importtext::lower(cls).starts_with(prefix);
}

struct Host
{
    NodeHardware hw;
    std::set<std::string> masks;
    std::set<std::string> nics; // name|guid
    std::map<std::string, int> gpuByBus;
    bool sawSelfLinks = false;
    int unknownNicSpeed = 0;
};

void addNic(Host &h, const XmlElement &net)
{
    const std::string key = net.attribute("name", "") + "|" + net.attribute("guid", "");
    if (!h.nics.insert(key).second)
        return;
    const auto speed = importtext::parseNumber(net.attribute("speed", ""));
    // NCCL reads a speed <= 0 as 10 Gb/s.
    h.hw.nics.emplace_back(net.attribute("name", "nic"),
                           speed && *speed > 0 ? *speed / 1000.0 : 10.0);
}

void walk(const XmlElement &e, Host &h, std::vector<std::pair<int, XmlElement>> &gpuElements)
{
    for (const XmlElement &c : e.children()) {
        const std::string name = c.name();
        if (name == "nic") {
            for (const XmlElement &net : c.children("net"))
                addNic(h, net);
            continue;
        }
        if (name != "pci") {
            walk(c, h, gpuElements);
            continue;
        }
        const std::string cls = c.attribute("class", "");
        if (classIs(cls, "0x03")) {
            HardwareGpu g;
            g.busId = importtext::lower(c.attribute("busid", ""));
            g.model = gpuModelOfPciDevice(c.attribute("device", ""));
            const int width =
                int(importtext::parseInteger(c.attribute("link_width", "0")).value_or(0));
            g.pcieGbps = pcieGbps(c.attribute("link_speed", ""), width).value_or(0);
            const XmlElement gpu = c.child("gpu");
            if (gpu) {
                g.sm = int(importtext::parseInteger(gpu.attribute("sm", "0")).value_or(0));
                g.nvlinkKnown = true;
            }
            h.gpuByBus[g.busId] = int(h.hw.gpus.size());
            if (gpu)
                gpuElements.emplace_back(int(h.hw.gpus.size()), gpu);
            h.hw.gpus.push_back(std::move(g));
        } else if (classIs(cls, "0x068000")) {
            ++h.hw.nvswitches;
        } else if (classIs(cls, "0x02")) {
            bool named = false;
            for (const XmlElement &nic : c.children("nic"))
                for (const XmlElement &net : nic.children("net")) {
                    addNic(h, net);
                    named = true;
                }
            if (!named) {
                h.hw.nics.emplace_back(c.attribute("busid", "nic"), 0.0);
                ++h.unknownNicSpeed;
            }
        }
        walk(c, h, gpuElements);
    }
}

} // namespace

FormatMatch NcclTopologyImporter::detect(const ImportSample &sample) const
{
    const std::string root = detection::xmlRoot(sample.head);
    if (root == "system" && (sample.head.find("<cpu") != std::string::npos ||
                             sample.head.find("<pci") != std::string::npos))
        return {3, "XML root <system> with <cpu>/<pci> elements"};
    if (root == "graphs")
        return {1, "an NCCL graph file (<graphs>), not a topology"};
    return {};
}

Result<ImportReport> NcclTopologyImporter::read(const std::vector<ImportInput> &inputs,
                                                const ImportOptions &options) const
{
    const ImportInput &in = inputs.front();
    ImportReport report;
    report.format = name();
    auto doc = XmlDocument::read(in);
    if (!doc)
        return doc.problems();
    const XmlElement root = doc->root();
    if (root.name() == "graphs")
        return Result<ImportReport>::failure(
            in.name + ":" + std::to_string(root.line()),
            "an NCCL_GRAPH_FILE (<graphs>: the rings and trees NCCL chose), not a topology; "
            "give the file NCCL_TOPO_DUMP_FILE writes");
    if (auto top = doc->rootNamed("system", "an NCCL topology", in.name); !top)
        return top.problems();
    // Hosts by host_hash (a dump of a multi-node NVLink domain covers several).
    std::map<std::string, Host> hosts;
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::pair<int, XmlElement>>> gpuElements;
    for (const XmlElement &cpu : root.children("cpu")) {
        const std::string hash = cpu.attribute("host_hash", "");
        if (!hosts.count(hash))
            order.push_back(hash);
        Host &h = hosts[hash];
        if (auto mask = cpu.attribute("affinity"); mask && h.masks.insert(*mask).second) {
            const int n = cpusIn(*mask);
            if (n > 0)
                h.hw.cpus = h.hw.cpus.value_or(0) + n;
        }
        walk(cpu, h, gpuElements[hash]);
    }
    if (hosts.empty())
        return Result<ImportReport>::failure(in.name + ":" + std::to_string(root.line()),
                                             "no <cpu> element: nothing describes a host");
    // NVLink rows, now that every GPU's bus id is known.
    for (auto &[hash, h] : hosts) {
        for (auto &[index, gpu] : gpuElements[hash]) {
            HardwareGpu &g = h.hw.gpus[std::size_t(index)];
            const double perLink = nvlinkGBpsPerLink(g.sm);
            for (const XmlElement &link : gpu.children("nvlink")) {
                const std::string target = importtext::lower(link.attribute("target", ""));
                const double count =
                    double(importtext::parseInteger(link.attribute("count", "1")).value_or(1));
                const std::string tclass = link.attribute("tclass", "");
                if (classIs(tclass, "0x0680")) {
                    g.nvswitchGBps += count * perLink;
                } else if (auto it = h.gpuByBus.find(target); it != h.gpuByBus.end()) {
                    if (it->second == index)
                        h.sawSelfLinks = true;
                    else
                        g.peers.emplace_back(it->second, count * perLink);
                }
            }
        }
    }
    Cluster c;
    double hostLink = 0;
    const std::string base = nodeBaseFromFileName(in.name);
    const bool several = hosts.size() > 1;
    int k = 0;
    for (const std::string &hash : order) {
        Host &h = hosts[hash];
        double nic = 0;
        for (const auto &[n, speed] : h.hw.nics)
            nic += speed > 0 ? speed : kImportHostLinkGbps;
        if (h.unknownNicSpeed > 0)
            report.assume(in.name + ": " + std::to_string(h.unknownNicSpeed) +
                          " NICs without a speed in the file: " +
                          importtext::formatNumber(kImportHostLinkGbps) + " Gbit/s each assumed");
        if (h.sawSelfLinks)
            report.assume(in.name + ": nvlink rows that point at the GPU itself are not links "
                                    "between GPUs: ignored");
        hostLink = std::max(hostLink, nic);
        const std::string nodeName = several ? base + "-" + std::to_string(k++) : base;
        const int copies = several ? 1 : std::max(1, options.nodeCount);
        addHardwareNodes(h.hw, in.name, nodeName, copies, options.gpuType, options.nodeTemplate, c,
                         report);
    }
    if (several && options.nodeCount > 1)
        report.assume("--nodes " + std::to_string(options.nodeCount) + " not used: " + in.name +
                      " describes " + std::to_string(hosts.size()) + " hosts (by host_hash)");
    addMissingGpuTypes(c, report);
    // One switch; each node's link is its NICs together.
    if (hostLink <= 0) {
        hostLink = kImportHostLinkGbps;
        report.assume(in.name + ": no NIC in the file: " + importtext::formatNumber(hostLink) +
                      " Gbit/s to the switch assumed");
    }
    c.switches.push_back({"switch0", "tor"});
    for (const Node &n : c.nodes) {
        Link l;
        l.a = n.id;
        l.b = "switch0";
        l.capacityGbps = hostLink;
        l.latencyUs = 1;
        c.links.push_back(l);
    }
    report.assume("the file describes the inside of a node, not the network: " +
                  std::to_string(c.nodes.size()) +
                  " node(s) on one switch \"switch0\", each "
                  "linked at its NICs' total speed, " +
                  importtext::formatNumber(hostLink) + " Gbit/s, 1 us");
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
