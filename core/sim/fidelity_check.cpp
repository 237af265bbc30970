#include "sim/fidelity_check.h"

#include "net/job_flows.h"
#include "net/maxmin_network.h"
#include "net/topology.h"
#include "util/json_number.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <sstream>
#include <tuple>

namespace cb {

namespace {

struct Measured
{
    std::vector<int> placement;
    int localBatch = 0;
    double step = 0, sync = 0;
    bool scalability = false;
};

std::vector<int> evenShape(int nodes, int replicas)
{
    std::vector<int> shape(std::size_t(std::max(0, nodes)), nodes > 0 ? replicas / nodes : 0);
    for (int i = 0; nodes > 0 && i < replicas % nodes; ++i)
        ++shape[std::size_t(i)];
    return shape;
}

bool shapeLess(const std::vector<int> &a, const std::vector<int> &b)
{
    const int sa = std::accumulate(a.begin(), a.end(), 0);
    const int sb = std::accumulate(b.begin(), b.end(), 0);
    if (a.size() != b.size())
        return a.size() < b.size();
    if (sa != sb)
        return sa < sb;
    return a < b;
}

/// The all-reduce of `bytes` over `shape` (GPUs per node on the testbed's first nodes), alone
/// on the testbed's network, through the simulator's flows.
class CommOnTestbed
{
public:
    CommOnTestbed(const Cluster &testbed, AllReduceAlgorithm algorithm)
        : m_cluster(testbed), m_topology(testbed), m_nodeIndex(nodeIndexMap(testbed)),
          m_algorithm(algorithm)
    {}

    Result<double> seconds(const std::vector<int> &shape, std::int64_t bytes)
    {
        if (auto it = m_cache.find({shape, bytes}); it != m_cache.end())
            return it->second;
        if (shape.size() > m_cluster.nodes.size())
            return Result<double>::failure("testbed", "placement " + placementText(shape) +
                                                          " needs " + std::to_string(shape.size()) +
                                                          " nodes, the testbed has " +
                                                          std::to_string(m_cluster.nodes.size()));
        Job job;
        job.id = "fidelity";
        job.kind = JobKind::AllReduce;
        job.model.parameterBytes = bytes;
        JobPlacement jp;
        jp.jobId = job.id;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            const Node &node = m_cluster.nodes[i];
            if (shape[i] > node.gpus)
                return Result<double>::failure(
                    "testbed", "placement " + placementText(shape) + " puts " +
                                   std::to_string(shape[i]) + " GPUs on " + node.id +
                                   ", which has " + std::to_string(node.gpus));
            TaskGroup g;
            g.role = TaskRole::Worker;
            g.gpus = shape[i];
            job.tasks.push_back(g);
            TaskAssignment a;
            a.role = TaskRole::Worker;
            a.group = int(i);
            a.indexInRole = int(i);
            a.node = node.id;
            for (int k = 0; k < shape[i]; ++k)
                a.gpuIndices.push_back(k);
            jp.tasks.push_back(a);
        }
        const std::vector<SimFlow> flows =
            jobFlows(job, jp, m_cluster, m_topology, m_nodeIndex, m_algorithm);
        std::vector<double> capacity(std::size_t(m_topology.directedLinkCount()));
        for (int l = 0; l < m_topology.directedLinkCount(); ++l)
            capacity[std::size_t(l)] = m_topology.capacityGbps(l);
        MaxMinNetwork net(std::move(capacity));
        std::vector<int> ids;
        for (const SimFlow &f : flows)
            ids.push_back(net.addFlow(f.route, f.capGbps));
        net.solve();
        std::vector<double> rates;
        for (int id : ids)
            rates.push_back(net.rate(id));
        const double t = commSeconds(flows, rates);
        m_cache.emplace(std::make_pair(shape, bytes), t);
        return t;
    }

