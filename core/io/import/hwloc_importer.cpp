#include "io/import/hwloc_importer.h"

#include "io/import/cluster_links.h"
#include "io/import/format_detection.h"
#include "io/import/imported_gpu_types.h"
#include "io/import/node_hardware.h"
#include "io/import/text_fields.h"
#include "io/import/xml_document.h"
#include "model/gpu_catalog.h"

#include <cctype>
#include <cmath>
#include <map>

namespace cb {

namespace {

bool isGpuOsDev(const std::string &name)
{
    // Compute backends only: card* and renderD* are display devices (a server's BMC VGA).
    for (const char *p : {"nvml", "cuda", "opencl", "rsmi"})
        if (name.starts_with(p))
            return true;
    return false;
}

bool isNetOsDev(const XmlElement &o)
{
    const std::string name = o.attribute("name", "");
    const std::string type = o.attribute("osdev_type", "");
    // 2.x: 2 = network; 3.0: bit 16 = network.
    if (type == "2")
        return true;
    if (auto v = importtext::parseInteger(type); v && *v >= 16 && (*v & 16))
        return true;
    return name.starts_with("eth") || name.starts_with("ib") || name.starts_with("en");
}

std::string info(const XmlElement &o, const std::string &name)
{
    for (const XmlElement &i : o.children("info"))
        if (i.attribute("name", "") == name)
            return i.attribute("value", "");
    return {};
}

struct Walk
{
    NodeHardware hw;
    int pus = 0;
    double memoryBytes = 0;
    std::map<std::string, int> gpuOf;     // "OSDev:802" / "PCIDev:581" -> GPU index
    std::map<std::string, bool> switchOf; // "PCIDev:703" -> NVSwitch
    std::string hostName;
    /// GPU cards seen as PCI devices only (no CUDA, NVML or OpenCL device): the node's GPUs
    /// when the file has no GPU OS device at all (lstopo ran without that support); beside
    /// GPUs that have one, the GPU libraries did not see them and they are not counted.
    std::vector<HardwareGpu> pciOnly;
};

/// A GPU vendor's compute card without an OS device of its own: lstopo built without CUDA,
/// NVML or OpenCL support lists the card only as a PCI device. NVIDIA's VGA (0300) and 3D
/// (0302) controllers count; AMD's 3D and other display controllers (0302, 0380: Instinct
/// cards), not its VGA ones (0300), which include servers' onboard graphics (ES1000).
bool isGpuPciDevice(const std::string &pciType)
{
    // "0302 [10de:1094] [00de:0088] a1": class, then [vendor:device].
    const auto open = pciType.find('[');
    if (open == std::string::npos || pciType.size() < open + 5)
        return false;
    const std::string cls = pciType.substr(0, 4), vendor = pciType.substr(open + 1, 4);
    if (vendor == "10de")
        return cls == "0300" || cls == "0302";
    if (vendor == "1002")
        return cls == "0302" || cls == "0380";
    return false;
}

/// A GPU model from its PCI name: the bracketed marketing name ("GK110BGL [Tesla K40m]" ->
/// "Tesla K40m"), else the name without the vendor and the card's form factor ("NVIDIA
/// Corporation Tesla M2075 Dual-Slot Computing Processor Module" -> "Tesla M2075").
std::string pciGpuName(std::string name)
{
    const auto open = name.find('['), close = name.rfind(']');
    if (open != std::string::npos && close != std::string::npos && close > open + 1)
        return name.substr(open + 1, close - open - 1);
    for (const char *vendor : {"NVIDIA Corporation ", "Advanced Micro Devices, Inc. "})
        if (name.starts_with(vendor))
            name = name.substr(std::string(vendor).size());
    for (const char *tail : {" Dual-Slot", " Computing Processor", " Graphics Processing"})
        if (const auto at = name.find(tail); at != std::string::npos && at > 0)
            name = name.substr(0, at);
    return name;
}

void walk(const XmlElement &e, Walk &w)
{
    for (const XmlElement &o : e.children("object")) {
        const std::string type = o.attribute("type", "");
        const std::string gp = o.attribute("gp_index", "");
        if (type == "Machine" && w.hostName.empty())
            w.hostName = info(o, "HostName");
        if (type == "PU")
            ++w.pus;
        if (type == "NUMANode")
            w.memoryBytes += importtext::parseNumber(o.attribute("local_memory", "0")).value_or(0);
        if (type == "PCIDev") {
            const std::string pciType = o.attribute("pci_type", "");
            if (o.attribute("subtype", "") == "NVSwitch" || pciType.starts_with("0680")) {
                w.switchOf["PCIDev:" + gp] = true;
                ++w.hw.nvswitches;
            } else if (pciType.starts_with("03")) {
                std::vector<XmlElement> gpuDevs;
                for (const XmlElement &c : o.children("object"))
                    if (c.attribute("type", "") == "OSDev" && isGpuOsDev(c.attribute("name", "")))
                        gpuDevs.push_back(c);
                const bool pciOnly = gpuDevs.empty() && isGpuPciDevice(pciType);
                if (!gpuDevs.empty() || pciOnly) {
                    HardwareGpu g;
                    g.busId = o.attribute("pci_busid", "");
                    g.trainingStack = false;
                    for (const XmlElement &d : gpuDevs) {
                        if (g.model.empty())
                            g.model = info(d, "GPUModel");
                        g.trainingStack = g.trainingStack ||
                                          !d.attribute("name", "").starts_with("opencl");
                    }
                    if (g.model.empty()) {
                        // "0302 [10de:1db8] ..." -> 0x1db8
                        const auto colon = pciType.find(':');
                        if (colon != std::string::npos)
                            g.model = gpuModelOfPciDevice("0x" + pciType.substr(colon + 1, 4));
                    }
                    // pci_link_speed is GB/s for the whole link.
                    g.pcieGbps =
                        importtext::parseNumber(o.attribute("pci_link_speed", "0")).value_or(0) * 8;
                    g.nvlinkKnown = false;
                    if (pciOnly) {
                        if (g.model.empty()) { // the PCI name (hwloc 1.x) or info (2.x)
                            const std::string name = o.attribute("name", "");
                            g.model = pciGpuName(name.empty() ? info(o, "PCIDevice") : name);
                        }
                        w.pciOnly.push_back(std::move(g));
                    } else {
                        const int index = int(w.hw.gpus.size());
                        w.gpuOf["PCIDev:" + gp] = index;
                        for (const XmlElement &d : gpuDevs)
                            w.gpuOf["OSDev:" + d.attribute("gp_index", "")] = index;
                        w.hw.gpus.push_back(std::move(g));
                    }
                }
            }
        }
        if (type == "OSDev" && isNetOsDev(o))
            w.hw.nics.emplace_back(o.attribute("name", "nic"), 0.0);
        walk(o, w);
    }
}

// The NVLinkBandwidth matrix: "OSDev:802 ..." indexes and row-major MB/s values.
void readNvlink(const XmlElement &root, Walk &w, std::string &note)
{
    for (const XmlElement &d : root.children("distances2hetero")) {
        if (d.attribute("name", "") != "NVLinkBandwidth")
            continue;
        std::vector<std::string> ids;
        for (const XmlElement &i : d.children("indexes"))
            for (const std::string &s : importtext::splitWhitespace(i.text()))
                ids.push_back(s);
        std::vector<double> values;
        for (const XmlElement &v : d.children("u64values"))
            for (const std::string &s : importtext::splitWhitespace(v.text()))
                values.push_back(importtext::parseNumber(s).value_or(0));
        const std::size_t n = ids.size();
        if (n == 0 || values.size() != n * n) {
            note = "the NVLinkBandwidth matrix has " + std::to_string(values.size()) +
                   " values for " + std::to_string(n) + " objects: not used";
            return;
        }
        for (HardwareGpu &g : w.hw.gpus)
            g.nvlinkKnown = true;
        for (std::size_t a = 0; a < n; ++a) {
            auto ga = w.gpuOf.find(ids[a]);
            if (ga == w.gpuOf.end())
                continue;
            for (std::size_t b = 0; b < n; ++b) {
                if (a == b)
                    continue; // the diagonal is set artificially high
                const double gbps = values[a * n + b] / 1000.0; // MB/s -> GB/s
                if (gbps <= 0)
                    continue;
                if (w.switchOf.count(ids[b]))
                    w.hw.gpus[std::size_t(ga->second)].nvswitchGBps += gbps;
                else if (auto gb = w.gpuOf.find(ids[b]);
                         gb != w.gpuOf.end() && gb->second != ga->second)
                    w.hw.gpus[std::size_t(ga->second)].peers.emplace_back(gb->second, gbps);
            }
        }
        return;
    }
}

} // namespace

FormatMatch HwlocImporter::detect(const ImportSample &sample) const
{
    if (detection::xmlRoot(sample.head) == "topology" &&
        sample.head.find("<object type=") != std::string::npos)
        return {3, "XML root <topology> with hwloc <object type=...> elements"};
    return {};
}

Result<ImportReport> HwlocImporter::read(const std::vector<ImportInput> &inputs,
                                         const ImportOptions &options) const
{
    const ImportInput &in = inputs.front();
    ImportReport report;
    report.format = name();
    auto doc = XmlDocument::read(in);
    if (!doc)
        return doc.problems();
    auto top = doc->rootNamed("topology", "an hwloc topology", in.name);
    if (!top)
        return top.problems();
    const XmlElement root = top.value();
    const std::string version = root.attribute("version", "1.x");
    Walk w;
    walk(root, w);
    if (!w.pciOnly.empty()) {
        const std::size_t n = w.pciOnly.size();
        if (w.hw.gpus.empty())
            report.assume(in.name + ": " + std::to_string(n) +
                          (n == 1 ? " GPU is seen only as a PCI device"
                                  : " GPUs are seen only as PCI devices") +
                          " (lstopo ran without CUDA, NVML or "
                          "OpenCL support): counted, with the model its PCI id or name gives "
                          "and no NVLink");
        else
            report.assume(in.name + ": " + std::to_string(n) +
                          (n == 1 ? " GPU card is seen only as a PCI device"
                                  : " GPU cards are seen only as PCI devices") +
                          " beside GPUs that CUDA, NVML or OpenCL saw: not counted, as those "
                          "libraries did not see " + (n == 1 ? "it" : "them"));
    }
    if (w.hw.gpus.empty())
        w.hw.gpus = std::move(w.pciOnly);
    if (w.pus == 0 && w.hw.gpus.empty())
        return Result<ImportReport>::failure(in.name + ":" + std::to_string(root.line()),
                                             "no PU and no GPU object: nothing describes a "
                                             "machine");
    std::string note;
    readNvlink(root, w, note);
    if (!note.empty())
        report.assume(in.name + ": " + note);
    if (w.pus > 0)
        w.hw.cpus = w.pus;
    if (w.memoryBytes > 0)
        w.hw.memoryGiB = w.memoryBytes / 1073741824.0;
    const double gib = std::round(w.memoryBytes / 1073741824.0 * 100) / 100;
    report.assume(in.name + ": hwloc format " + version + ": " + std::to_string(w.pus) +
                  " PUs as CPUs, " +
                  (w.memoryBytes > 0 ? importtext::formatNumber(gib) + " GiB of NUMA memory"
                                     : std::string("no NUMA memory size")) +
                  ", " + std::to_string(w.hw.gpus.size()) + " GPUs, " +
                  std::to_string(w.hw.nics.size()) + " network devices");
    Cluster c;
    const std::string base = w.hostName.empty() ? nodeBaseFromFileName(in.name) : w.hostName;
    addHardwareNodes(w.hw, in.name, base, std::max(1, options.nodeCount), options.gpuType,
                     options.nodeTemplate, c, report);
    addMissingGpuTypes(c, report);
    double nic = double(w.hw.nics.size()) * kImportHostLinkGbps;
    if (nic <= 0)
        nic = kImportHostLinkGbps;
    c.switches.push_back({"switch0", "tor"});
    for (const Node &n : c.nodes) {
        Link l;
        l.a = n.id;
        l.b = "switch0";
        l.capacityGbps = nic;
        l.latencyUs = 1;
        c.links.push_back(l);
    }
    report.assume("hwloc gives no network speeds: " + std::to_string(c.nodes.size()) +
                  " node(s) on one switch \"switch0\", " +
                  (w.hw.nics.empty() ? "no network device in the file: " +
                                           importtext::formatNumber(nic) + " Gbit/s per node"
                                     : importtext::formatNumber(kImportHostLinkGbps) +
                                           " Gbit/s per network device (" +
                                           importtext::formatNumber(nic) + " Gbit/s per node)") +
                  ", 1 us");
    report.cluster = std::move(c);
    return report;
}

} // namespace cb
