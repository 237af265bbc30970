#pragma once
// Every exporter by format name. The GUI, the CLI and the tests reach formats only through
// here, so adding a format means adding one class and one line in exporter_registry.cpp.

#include "io/export/exporter.h"

#include <string>
#include <vector>

namespace cb {

class ExporterRegistry
{
public:
    /// All exporters in a fixed order: k8s-pods, tfjob, pytorchjob, mpijob, volcano, slurm,
    /// slurm-cluster.
    static const std::vector<const Exporter *> &all();
    /// The exporter named `name`, or nullptr.
    static const Exporter *find(const std::string &name);
    /// "k8s-pods, tfjob, ..." for messages.
    static std::string names();
};

} // namespace cb