    const std::string &gpuType(std::size_t node) const { return m_cluster.nodes[node].gpuType; }

private:
    const Cluster &m_cluster;
    Topology m_topology;
    std::unordered_map<std::string, int> m_nodeIndex;
    AllReduceAlgorithm m_algorithm;
    std::map<std::pair<std::vector<int>, std::int64_t>, double> m_cache; ///< (shape, bytes)
};

/// What one point needs for a prediction, calibration aside.
struct Inputs
{
    double step1 = 0, sync1 = 0; ///< the 1-GPU measurement at this batch
    double comm = 0;
    int most = 1;  ///< most GPUs on one node
    int least = 1; ///< fewest GPUs on one node
    int ranks = 1; ///< GPUs in total
};

struct Prediction
{
    double step = 0, sync = 0;
};

/// The simulator's iteration time (job_flows.h) for the point: compute = the 1-GPU step time
/// slowed by co-location, the straggler wait, the communication compute does not hide.
/// Sync as the Pollux authors measure it (adaptdl's AdaptiveDataParallel: CUDA events from a
/// worker's last gradient to the end of the all-reduce): the 1-GPU sync (slowed like the
/// worker's compute), the part of the
/// exposed communication that follows the backward pass (1 - commInterference of it; the
/// rest stretches the backward while the earlier buckets are all-reduced, so it is measured
/// before the last gradient), the straggler wait, and the wait of a worker on the least
/// crowded node for the most crowded one (its compute is slowed by its own node's GPUs only).
Prediction predict(const Inputs &in, const FidelityCalibration &c)
{
    ModelProfile m;
    m.colocationSlowdown = c.colocationSlowdown;
    m.computeCv = c.computeCv;
    const double slowdown = 1.0 + c.colocationSlowdown * double(in.most - 1);
    const double ownSlowdown = 1.0 + c.colocationSlowdown * double(in.least - 1);
    const double compute = in.step1 * slowdown;
    const double exposed = iterationSeconds(compute, in.comm, c.overlap, c.exposedCommFraction) -
                           compute;
    const double straggle = stragglerSeconds(m, compute, in.ranks);
    Prediction p;
    p.step = iterationSeconds(compute, in.comm, c.overlap, c.exposedCommFraction) + straggle;
    p.sync = in.sync1 * ownSlowdown + (1.0 - c.commInterference) * exposed + straggle +
             (slowdown - ownSlowdown) * (in.step1 - in.sync1);
    return p;
}

FidelityErrors errorsOf(const std::vector<const FidelityPoint *> &points)
{
    FidelityErrors e;
    e.points = int(points.size());
    std::vector<double> step, sync;
    for (const FidelityPoint *p : points) {
        step.push_back(std::fabs(p->stepError()));
        if (p->measuredSync > 0)
            sync.push_back(std::fabs(p->syncError()));
    }
    e.stepMedian = medianOf(step);
    e.stepP90 = percentileOf(step, 0.9);
    e.syncMedian = medianOf(sync);
    e.syncP90 = percentileOf(sync, 0.9);
    return e;
}

Result<FidelityModelReport> checkModel(CommOnTestbed &testbed, const FidelityModelInput &in,
                                       FidelitySplit split)
{
    FidelityModelReport report;
    report.model = in.name;
    report.parameterBytes = in.parameterBytes;
    if (in.parameterBytes <= 0)
        return Result<FidelityModelReport>::failure(in.name, "the model has no parameter bytes");

    std::vector<Measured> measured;
    StepTimeTable oneGpu;
    for (const StepTimePoint &pt : in.table.points) {
        Measured m;
        m.placement = pt.placement.empty() ? evenShape(pt.nodes, pt.replicas) : pt.placement;
        m.scalability = pt.placement.empty();
        m.localBatch = pt.localBatch;
        m.step = pt.stepSeconds;
        m.sync = pt.syncSeconds;
        if (!m.scalability && m.placement == std::vector<int>{1})
            oneGpu.points.push_back(pt);
        measured.push_back(std::move(m));
    }
    if (oneGpu.points.empty())
        return Result<FidelityModelReport>::failure(
            in.name, "no measured 1-GPU point (placement 1): no compute profile");

    // The split over the distinct measured placements.
    std::vector<std::vector<int>> shapes;
    for (const Measured &m : measured)
        if (!m.scalability)
            shapes.push_back(m.placement);
    std::sort(shapes.begin(), shapes.end(), shapeLess);
    shapes.erase(std::unique(shapes.begin(), shapes.end()), shapes.end());
    std::map<std::vector<int>, bool> trains;
    for (std::size_t i = 0; i < shapes.size(); ++i)
        trains[shapes[i]] = split == FidelitySplit::Half ? i % 2 == 0 : shapes[i].size() == 1;
    trains[{1}] = true;

    std::vector<Inputs> inputs;
    for (const Measured &m : measured) {
        Inputs x;
        const auto one = lookupStepTime(oneGpu, {1}, m.localBatch);
        x.step1 = one->stepSeconds;
        x.sync1 = one->syncSeconds;
        auto comm = testbed.seconds(m.placement, in.parameterBytes);
        if (!comm)
            return comm.problems();
        x.comm = comm.value();
        x.most = *std::max_element(m.placement.begin(), m.placement.end());
        x.least = *std::min_element(m.placement.begin(), m.placement.end());
        x.ranks = std::accumulate(m.placement.begin(), m.placement.end(), 0);
        inputs.push_back(x);
    }
    auto training = [&](std::size_t i) {
        return !measured[i].scalability && trains[measured[i].placement];
    };

    // Co-location slowdown from the training single-node multi-GPU points.
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const Measured &m = measured[i];
        if (!training(i) || m.placement.size() != 1 || m.placement[0] < 2)
            continue;
        const double c1 = inputs[i].step1 - inputs[i].sync1;
        const double x = double(m.placement[0] - 1) * c1;
        sxy += x * ((m.step - m.sync) - c1);
        sxx += x * x;
    }
    FidelityCalibration cal;
    cal.colocationSlowdown = sxx > 0 ? std::clamp(sxy / sxx, -0.5, 10.0) : 0.0;

