#include "model/gpu_catalog.h"

#include <array>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>

namespace cb {

// Sources and conventions (checked against the vendors' public pages; approximate where noted):
// - memory and busy watts: NVIDIA product datasheets (board TDP). K80 and M60 boards carry two
//   GPUs; clouds (Azure NC/NV series, and the STS authors' GPU-cost.csv) sell one of the two as
//   "1 GPU", so these entries are per GPU: 12 GiB / 150 W (K80 = GK210), 8 GiB / 150 W (M60).
// - idle watts: typical nvidia-smi readings of an idle, allocated board; approximate.
// - relative speed: rough training throughput relative to a V100 (ResNet-50 class workloads,
//   mixed precision where the GPU supports it); order-of-magnitude only, meant for jobs that
//   have no measured per-type step times.
// - price per GPU-hour: K80 and M60 from the STS authors' GPU-cost.csv (Azure NC6 0.56 and
//   NV6 0.62); GTX1080Ti and QuadroP600 from the same file's in-house servers (price of the
//   server divided by its GPUs); the others are Google Cloud on-demand list prices per GPU
//   (us-central1, 2023-2024; H100 is the a3-highgpu-8g price divided by 8).
// - H200 (NVIDIA H200 and DGX H200 datasheets): 141 GB HBM3e, 700 W, the H100's GH100 die
//   and 989 TFLOPS dense BF16 (so the H100's speed), NVLink 4 at 900 GB/s bidirectional like
//   the H100; idle at 15 % of board power as for the datasheet-only models below; price: the
//   H100's above x 1.10, the ratio of AWS's EC2 Capacity Block rates per GPU-hour in 2024
//   (p5e.48xlarge, 8 x H200: 5.408 USD; p5.48xlarge, 8 x H100: 4.916 USD); approximate.
// - NVLink: per GPU and direction (V100 300 GB/s, A100 600 GB/s, H100 900 GB/s total
//   bidirectional); PCIe x16 per direction: Gen3 128, Gen4 256, Gen5 512 Gbit/s (nominal).
// - GB200: the Blackwell GPU of a GB200 superchip (NVIDIA GB200 NVL72 product page,
//   nvidia.com/en-us/data-center/gb200-nvl72: 72 GPUs, 13.4 TB HBM3e = 186 GB = 173 GiB per GPU,
//   fifth-generation NVLink 1.8 TB/s per GPU bidirectional = 900 GB/s = 7,200 Gbit/s per
//   direction, 130 TB/s per rack; FP16/BF16 360 PFLOPS per rack with sparsity = 2.5 PFLOPS
//   dense per GPU, so 2.5 / 0.989 x 4.0 (H100) = 10.1); 1,200 W per GPU (a GB200 superchip
//   of one Grace and two GPUs is rated 2,700 W; approximate); idle at 15 % of board power as
//   for the datasheet-only models below; price: CoreWeave's list price of a gb200-4x
//   instance (4 GPUs, one compute tray), 42.00 per hour / 4; indicative.
const std::vector<GpuCatalogEntry> &gpuCatalog()
{
    static const std::vector<GpuCatalogEntry> catalog = {
        // name, memory GiB, relative speed, idle W, busy W, price/h; product; NVLink; PCIe
        {{"K80", 12, 0.15, 25, 150, 0.56}, "Tesla-K80", 0, 128},
        {{"M60", 8, 0.15, 25, 150, 0.62}, "Tesla-M60", 0, 128},
        {{"QuadroP600", 2, 0.05, 5, 40, 0.055}, "Quadro-P600", 0, 128},
        {{"GTX1080Ti", 11, 0.55, 10, 250, 0.14125}, "NVIDIA-GeForce-GTX-1080-Ti", 0, 128},
        {{"P100", 16, 0.5, 30, 250, 1.46}, "Tesla-P100-PCIE-16GB", 0, 128},
        {{"V100", 32, 1.0, 40, 300, 2.48}, "Tesla-V100-SXM2-32GB", 1200, 128},
        {{"T4", 16, 0.3, 10, 70, 0.35}, "Tesla-T4", 0, 128},
        {{"A100-40GB", 40, 2.2, 50, 400, 2.933908}, "NVIDIA-A100-SXM4-40GB", 2400, 256},
        {{"A100-80GB", 80, 2.2, 50, 400, 3.92828}, "NVIDIA-A100-SXM4-80GB", 2400, 256},
        {{"L4", 24, 0.6, 15, 72, 0.56004}, "NVIDIA-L4", 0, 256},
        {{"H100-80GB", 80, 4.0, 70, 700, 11.06125}, "NVIDIA-H100-80GB-HBM3", 3600, 512},
        {{"H200", 141, 4.0, 105, 700, 12.1683}, "NVIDIA-H200", 3600, 512},
        {{"GB200", 173, 10.1, 180, 1200, 10.5}, "NVIDIA-GB200", 7200, 512},
    };
    return catalog;
}

const GpuCatalogEntry *findGpuCatalogEntry(const std::string &name)
{
    for (const GpuCatalogEntry &e : gpuCatalog())
        if (e.type.name == name)
            return &e;
    return nullptr;
}

std::string gpuCatalogNames()
{
    std::string names;
    for (const GpuCatalogEntry &e : gpuCatalog())
        names += (names.empty() ? "" : ", ") + e.type.name;
    return names;
}

namespace {

std::string gpuKey(const std::string &s)
{
    std::string out;
    for (unsigned char c : s)
        if (std::isalnum(c))
            out += char(std::tolower(c));
    return out;
}

// Names as other sources write them, matched after gpuKey(), most specific first. A model
// in the catalogue points at its entry; one known only by its datasheet (memory, board power
// per GPU) carries those figures, idle power estimated at 15 % of board power, and a relative
// speed scaled from the catalogue entry of its generation by the datasheets' peak dense
// BF16 tensor throughput (FP32 for Pascal boards, which have no tensor cores):
// - B200: 2.25 PFLOPS (HGX B200: 18 dense for 8 GPUs) / 989 x 4.0 = 9.1;
// - A30 165, A10 125, L40 181 TFLOPS against the A100's 312 (2.2): 1.16, 0.88, 1.28;
// - P40 11.8, Titan Xp 12.1, Titan X (Pascal) 11.0 TFLOPS FP32 against the GTX 1080 Ti's
//   11.3 (0.55): 0.57, 0.59, 0.53; a 16 GB V100 runs as the 32 GB one (1.0).
struct Alias
{
    const char *token;   ///< normalised fragment that identifies the model
    const char *catalog; ///< catalogue entry name, or nullptr
    const char *model;   ///< model name when not in the catalogue
    double memoryGiB;
    double tdpWatts;
    double relativeSpeed; ///< against a V100, for models not in the catalogue
    bool needs80 = false; ///< the name must also say 80 GB
    bool needs32 = false; ///< ... or 32 GB
};

constexpr std::array<Alias, 22> kAliases{{
    {"h100", "H100-80GB", nullptr, 0, 0, 0},
    {"h200", "H200", nullptr, 0, 0, 0},
    {"b200", nullptr, "B200", 180, 1000, 9.1},
    {"a100", "A100-80GB", nullptr, 0, 0, 0, true},
    {"a100", "A100-40GB", nullptr, 0, 0, 0},
    {"a30", nullptr, "A30", 24, 165, 1.16},
    {"a10", nullptr, "A10", 24, 150, 0.88},
    {"l40", nullptr, "L40", 48, 300, 1.28},
    {"l4", "L4", nullptr, 0, 0, 0},
    {"v100", "V100", nullptr, 0, 0, 0, false, true},
    {"v100m32", "V100", nullptr, 0, 0, 0},
    {"v100", nullptr, "V100-16GB", 16, 300, 1.0},
    {"p100", "P100", nullptr, 0, 0, 0},
    {"p40", nullptr, "P40", 24, 250, 0.57},
    {"t4", "T4", nullptr, 0, 0, 0},
    {"k80", "K80", nullptr, 0, 0, 0},
    {"m60", "M60", nullptr, 0, 0, 0},
    {"1080ti", "GTX1080Ti", nullptr, 0, 0, 0},
    {"quadrop600", "QuadroP600", nullptr, 0, 0, 0},
    {"p600", "QuadroP600", nullptr, 0, 0, 0},
    {"titanxp", nullptr, "TitanXp", 12, 250, 0.59},
    {"titanx", nullptr, "TitanX", 12, 250, 0.53},
}};

GpuRecognition fromEntry(const GpuCatalogEntry &e)
{
    GpuRecognition r;
    r.recognised = true;
    r.entry = &e;
    r.model = e.type.name;
    r.memoryGiB = e.type.memoryGiB;
    r.busyWatts = e.type.busyWatts;
    r.idleWatts = e.type.idleWatts;
    r.relativeSpeed = e.type.relativeSpeed;
    return r;
}

/// Where a MIG profile ("MIG-1g.5gb", "mig 3g.20gb") is in `name`: [begin, end) with the
/// separator before it, its compute slices and memory in GB; nullopt without one.
struct MigMatch
{
    std::size_t begin = 0, end = 0;
    int slices = 0;
    double memoryGB = 0;
};

std::optional<MigMatch> findMigProfile(const std::string &name)
{
    std::string lower = name;
    for (char &c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    for (std::size_t at = lower.find("mig"); at != std::string::npos;
         at = lower.find("mig", at + 1)) {
        std::size_t i = at + 3;
        while (i < lower.size() && (lower[i] == '-' || lower[i] == '_' || lower[i] == ' '))
            ++i;
        auto digits = [&](std::size_t from) {
            std::size_t to = from;
            while (to < lower.size() && std::isdigit(static_cast<unsigned char>(lower[to])))
                ++to;
            return to;
        };
        const std::size_t g = digits(i);
        if (g == i || g + 1 >= lower.size() || lower[g] != 'g' || lower[g + 1] != '.')
            continue;
        const std::size_t m = digits(g + 2);
        if (m == g + 2 || lower.compare(m, 2, "gb") != 0)
            continue;
        MigMatch match;
        match.begin = at;
        while (match.begin > 0 &&
               std::string("-_ ").find(lower[match.begin - 1]) != std::string::npos)
            --match.begin;
        match.end = m + 2;
        match.slices = std::stoi(lower.substr(i, g - i));
        match.memoryGB = std::stod(lower.substr(g + 2, m - g - 2));
        if (match.slices < 1 || match.slices > 7 || match.memoryGB <= 0)
            continue;
        return match;
    }
    return std::nullopt;
}

} // namespace

GpuRecognition recogniseGpu(const std::string &name)
{
    if (const auto mig = findMigProfile(name)) {
        GpuRecognition r = recogniseGpu(name.substr(0, mig->begin) + name.substr(mig->end));
        if (!r.recognised)
            return {};
        r.migSlicesOfGpu = r.model == "A30" ? 4 : 7;
        if (mig->slices > r.migSlicesOfGpu)
            return {};
        r.migSlices = mig->slices;
        r.migProfile = name.substr(mig->begin, mig->end - mig->begin);
        r.migProfile.erase(0, r.migProfile.find_first_not_of("-_ "));
        r.migProfile.erase(0, 3);                                     // "MIG"
        r.migProfile.erase(0, r.migProfile.find_first_not_of("-_ ")); // "1g.5gb"
        const double share = double(mig->slices) / r.migSlicesOfGpu;
        r.memoryGiB = mig->memoryGB;
        r.relativeSpeed *= share;
        r.busyWatts *= share;
        r.idleWatts *= share;
        return r;
    }
    const std::string key = gpuKey(name);
    if (key.empty())
        return {};
    for (const GpuCatalogEntry &e : gpuCatalog())
        if (gpuKey(e.type.name) == key || gpuKey(e.product) == key)
            return fromEntry(e);
    // "V100M32" and "V100-SXM2-32GB" say 32 GB; "A100-SXM4-80GB" and "A100 80G" say 80 GB.
    const bool says80 = key.find("80g") != std::string::npos;
    const bool says32 =
        key.find("32g") != std::string::npos || key.find("m32") != std::string::npos;
    for (const Alias &a : kAliases) {
        if (key.find(a.token) == std::string::npos || (a.needs80 && !says80) ||
            (a.needs32 && !says32))
            continue;
        if (a.catalog)
            return fromEntry(*findGpuCatalogEntry(a.catalog));
        GpuRecognition r;
        r.recognised = true;
        r.model = a.model;
        r.memoryGiB = a.memoryGiB;
        r.busyWatts = a.tdpWatts;
        r.idleWatts = std::round(a.tdpWatts * 0.15);
        r.relativeSpeed = a.relativeSpeed;
        return r;
    }
    return {};
}

} // namespace cb
