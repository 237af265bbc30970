#pragma once
// Deep-learning models with their real parameter counts, for generated job sets.

#include <cstdint>
#include <string>
#include <vector>

namespace cb {

struct TrainingModel
{
    std::string name;             ///< "resnet50"
    std::int64_t parameters = 0;  ///< trainable parameters; gradients are 4 bytes each (FP32)
    int batchSize = 32;           ///< per worker
    /// Approximate seconds per iteration on the reference GPU (a V100, FP32, this batch).
    double computeSecondsPerIteration = 0.1;
    std::int64_t minIterations = 1000; ///< generated jobs train this many iterations or more
    std::int64_t maxIterations = 10000;
    std::int64_t parameterBytes() const { return parameters * 4; }
};

/// Every model, in a fixed order.
const std::vector<TrainingModel> &trainingModels();
const TrainingModel *findTrainingModel(const std::string &name);
/// "alexnet, vgg16, ..." for messages and --help.
std::string trainingModelNames();

} // namespace cb
