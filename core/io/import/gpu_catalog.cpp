#include "io/import/gpu_catalog.h"

#include "io/import/text_fields.h"

#include <array>
#include <cmath>
#include <set>

namespace cb {

namespace {

struct Known
{
    const char *token; // normalised substring that identifies the model
    double memoryGiB;
    double tdpWatts; // board power per GPU (datasheet)
};

// Most specific first. Datasheet memory and maximum board power per GPU; dual-GPU boards
// (K80, M60) are split per GPU.
constexpr std::array<Known, 16> kKnown{{
    {"h100", 80, 700},
    {"a10080", 80, 400},
    {"a100", 40, 400},
    {"a30", 24, 165},
    {"a10", 24, 150},
    {"l40", 48, 300},
    {"l4", 24, 72},
    {"v100m32", 32, 300},
    {"v10032", 32, 300},
    {"v100", 16, 300},
    {"p100", 16, 250},
    {"t4", 16, 70},
    {"k80", 12, 150},
    {"m60", 8, 150},
    {"titanxp", 12, 250},
    {"p40", 24, 250},
}};

std::string normalise(const std::string &s)
{
    std::string out;
    for (char c : importtext::lower(s))
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out += c;
    return out;
}

} // namespace

GpuType importedGpuType(const std::string &name, bool *recognised)
{
    GpuType t;
    t.name = name;
    std::string key = normalise(name);
    // "A100-SXM4-80GB" -> "a100sxm480gb": look for the size as well as the model.
    const bool has80 = key.find("80gb") != std::string::npos;
    const bool has32 = key.find("32gb") != std::string::npos;
    for (const Known &k : kKnown) {
        std::string token = k.token;
        bool match = key.find(token) != std::string::npos;
        if (token == "a10080")
            match = key.find("a100") != std::string::npos && has80;
        if (token == "v10032")
            match = key.find("v100") != std::string::npos && has32;
        if (match) {
            t.memoryGiB = k.memoryGiB;
            t.busyWatts = k.tdpWatts;
            t.idleWatts = std::round(k.tdpWatts * 0.15);
            if (recognised)
                *recognised = true;
            return t;
        }
    }
    t.memoryGiB = 16;
    t.busyWatts = 250;
    t.idleWatts = 50;
    if (recognised)
        *recognised = false;
    return t;
}

void addMissingGpuTypes(Cluster &cluster, ImportReport &report)
{
    std::set<std::string> needed;
    for (const Node &n : cluster.nodes)
        if (n.gpus > 0 && !cluster.gpuType(n.gpuType))
            needed.insert(n.gpuType);
    std::string unknown, known;
    for (const std::string &name : needed) {
        bool ok = false;
        cluster.gpuTypes.push_back(importedGpuType(name, &ok));
        (ok ? known : unknown) += (((ok ? known : unknown).empty()) ? "" : ", ") + name;
    }
    if (!known.empty())
        report.assume("GPU types " + known +
                      ": memory and board power from the vendor "
                      "datasheet, idle power 15% of board power, relative speed 1.0, price 0");
    if (!unknown.empty())
        report.assume("GPU types not in the catalogue: " + unknown +
                      ": default entry (16 GiB, 50 W idle, 250 W busy, relative speed 1.0, "
                      "price 0)");
}

} // namespace cb
