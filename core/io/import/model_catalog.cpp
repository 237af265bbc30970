#include "io/import/model_catalog.h"

#include <array>

namespace cb {

namespace {

struct Entry
{
    const char *key; // normalised: lower case letters and digits only
    const char *name;
    double parameters;
    const char *note;
};

// Published parameter counts (torchvision for the CNNs; papers for the rest).
constexpr std::array<Entry, 22> kModels{{
    {"alexnet", "alexnet", 61.1e6, ""},
    {"vgg11", "vgg11", 132.9e6, ""},
    {"vgg16", "vgg16", 138.4e6, ""},
    {"vgg19", "vgg19", 143.7e6, ""},
    {"resnet18", "resnet18", 11.7e6, ""},
    {"resnet34", "resnet34", 21.8e6, ""},
    {"resnet50", "resnet50", 25.6e6, ""},
    {"resnet101", "resnet101", 44.5e6, ""},
    {"resnet152", "resnet152", 60.2e6, ""},
    {"googlenet", "googlenet", 6.6e6, ""},
    {"inception3", "inception3", 27.2e6, ""},
    {"inceptionv3", "inception3", 27.2e6, ""},
    {"inception4", "inception4", 42.7e6, ""},
    {"inceptionv4", "inception4", 42.7e6, ""},
    {"bert", "bert-base", 110e6, "BERT taken as bert-base"},
    {"bertbase", "bert-base", 110e6, ""},
    {"yolov3", "yolov3", 61.9e6, ""},
    {"mobilenetv2", "mobilenetv2", 3.5e6, ""},
    {"densenet121", "densenet121", 8.0e6, ""},
    // Pollux applications name the data set; its paper names the model trained on it.
    {"imagenet", "resnet50", 25.6e6, "Pollux application imagenet trains ResNet-50"},
    {"cifar10", "resnet18", 11.7e6, "Pollux application cifar10 trains ResNet-18"},
    {"gpt2", "gpt2", 124e6, "GPT-2 taken as the 124M model"},
}};

std::string modelKey(std::string_view s)
{
    if (auto p = s.find('('); p != std::string_view::npos)
        s = s.substr(0, p);
    std::string out;
    for (char c : s) {
        if (c >= 'A' && c <= 'Z')
            out += char(c - 'A' + 'a');
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out += c;
    }
    return out;
}

} // namespace

std::optional<KnownModel> findKnownModel(std::string_view traceName)
{
    const std::string key = modelKey(traceName);
    for (const Entry &e : kModels)
        if (key == e.key)
            return KnownModel{e.name, e.parameters, e.note};
    return std::nullopt;
}

} // namespace cb
