#pragma once
// Links for imported clusters, whose sources list nodes and at most a switch tree but no
// link speeds. Stated defaults: 100 Gbit/s from a node to its switch, 400 Gbit/s between
// switches, 1 us latency; a cluster with no topology information gets one switch that
// links every node.

#include "io/import/import_report.h"
#include "model/cluster.h"

#include <string>

namespace cb {

constexpr double kImportHostLinkGbps = 100;
constexpr double kImportSwitchLinkGbps = 400;

/// Adds switch "switch0" and a link from every node to it; reports the assumption.
void linkAllNodesToOneSwitch(Cluster &cluster, ImportReport &report, const std::string &why);

/// Adds a link with the default capacity for its kind (node-switch or switch-switch).
void addImportLink(Cluster &cluster, const std::string &a, const std::string &b, bool hostLink);

/// Reports the default link speeds once.
void reportLinkDefaults(ImportReport &report);

} // namespace cb
