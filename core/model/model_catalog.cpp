#include "model/model_catalog.h"

namespace cb {

// Parameter counts: torchvision model documentation (alexnet, vgg16, resnet50, resnet101,
// inception_v3 with its auxiliary head) and the Hugging Face model cards (bert-base-uncased,
// bert-large-uncased, gpt2 124M). Step times are rough single-V100 FP32 figures at the
// listed batch size (NVIDIA and framework benchmark pages); they set the scale of generated
// jobs, not a measurement: real traces or measured profiles override them.
const std::vector<TrainingModel> &trainingModels()
{
    static const std::vector<TrainingModel> models = {
        {"alexnet", 61100840, 128, 0.05, 5000, 50000},
        {"vgg16", 138357544, 64, 0.25, 2000, 20000},
        {"resnet50", 25557032, 64, 0.18, 5000, 40000},
        {"resnet101", 44549160, 64, 0.3, 5000, 30000},
        {"inception_v3", 27161264, 64, 0.25, 5000, 30000},
        {"bert-base", 109482240, 32, 0.12, 5000, 40000},
        {"bert-large", 335141888, 16, 0.2, 5000, 30000},
        {"gpt2", 124439808, 8, 0.4, 5000, 30000},
    };
    return models;
}

const TrainingModel *findTrainingModel(const std::string &name)
{
    for (const TrainingModel &m : trainingModels())
        if (m.name == name)
            return &m;
    return nullptr;
}

std::string trainingModelNames()
{
    std::string names;
    for (const TrainingModel &m : trainingModels())
        names += (names.empty() ? "" : ", ") + m.name;
    return names;
}

} // namespace cb