    // Overlap and exposed fraction on a grid, cv in closed form for each pair.
    std::vector<std::size_t> fit;
    for (std::size_t i = 0; i < measured.size(); ++i)
        if (training(i) && inputs[i].ranks > 1)
            fit.push_back(i);
    double best = -1;
    for (int oi = 0; oi <= 50; ++oi) {
        for (int ei = 0; ei <= 20; ++ei) {
            FidelityCalibration c = cal;
            c.overlap = oi * 0.02;
            c.exposedCommFraction = ei * 0.05;
            c.computeCv = 0;
            double sab = 0, sbb = 0;
            for (std::size_t i : fit) {
                const double a = predict(inputs[i], c).step / measured[i].step;
                const double slowdown = 1.0 + cal.colocationSlowdown * double(inputs[i].most - 1);
                const double b = inputs[i].step1 * slowdown *
                                 expectedMaxOfNormals(inputs[i].ranks) / measured[i].step;
                sab += b * (1.0 - a);
                sbb += b * b;
            }
            c.computeCv = sbb > 0 ? std::clamp(sab / sbb, 0.0, 1.0) : 0.0;
            double sse = 0;
            for (std::size_t i : fit) {
                const double r = predict(inputs[i], c).step / measured[i].step - 1.0;
                sse += r * r;
            }
            if (best < 0 || sse < best) {
                best = sse;
                cal.overlap = c.overlap;
                cal.exposedCommFraction = c.exposedCommFraction;
                cal.computeCv = c.computeCv;
            }
        }
    }
    // The interference share (steps of 0.01, 0 to 0.95) minimising the absolute relative sync
    // error over the training points; it splits the step time, it does not change it.
    double bestSync = -1;
    for (int ii = 0; ii <= 95; ++ii) {
        FidelityCalibration c = cal;
        c.commInterference = ii * 0.01;
        double sum = 0;
        for (std::size_t i : fit)
            if (measured[i].sync > 0)
                sum += std::fabs(predict(inputs[i], c).sync / measured[i].sync - 1.0);
        if (bestSync < 0 || sum < bestSync) {
            bestSync = sum;
            cal.commInterference = c.commInterference;
        }
    }
    report.calibration = cal;

