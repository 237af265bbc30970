#pragma once

#include "io/import/importer.h"

namespace cb {

/// hwloc XML (lstopo --of xml; <topology version="2.0"> and the newer "3.0"): nested
/// <object type=...> elements. One file is one machine: PUs give the CPUs, NUMANodes'
/// local_memory (bytes) the memory, PCI devices of class 03xx that carry OS devices (nvml*,
/// cuda*, opencl*, rsmi*) the GPUs (the model from their GPUModel info, else the PCI device
/// id), network OS devices the NICs, and the NVLinkBandwidth distances matrix (MB/s per
/// direction, GPU to GPU or GPU to NVSwitch) the NVLink domains. --nodes N makes N copies.
///
/// What the format does not say, and what is assumed (each stated in the report):
/// - NIC speeds (100 Gbit/s each, as for every import without link speeds);
/// - GPU memory (from the GPU catalogue by model);
/// - the host name unless a HostName info is present (else the file's name);
/// - a GPU listed by several backends (cuda0, opencl0d0, nvml0 under one PCI device) is one
///   GPU; osdev_type differs between versions and files, so GPUs are told by their PCI class
///   and OS device names, not by it;
/// - a trimmed file (few PUs, as hwloc's test files) gives few CPUs: --node-template cpus=N.
class HwlocImporter : public Importer
{
public:
    std::string name() const override { return "hwloc"; }
    std::vector<std::string> readsOptions() const override { return {"nodes", "node-template"}; }
    std::string description() const override
    {
        return "hwloc XML (lstopo --of xml): CPUs, memory, GPUs, NVLink, NICs of a machine "
               "(--nodes N copies it)";
    }
    Produces produces() const override { return Produces::Cluster; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
