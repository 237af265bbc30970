#include "stochastic/sharing_slices.h"


#include <algorithm>

namespace cb {

std::vector<SharingSlice> SharingSlices::fitting(const std::string &gpuType,
                                                 double memoryGB) const
{
    std::vector<SharingSlice> out;
    for (const SharingSlice &s : m_slices)
        if (s.gpuType == gpuType && s.memoryGB >= memoryGB)
            out.push_back(s);
    std::stable_sort(out.begin(), out.end(), [](const SharingSlice &a, const SharingSlice &b) {
        return a.fraction < b.fraction;
    });
    return out;
}

} // namespace cb
