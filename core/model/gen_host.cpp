#include "model/gen_host.h"
#include "util/text.h"

#include <cmath>
#include <sstream>

namespace cb::gen {

namespace {

bool isDnsLabel(const std::string &s)
{
    if (s.empty() || s.size() > 40 || s.front() == '-' || s.back() == '-')
        return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
            return false;
    return true;
}

} // namespace

std::string indexedName(const std::string &prefix, int index, int count)
{
    const std::size_t width = std::to_string(count > 1 ? count - 1 : 0).size();
    std::string digits = std::to_string(index);
    if (digits.size() < width)
        digits.insert(0, width - digits.size(), '0');
    return prefix + "-" + digits;
}

void checkInt(Problems &p, const char *name, long long value, long long lo, long long hi,
              const std::string &what)
{
    if (value >= lo && value <= hi)
        return;
    p.push_back({name, (what.empty() ? "expected an integer from " + std::to_string(lo) +
                                           " to " + std::to_string(hi)
                                     : what) +
                           ", found " + std::to_string(value)});
}

void checkNumber(Problems &p, const char *name, double value, double lo, double hi,
                 const std::string &what)
{
    if (std::isfinite(value) && value >= lo && value <= hi)
        return;
    p.push_back(
        {name, (what.empty() ? "expected a number from " + numberText(lo) + " to " + numberText(hi)
                             : what) +
                   ", found " + numberText(value)});
}

void checkHost(Problems &p, const HostParams &host)
{
    checkInt(p, "gpus-per-host", host.gpus, 0, 64);
    if (host.gpus > 0 && !findGpuCatalogEntry(host.gpuType))
        p.push_back({"gpu-type", "unknown GPU type \"" + host.gpuType +
                                     "\"; expected one of " + gpuCatalogNames()});
    checkNumber(p, "cpus", host.cpus, 1e-3, 1e5, "expected a positive number of CPUs");
    checkNumber(p, "memory", host.memoryGiB, 1e-3, 1e8, "expected a positive memory size in GiB");
    checkNumber(p, "base-watts", host.baseWatts, 0, 1e6, "expected watts >= 0");
    if (!isDnsLabel(host.prefix))
        p.push_back({"prefix", "expected a hostname prefix of lowercase letters, digits and "
                               "'-' (at most 40), found \"" + host.prefix + "\""});
}

void addGpuType(Cluster &cluster, const std::string &name)
{
    if (cluster.gpuType(name))
        return;
    if (const GpuCatalogEntry *e = findGpuCatalogEntry(name))
        cluster.gpuTypes.push_back(e->type);
}

Node makeHost(const HostParams &host, const std::string &id, const std::string &rack)
{
    Node n;
    n.id = id;
    n.cpus = host.cpus;
    n.memoryGiB = host.memoryGiB;
    n.gpus = host.gpus;
    n.partition = host.partition;
    n.rack = rack;
    n.baseWatts = host.baseWatts;
    n.labels["kubernetes.io/hostname"] = id;
    n.labels["clusterbench.io/rack"] = rack;
    const GpuCatalogEntry *entry = host.gpus > 0 ? findGpuCatalogEntry(host.gpuType) : nullptr;
    if (entry) {
        n.gpuType = entry->type.name;
        n.labels["nvidia.com/gpu.product"] = entry->product;
        n.labels["nvidia.com/gpu.count"] = std::to_string(host.gpus);
        n.labels["nvidia.com/gpu.memory"] =
            std::to_string(static_cast<long long>(std::llround(entry->type.memoryGiB * 1024)));
        if (entry->nvlinkGbps > 0 && host.gpus > 1) {
            n.interconnect.kind = GpuInterconnect::Kind::Nvlink;
            n.interconnect.bandwidthGbps = entry->nvlinkGbps;
            std::vector<int> domain;
            for (int g = 0; g < host.gpus; ++g)
                domain.push_back(g);
            n.interconnect.nvlinkDomains = {domain};
        } else {
            n.interconnect.kind = GpuInterconnect::Kind::Pcie;
            n.interconnect.bandwidthGbps = entry->pcieGbps;
        }
    }
    return n;
}

Link makeLink(const std::string &a, const std::string &b, double gbps, double latencyUs)
{
    Link l;
    l.a = a;
    l.b = b;
    l.capacityGbps = gbps;
    l.latencyUs = latencyUs;
    return l;
}

} // namespace cb::gen
