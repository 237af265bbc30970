#include "io/import/model_catalog.h"

#include <algorithm>
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

// Sources:
// - torchvision model documentation, "num_params" of each model's weights page
//   (pytorch.org/vision/stable/models): alexnet 61,100,840; vgg11 132,863,336; vgg16
//   138,357,544; vgg19 143,667,240; resnet18 11,689,512; resnet34 21,797,672; resnet50
//   25,557,032; resnet101 44,549,160; resnet152 60,192,808; googlenet 6,624,904;
//   inception_v3 27,161,264 (with the auxiliary classifier); mobilenet_v2 3,504,872;
//   densenet121 7,978,856.
// - CIFAR-10 ResNet-18 (3x3 stem, 10 classes), the model Gavel's image_classification/cifar10
//   and Pollux's cifar10 benchmark train: 11,173,962, counted from that model code.
// - Inception-v4: 42.7M (Szegedy et al. 2017; timm's inception_v4 reports 42.68M).
// - Transformer: the base model of Vaswani et al. 2017, Table 3: 65M. Gavel trains it on
//   Multi30k, whose smaller vocabulary makes the real count lower.
// - Gavel's LM: a 2-layer LSTM word language model (PyTorch word_language_model defaults,
//   200 embedding and hidden units, untied) on WikiText-2 (33,278 words, Merity et al. 2016):
//   33278*200 + 2*(4*200*400 + 1600) + (200*33278 + 33278) = 13,987,678.
// - Gavel's A3C (4 conv layers, LSTMCell(1024, 512), actor and critic heads, Pong's 6
//   actions): 3,249,639; CycleGAN (2 ResNet generators of 9 blocks at 256x256, 2 PatchGAN
//   discriminators): 28,285,832; both counted from Gavel's workload code.
// - NCF (NeuMF, MovieLens-1M: 6,040 users, 3,706 items, 32 factors, 3 layers) as Pollux's
//   ncf benchmark builds it: 1,602,657.
// - BERT-base: 110M (Devlin et al. 2019, section 3). GPT-2 small: 124M (Radford et al. 2019).
// - YOLOv3: 61.9M (the 80-class COCO model, ultralytics/yolov3 README; Pollux trains on VOC,
//   whose 20-class head is slightly smaller).
constexpr std::array<Entry, 33> kModels{{
    {"alexnet", "alexnet", 61100840, ""},
    {"vgg11", "vgg11", 132863336, ""},
    {"vgg16", "vgg16", 138357544, ""},
    {"vgg19", "vgg19", 143667240, ""},
    {"resnet18", "resnet18", 11689512, ""},
    {"resnet18cifar10", "resnet18", 11173962, ""},
    {"resnet34", "resnet34", 21797672, ""},
    {"resnet50", "resnet50", 25557032, ""},
    {"resnet101", "resnet101", 44549160, ""},
    {"resnet152", "resnet152", 60192808, ""},
    {"googlenet", "googlenet", 6624904, ""},
    {"inception3", "inception3", 27161264, ""},
    {"inceptionv3", "inception3", 27161264, ""},
    {"inception4", "inception4", 42.7e6, ""},
    {"inceptionv4", "inception4", 42.7e6, ""},
    {"mobilenetv2", "mobilenetv2", 3504872, ""},
    {"densenet121", "densenet121", 7978856, ""},
    {"bert", "bert-base", 110e6, "BERT taken as bert-base (110M parameters)"},
    {"bertbase", "bert-base", 110e6, ""},
    {"gpt2", "gpt2", 124e6, "GPT-2 taken as the 124M model"},
    {"yolov3", "yolov3", 61.9e6, ""},
    {"transformer", "transformer", 65e6,
     "Transformer taken as the base model of Vaswani et al. (65M parameters)"},
    {"transformerbase", "transformer", 65e6, ""},
    {"lm", "lstm-lm", 13987678,
     "LM taken as Gavel's 2-layer LSTM language model on WikiText-2 (13,987,678 parameters)"},
    {"lstmlm", "lstm-lm", 13987678, ""},
    {"a3c", "a3c", 3249639, ""},
    {"cyclegan", "cyclegan", 28285832, ""},
    {"ncf", "ncf", 1602657, ""},
    {"neumf", "ncf", 1602657, ""},
    // Pollux applications name the data set; its paper names the model trained on it.
    {"imagenet", "resnet50", 25557032, "Pollux application imagenet trains ResNet-50"},
    {"cifar10", "resnet18", 11173962,
     "Pollux application cifar10 trains the CIFAR-10 ResNet-18 (11,173,962 parameters)"},
    {"squad", "bert-base", 110e6, "SQuAD taken as BERT-base fine-tuning"},
    {"movielens", "ncf", 1602657, "MovieLens taken as NCF"},
}};

struct Unsized
{
    const char *key;
    const char *why;
};

constexpr std::array<Unsized, 3> kUnsized{{
    {"recommendation", "its size depends on the item count the ML-20M preprocessing keeps "
                       "(an autoencoder of about 400 parameters per item); the trace does not "
                       "say it"},
    {"deepspeech2", "its size depends on the RNN type, the spectrogram size and the label set; "
                    "no published count fits Pollux's setup"},
    {"deepspeech", "its size depends on the RNN type, the spectrogram size and the label set"},
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

std::vector<std::string> traceNamesOf(std::string_view canonical)
{
    std::vector<std::string> out = {std::string(canonical)};
    for (const Entry &e : kModels)
        if (e.name == canonical && std::find(out.begin(), out.end(), e.key) == out.end())
            out.emplace_back(e.key);
    return out;
}

std::string findModelSizeNote(std::string_view traceName)
{
    const std::string key = modelKey(traceName);
    for (const Unsized &u : kUnsized)
        if (key == u.key)
            return u.why;
    return {};
}

} // namespace cb
