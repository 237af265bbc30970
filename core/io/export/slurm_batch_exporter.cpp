#include "io/export/slurm_batch_exporter.h"

#include "io/export/kubernetes_names.h"
#include "io/export/kubernetes_objects.h"
#include "io/export/placed_job.h"
#include "io/export/shell_text.h"
#include "io/export/slurm_names.h"
#include "io/export/slurm_topology.h"
#include "io/import/imported_gpu_types.h"
#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

namespace cb {

namespace {

long long taskCpus(const PlacedTask &t)
{
    return std::max(1LL, (long long)std::ceil(t.cpus - 1e-9));
}
long long taskMemMb(const PlacedTask &t)
{
    return std::max(1LL, (long long)std::ceil(t.memoryGiB * 1024.0 - 1e-6));
}
long long nodeCpus(const Node &n)
{
    return std::max(1LL, (long long)std::floor(n.cpus + 1e-9));
}
long long nodeMemMb(const Node &n)
{
    return std::max(1LL, (long long)std::floor(n.memoryGiB * 1024.0 + 1e-6));
}

/// One allocation component: the same request on each of its nodes.
struct Component
{
    std::vector<std::string> nodes;
    long long tasks = 0;        ///< --ntasks
    long long tasksPerNode = 1; ///< --ntasks-per-node
    long long cpusPerTask = 1;
    long long memMbPerNode = 1;
    int gpusPerNode = 0;
    std::string gresType; ///< empty: untyped gpu
    bool exact = true;    ///< false: some node gets more than its tasks need
};

struct NodeNeed
{
    long long cpus = 0;
    long long memMb = 0;
    int gpus = 0;
    int tasks = 0;
};

/// Builds one component over `tasks`, or several (one per node) when the uniform share does
/// not fit every node.
std::vector<Component> components(const Scenario &scenario,
                                  const std::vector<const PlacedTask *> &tasks)
{
    std::vector<std::string> nodes;
    std::map<std::string, NodeNeed> need;
    std::set<std::tuple<long long, long long, int>> shapes;
    for (const PlacedTask *t : tasks) {
        if (std::find(nodes.begin(), nodes.end(), t->node) == nodes.end())
            nodes.push_back(t->node);
        NodeNeed &n = need[t->node];
        n.cpus += taskCpus(*t);
        n.memMb += taskMemMb(*t);
        n.gpus += t->gpus;
        n.tasks += 1;
        shapes.insert({taskCpus(*t), taskMemMb(*t), t->gpus});
    }
    std::sort(nodes.begin(), nodes.end());
    std::set<std::string> types;
    for (const std::string &n : nodes)
        if (need[n].gpus > 0)
            types.insert(SlurmNames::gpuType(scenario.cluster.node(n)->gpuType));

    Component c;
    c.nodes = nodes;
    c.gresType = types.size() == 1 ? *types.begin() : std::string();
    std::set<int> perNode;
    for (const std::string &n : nodes)
        perNode.insert(need[n].tasks);
    if (shapes.size() == 1 && perNode.size() == 1) {
        const auto &[cpus, mem, gpus] = *shapes.begin();
        c.tasksPerNode = *perNode.begin();
        c.tasks = c.tasksPerNode * (long long)nodes.size();
        c.cpusPerTask = cpus;
        c.memMbPerNode = mem * c.tasksPerNode;
        c.gpusPerNode = gpus * int(c.tasksPerNode);
        return {c};
    }
    c.tasksPerNode = 1;
    c.tasks = (long long)nodes.size();
    for (const std::string &n : nodes) {
        c.cpusPerTask = std::max(c.cpusPerTask, need[n].cpus);
        c.memMbPerNode = std::max(c.memMbPerNode, need[n].memMb);
        c.gpusPerNode = std::max(c.gpusPerNode, need[n].gpus);
    }
    bool fits = true;
    for (const std::string &n : nodes) {
        const Node *node = scenario.cluster.node(n);
        fits = fits && c.cpusPerTask <= nodeCpus(*node) && c.memMbPerNode <= nodeMemMb(*node) &&
               c.gpusPerNode <= node->gpus;
        c.exact = c.exact && need[n].cpus == c.cpusPerTask && need[n].memMb == c.memMbPerNode &&
                  need[n].gpus == c.gpusPerNode;
    }
    if (fits || nodes.size() == 1)
        return {c};
    std::vector<Component> split;
    for (const std::string &n : nodes) {
        std::vector<const PlacedTask *> onNode;
        for (const PlacedTask *t : tasks)
            if (t->node == n)
                onNode.push_back(t);
        for (Component &part : components(scenario, onNode))
            split.push_back(std::move(part));
    }
    return split;
}

std::string gres(const std::string &type, int count)
{
    return "gpu:" + (type.empty() ? std::string() : type + ":") + std::to_string(count);
}

/// Leaf switches of `nodes` (0 when there is one node, or some node hangs off no switch or
/// off several leaves, as in rail-optimised designs, where Slurm's count is not ours).
int leafSwitches(const SlurmTree &tree, const std::vector<std::string> &nodes)
{
    if (nodes.size() < 2)
        return 0;
    std::set<std::string> leaves;
    for (const std::string &n : nodes) {
        auto it = tree.leafOf.find(n);
        if (it == tree.leafOf.end() || tree.multiHomed.count(n))
            return 0;
        leaves.insert(it->second);
    }
    return int(leaves.size());
}

/// The largest segment size that splits `nodes` into whole segments each inside one block,
/// when it says more than "one node" and fits a base block; else 0. Also the per-block
/// counts for the comment ("2 in r1, 2 in r2").
int segmentSize(const SlurmBlocks &blocks, const std::vector<std::string> &nodes,
                std::string &perBlock)
{
    if (nodes.size() < 2)
        return 0;
    std::map<std::string, int> count;
    for (const std::string &n : nodes)
        ++count[blocks.blockOf.at(n)];
    int g = 0;
    for (const auto &[b, k] : count) {
        g = std::gcd(g, k);
        perBlock += (perBlock.empty() ? "" : ", ") + std::to_string(k) + " in " + b;
    }
    return g > 1 && g <= blocks.baseBlockSize ? g : 0;
}

std::string script(const Scenario &scenario, const PlacedJob &job, const std::string &name,
                   const SlurmTree &tree, const SlurmBlocks *blocks, SharedWarnings &shared)
{
    const Job &j = *job.job;
    // Component groups: PS tasks apart from the rest when their node sets are disjoint.
    std::vector<std::vector<const PlacedTask *>> groups;
    if (j.kind == JobKind::ParameterServer) {
        std::vector<const PlacedTask *> ps, rest;
        std::set<std::string> psNodes, restNodes;
        for (const PlacedTask &t : job.tasks) {
            (t.role == TaskRole::Ps ? ps : rest).push_back(&t);
            (t.role == TaskRole::Ps ? psNodes : restNodes).insert(t.node);
        }
        bool disjoint = !ps.empty() && !rest.empty();
        for (const std::string &n : psNodes)
            disjoint = disjoint && !restNodes.count(n);
        if (disjoint)
            groups = {ps, rest};
    }
    if (groups.empty()) {
        groups.emplace_back();
        for (const PlacedTask &t : job.tasks)
            groups.back().push_back(&t);
    }
    std::vector<Component> comps;
    for (const auto &g : groups)
        for (Component &c : components(scenario, g))
            comps.push_back(std::move(c));
    for (const Component &c : comps)
        if (!c.exact) {
            const std::string share = counted(c.cpusPerTask, "CPU") + ", " +
                                      std::to_string(c.memMbPerNode) + " MB, " +
                                      counted(c.gpusPerNode, "GPU");
            const std::string why = " because Slurm requests the same on each node of a "
                                    "component; the job steps still place every task exactly";
            shared.add("slurm: {n} allocations ask every node for the largest node's share" + why,
                       "slurm: job \"" + j.id + "\": the allocation on nodes " +
                           SlurmNames::hostlist(c.nodes) +
                           " asks every node for the largest node's share (" + share + ")" + why,
                       "\"" + j.id + "\" on " + SlurmNames::hostlist(c.nodes) + " (" + share + ")");
        }
    std::vector<std::string> command = j.command;
    if (command.empty())
        command = {"hostname"}; // (said once for every such job: see exportPlacement)

    // Common partition of all nodes, if any.
    std::string partition;
    bool samePartition = true;
    for (const PlacedTask &t : job.tasks) {
        const std::string &p = scenario.cluster.node(t.node)->partition;
        if (&t == &job.tasks.front())
            partition = p;
        samePartition = samePartition && p == partition;
    }
    if (!samePartition || !SlurmNames::isValidName(partition))
        partition.clear();

    std::ostringstream s;
    s << "#!/bin/bash\n";
    s << "# Generated by ClusterBench (format slurm). Do not edit the #SBATCH lines by hand:\n";
    s << "# they reserve what the job steps below need on each node.\n";
    s << "# Job: " << ShellText::comment(j.id) << " (" << toString(j.kind) << ", "
      << counted(job.tasks.size(), "task") << ")\n";
    if (!j.image.empty())
        s << "# Image: " << ShellText::comment(j.image)
          << "\n# (not used: srun runs the command on the node itself; with the pyxis plugin,\n"
          << "# add --container-image to each srun line to run it in the image)\n";
    s << "# Placement:\n";
    for (const PlacedTask &t : job.tasks) {
        s << "#   " << t.taskName() << " on " << t.node << ": " << taskCpus(t) << " CPUs, "
          << taskMemMb(t) << " MB";
        if (t.gpus > 0) {
            s << ", " << t.gpus << " GPU" << (t.gpus == 1 ? "" : "s");
            if (!t.gpuIndices.empty()) {
                s << " (modelled slots";
                for (int g : t.gpuIndices)
                    s << " " << g;
                s << "; Slurm picks the devices)";
            }
        }
        s << "\n";
    }
    s << "#SBATCH --job-name=" << name << "\n";
    s << "#SBATCH --output=" << name << "-%j.out\n";
    for (std::size_t i = 0; i < comps.size(); ++i) {
        const Component &c = comps[i];
        if (i > 0)
            s << "#SBATCH hetjob\n";
        if (!partition.empty())
            s << "#SBATCH --partition=" << partition << "\n";
        s << "#SBATCH --nodelist=" << SlurmNames::hostlist(c.nodes) << "\n";
        s << "#SBATCH --nodes=" << c.nodes.size() << "\n";
        s << "#SBATCH --ntasks=" << c.tasks << "\n";
        s << "#SBATCH --ntasks-per-node=" << c.tasksPerNode << "\n";
        s << "#SBATCH --cpus-per-task=" << c.cpusPerTask << "\n";
        s << "#SBATCH --mem=" << c.memMbPerNode << "M\n";
        if (c.gpusPerNode > 0)
            s << "#SBATCH --gres=" << gres(c.gresType, c.gpusPerNode) << "\n";
        if (j.timeLimitSeconds)
            s << "#SBATCH --time=" << SlurmNames::timeText(*j.timeLimitSeconds) << "\n";
        if (!j.account.empty())
            s << "#SBATCH --account=" << j.account << "\n";
        if (const int k = leafSwitches(tree, c.nodes); k > 0) {
            s << "# Its " << c.nodes.size() << " nodes sit under " << k << " leaf switch"
              << (k == 1 ? "" : "es") << " (topology/tree):\n";
            s << "#SBATCH --switches=" << k << "\n";
        }
        if (blocks) {
            std::string perBlock;
            if (const int seg = segmentSize(*blocks, c.nodes, perBlock); seg > 0) {
                s << "# Blocks: " << perBlock << "; segments of " << seg
                  << " nodes, each inside one block (topology/block; Slurm 22.05 has no --segment).\n";
                s << "#SBATCH --segment=" << seg << "\n";
            }
        }
    }
    s << "\nset -u\n";
    s << "export CLUSTERBENCH_JOB_ID=" << ShellText::quote(j.id) << "\n";
    s << "pids=()\n";

    // Tasks sharing a node listen on consecutive ports from 2222.
    auto address = [](const PlacedTask &t) { return t.node; };
    auto tfPort = [&job](const PlacedTask &t) {
        int slot = 0;
        for (const PlacedTask &o : job.tasks) {
            if (&o == &t)
                break;
            slot += o.node == t.node ? 1 : 0;
        }
        return KubernetesObjects::kTfPort + slot;
    };
    for (const PlacedTask &t : job.tasks) {
        std::size_t comp = 0;
        for (std::size_t i = 0; i < comps.size(); ++i)
            if (std::find(comps[i].nodes.begin(), comps[i].nodes.end(), t.node) !=
                comps[i].nodes.end()) {
                comp = i;
                break;
            }
        s << "\n# " << t.taskName() << "\n";
        for (const auto &[k, v] : KubernetesObjects::trainingEnv(job, t, address, tfPort))
            s << k << "=" << ShellText::quote(v) << " \\\n";
        s << "srun";
        if (comps.size() > 1)
            s << " --het-group=" << comp;
        s << " --nodelist=" << ShellText::quote(t.node) << " --nodes=1 --ntasks=1"
          << " --cpus-per-task=" << taskCpus(t) << " --mem=" << taskMemMb(t) << "M";
        if (t.gpus > 0)
            s << " --gres=" << gres(SlurmNames::gpuType(t.gpuType), t.gpus);
        s << " --exact --job-name=" << name << "-" << t.taskName() << " \\\n";
        s << "    -- " << ShellText::quoteAll(command) << " &\n";
        s << "pids+=(\"$!\")\n";
    }
    s << "\nstatus=0\n";
    s << "for pid in \"${pids[@]}\"; do\n";
    s << "    wait \"$pid\" || status=1\n";
    s << "done\n";
    s << "exit \"$status\"\n";
    return s.str();
}

} // namespace

std::string SlurmBatchExporter::description() const
{
    return "Slurm batch script per job (heterogeneous job for PS on disjoint nodes)";
}

Result<ExportResult> SlurmBatchExporter::exportPlacement(const Scenario &scenario,
                                                         const Placement &placement,
                                                         const ExportOptions &options) const
{
    if (Status s = SlurmNames::checkCluster(scenario.cluster, false); !s)
        return s.problems();
    auto resolved = resolvePlacement(scenario, placement);
    if (!resolved)
        return resolved.problems();
    std::vector<std::string> ids;
    for (const PlacedJob &j : resolved.value())
        ids.push_back(j.job->id);
    const std::vector<std::string> names = SlurmNames::jobNames(ids);
    ExportResult result;
    const SlurmTree tree = SlurmTopology::tree(scenario.cluster);
    std::optional<SlurmBlocks> blocks;
    if (options.slurmBlocks) {
        auto b = SlurmTopology::blocks(scenario.cluster);
        if (!b)
            return b.problems();
        blocks = std::move(b.value());
    }
    SharedWarnings shared;
    for (std::size_t i = 0; i < resolved->size(); ++i)
        result.files.push_back(
            {names[i] + ".sbatch", script(scenario, resolved.value()[i], names[i], tree,
                                          blocks ? &*blocks : nullptr, shared)});
    for (std::string &w : shared.said())
        result.warnings.push_back(std::move(w));
    std::vector<std::string> noCommand;
    std::vector<const Job *> jobs;
    for (const PlacedJob &j : resolved.value()) {
        if (j.job->command.empty())
            noCommand.push_back(j.job->id);
        jobs.push_back(j.job);
    }
    if (std::string w = shellOperatorWarning(jobs, "slurm"); !w.empty())
        result.warnings.push_back(std::move(w));
    if (std::string w = torchrunWarning(resolved.value(), "slurm"); !w.empty())
        result.warnings.push_back(std::move(w));
    std::vector<std::string> images;
    for (const Job *job : jobs)
        if (!job->image.empty() &&
            std::find(images.begin(), images.end(), "\"" + job->image + "\"") == images.end())
            images.push_back("\"" + job->image + "\"");
    if (!images.empty())
        result.warnings.push_back(
            "slurm: the scripts run each command on the node itself, without the jobs' image" +
            std::string(images.size() == 1 ? " " : "s ") + namedList(images) +
            " (Slurm has no container option of its own; with the pyxis plugin, add "
            "--container-image to the srun lines)");
    if (std::string w = jobsWarning(noCommand, "has no command; each task runs 'hostname'",
                                    "have no command; each task runs 'hostname'");
        !w.empty())
        result.warnings.push_back("slurm: " + w);
    std::set<std::string> gpuNodes;
    for (const PlacedJob &j : resolved.value())
        for (const PlacedTask &t : j.tasks)
            if (t.gpus > 0)
                gpuNodes.insert(t.node);
    if (const auto untyped = SlurmNames::untypedGpuNodes(scenario.cluster, &gpuNodes);
        !untyped.empty())
        result.warnings.push_back(
            "slurm: the GPUs of " + SlurmNames::hostlist(untyped) + " have no model (\"" +
            kUnknownGpuType +
            "\": the cluster was imported without one), so the scripts ask for GPUs of any "
            "type there (--gres=gpu:N); set the nodes' GPU type to ask for a model");
    if (std::string w = fractionalGpuWarning(resolved.value(), name(), "Slurm's gres/gpu");
        !w.empty())
        result.warnings.push_back(std::move(w));
    if (std::string w = jobsWarning(placement.waiting, "is waiting (not placed); not exported",
                                    "are waiting (not placed); not exported");
        !w.empty())
        result.warnings.push_back(std::move(w));
    return result;
}

} // namespace cb
