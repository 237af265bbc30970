#include "io/import/node_template.h"

#include "io/import/text_fields.h"

namespace cb {

Result<NodeTemplate> NodeTemplate::parse(const std::string &spec)
{
    NodeTemplate t;
    const auto bad = [&](const std::string &why) {
        return Result<NodeTemplate>::failure(
            "--node-template", why + " (expected KEY=VALUE,... with keys gpus, gpu-type, cpus, "
                                     "memory-gib, e.g. \"gpus=8,gpu-type=H100,cpus=96,"
                                     "memory-gib=1024\")");
    };
    for (const std::string &part : importtext::split(spec, ',')) {
        const std::string item = importtext::trim(part);
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            return bad("\"" + item + "\" has no value");
        const std::string key = importtext::lower(importtext::trim(item.substr(0, eq)));
        const std::string value = importtext::trim(item.substr(eq + 1));
        if (key == "gpu-type" || key == "gpu_type") {
            if (value.empty())
                return bad("gpu-type is empty");
            t.gpuType = value;
            continue;
        }
        const auto v = importtext::parseNumber(value);
        if (key == "gpus") {
            const auto g = importtext::parseInteger(value);
            if (!g || *g < 0 || *g > 4096)
                return bad("gpus: expected a whole number from 0 to 4096, found \"" + value + "\"");
            t.gpus = int(*g);
        } else if (key == "cpus") {
            if (!v || *v <= 0 || *v > 1e6)
                return bad("cpus: expected a number above 0 (up to 10^6), found \"" + value + "\"");
            t.cpus = *v;
        } else if (key == "memory-gib" || key == "memory_gib" || key == "memory") {
            if (!v || *v <= 0 || *v > 1e9)
                return bad("memory-gib: expected a number above 0 (up to 10^9), found \"" + value +
                           "\"");
            t.memoryGiB = *v;
        } else {
            return bad("unknown key \"" + key + "\"");
        }
    }
    return t;
}

std::string NodeTemplate::toString() const
{
    std::string s;
    auto add = [&](const std::string &part) { s += (s.empty() ? "" : ", ") + part; };
    if (gpus)
        add(std::to_string(*gpus) + " GPUs");
    if (!gpuType.empty())
        add("GPU type " + gpuType);
    if (cpus)
        add(importtext::formatNumber(*cpus) + " CPUs");
    if (memoryGiB)
        add(importtext::formatNumber(*memoryGiB) + " GiB");
    if (interconnect)
        add(std::string(interconnect->kind == GpuInterconnect::Kind::Nvlink ? "NVLink" : "PCIe") +
            " at " + importtext::formatNumber(interconnect->bandwidthGbps) + " Gbit/s inside");
    return s;
}

void applyNodeTemplate(const NodeTemplate &t, Node &n)
{
    if (t.cpus)
        n.cpus = *t.cpus;
    if (t.memoryGiB)
        n.memoryGiB = *t.memoryGiB;
    if (t.gpus)
        n.gpus = *t.gpus;
    if (!t.gpuType.empty() && n.gpus > 0)
        n.gpuType = t.gpuType;
    if (t.interconnect)
        n.interconnect = *t.interconnect;
    if (n.gpus == 0)
        n.gpuType.clear();
}

} // namespace cb