    for (std::size_t i = 0; i < measured.size(); ++i) {
        const Measured &m = measured[i];
        FidelityPoint p;
        p.placement = m.placement;
        p.localBatch = m.localBatch;
        p.training = training(i);
        p.scalability = m.scalability;
        p.measuredStep = m.step;
        p.measuredSync = m.sync;
        const Prediction pr = predict(inputs[i], cal);
        p.predictedStep = pr.step;
        p.predictedSync = pr.sync;
        p.commSeconds = inputs[i].comm;
        report.points.push_back(std::move(p));
    }
    std::vector<const FidelityPoint *> heldOut, scalability;
    for (const FidelityPoint &p : report.points) {
        if (p.training)
            ++report.trainingPoints;
        else if (p.scalability)
            scalability.push_back(&p);
        else
            heldOut.push_back(&p);
    }
    report.heldOut = errorsOf(heldOut);
    // The sync-time noise floor: each held-out point predicted by the median sync of the
    // training points measured at the same nodes, GPUs and local batch (a lookup with more
    // freedom than the model: no physics, one value per measured triple).
    {
        std::map<std::tuple<std::size_t, int, int>, std::vector<double>> trainedSync;
        for (const FidelityPoint &p : report.points)
            if (p.training && p.measuredSync > 0)
                trainedSync[{p.placement.size(),
                             std::accumulate(p.placement.begin(), p.placement.end(), 0),
                             p.localBatch}]
                    .push_back(p.measuredSync);
        std::vector<double> floorErrors, modelErrors;
        for (const FidelityPoint *p : heldOut) {
            if (!(p->measuredSync > 0))
                continue;
            auto it = trainedSync.find(
                {p->placement.size(), std::accumulate(p->placement.begin(), p->placement.end(), 0),
                 p->localBatch});
            if (it == trainedSync.end())
                continue;
            floorErrors.push_back(std::fabs(medianOf(it->second) / p->measuredSync - 1.0));
            modelErrors.push_back(std::fabs(p->predictedSync / p->measuredSync - 1.0));
        }
        report.syncFloorPoints = int(floorErrors.size());
        report.syncFloorMedian = medianOf(floorErrors);
        report.syncModelAtFloorMedian = medianOf(modelErrors);
    }
    report.scalability = errorsOf(scalability);
    for (const FidelityPoint *p : heldOut)
        if (std::fabs(p->stepError()) > std::fabs(report.worst.stepError()) ||
            report.worst.measuredStep == 0)
            report.worst = *p;
    return report;
}

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * fraction);
    return buf;
}

std::string fixed(double v, int digits)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string pad(std::string s, std::size_t width, bool right = true)
{
    if (s.size() >= width)
        return s;
    return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

nlohmann::ordered_json errorsJson(const FidelityErrors &e)
{
    nlohmann::ordered_json j;
    j["points"] = e.points;
    j["step_error_median"] = jsonNumber(e.stepMedian);
    j["step_error_p90"] = jsonNumber(e.stepP90);
    j["sync_error_median"] = jsonNumber(e.syncMedian);
    j["sync_error_p90"] = jsonNumber(e.syncP90);
    return j;
}

nlohmann::ordered_json pointJson(const FidelityPoint &p)
{
    nlohmann::ordered_json j;
    j["placement"] = placementText(p.placement);
    j["local_batch"] = p.localBatch;
    j["measured_step_s"] = jsonNumber(p.measuredStep);
    j["predicted_step_s"] = jsonNumber(p.predictedStep);
    j["measured_sync_s"] = jsonNumber(p.measuredSync);
    j["predicted_sync_s"] = jsonNumber(p.predictedSync);
    j["comm_s"] = jsonNumber(p.commSeconds);
    j["step_error"] = jsonNumber(p.stepError());
    return j;
}

} // namespace

const char *toString(FidelitySplit split)
{
    return split == FidelitySplit::Half ? "half" : "one-node";
}

