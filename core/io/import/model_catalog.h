#pragma once
// Parameter counts of well-known training models, to give imported jobs a model size when a
// trace names the model (Tiresias "vgg16", Gavel "ResNet-50 (batch size 64)", Pollux
// "imagenet"). Counts are the published ones (torchvision model cards for the CNNs, the
// original papers otherwise), rounded to 0.1 M. Weights are fp32: 4 bytes per parameter.

#include <optional>
#include <string>
#include <string_view>

namespace cb {

struct KnownModel
{
    std::string name;      ///< canonical name, e.g. "resnet50"
    double parameters = 0; ///< count
    std::string note;      ///< where the mapping comes from, when it is not the name itself
    long long parameterBytes() const { return static_cast<long long>(parameters) * 4; }
};

/// Finds a model by a trace's name for it: case, punctuation and a trailing
/// "(batch size N)" are ignored; application aliases (Pollux "imagenet" = ResNet-50) apply.
std::optional<KnownModel> findKnownModel(std::string_view traceName);

} // namespace cb
