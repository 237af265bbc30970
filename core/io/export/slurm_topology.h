#pragma once
// The cluster's network as Slurm's topology plugins see it, shared by the slurm-cluster
// export (topology.conf in tree or block form, topology.yaml) and the slurm batch scripts
// (--switches, --segment):
// - tree (topology/tree): level-0 switches are those linked to nodes; a switch at level k
//   is k hops above its nearest level-0 switch; nodes linked to no switch hang off
//   "cb-unattached", and several top switches are joined under "cb-root";
// - blocks (topology/block, Slurm 23.11+): one block per rack (nodes without a rack form
//   "cb-norack"); the base block size is the smallest block's node count and BlockSizes
//   lists it and its power-of-two multiples up to the number of blocks.

#include "model/cluster.h"
#include "util/result.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace cb {

struct SlurmTreeSwitch
{
    std::string name;
    int level = 0;
    std::vector<std::string> nodes;    ///< level 0 only
    std::vector<std::string> children; ///< switches one level down
    bool synthetic = false;            ///< cb-unattached or cb-root
};

struct SlurmTree
{
    std::vector<SlurmTreeSwitch> switches; ///< by level, scenario order within a level
    /// Node -> the level-0 switch Slurm counts it under (its first in scenario order).
    std::map<std::string, std::string> leafOf;
    /// Nodes linked to more than one level-0 switch (rail-optimised designs).
    std::set<std::string> multiHomed;
    std::vector<std::string> warnings;
};

struct SlurmBlock
{
    std::string name;
    std::vector<std::string> nodes;
};

struct SlurmBlocks
{
    std::vector<SlurmBlock> blocks; ///< by name
    std::map<std::string, std::string> blockOf; ///< node -> block
    int baseBlockSize = 0;          ///< smallest block's node count
    std::vector<int> blockSizes;    ///< base size and its powers of two up to all blocks
    std::vector<std::string> warnings;
};

class SlurmTopology
{
public:
    static SlurmTree tree(const Cluster &cluster);
    /// Fails when a rack name cannot be a Slurm block name (pointer to the node's rack).
    static Result<SlurmBlocks> blocks(const Cluster &cluster);
};

} // namespace cb