double medianOf(std::vector<double> values) { return percentileOf(std::move(values), 0.5); }

double percentileOf(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double k = std::clamp(q, 0.0, 1.0) * double(values.size() - 1);
    const std::size_t lo = std::size_t(std::floor(k));
    const std::size_t hi = std::min(lo + 1, values.size() - 1);
    return values[lo] + (values[hi] - values[lo]) * (k - double(lo));
}

Result<FidelityReport> checkFidelity(const Cluster &testbed, AllReduceAlgorithm algorithm,
                                     const std::vector<FidelityModelInput> &models,
                                     FidelitySplit split)
{
    FidelityReport report;
    report.split = split;
    report.algorithm = algorithm;
    CommOnTestbed comm(testbed, algorithm);
    for (const FidelityModelInput &m : models) {
        auto r = checkModel(comm, m, split);
        if (!r)
            return r.problems();
        report.models.push_back(std::move(r.value()));
    }
    return report;
}

std::string FidelityReport::text(std::size_t width) const
{
    std::ostringstream o;
    const auto title = [&](const std::string &words) { o << wrapText(words, width) << "\n"; };
    title("Step and sync time, simulated vs measured (split " + std::string(toString(split)) +
          ", all-reduce " + toString(algorithm) +
          "; errors |predicted / measured - 1| over the held-out points)");
    o << pad("model", 12, false) << pad("train", 6) << pad("held out", 9) << pad("step median", 12)
      << pad("step p90", 10) << pad("sync median", 12) << pad("sync p90", 10) << "\n";
    for (const FidelityModelReport &m : models)
        o << pad(m.model, 12, false) << pad(std::to_string(m.trainingPoints), 6)
          << pad(std::to_string(m.heldOut.points), 9) << pad(percent(m.heldOut.stepMedian), 12)
          << pad(percent(m.heldOut.stepP90), 10) << pad(percent(m.heldOut.syncMedian), 12)
          << pad(percent(m.heldOut.syncP90), 10) << "\n";
    o << "\n";
    title("worst held-out point (step time): GPUs per node, local batch, measured and predicted");
    for (const FidelityModelReport &m : models) {
        const FidelityPoint &w = m.worst;
        o << pad(m.model, 12, false)
          << wrapText(placementText(w.placement) + " at local batch " +
                          std::to_string(w.localBatch) + ": " + fixed(w.measuredStep, 3) +
                          " s measured, " + fixed(w.predictedStep, 3) + " s predicted (" +
                          (w.stepError() >= 0 ? "+" : "") + percent(w.stepError()) + ")",
                      width, 12, std::max<std::size_t>(12, m.model.size()))
          << "\n";
    }
    o << "\n";
    title("scalability.csv (6 to 16 nodes, GPUs assumed spread evenly; all held out)");
    o << pad("model", 12, false) << pad("points", 15) << pad("step median", 12)
      << pad("step p90", 10) << pad("sync median", 12) << pad("sync p90", 10) << "\n";
    for (const FidelityModelReport &m : models)
        o << pad(m.model, 12, false) << pad(std::to_string(m.scalability.points), 15)
          << pad(percent(m.scalability.stepMedian), 12) << pad(percent(m.scalability.stepP90), 10)
          << pad(percent(m.scalability.syncMedian), 12) << pad(percent(m.scalability.syncP90), 10)
          << "\n";
    o << "\n";
    title("sync noise floor: each held-out sync predicted by the median measured sync of the "
          "training points at the same nodes, GPUs and local batch (no model), and the model's "
          "error on the same points");
    o << pad("model", 12, false) << pad("points", 7) << pad("floor median", 13)
      << pad("model median", 13) << "\n";
    for (const FidelityModelReport &m : models)
        o << pad(m.model, 12, false) << pad(std::to_string(m.syncFloorPoints), 7)
          << pad(percent(m.syncFloorMedian), 13) << pad(percent(m.syncModelAtFloorMedian), 13)
          << "\n";
    o << "\n";
    title("calibrated on the training points: the scenario schema's overlap, "
          "exposed_comm_fraction, colocation_slowdown, compute_cv and comm_interference "
          "(which only splits the measured step into compute and sync)");
    o << pad("model", 12, false) << pad("overlap", 9) << pad("exposed comm", 14)
      << pad("colocation", 12) << pad("compute cv", 12) << pad("comm interf.", 14) << "\n";
    for (const FidelityModelReport &m : models)
        o << pad(m.model, 12, false) << pad(fixed(m.calibration.overlap, 2), 9)
          << pad(fixed(m.calibration.exposedCommFraction, 2), 14)
          << pad(fixed(m.calibration.colocationSlowdown, 3), 12)
          << pad(fixed(m.calibration.computeCv, 3), 12)
          << pad(fixed(m.calibration.commInterference, 2), 14) << "\n";
    return o.str();
}

