#include "io/import/node_hardware.h"

#include "io/import/imported_gpu_types.h"
#include "io/import/text_fields.h"
#include "model/gpu_catalog.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace cb {

double nvlinkGBpsPerLink(int sm)
{
    if (sm >= 100)
        return 50;
    if (sm == 86)
        return 14.0625;
    if (sm >= 70)
        return 25;
    if (sm >= 60)
        return 20;
    return 0;
}

std::optional<double> pcieGbps(const std::string &speed, int width)
{
    const auto parts = importtext::splitWhitespace(speed);
    if (parts.empty())
        return std::nullopt;
    const auto gts = importtext::parseNumber(parts.front());
    if (!gts || *gts <= 0 || *gts > 1000)
        return std::nullopt;
    const double encoding = *gts >= 8 ? 128.0 / 130.0 : 0.8;
    return *gts * encoding * double(width > 0 ? width : 16);
}

std::string gpuModelOfPciDevice(const std::string &deviceId)
{
    // NVIDIA PCI device ids (the PCI ID repository, pci-ids.ucw.cz, vendor 10de).
    static const std::map<std::string, std::string> kModels = {
        {"0x06d2", "Tesla M2070"},
        {"0x1094", "Tesla M2075"},
        {"0x102d", "K80"},
        {"0x15f7", "P100-PCIE-12GB"},
        {"0x15f8", "P100-PCIE-16GB"},
        {"0x15f9", "P100-SXM2-16GB"},
        {"0x1db1", "V100-SXM2-16GB"},
        {"0x1db4", "V100-PCIE-16GB"},
        {"0x1db5", "V100-SXM2-32GB"},
        {"0x1db6", "V100-PCIE-32GB"},
        {"0x1db8", "V100-SXM3-32GB"},
        {"0x1eb8", "T4"},
        {"0x20b0", "A100-SXM4-40GB"},
        {"0x20b2", "A100-SXM4-80GB"},
        {"0x20b5", "A100-PCIE-80GB"},
        {"0x20f1", "A100-PCIE-40GB"},
        {"0x20b7", "A30"},
        {"0x2236", "A10"},
        {"0x27b8", "L4"},
        {"0x26b5", "L40"},
        {"0x2330", "H100-SXM5-80GB"},
        {"0x2331", "H100-PCIE-80GB"},
        {"0x2335", "H200"},
        {"0x2901", "B200"},
    };
    auto it = kModels.find(importtext::lower(importtext::trim(deviceId)));
    return it == kModels.end() ? std::string() : it->second;
}

