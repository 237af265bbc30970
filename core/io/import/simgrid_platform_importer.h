#pragma once

#include "io/import/importer.h"

namespace cb {

/// SimGrid platform XML (<platform version="4.1">, the simulator ClusterBench's network model
/// is checked against): every <cluster> in every <zone> becomes its hosts (prefix + number
/// from radical + suffix) with their private links (bw, lat) to the cluster's switch; the
/// cluster's topology attribute builds the switches: none (flat: one router; a crossbar
/// when there is no backbone), FAT_TREE ("levels;down,...;up,...;parallel,...", the extended
/// generalised fat tree SimGrid builds), DRAGONFLY ("groups,links;chassis,links;routers,links;
/// nodes") and TORUS (not modelled: flat). Several clusters hang from one core switch,
/// linked at their backbone bandwidth (bb_bw) or the zone's backbone <link>. Hosts declared
/// one by one (<host>) in a zone share one switch per zone.
///
/// Units are SimGrid's: bandwidths with Bps, KBps, MBps, GBps (bytes, decimal), KiBps...
/// (binary) or bps, Kbps, Mbps, Gbps (bits), a bare number being bytes per second; latencies
/// with ps, ns, us, ms, s, m, h, d, w, a bare number being seconds.
///
/// What the format does not say, and what is assumed (each stated in the report): GPUs
/// (SimGrid hosts are CPUs with a flop rate, kept as the label simgrid.org/speed): each host
/// has 8 GPUs of --gpu-type (else "unknown-gpu"), 64 CPUs (or the cluster's core count) and
/// 512 GiB, unless --node-template says otherwise; routes written as <route> and
/// <zoneRoute> are not modelled beyond the backbone they name; a backbone limits only traffic
/// between clusters here (in SimGrid it carries all traffic inside its cluster too); the
/// dragonfly's global links go between routers chosen by group number (SimGrid's own choice
/// of router is not reproduced).
class SimgridPlatformImporter : public Importer
{
public:
    std::string name() const override { return "simgrid"; }
    std::vector<std::string> readsOptions() const override { return {"node-template"}; }
    std::string description() const override
    {
        return "SimGrid platform XML: clusters (flat, fat-tree, dragonfly) with their links "
               "(--node-template gives the hosts' GPUs)";
    }
    Produces produces() const override { return Produces::Cluster; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

/// A SimGrid bandwidth ("125MBps") in Gbit/s, or nullopt.
std::optional<double> simgridBandwidthGbps(const std::string &text);
/// A SimGrid latency ("50us") in microseconds, or nullopt.
std::optional<double> simgridLatencyUs(const std::string &text);

} // namespace cb