nlohmann::ordered_json FidelityReport::toJson(bool withPoints) const
{
    nlohmann::ordered_json j;
    j["split"] = toString(split);
    j["allreduce"] = toString(algorithm);
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const FidelityModelReport &m : models) {
        nlohmann::ordered_json o;
        o["model"] = m.model;
        o["parameter_bytes"] = m.parameterBytes;
        o["training_points"] = m.trainingPoints;
        o["calibration"] = {{"overlap", jsonNumber(m.calibration.overlap)},
                            {"exposed_comm_fraction", jsonNumber(m.calibration.exposedCommFraction)},
                            {"colocation_slowdown", jsonNumber(m.calibration.colocationSlowdown)},
                            {"compute_cv", jsonNumber(m.calibration.computeCv)},
                            {"comm_interference", jsonNumber(m.calibration.commInterference)}};
        o["held_out"] = errorsJson(m.heldOut);
        o["held_out"]["sync_floor_median"] = jsonNumber(m.syncFloorMedian);
        o["held_out"]["sync_floor_points"] = m.syncFloorPoints;
        o["held_out"]["sync_model_at_floor_median"] = jsonNumber(m.syncModelAtFloorMedian);
        o["worst"] = pointJson(m.worst);
        o["scalability"] = errorsJson(m.scalability);
        if (withPoints) {
            nlohmann::ordered_json pts = nlohmann::ordered_json::array();
            for (const FidelityPoint &p : m.points) {
                nlohmann::ordered_json pj = pointJson(p);
                pj["training"] = p.training;
                pj["scalability"] = p.scalability;
                pts.push_back(pj);
            }
            o["points"] = pts;
        }
        arr.push_back(o);
    }
    j["models"] = arr;
    return j;
}

std::vector<BusBandwidthPoint> ncclA100BusBandwidth(double busGBps, double stepLatencySeconds,
                                                    double baseLatencySeconds)
{
    // Bytes (nccl-tests sizes, powers of two from 1 KiB to 8 GiB) and measured bus bandwidth
    // in GB/s, from the published table.
    static const std::vector<std::pair<double, double>> kMeasured = {
        {1024, 0.04},        {2048, 0.08},        {4096, 0.17},        {8192, 0.33},
        {16384, 0.67},       {32768, 1.37},       {65536, 2.70},       {131072, 5.15},
        {262144, 10.11},     {524288, 19.24},     {1048576, 36.22},    {2097152, 53.54},
        {4194304, 71.43},    {8388608, 89.99},    {16777216, 109.22},  {33554432, 132.77},
        {67108864, 166.63},  {134217728, 174.18}, {268435456, 213.87}, {536870912, 221.58},
        {1073741824, 228.10}, {2147483648, 230.22}, {4294967296, 230.48}, {8589934592, 231.58},
    };
    std::vector<BusBandwidthPoint> out;
    const StepCost cost{stepLatencySeconds, busGBps * 1e9};
    for (const auto &[bytes, gbps] : kMeasured) {
        const double t = baseLatencySeconds + ringAllReduceSeconds(8, bytes, cost);
        out.push_back({bytes, gbps, busBandwidthFactor(Collective::AllReduce, 8) * bytes / t / 1e9});
    }
    return out;
}

} // namespace cb
