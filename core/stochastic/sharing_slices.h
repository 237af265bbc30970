#pragma once
// GPU sharing for STS (the authors' fractions.csv): a GPU type offers slices of a fraction of
// one GPU with some memory; a job fits a slice when its memory need is at most the slice's
// memory, and runs slower there by an inflate factor drawn per job in [1.01, inflate_max].

#include "util/result.h"

#include <string>
#include <vector>

namespace cb {

struct SharingSlice
{
    std::string gpuType;
    double memoryGB = 0;
    double fraction = 1;
    double inflateMax = 1;
};

class SharingSlices
{
public:
    const std::vector<SharingSlice> &slices() const { return m_slices; }
    void add(SharingSlice s) { m_slices.push_back(std::move(s)); }
    /// Slices of `gpuType` a job needing `memoryGB` fits, in increasing fraction.
    std::vector<SharingSlice> fitting(const std::string &gpuType, double memoryGB) const;

private:
    std::vector<SharingSlice> m_slices;
};

} // namespace cb
