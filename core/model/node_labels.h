#pragma once
// The labels a node's own fields imply, kept in step with them when the node is edited or
// copied: kubernetes.io/hostname follows the id (the exported node list must not name two
// nodes alike), nvidia.com/gpu.count follows the GPU count, nvidia.com/gpu.product and
// nvidia.com/gpu.memory follow the GPU type, clusterbench.io/rack follows the rack. A label
// the user set to something else than the old field (a hostname that differs from the id)
// is theirs and stays.

#include "model/cluster.h"

#include <string>

namespace cb {

/// Updates `node`'s derived labels after it changed from `before` (a copy's source, or the
/// node before an edit); `cluster` gives the GPU types' memory.
void syncNodeLabels(Node &node, const Node &before, const Cluster &cluster);

/// The id for a new node made from `base`: `base` itself when free, else the next number in
/// its trailing digits with their width ("node-31" -> "node-32", "r01-n04" -> "r01-n05"),
/// else `base` + "-2", "-3", ... `taken` says whether an id is in use.
template<typename Taken>
std::string nextFreeId(const std::string &base, Taken taken)
{
    if (!taken(base))
        return base;
    std::size_t digits = base.size();
    while (digits > 0 && base[digits - 1] >= '0' && base[digits - 1] <= '9')
        --digits;
    if (digits < base.size() && base.size() - digits <= 9) {
        const std::string prefix = base.substr(0, digits);
        const std::size_t width = base.size() - digits;
        for (long long n = std::stoll(base.substr(digits)) + 1;; ++n) {
            std::string number = std::to_string(n);
            if (number.size() < width)
                number.insert(0, width - number.size(), '0');
            if (!taken(prefix + number))
                return prefix + number;
        }
    }
    for (int n = 2;; ++n)
        if (!taken(base + "-" + std::to_string(n)))
            return base + "-" + std::to_string(n);
}

} // namespace cb
