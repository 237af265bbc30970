#pragma once
// Parameter counts of the training models that public traces name, to give imported jobs a
// model size: Tiresias ("vgg16"), Gavel ("ResNet-50 (batch size 64)", "Transformer", "LM",
// "A3C", "CycleGAN"), Pollux applications ("imagenet", "cifar10", "bert", "yolov3", "ncf").
// Counts are the published ones (torchvision's model documentation for the CNNs, the original
// papers otherwise) or computed from the model code the trace's authors ran; the source of
// each is beside it in model_catalog.cpp. Weights are fp32: 4 bytes per parameter. Names
// whose size a trace cannot tell (Gavel's Recommendation, Pollux's deepspeech2) are known as
// such and reported with the reason.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cb {

struct KnownModel
{
    std::string name;      ///< canonical profile name, e.g. "resnet50"
    double parameters = 0; ///< count
    std::string note;      ///< where the mapping comes from, when it is not the name itself
    long long parameterBytes() const { return static_cast<long long>(parameters) * 4; }
};

/// Finds a model by a trace's name for it: case, punctuation and a trailing
/// "(batch size N)" are ignored; application aliases (Pollux "imagenet" = ResNet-50) apply.
std::optional<KnownModel> findKnownModel(std::string_view traceName);

/// The names the catalogue knows a canonical model by, the canonical name first: "resnet18"
/// gives "resnet18", then its aliases ("resnet18cifar10", Pollux's application "cifar10"),
/// for finding a model's files under the name a trace gave them.
std::vector<std::string> traceNamesOf(std::string_view canonical);

/// Why a model the traces name has no size here ("Recommendation": it depends on the data's
/// preprocessing), or empty when the name is not known at all.
std::string findModelSizeNote(std::string_view traceName);

} // namespace cb
