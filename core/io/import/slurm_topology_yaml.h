#pragma once
// Slurm's topology.yaml (Slurm 25.05 and later; when it exists Slurm ignores topology.conf):
// a list of named topologies, each one of tree, block, flat, ring or torus3d:
//
//     - topology: topo1
//       cluster_default: true
//       tree:
//         switches:
//           - switch: sw_root
//             children: s[1-2]
//           - switch: s1
//             nodes: node[01-02]
//     - topology: topo2
//       block:
//         block_sizes: [4, 16]
//         blocks:
//           - block: b1
//             nodes: node[01-04]
//
// The topology used is the one marked cluster_default, else the first; it is turned into the
// lines of the equivalent topology.conf (SwitchName / BlockName / BlockSizes), so the rest of
// the Slurm importer treats both files alike. Not in the file, so assumed: link speeds (as
// for topology.conf). flat gives no switch lines (one switch links the nodes); ring and
// torus3d are not modelled (reported; the nodes share one switch).

#include "io/import/import_report.h"
#include "io/import/slurm_config_text.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

/// Whether `text` looks like a topology.yaml (a list of "topology:" entries).
bool looksLikeSlurmTopologyYaml(const std::string &text);

/// The chosen topology of a topology.yaml as topology.conf lines (with the YAML's line
/// numbers); the choice and what is not modelled go to `report`.
Result<std::vector<SlurmConfigLine>>
slurmTopologyYamlLines(const std::string &text, const std::string &file, ImportReport &report);

} // namespace cb
