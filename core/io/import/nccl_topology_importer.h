#pragma once

#include "io/import/importer.h"

namespace cb {

/// NCCL topology XML: what NCCL_TOPO_DUMP_FILE writes, or an NCCL_TOPO_FILE given to NCCL
/// (root <system version="1">, <cpu> NUMA nodes holding <pci> devices: class 0x03... GPUs with
/// <gpu sm= ...><nvlink target= count= tclass=/>, 0x02... NICs with <nic><net speed= (Mb/s)>).
/// One file describes one host (several, told apart by the CPUs' host_hash, in a multi-node
/// NVLink dump); --nodes N makes N identical nodes of a one-host file, on one switch.
///
/// What the format does not say, and what is assumed (each stated in the report):
/// - the host name: nodes are named after the file;
/// - the GPU model: only its PCI device id (0x20b0 is an A100-SXM4-40GB; node_hardware.cpp);
///   unknown ids need --gpu-type;
/// - NVLink bandwidth: only the link count; per link the bandwidth of the GPU's generation
///   from its sm (nvlinkGBpsPerLink); NCCL merges every NVSwitch into one, and so do we;
/// - a partial NCCL_TOPO_FILE (GPUs as PCI slots without <gpu>) does not mean "no NVLink":
///   the GPU model's NVLink comes from the catalogue;
/// - memory (64 GiB per GPU) and, without affinity masks, CPUs (8 per GPU), unless
///   --node-template gives them; NIC speeds missing are 100 Gbit/s each;
/// - NICs listed under several CPUs are one NIC (by name and guid);
/// - nvlink rows that point at the GPU itself are not links.
/// An NCCL_GRAPH_FILE (root <graphs>) is refused: it lists channels, not hardware.
class NcclTopologyImporter : public Importer
{
public:
    std::string name() const override { return "nccl-topo"; }
    std::vector<std::string> readsOptions() const override { return {"nodes", "node-template"}; }
    std::string description() const override
    {
        return "NCCL topology XML (NCCL_TOPO_DUMP_FILE / NCCL_TOPO_FILE): GPUs, NVLink, PCIe, "
               "NICs of a node (--nodes N copies it)";
    }
    Produces produces() const override { return Produces::Cluster; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