namespace {

// Groups of GPUs all linked pairwise, from the GPU-to-GPU links: each connected group when
// every pair in it is linked, else greedy cliques in index order.
std::vector<std::vector<int>> cliques(const std::vector<HardwareGpu> &gpus, bool &split)
{
    const int n = int(gpus.size());
    std::vector<std::set<int>> adj(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        for (const auto &[j, bw] : gpus[std::size_t(i)].peers)
            if (j != i && j >= 0 && j < n && bw > 0) {
                adj[std::size_t(i)].insert(j);
                adj[std::size_t(j)].insert(i);
            }
    std::vector<bool> taken(static_cast<std::size_t>(n), false);
    std::vector<std::vector<int>> out;
    for (int i = 0; i < n; ++i) {
        if (taken[std::size_t(i)] || adj[std::size_t(i)].empty())
            continue;
        std::vector<int> group = {i};
        for (int j : adj[std::size_t(i)]) {
            if (taken[std::size_t(j)])
                continue;
            bool all = true;
            for (int g : group)
                all = all && adj[std::size_t(g)].count(j);
            if (all)
                group.push_back(j);
            else
                split = true;
        }
        if (group.size() < 2)
            continue;
        std::sort(group.begin(), group.end());
        for (int g : group)
            taken[std::size_t(g)] = true;
        out.push_back(std::move(group));
    }
    return out;
}

double pairBandwidth(const HardwareGpu &a, int b)
{
    double bw = 0;
    for (const auto &[j, v] : a.peers)
        if (j == b)
            bw += v;
    return bw;
}

} // namespace

void addHardwareNodes(const NodeHardware &hw, const std::string &file, const std::string &base,
                      int count, const std::string &gpuTypeOption, const NodeTemplate &t,
                      Cluster &cluster, ImportReport &report)
{
    Node n;
    const int gpus = t.gpus ? *t.gpus : int(hw.gpus.size());
    // A machine without GPUs (or an NCCL_TOPO_FILE of PCI slots only) is a CPU-only node;
    // a cluster of nothing else is refused as one no training job runs on.
    if (hw.gpus.empty() && !t.gpus)
        report.assume(file + ": no GPU in the file: a CPU-only node (--node-template "
                             "gpus=N,gpu-type=MODEL says what it holds)");
    n.gpus = gpus;
    // The model: --gpu-type, else the file's, else unknown.
    std::set<std::string> models;
    for (const HardwareGpu &g : hw.gpus)
        if (!g.model.empty())
            models.insert(g.model);
    std::string model = !t.gpuType.empty()       ? t.gpuType
                        : !gpuTypeOption.empty() ? gpuTypeOption
                        : models.size() == 1     ? *models.begin()
                                                 : std::string();
    if (models.size() > 1 && t.gpuType.empty() && gpuTypeOption.empty()) {
        // The node's type: the model of most GPUs, then one a training framework reaches
        // (CUDA, NVML or ROCm, not only OpenCL), then one the GPU catalogue knows, then by
        // name.
        std::map<std::string, int> count;
        std::set<std::string> trained;
        for (const HardwareGpu &g : hw.gpus)
            if (!g.model.empty()) {
                ++count[g.model];
                if (g.trainingStack)
                    trained.insert(g.model);
            }
        auto rank = [&](const std::string &m) {
            return std::make_tuple(-count[m], !trained.count(m), !recogniseGpu(m).recognised,
                                   m);
        };
        std::string list;
        for (const std::string &m : models) {
            list += (list.empty() ? "" : ", ") + m + " x" + std::to_string(count[m]);
            if (model.empty() || rank(m) < rank(model))
                model = m;
        }
        report.assume(file + ": GPUs of several models (" + list +
                      "): a node holds one type here, " + model +
                      (recogniseGpu(model).recognised ? " (the catalogue knows it)" : "") +
                      ", for all " + std::to_string(gpus) +
                      " GPUs; --gpu-type and --node-template gpus=N,gpu-type=MODEL say "
                      "otherwise");
    }
    if (model.empty()) {
        model = kUnknownGpuType;
        if (gpus > 0)
            report.assume(file + ": the GPU model is not in the file: \"unknown-gpu\" "
                                 "(--gpu-type names it)");
    }
    n.gpuType = gpus > 0 ? model : std::string();
    const GpuRecognition rec = recogniseGpu(model);

    // Inside the node: NVLink domains and the bandwidth between two tasks.
    const bool known = std::any_of(hw.gpus.begin(), hw.gpus.end(),
                                   [](const HardwareGpu &g) { return g.nvlinkKnown; });
    double pcie = 0;
    for (const HardwareGpu &g : hw.gpus)
        if (g.pcieGbps > 0)
            pcie = pcie == 0 ? g.pcieGbps : std::min(pcie, g.pcieGbps);
    if (pcie == 0 && !hw.gpus.empty()) {
        pcie = *pcieGbps("8 GT/s", 16);
        report.assume(file + ": no GPU PCIe link speed in the file: PCIe Gen3 x16 (" +
                      importtext::formatNumber(std::round(pcie)) +
                      " Gbit/s) assumed, as NCCL "
                      "does");
    }
    GpuInterconnect ic;
    ic.kind = GpuInterconnect::Kind::Pcie;
    ic.bandwidthGbps = pcie > 0 ? pcie : (rec.entry ? rec.entry->pcieGbps : 128);
    std::vector<std::vector<int>> domains;
    double nvBps = 0; // GB/s
    std::vector<int> switched;
    for (int i = 0; i < int(hw.gpus.size()); ++i)
        if (hw.gpus[std::size_t(i)].nvswitchGBps > 0) {
            switched.push_back(i);
            nvBps = nvBps == 0 ? hw.gpus[std::size_t(i)].nvswitchGBps
                               : std::min(nvBps, hw.gpus[std::size_t(i)].nvswitchGBps);
        }
    bool split = false;
    if (switched.size() >= 2) {
        domains.push_back(switched);
        report.assume(file + ": " + std::to_string(switched.size()) +
                      " GPUs on NVSwitch: one NVLink domain at " + importtext::formatNumber(nvBps) +
                      " GB/s per GPU and direction (links x bandwidth per link of the GPU's "
                      "generation)" +
                      (hw.nvswitches > 0
                           ? "; the file names " + std::to_string(hw.nvswitches) + " NVSwitches"
                           : std::string()));
    } else {
        domains = cliques(hw.gpus, split);
        for (const auto &d : domains)
            for (std::size_t a = 0; a < d.size(); ++a)
                for (std::size_t b = a + 1; b < d.size(); ++b) {
                    const double bw = pairBandwidth(hw.gpus[std::size_t(d[a])], d[b]);
                    nvBps = nvBps == 0 ? bw : std::min(nvBps, bw);
                }
        if (!domains.empty())
            report.assume(
                file + ": GPUs linked to each other by NVLink: " + std::to_string(domains.size()) +
                " domain(s), at least " + importtext::formatNumber(nvBps) +
                " GB/s per direction between two GPUs of a domain" +
                (split ? " (not every pair is linked: fully linked groups kept)" : ""));
    }
    if (!known && !hw.gpus.empty()) {
        // A partial NCCL_TOPO_FILE lists the GPUs' PCI slots but not their NVLink: take the
        // model's from the catalogue rather than read it as "no NVLink".
        if (rec.entry && rec.entry->nvlinkGbps > 0) {
            std::vector<int> all;
            for (int i = 0; i < gpus; ++i)
                all.push_back(i);
            domains = {all};
            nvBps = rec.entry->nvlinkGbps / 8;
            report.assume(file +
                          ": the file does not say the GPUs' NVLink (an input file for "
                          "NCCL, not a dump): " +
                          rec.model + " NVLink from the GPU catalogue, all GPUs in one domain");
        } else {
            report.assume(file + ": the file does not say the GPUs' NVLink: PCIe only assumed");
        }
    }
    std::size_t covered = 0;
    for (const auto &d : domains)
        covered += d.size();
    if (!domains.empty() && nvBps > 0) {
        ic.kind = GpuInterconnect::Kind::Nvlink;
        ic.nvlinkDomains = domains;
        if (covered == std::size_t(gpus))
            ic.bandwidthGbps = nvBps * 8;
        else
            report.assume(file + ": " + std::to_string(std::size_t(gpus) - covered) +
                          " GPUs are in no NVLink domain: the node's bandwidth between tasks is "
                          "its PCIe one");
    }
    if (t.gpus && *t.gpus != int(hw.gpus.size()) && !ic.nvlinkDomains.empty()) {
        ic.nvlinkDomains.clear();
        ic.kind = GpuInterconnect::Kind::Pcie;
        ic.bandwidthGbps = pcie > 0 ? pcie : ic.bandwidthGbps;
    }
    n.interconnect = ic;

    // CPUs and memory: the file's, the template's, or stated defaults.
    const double defaultCpus = std::max(8.0, 8.0 * gpus);
    const double defaultMemory = std::max(64.0, 64.0 * gpus);
    n.cpus = t.cpus ? *t.cpus : hw.cpus.value_or(defaultCpus);
    n.memoryGiB = t.memoryGiB ? *t.memoryGiB : hw.memoryGiB.value_or(defaultMemory);
    if (!t.cpus && !hw.cpus)
        report.assume(file + ": no CPU count in the file: " + importtext::formatNumber(n.cpus) +
                      " (8 per GPU, at least 8) assumed; --node-template cpus=N gives it");
    if (!t.memoryGiB && !hw.memoryGiB)
        report.assume(
            file + ": no memory size in the file: " + importtext::formatNumber(n.memoryGiB) +
            " GiB (64 per GPU, at least 64) assumed; --node-template memory-gib=N gives it");
    if (!t.empty() && !t.source.empty())
        report.assume(file + ": node template " + t.toString());

    const std::string prefix = importtext::lower(base);
    for (int i = 0; i < count; ++i) {
        Node copy = n;
        copy.id = count == 1 ? prefix : prefix + "-" + std::to_string(i);
        while (cluster.node(copy.id))
            copy.id += "_";
        copy.labels["kubernetes.io/hostname"] = copy.id;
        if (!copy.gpuType.empty())
            copy.labels["nvidia.com/gpu.product"] = copy.gpuType;
        cluster.nodes.push_back(std::move(copy));
    }
}

std::string nodeBaseFromFileName(const std::string &path)
{
    std::string base = path.substr(path.find_last_of('/') + 1);
    if (auto dot = base.rfind('.'); dot != std::string::npos && dot > 0)
        base.resize(dot);
    std::string out;
    for (char c : base)
        out += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '-';
    return out.empty() ? std::string("node") : out;
}

} // namespace cb
