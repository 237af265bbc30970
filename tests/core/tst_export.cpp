// Exporters without external tools: names, quoting, YAML text, placement files, the exact
// shape of every format on the fixture (golden files in tests/data/export/expected), the
// warnings of formats that cannot pin per task, and determinism.
// Set CB_UPDATE_GOLDEN=1 to rewrite the golden files after a reviewed change.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/export/kubernetes_names.h"
#include "io/export/kubernetes_objects.h"
#include "io/export/placed_job.h"
#include "io/export/placement_json.h"
#include "io/export/shell_text.h"
#include "io/export/slurm_names.h"
#include "io/export/yaml_text.h"
#include "io/file_io.h"
#include "io/import/imported_gpu_types.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <set>

using namespace cb;

namespace {

std::string join(const std::vector<std::string> &v, const std::string &sep = "\n")
{
    std::string s;
    for (const std::string &x : v)
        s += (s.empty() ? "" : sep) + x;
    return s;
}

const ExportedFile *fileNamed(const ExportResult &r, const std::string &path)
{
    for (const ExportedFile &f : r.files)
        if (f.path == path)
            return &f;
    return nullptr;
}

ExportResult exportFixture(const std::string &format, ExportOptions options = {})
{
    const Exporter *e = ExporterRegistry::find(format);
    if (!e)
        return {};
    auto r = e->exportPlacement(cbtest::exportScenario(), cbtest::exportPlacement(), options);
    if (!r)
        qWarning("%s", r.error().c_str());
    return r ? r.value() : ExportResult{};
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT

private slots:
    void registryListsEveryFormat()
    {
        std::vector<std::string> names;
        for (const Exporter *e : ExporterRegistry::all())
            names.push_back(e->name());
        QCOMPARE(join(names, ","),
                 std::string("k8s-pods,tfjob,pytorchjob,mpijob,volcano,slurm,slurm-cluster,k8s-nodes,"
                             "volcano-hypernodes,jobset,kueue"));
        QVERIFY(!ExporterRegistry::find("k8s-nodes")->needsPlacement());
        QVERIFY(ExporterRegistry::find("nope") == nullptr);
        QVERIFY(!ExporterRegistry::find("slurm-cluster")->needsPlacement());
    }

    void jobNames_data()
    {
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("valid kept") << QStringList{"train-1"} << QStringList{"train-1"};
        QTest::newRow("upper and underscore")
            << QStringList{"Job_1"} << QStringList{"job-1-4b83f8"};
        QTest::newRow("leading digit") << QStringList{"42"} << QStringList{"job-42-e38583"};
        QTest::newRow("empty") << QStringList{""} << QStringList{"job-1c9dc5"};
        QTest::newRow("a_b and a-b stay apart")
            << QStringList{"a-b", "a_b"} << QStringList{"a-b", "a-b-a46871"};
        QTest::newRow("duplicates numbered") << QStringList{"x", "x"} << QStringList{"x", "x-2"};
        QTest::newRow("hostile") << QStringList{"x'; rm -rf ~ #"} << QStringList{"x-rm-rf-23fbee"};
        QTest::newRow("long cut to 40")
            << QStringList{QString(50, 'a')} << QStringList{QString(33, 'a') + "-394ba7"};
    }
    void jobNames()
    {
        QFETCH(QStringList, ids);
        QFETCH(QStringList, expected);
        std::vector<std::string> in;
        for (const QString &s : ids)
            in.push_back(s.toStdString());
        const auto out = KubernetesNames::jobNames(in);
        QStringList got;
        for (const std::string &s : out) {
            got << QString::fromStdString(s);
            QVERIFY2(KubernetesNames::isDns1035Label(s), s.c_str());
            QVERIFY(s.size() <= KubernetesNames::kMaxJobNameLength);
        }
        QCOMPARE(got, expected);
    }

    void quantities()
    {
        QCOMPARE(KubernetesObjects::cpuQuantity(4), std::string("4"));
        QCOMPARE(KubernetesObjects::cpuQuantity(0.5), std::string("500m"));
        QCOMPARE(KubernetesObjects::cpuQuantity(1.0001), std::string("1001m"));
        QCOMPARE(KubernetesObjects::memoryQuantity(16), std::string("16Gi"));
        QCOMPARE(KubernetesObjects::memoryQuantity(1.5), std::string("1536Mi"));
    }

    void hostlist_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("expected");
        QTest::newRow("one") << QStringList{"gpu-01"} << "gpu-01";
        QTest::newRow("range") << QStringList{"n3", "n1", "n2"} << "n[1-3]";
        QTest::newRow("gap") << QStringList{"node-01", "node-02", "node-04"} << "node-[01-02,04]";
        QTest::newRow("widths differ") << QStringList{"n1", "n01"} << "n1,n01";
        QTest::newRow("plain and dup") << QStringList{"b", "a", "a"} << "a,b";
        QTest::newRow("digits only") << QStringList{"12", "13"} << "12,13";
    }
    void hostlist()
    {
        QFETCH(QStringList, names);
        QFETCH(QString, expected);
        std::vector<std::string> in;
        for (const QString &s : names)
            in.push_back(s.toStdString());
        QCOMPARE(QString::fromStdString(SlurmNames::hostlist(in)), expected);
    }

    void shellQuote()
    {
        QCOMPARE(ShellText::quote("a b"), std::string("'a b'"));
        QCOMPARE(ShellText::quote("it's"), std::string("'it'\\''s'"));
        QCOMPARE(ShellText::quote(""), std::string("''"));
        QCOMPARE(ShellText::comment("a\nb\rc"), std::string("a?b?c"));
    }

    void yamlStringsReadBack_data()
    {
        QTest::addColumn<QString>("value");
        for (const char *v : {"yes",
                              "no",
                              "on",
                              "off",
                              "y",
                              "true",
                              "null",
                              "~",
                              "*a",
                              "&a",
                              ": x",
                              "a: b",
                              "#",
                              "# c",
                              "-",
                              "- x",
                              "1e3",
                              "0x1F",
                              "012",
                              "'q'",
                              "\"dq\"",
                              "{a: 1}",
                              "[x]",
                              "!tag",
                              "%x",
                              "@x",
                              "`x`",
                              "|",
                              ">",
                              "  lead",
                              "trail  ",
                              "tab\there",
                              "line1\nline2",
                              "x'; rm -rf ~ #",
                              "$(touch /tmp/pwned)",
                              "é ü 中",
                              ""})
            QTest::newRow(QString::fromUtf8(v).replace('\n', "\\n").toUtf8().constData())
                << QString::fromUtf8(v);
    }
    void yamlStringsReadBack()
    {
        QFETCH(QString, value);
        const std::string v = value.toStdString();
        nlohmann::ordered_json doc = {{"k", v}, {"list", {v}}};
        doc[v.empty() ? std::string("empty") : v] = 1;
        const std::string text = YamlText::document(doc);
        const YAML::Node back = YAML::Load(text);
        QCOMPARE(back["k"].as<std::string>(), v);
        QCOMPARE(back["list"][0].as<std::string>(), v);
        QVERIFY2(back[v.empty() ? std::string("empty") : v].IsDefined(), text.c_str());
        QCOMPARE(back[v.empty() ? std::string("empty") : v].as<int>(), 1);
    }

    // A placement whose jobs, all started at once, ask a node for more than it has.
    void nodeOverloads()
    {
        const cb::Scenario s = cbtest::exportScenario();
        QCOMPARE(cb::nodeOverloads(s, cbtest::exportPlacement()).size(), std::size_t(0));

        const cb::Problems over = cb::nodeOverloads(s, cbtest::overloadedPlacement());
        QCOMPARE(over.size(), std::size_t(2));
        QCOMPARE(over[0].where, std::string("/jobs/1/tasks/0/node"));
        QCOMPARE(over[0].message, std::string("node \"gpu-01\" has 32 CPUs; with job ring "
                                              "worker-0 the placement's jobs ask it for 40 at "
                                              "once"));
        QCOMPARE(over[1].where, std::string("/jobs/1/tasks/1/node"));
        QCOMPARE(over[1].message, std::string("node \"gpu-01\" has 8 GPUs; with job ring "
                                              "worker-1 the placement's jobs ask it for 10 at "
                                              "once"));

        // One GPU index given twice: ring's worker-0 on tf-disjoint worker-0's GPUs 0 and 1.
        cb::Placement twice = cbtest::exportPlacement();
        twice.jobs[2].tasks[0].gpuIndices = {1, 0};
        const cb::Problems twiceProblems = cb::nodeOverloads(s, twice);
        QCOMPARE(twiceProblems.size(), std::size_t(2));
        QCOMPARE(twiceProblems[0].where, std::string("/jobs/2/tasks/0/gpus"));
        QCOMPARE(twiceProblems[0].message,
                 std::string("GPU 1 of node \"gpu-01\" is given to job ring "
                             "worker-0 and already to job tf-disjoint "
                             "worker-0"));
        QCOMPARE(twiceProblems[1].message.substr(0, 22), std::string("GPU 0 of node \"gpu-01\""));

        // Halves of one GPU share it; a third half does not fit.
        cb::Scenario halves = s;
        for (cb::TaskGroup &g : halves.jobs[2].tasks)
            g.gpus = 1, g.gpuFraction = 0.5;
        cb::Placement shared = cbtest::exportPlacement();
        shared.jobs[2].tasks[0].gpuIndices = {5};
        shared.jobs[2].tasks[1].node = "gpu-01";
        shared.jobs[2].tasks[1].gpuIndices = {5};
        QCOMPARE(cb::nodeOverloads(halves, shared).size(), std::size_t(0));
        // tf-shared's worker-0 (placed before ring) takes GPU 5 whole: the first half over.
        shared.jobs[1].tasks[2].node = "gpu-01";
        shared.jobs[1].tasks[2].gpuIndices = {5, 6};
        const cb::Problems third = cb::nodeOverloads(halves, shared);
        QCOMPARE(third.size(), std::size_t(1));
        QCOMPARE(third[0].where, std::string("/jobs/2/tasks/0/gpus"));
        QCOMPARE(third[0].message, std::string("GPU 5 of node \"gpu-01\" is given to job ring "
                                               "worker-0 and already to job tf-shared "
                                               "worker-0"));
    }

    void placementJsonRoundTrip()
    {
        const Scenario s = cbtest::exportScenario();
        const Placement p = cbtest::exportPlacement();
        const std::string text = PlacementJson::toJson(p).dump(2);
        auto back = PlacementJson::fromText(text, s);
        QVERIFY2(back.ok(), back.error().c_str());
        QVERIFY(back.value() == p);
        // "group" is optional: it follows from the role index.
        auto noGroup = PlacementJson::fromText(
            R"({"format":"clusterbench-placement","version":1,"jobs":[{"job":"tf-disjoint",
            "tasks":[{"role":"ps","index":0,"node":"cpu-01"},
                     {"role":"worker","index":1,"node":"gpu-02"},
                     {"role":"worker","index":0,"node":"gpu-01"}]}]})",
            s);
        QVERIFY2(noGroup.ok(), noGroup.error().c_str());
        QCOMPARE(noGroup->jobs[0].tasks[1].group, 1);
        QCOMPARE(noGroup->jobs[0].tasks[0].group, 0);
    }

    void placementJsonProblems_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        const QString head = R"({"format":"clusterbench-placement","version":1,"jobs":)";
        QTest::newRow("syntax") << "{"
                                << "line 1";
        QTest::newRow("format") << R"({"format":"x","version":1,"jobs":[]})"
                                << "/format: expected \"clusterbench-placement\"";
        QTest::newRow("unknown job") << head + R"([{"job":"nope","tasks":[]}]})"
                                     << "/jobs/0/job: job \"nope\"";
        QTest::newRow("bad role")
            << head + R"([{"job":"solo","tasks":[{"role":"boss","index":0,"node":"gpu-01"}]}]})"
            << "/jobs/0/tasks/0/role: expected ps, worker";
        QTest::newRow("no such index")
            << head + R"([{"job":"solo","tasks":[{"role":"single","index":3,"node":"a"}]}]})"
            << "/jobs/0/tasks/0/index: job \"solo\" has no single task with index 3";
        QTest::newRow("unknown field") << head + R"([{"job":"solo","tasks":[],"when":1}]})"
                                       << "/jobs/0/when: unknown field";
        QTest::newRow("bad gpu")
            << head + R"([{"job":"solo","tasks":[{"role":"single","index":0,"node":"gpu-01",
                "gpus":["x"]}]}]})"
            << "/jobs/0/tasks/0/gpus/0: expected a GPU index";
    }
    void placementJsonProblems()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto r = PlacementJson::fromText(text.toStdString(), cbtest::exportScenario());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find(expected.toStdString()) != std::string::npos, r.error().c_str());
    }

    void resolveProblems_data()
    {
        QTest::addColumn<int>("mutation");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown node") << 0 << "/jobs/0/tasks/1/node: node \"gpu-99\"";
        QTest::newRow("task missing") << 1 << "/jobs/0/tasks: job \"tf-disjoint\" has 3 tasks";
        QTest::newRow("placed twice")
            << 2 << "/jobs/0/tasks/2/index: task worker-0 is placed twice";
        QTest::newRow("role mismatch") << 3 << "/jobs/0/tasks/0/role: expected role \"ps\"";
        QTest::newRow("too many GPUs") << 4 << "/jobs/0/tasks/1/node: task needs 2 GPUs";
        QTest::newRow("job twice") << 5 << "/jobs/4/job: job \"tf-disjoint\" is placed twice";
    }
    void resolveProblems()
    {
        QFETCH(int, mutation);
        QFETCH(QString, expected);
        Placement p = cbtest::exportPlacement();
        auto &t = p.jobs[0].tasks;
        switch (mutation) {
        case 0:
            t[1].node = "gpu-99";
            break;
        case 1:
            t.pop_back();
            break;
        case 2:
            t[2].indexInRole = 0;
            break;
        case 3:
            t[0].role = TaskRole::Worker;
            break;
        case 4:
            t[1].node = "cpu-01";
            break;
        case 5:
            p.jobs.push_back(p.jobs[0]);
            break;
        }
        auto r = resolvePlacement(cbtest::exportScenario(), p);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find(expected.toStdString()) != std::string::npos, r.error().c_str());
        // Every exporter that needs a placement refuses it the same way.
        for (const Exporter *e : ExporterRegistry::all())
            if (e->needsPlacement())
                QVERIFY(!e->exportPlacement(cbtest::exportScenario(), p, {}).ok());
    }

    void golden_data()
    {
        QTest::addColumn<QString>("format");
        for (const Exporter *e : ExporterRegistry::all())
            QTest::newRow(e->name().c_str()) << QString::fromStdString(e->name());
        QTest::newRow("k8s-pods-affinity") << "k8s-pods-affinity";
        QTest::newRow("slurm-cluster-blocks") << "slurm-cluster-blocks";
    }
    void golden()
    {
        QFETCH(QString, format);
        std::string name = format.toStdString();
        ExportOptions options;
        if (name == "k8s-pods-affinity") {
            options.pinning = ExportOptions::Pinning::NodeAffinity;
            options.kubernetesNamespace = "training";
            name = "k8s-pods";
        }
        if (name == "slurm-cluster-blocks") {
            options.slurmBlocks = true;
            name = "slurm-cluster";
        }
        const ExportResult r = exportFixture(name, options);
        QVERIFY(!r.files.empty());
        namespace fs = std::filesystem;
        const fs::path dir = fs::path(CB_TEST_DATA) / "export" / "expected" / format.toStdString();
        ExportResult withWarnings = r;
        withWarnings.files.push_back({"WARNINGS.txt", join(r.warnings) + "\n"});
        if (std::getenv("CB_UPDATE_GOLDEN")) {
            fs::remove_all(dir);
            QVERIFY(ExportWriter::write(dir.string(), withWarnings).ok());
        }
        std::set<std::string> expectedFiles;
        for (const auto &entry : fs::directory_iterator(dir))
            expectedFiles.insert(entry.path().filename().string());
        std::set<std::string> gotFiles;
        for (const ExportedFile &f : withWarnings.files) {
            gotFiles.insert(f.path);
            auto expected = readTextFile((dir / f.path).string());
            QVERIFY2(expected.ok(), expected.error().c_str());
            QCOMPARE(f.content, expected.value());
        }
        QVERIFY(gotFiles == expectedFiles);
    }

    void deterministic()
    {
        for (const Exporter *e : ExporterRegistry::all()) {
            const ExportResult a = exportFixture(e->name());
            const ExportResult b = exportFixture(e->name());
            QVERIFY(a.files == b.files);
            QVERIFY(a.warnings == b.warnings);
        }
    }

    // A job without a command: every Kubernetes format says its containers run the image's
    // own (once per job), Slurm that each task runs hostname; jobs with one say nothing.
    void jobWithoutCommandIsSaid()
    {
        Scenario s = cbtest::exportScenario();
        s.jobs[0].command.clear();
        s.jobs[0].image = "example/train:1";
        for (const Exporter *e : ExporterRegistry::all()) {
            if (!e->needsPlacement())
                continue;
            auto r = e->exportPlacement(s, cbtest::exportPlacement(), {});
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            const bool slurm = e->name() == "slurm";
            const std::string said =
                slurm ? "job \"" + s.jobs[0].id + "\" has no command; each task runs 'hostname'"
                      : "job \"" + s.jobs[0].id +
                            "\" has no command; its containers run the image's own "
                            "(example/train:1)";
            int found = 0, others = 0;
            for (const std::string &w : r->warnings) {
                found += w.find(said) != std::string::npos ? 1 : 0;
                others += w.find("has no command") != std::string::npos &&
                                  w.find(said) == std::string::npos
                              ? 1
                              : 0;
            }
            QVERIFY2(found == 1, e->name().c_str());
            QCOMPARE(others, 0);
        }
    }

    // A shell operator as a word of its own reaches the program as an argument: every job
    // format says so once; the same line under /bin/sh -c is deployed as that shell's
    // command, and nothing is said.
    void shellOperatorInACommandIsSaid()
    {
        Scenario s = cbtest::exportScenario();
        s.jobs[0].command = {"python", "t.py", "&&", "echo", "done"};
        const std::string said = "job \"" + s.jobs[0].id +
                                 "\"'s command has \"&&\" as a word of "
                                 "its own; no shell runs a job's command";
        Scenario shell = s;
        shell.jobs[0].command = {"/bin/sh", "-c", "python t.py && echo 'done'"};
        int formats = 0;
        for (const Exporter *e : ExporterRegistry::all()) {
            if (!e->needsPlacement())
                continue;
            ++formats;
            auto r = e->exportPlacement(s, cbtest::exportPlacement(), {});
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            int found = 0;
            for (const std::string &w : r->warnings)
                found += w.rfind(e->name() + ": " + said, 0) == 0 ? 1 : 0;
            QVERIFY2(found == 1, e->name().c_str());
            auto ok = e->exportPlacement(shell, cbtest::exportPlacement(), {});
            QVERIFY2(ok.ok(), ok.ok() ? "" : ok.error().c_str());
            std::string all;
            for (const std::string &w : ok->warnings)
                all += w + "\n";
            QVERIFY2(all.find("as a word of its own") == std::string::npos, all.c_str());
            // The line reaches the container or the job step whole, quoted for its format.
            std::string files;
            for (const ExportedFile &f : ok->files)
                files += f.content;
            const std::string expected = e->name() == "slurm"
                                             ? "'/bin/sh' '-c' 'python t.py && echo '\\''done'\\'''"
                                             : "\"python t.py && echo 'done'\"";
            QVERIFY2(files.find(expected) != std::string::npos, e->name().c_str());
        }
        QVERIFY(formats >= 8);
    }

    void torchrunIsSetUpAndItsFlagsChecked()
    {
        Scenario s = cbtest::exportScenario();
        Job *ring = nullptr;
        for (Job &j : s.jobs)
            if (j.id == "ring")
                ring = &j;
        QVERIFY(ring);
        const auto warningsOf = [&](const std::string &format) {
            auto r =
                ExporterRegistry::find(format)->exportPlacement(s, cbtest::exportPlacement(), {});
            std::string all;
            for (const std::string &w : r->warnings)
                all += w + "\n";
            return all;
        };
        // Flags that disagree with the 2 tasks of 2 GPUs: said in every job format; a flag
        // after the script is the script's own.
        ring->command = {"torchrun", "--nnodes=3", "--nproc_per_node",
                         "8",        "train.py",   "--nnodes=9"};
        const std::string said = ": job \"ring\" starts torchrun with --nnodes=3 for its 2 tasks "
                                 "and --nproc_per_node=8 for 2 GPUs per task";
        int formats = 0;
        for (const Exporter *e : ExporterRegistry::all()) {
            if (!e->needsPlacement())
                continue;
            ++formats;
            const std::string all = warningsOf(e->name());
            QVERIFY2(all.find(e->name() + said) != std::string::npos, all.c_str());
        }
        QVERIFY(formats >= 8);
        // Matching flags (either spelling), a shell line, python -m torch.distributed.run.
        ring->command = {"torchrun", "--nnodes", "2", "--nproc-per-node=2", "train.py"};
        QCOMPARE(warningsOf("slurm").find("torchrun"), std::string::npos);
        ring->command = {"/bin/sh", "-c", "cd /w && torchrun --nnodes 1 train.py"};
        QVERIFY(warningsOf("k8s-pods").find("with --nnodes=1 for its 2 tasks") !=
                std::string::npos);
        ring->command = {"python3", "-m", "torch.distributed.run", "--nproc_per_node=4", "t.py"};
        QVERIFY(warningsOf("k8s-pods").find("with --nproc_per_node=4 for 2 GPUs per task") !=
                std::string::npos);
        // Each task is told torchrun's settings: its node rank, the job's nodes, a process
        // per GPU, the first task as the master.
        auto pods =
            ExporterRegistry::find("k8s-pods")->exportPlacement(s, cbtest::exportPlacement(), {});
        std::string ringPods;
        for (const ExportedFile &f : pods->files)
            if (f.path == "ring.yaml")
                ringPods = f.content;
        for (const char *setting : {"name: \"PET_NNODES\"\n          value: \"2\"",
                                    "name: \"PET_NPROC_PER_NODE\"\n          value: \"2\"",
                                    "name: \"PET_NODE_RANK\"\n          value: \"1\""})
            QVERIFY2(ringPods.find(setting) != std::string::npos, ringPods.c_str());
    }

    void roleTemplatesWarnAndOfferExactFormats_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("nodeSetRoles");
        // tf-disjoint workers, tf-shared PS and workers, ring workers: 2 nodes each.
        QTest::newRow("tfjob") << "tfjob" << 4;
        // Master = first task. Workers: tf-disjoint worker-0/1 on gpu-01/02, tf-shared 4 tasks
        // on gpu-03/04; ring has a single Worker (gpu-02).
        QTest::newRow("pytorchjob") << "pytorchjob" << 2;
        // Workers: every task: tf-disjoint 3 nodes, tf-shared 2 nodes, ring 2 nodes.
        QTest::newRow("mpijob") << "mpijob" << 3;
        QTest::newRow("volcano exact") << "volcano" << 0;
        QTest::newRow("pods exact") << "k8s-pods" << 0;
    }
    void roleTemplatesWarnAndOfferExactFormats()
    {
        QFETCH(QString, format);
        QFETCH(int, nodeSetRoles);
        const ExportResult r = exportFixture(format.toStdString());
        // One warning names every role pinned to a node set, with its replicas and nodes.
        std::vector<std::string> said;
        for (const std::string &w : r.warnings)
            if (w.find("pinned to its node set") != std::string::npos)
                said.push_back(w);
        QCOMPARE(int(said.size()), nodeSetRoles > 0 ? 1 : 0);
        if (nodeSetRoles == 0)
            return;
        const std::string &w = said.front();
        QVERIFY2(w.find("replicas of " + std::to_string(nodeSetRoles) + " job roles") !=
                     std::string::npos,
                 w.c_str());
        QVERIFY2(w.find("\"tf-shared\" Worker (") != std::string::npos ||
                     w.find("\"tf-shared\" worker (") != std::string::npos,
                 w.c_str());
        QVERIFY2(w.ends_with("use --format volcano or k8s-pods for exact placement"), w.c_str());
    }

    // mpirun starts a process per GPU slot (ring: 2 workers of 2 GPUs, -np 4) unless the
    // command starts its own per GPU (torchrun: one per worker, -np 2, said) or is an MPI
    // launch already (kept as it is).
    void mpijobLauncherCountsProcessesOnce_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QStringList>("launcher");
        QTest::addColumn<bool>("warned");
        QTest::newRow("plain") << QStringList{"python3", "train.py"}
                               << QStringList{"mpirun", "-np", "4", "python3", "train.py"}
                               << false;
        QTest::newRow("torchrun")
            << QStringList{"/usr/bin/torchrun", "--nproc-per-node=2", "train.py"}
            << QStringList{"mpirun", "-np", "2", "/usr/bin/torchrun", "--nproc-per-node=2",
                           "train.py"}
            << true;
        QTest::newRow("python -m torch.distributed.run")
            << QStringList{"python3", "-m", "torch.distributed.run", "train.py"}
            << QStringList{"mpirun", "-np", "2", "python3", "-m", "torch.distributed.run",
                           "train.py"}
            << true;
        QTest::newRow("mpirun given")
            << QStringList{"mpirun", "-np", "4", "python3", "train.py"}
            << QStringList{"mpirun", "-np", "4", "python3", "train.py"} << false;
    }
    void mpijobLauncherCountsProcessesOnce()
    {
        QFETCH(QStringList, command);
        QFETCH(QStringList, launcher);
        QFETCH(bool, warned);
        Scenario s = cbtest::exportScenario();
        for (Job &j : s.jobs)
            if (j.id == "ring") {
                j.command.clear();
                for (const QString &a : command)
                    j.command.push_back(a.toStdString());
            }
        auto r = ExporterRegistry::find("mpijob")->exportPlacement(s, cbtest::exportPlacement(), {});
        QVERIFY2(r.ok(), r.error().c_str());
        const ExportedFile *f = fileNamed(r.value(), "ring.yaml");
        QVERIFY(f);
        const YAML::Node doc = YAML::Load(f->content);
        const YAML::Node cmd = doc["spec"]["mpiReplicaSpecs"]["Launcher"]["template"]["spec"]
                                  ["containers"][0]["command"];
        QStringList got;
        for (const YAML::Node &a : cmd)
            got << QString::fromStdString(a.as<std::string>());
        QCOMPARE(got, launcher);
        bool said = false;
        for (const std::string &w : r->warnings)
            said = said || w.find("\"ring\" runs torchrun, which starts a process per GPU "
                                  "itself: mpirun starts one per worker (-np 2)") !=
                               std::string::npos;
        QCOMPARE(said, warned);
    }

    void kubeflowAffinityCoversRoleNodes()
    {
        const ExportResult r = exportFixture("tfjob");
        const ExportedFile *f = fileNamed(r, "tf-shared.yaml");
        QVERIFY(f);
        const YAML::Node doc = YAML::Load(f->content);
        const YAML::Node ps = doc["spec"]["tfReplicaSpecs"]["PS"];
        QCOMPARE(ps["replicas"].as<int>(), 2);
        const YAML::Node values = ps["template"]["spec"]["affinity"]["nodeAffinity"]
                                    ["requiredDuringSchedulingIgnoredDuringExecution"]
                                    ["nodeSelectorTerms"][0]["matchExpressions"][0]["values"];
        QCOMPARE(values.size(), std::size_t(2));
        QCOMPARE(values[0].as<std::string>(), std::string("gpu-03"));
        QCOMPARE(values[1].as<std::string>(), std::string("gpu-04"));
        QCOMPARE(doc["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"].as<int>(), 5);
    }

    void podsCarryPeerEnvironment()
    {
        const ExportResult r = exportFixture("k8s-pods");
        const ExportedFile *f = fileNamed(r, "tf-disjoint.yaml");
        QVERIFY(f);
        const std::vector<YAML::Node> docs = YAML::LoadAll(f->content);
        QCOMPARE(docs.size(), std::size_t(4)); // Service + 3 pods
        QCOMPARE(docs[0]["kind"].as<std::string>(), std::string("Service"));
        QCOMPARE(docs[0]["spec"]["clusterIP"].as<std::string>(), std::string("None"));
        const YAML::Node worker1 = docs[3];
        QCOMPARE(worker1["metadata"]["name"].as<std::string>(),
                 std::string("tf-disjoint-worker-1"));
        QCOMPARE(worker1["spec"]["nodeName"].as<std::string>(), std::string("gpu-02"));
        const std::string tf =
            worker1["spec"]["containers"][0]["env"][0]["value"].as<std::string>();
        QCOMPARE(
            tf,
            std::string(
                R"({"cluster":{"ps":["tf-disjoint-ps-0.tf-disjoint:2222"],"worker":[")"
                R"(tf-disjoint-worker-0.tf-disjoint:2222","tf-disjoint-worker-1.tf-disjoint:2222"]},)"
                R"("task":{"type":"worker","index":1}})"));
        QCOMPARE(worker1["spec"]["containers"][0]["resources"]["limits"]["nvidia.com/gpu"]
                     .as<std::string>(),
                 std::string("2"));

        const ExportedFile *ring = fileNamed(r, "ring.yaml");
        QVERIFY(ring);
        const auto ringDocs = YAML::LoadAll(ring->content);
        const YAML::Node env = ringDocs[2]["spec"]["containers"][0]["env"];
        QCOMPARE(env[0]["value"].as<std::string>(), std::string("ring-worker-0.ring"));
        QCOMPARE(env[1]["value"].as<std::string>(), std::string("23456"));
        QCOMPARE(env[2]["value"].as<std::string>(), std::string("2"));
        QCOMPARE(env[3]["name"].as<std::string>(), std::string("RANK"));
        QCOMPARE(env[3]["value"].as<std::string>(), std::string("1"));
    }

    void slurmShapes()
    {
        const ExportResult r = exportFixture("slurm");
        // PS on cpu-01, workers on gpu-01/02: heterogeneous job, exact per component.
        const ExportedFile *dis = fileNamed(r, "tf-disjoint.sbatch");
        QVERIFY(dis);
        QVERIFY(dis->content.find("#SBATCH --nodelist=cpu-01\n#SBATCH --nodes=1\n"
                                  "#SBATCH --ntasks=1\n#SBATCH --ntasks-per-node=1\n"
                                  "#SBATCH --cpus-per-task=4\n#SBATCH --mem=8192M\n"
                                  "#SBATCH hetjob\n#SBATCH --partition=gpu\n") ==
                std::string::npos); // partitions differ, so no --partition at all
        QVERIFY(dis->content.find("#SBATCH --nodelist=cpu-01\n#SBATCH --nodes=1\n"
                                  "#SBATCH --ntasks=1\n#SBATCH --ntasks-per-node=1\n"
                                  "#SBATCH --cpus-per-task=4\n#SBATCH --mem=8192M\n"
                                  "#SBATCH hetjob\n#SBATCH --nodelist=gpu-[01-02]\n"
                                  "#SBATCH --nodes=2\n#SBATCH --ntasks=2\n"
                                  "#SBATCH --ntasks-per-node=1\n#SBATCH --cpus-per-task=8\n"
                                  "#SBATCH --mem=32768M\n#SBATCH --gres=gpu:a100:2\n") !=
                std::string::npos);
        QVERIFY(dis->content.find("srun --het-group=1 --nodelist='gpu-02' --nodes=1 --ntasks=1 "
                                  "--cpus-per-task=8 --mem=32768M --gres=gpu:a100:2 --exact") !=
                std::string::npos);
        // Roles share gpu-03/gpu-04: one component over the union, the largest node's share.
        const ExportedFile *shared = fileNamed(r, "tf-shared.sbatch");
        QVERIFY(shared);
        QVERIFY(shared->content.find("hetjob") == std::string::npos);
        QVERIFY(shared->content.find("#SBATCH --partition=gpu\n#SBATCH --nodelist=gpu-[03-04]\n"
                                     "#SBATCH --nodes=2\n#SBATCH --ntasks=2\n"
                                     "#SBATCH --ntasks-per-node=1\n#SBATCH --cpus-per-task=20\n"
                                     "#SBATCH --mem=73728M\n#SBATCH --gres=gpu:a100:4\n") !=
                std::string::npos);
        QVERIFY(shared->content.find("--het-group") == std::string::npos);
        // Two tasks of tf-shared share gpu-03 and get ports 2222 and 2223 (ps-0, worker-0).
        QVERIFY(shared->content.find("\"worker\":[\"gpu-03:2223\",\"gpu-04:2223\","
                                     "\"gpu-03:2224\"]") != std::string::npos);
        bool warned = false;
        for (const std::string &w : r.warnings)
            warned = warned || (w.find("tf-shared") != std::string::npos &&
                                w.find("largest node's share") != std::string::npos);
        QVERIFY(warned);
        // All-reduce: one exact component.
        const ExportedFile *ring = fileNamed(r, "ring.sbatch");
        QVERIFY(ring);
        QVERIFY(ring->content.find("#SBATCH --nodelist=gpu-[01-02]\n#SBATCH --nodes=2\n"
                                   "#SBATCH --ntasks=2\n#SBATCH --ntasks-per-node=1\n") !=
                std::string::npos);
        QVERIFY(ring->content.find("MASTER_ADDR='gpu-01'") != std::string::npos);
    }

    void slurmSplitsComponentsThatDoNotFit()
    {
        // gpu-03 hosts 3 tasks (24 CPUs), gpu-04 one (8 CPUs) of 24-CPU nodes: the largest
        // share (24 CPUs) fits both, but 3 x 80 GiB does not fit a 200 GiB node twice.
        Scenario s = cbtest::exportScenario();
        for (Node &n : s.cluster.nodes)
            n.memoryGiB = 256;
        s.jobs = {cbtest::exportJob("big", JobKind::AllReduce,
                                    {cbtest::exportGroup(TaskRole::Worker, 4, 8, 80, 2)})};
        s.cluster.nodes[3].memoryGiB = 100; // gpu-04
        Placement p;
        p.jobs.push_back({"big",
                          {cbtest::exportTask(TaskRole::Worker, 0, 0, "gpu-03"),
                           cbtest::exportTask(TaskRole::Worker, 0, 1, "gpu-03"),
                           cbtest::exportTask(TaskRole::Worker, 0, 2, "gpu-03"),
                           cbtest::exportTask(TaskRole::Worker, 0, 3, "gpu-04")},
                          0});
        auto r = ExporterRegistry::find("slurm")->exportPlacement(s, p, {});
        QVERIFY2(r.ok(), r.error().c_str());
        const std::string &text = r->files[0].content;
        QVERIFY2(text.find("#SBATCH --nodelist=gpu-03\n#SBATCH --nodes=1\n#SBATCH --ntasks=3\n"
                           "#SBATCH --ntasks-per-node=3\n#SBATCH --cpus-per-task=8\n"
                           "#SBATCH --mem=245760M\n#SBATCH --gres=gpu:a100:6\n"
                           "#SBATCH hetjob\n") != std::string::npos,
                 text.c_str());
        QVERIFY(text.find("srun --het-group=1 --nodelist='gpu-04'") != std::string::npos);
    }

    void slurmTimeLimitAndAccount_data()
    {
        QTest::addColumn<double>("limit");
        QTest::addColumn<QString>("time");
        QTest::newRow("minutes") << 90.0 * 60 << "1:30:00";
        QTest::newRow("rounded up") << 59.2 << "0:01:00";
        QTest::newRow("a day and more") << 86400.0 + 2 * 3600 + 3 * 60 + 4 << "1-02:03:04";
    }

    void slurmTimeLimitAndAccount()
    {
        QFETCH(double, limit);
        QFETCH(QString, time);
        // All-reduce on two nodes: one component, so one --time and one --account.
        Scenario s = cbtest::exportScenario();
        s.jobs = {cbtest::exportJob("ring", JobKind::AllReduce,
                                    {cbtest::exportGroup(TaskRole::Worker, 2, 8, 32, 2)})};
        s.jobs[0].timeLimitSeconds = limit;
        s.jobs[0].account = "ml-team";
        Placement p;
        p.jobs.push_back({"ring",
                          {cbtest::exportTask(TaskRole::Worker, 0, 0, "gpu-01"),
                           cbtest::exportTask(TaskRole::Worker, 0, 1, "gpu-02")},
                          0});
        auto r = ExporterRegistry::find("slurm")->exportPlacement(s, p, {});
        QVERIFY2(r.ok(), r.error().c_str());
        const std::string &text = r->files[0].content;
        const std::string expected = "#SBATCH --gres=gpu:a100:2\n#SBATCH --time=" +
                                     time.toStdString() + "\n#SBATCH --account=ml-team\n";
        QVERIFY2(text.find(expected) != std::string::npos, text.c_str());
        // Without them the script says nothing about either.
        s.jobs[0].timeLimitSeconds.reset();
        s.jobs[0].account.clear();
        auto plain = ExporterRegistry::find("slurm")->exportPlacement(s, p, {});
        QVERIFY(plain.ok());
        QCOMPARE(plain->files[0].content.find("--time="), std::string::npos);
        QCOMPARE(plain->files[0].content.find("--account="), std::string::npos);
    }

    // The job's time limit, which Slurm gets as --time, is each Kubernetes kind's
    // activeDeadlineSeconds (seconds, rounded up): a Pod's and a Volcano task's pod spec, a
    // Kubeflow job's runPolicy, a JobSet's (and Kueue's) Job spec. (The schemas are checked
    // in tst_export_schema.)
    void kubernetesTimeLimit_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("where");
        QTest::addColumn<int>("count");
        // The fixture's 4 jobs: PS jobs of 1 PS + 2 workers and 2 PS + 3 workers, a ring of
        // 2 workers, a single task: 11 pods, 6 roles (a JobSet's replicated Jobs).
        QTest::newRow("k8s-pods") << "k8s-pods"
                                  << "  activeDeadlineSeconds: 5400\n"
                                  << 11;
        QTest::newRow("volcano") << "volcano"
                                 << "activeDeadlineSeconds: 5400\n"
                                 << 11;
        QTest::newRow("tfjob") << "tfjob"
                               << "    activeDeadlineSeconds: 5400\n"
                               << 4;
        QTest::newRow("pytorchjob") << "pytorchjob"
                                    << "    activeDeadlineSeconds: 5400\n"
                                    << 4;
        QTest::newRow("mpijob") << "mpijob"
                                << "    activeDeadlineSeconds: 5400\n"
                                << 4;
        QTest::newRow("jobset") << "jobset"
                                << "activeDeadlineSeconds: 5400\n"
                                << 6;
        QTest::newRow("kueue") << "kueue"
                               << "activeDeadlineSeconds: 5400\n"
                               << 6;
    }
    void kubernetesTimeLimit()
    {
        QFETCH(QString, format);
        QFETCH(QString, where);
        QFETCH(int, count);
        Scenario s = cbtest::exportScenario();
        for (Job &j : s.jobs)
            j.timeLimitSeconds = 5399.5;
        const Exporter *e = ExporterRegistry::find(format.toStdString());
        QVERIFY(e);
        auto r = e->exportPlacement(s, cbtest::exportPlacement(), {});
        QVERIFY2(r.ok(), r.error().c_str());
        int found = 0;
        std::string all;
        for (const ExportedFile &f : r->files)
            all += f.content;
        for (std::size_t at = all.find(where.toStdString()); at != std::string::npos;
             at = all.find(where.toStdString(), at + 1))
            ++found;
        QVERIFY2(found == count, all.c_str());
        // Without a limit no object has a deadline.
        auto plain = e->exportPlacement(cbtest::exportScenario(), cbtest::exportPlacement(), {});
        QVERIFY(plain.ok());
        for (const ExportedFile &f : plain->files)
            QCOMPARE(f.content.find("activeDeadlineSeconds"), std::string::npos);
    }

    // A batch script keeps a job id that is a Slurm name (a trace's "2", "Job_1"): it had been
    // given a Kubernetes name with a hash ("job-2-0cabd5"). Others are named as Kubernetes
    // names them; all distinct.
    void slurmJobNamesKeepSlurmIds()
    {
        const std::vector<std::string> ids = {"2", "Job_1", "tf-disjoint", "My Job", "2", "a,b"};
        const std::vector<std::string> names = SlurmNames::jobNames(ids);
        QCOMPARE(names.size(), ids.size());
        QCOMPARE(names[0], std::string("2"));
        QCOMPARE(names[1], std::string("Job_1"));
        QCOMPARE(names[2], std::string("tf-disjoint"));
        const std::vector<std::string> k8s = KubernetesNames::jobNames({"My Job", "2", "a,b"});
        QCOMPARE(names[3], k8s[0]);
        QCOMPARE(names[4], k8s[1]);
        QCOMPARE(names[5], k8s[2]);
        QCOMPARE(std::set<std::string>(names.begin(), names.end()).size(), names.size());

        Scenario s = cbtest::exportScenario();
        s.jobs = {cbtest::exportJob("2", JobKind::AllReduce,
                                    {cbtest::exportGroup(TaskRole::Worker, 2, 8, 32, 2)})};
        Placement p;
        p.jobs.push_back({"2",
                          {cbtest::exportTask(TaskRole::Worker, 0, 0, "gpu-01"),
                           cbtest::exportTask(TaskRole::Worker, 0, 1, "gpu-02")},
                          0});
        auto r = ExporterRegistry::find("slurm")->exportPlacement(s, p, {});
        QVERIFY2(r.ok(), r.error().c_str());
        QCOMPARE(r->files[0].path, std::string("2.sbatch"));
        QVERIFY2(r->files[0].content.find("#SBATCH --job-name=2\n") != std::string::npos,
                 r->files[0].content.c_str());
    }

    void slurmClusterFiles()
    {
        const ExportResult r = exportFixture("slurm-cluster");
        QCOMPARE(r.files.size(), std::size_t(3)); // topology.yaml only with blocks
        const std::string conf = fileNamed(r, "slurm.conf")->content;
        QVERIFY(conf.find("NodeName=gpu-01 CPUs=32 RealMemory=262144 Gres=gpu:a100:8\n") !=
                std::string::npos);
        QVERIFY(conf.find("NodeName=cpu-01 CPUs=16 RealMemory=65536\n") != std::string::npos);
        QVERIFY(conf.find("PartitionName=gpu Nodes=gpu-[01-04] Default=NO") != std::string::npos);
        QVERIFY(conf.find("PartitionName=all Nodes=ALL Default=YES") != std::string::npos);
        const std::string gres = fileNamed(r, "gres.conf")->content;
        // Nodes with the same GPUs share one line; the CPU node has none.
        QVERIFY(gres.find("\nNodeName=gpu-[01-04] Name=gpu Type=a100 File=/dev/nvidia[0-7]\n") !=
                std::string::npos);
        QCOMPARE(std::count(gres.begin(), gres.end(), '\n'), std::ptrdiff_t(3));
        const std::string topo = fileNamed(r, "topology.conf")->content;
        QVERIFY(topo.find("SwitchName=leaf-1 Nodes=cpu-01,gpu-[01-02]\n"
                          "SwitchName=leaf-2 Nodes=gpu-[03-04]\n"
                          "SwitchName=spine-1 Switches=leaf-[1-2]\n") != std::string::npos);
        // Two racks linked directly (no common switch): joined under cb-root; a node with no
        // link hangs off cb-unattached.
        Scenario racks = cbtest::exportScenario();
        racks.cluster.switches.pop_back();
        racks.cluster.links.pop_back();
        racks.cluster.links.back() = {"leaf-1", "leaf-2", 100, 1};
        racks.cluster.links.erase(racks.cluster.links.begin() + 2); // cpu-01
        auto joined = ExporterRegistry::find("slurm-cluster")->exportPlacement(racks, {}, {});
        QVERIFY(joined.ok());
        QCOMPARE(fileNamed(joined.value(), "topology.conf")->content.substr(topo.find('\n') + 1),
                 std::string("SwitchName=leaf-1 Nodes=gpu-[01-02]\n"
                             "SwitchName=leaf-2 Nodes=gpu-[03-04]\n"
                             "SwitchName=cb-unattached Nodes=cpu-01\n"
                             "# cb-root joins the top switches (linked directly or not at all) "
                             "into one tree.\n"
                             "SwitchName=cb-root Switches=leaf-[1-2],cb-unattached\n"));
        ExportOptions blocks;
        blocks.slurmBlocks = true;
        const ExportResult b = exportFixture("slurm-cluster", blocks);
        const std::string btopo = fileNamed(b, "topology.conf")->content;
        QVERIFY(btopo.find("BlockName=r1 Nodes=cpu-01,gpu-[01-02]\n"
                           "BlockName=r2 Nodes=gpu-[03-04]\n"
                           "BlockSizes=2,4\n") != std::string::npos);
    }

    // GPUs imported without a model ("unknown-gpu") get a gres without a type, which any
    // model satisfies (a gres type "unknown-gpu" is on no real cluster: Slurm would refuse
    // the job), and a warning names the nodes; GPUs of a named model keep their type.
    // A node imported from several GPU types holds them as its first type: slurm-cluster
    // writes that, and says so with what the node was imported as.
    void slurmClusterSaysANodeHadSeveralGpuTypes()
    {
        Scenario s = cbtest::exportScenario();
        for (Node &n : s.cluster.nodes)
            if (n.id == "gpu-03")
                n.labels["slurm.gres/gpu"] = "a100:4, v100:4";
        auto c = ExporterRegistry::find("slurm-cluster")->exportPlacement(s, {}, {});
        QVERIFY2(c.ok(), c.ok() ? "" : c.error().c_str());
        QVERIFY(fileNamed(c.value(), "slurm.conf")
                    ->content.find("NodeName=gpu-03 CPUs=32 RealMemory=262144 Gres=gpu:a100:8\n") !=
                std::string::npos);
        std::vector<std::string> said;
        for (const std::string &w : c->warnings)
            if (w.find("several GPU types") != std::string::npos)
                said.push_back(w);
        QCOMPARE(said, std::vector<std::string>{
                           "slurm-cluster: 1 node had several GPU types when imported and holds "
                           "all its GPUs as its first type in the scenario, as its Gres line here "
                           "says: gpu-03 (imported as a100:4, v100:4)"});
    }

    void slurmLeavesOutAPlaceholderGpuType()
    {
        Scenario s = cbtest::exportScenario();
        for (Node &n : s.cluster.nodes)
            if (n.id == "gpu-01" || n.id == "gpu-02")
                n.gpuType = kUnknownGpuType;
        GpuType unknown = *s.cluster.gpuType("A100");
        unknown.name = kUnknownGpuType;
        s.cluster.gpuTypes.push_back(unknown);
        auto r = ExporterRegistry::find("slurm")->exportPlacement(s, cbtest::exportPlacement(), {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
        const std::string ring = fileNamed(r.value(), "ring.sbatch")->content;
        QVERIFY2(ring.find("#SBATCH --gres=gpu:2\n") != std::string::npos, ring.c_str());
        QVERIFY(ring.find("unknown-gpu") == std::string::npos);
        QVERIFY(fileNamed(r.value(), "tf-shared.sbatch")->content.find("--gres=gpu:a100:4") !=
                std::string::npos);
        std::vector<std::string> said;
        for (const std::string &w : r->warnings)
            if (w.find("have no model") != std::string::npos)
                said.push_back(w);
        QCOMPARE(said, std::vector<std::string>{
                           "slurm: the GPUs of gpu-[01-02] have no model (\"unknown-gpu\": the "
                           "cluster was imported without one), so the scripts ask for GPUs of "
                           "any type there (--gres=gpu:N); set the nodes' GPU type to ask for a "
                           "model"});
        auto c = ExporterRegistry::find("slurm-cluster")->exportPlacement(s, {}, {});
        QVERIFY(c.ok());
        const std::string conf = fileNamed(c.value(), "slurm.conf")->content;
        QVERIFY2(conf.find("NodeName=gpu-01 CPUs=32 RealMemory=262144 Gres=gpu:8\n") !=
                     std::string::npos,
                 conf.c_str());
        const std::string gres = fileNamed(c.value(), "gres.conf")->content;
        QVERIFY2(gres.find("\nNodeName=gpu-[01-02] Name=gpu File=/dev/nvidia[0-7]\n") !=
                     std::string::npos,
                 gres.c_str());
        QVERIFY(gres.find("\nNodeName=gpu-[03-04] Name=gpu Type=a100 File=") != std::string::npos);
        QVERIFY(std::any_of(c->warnings.begin(), c->warnings.end(), [](const std::string &w) {
            return w.rfind("slurm-cluster: the GPUs of gpu-[01-02] have no model", 0) == 0;
        }));
    }

    void slurmRefusesUnsafeNodeNames()
    {
        Scenario s = cbtest::exportScenario();
        s.cluster.nodes[4].id = "cpu 01,x";
        for (const char *format : {"slurm", "slurm-cluster"}) {
            auto r = ExporterRegistry::find(format)->exportPlacement(s, {}, {});
            QVERIFY(!r.ok());
            QVERIFY2(r.error().find("/cluster/nodes/4/id") != std::string::npos, r.error().c_str());
        }
    }

    void waitingJobsAreReported()
    {
        Placement p = cbtest::exportPlacement();
        p.waiting = {"late"};
        auto r =
            ExporterRegistry::find("volcano")->exportPlacement(cbtest::exportScenario(), p, {});
        QVERIFY(r.ok());
        QCOMPARE(r->warnings.back(),
                 std::string("job \"late\" is waiting (not placed); not exported"));
    }

    // Jobs that share a warning get one: a trace of many jobs without a command or an image
    // said so once per job (9 lines for the DLTAP testbed, a line per job of a trace).
    void sharedWarningsAreSaidOnce()
    {
        QCOMPARE(jobsWarning({}, "x", "y"), std::string());
        QCOMPARE(jobsWarning({"a"}, "has no command", "have no command"),
                 std::string("job \"a\" has no command"));
        QCOMPARE(jobsWarning({"a", "b"}, "is waiting", "are waiting"),
                 std::string("2 jobs are waiting: \"a\", \"b\""));
        std::vector<std::string> ids;
        for (int i = 0; i < 23; ++i)
            ids.push_back("j" + std::to_string(i));
        const std::string many = jobsWarning(ids, "is waiting", "are waiting");
        QVERIFY2(many.starts_with("23 jobs are waiting: \"j0\", \"j1\", "), many.c_str());
        QVERIFY2(many.ends_with(", \"j19\" and 3 more"), many.c_str());
        {
            // Per-job warnings of one kind: alone, its own sentence; several, one sentence
            // with the list where "{list}" stands, or after a colon; kinds in first-met order.
            SharedWarnings shared;
            shared.add("f: {n} jobs are odd ({list}), so...", "f: job \"a\" is odd", "\"a\"");
            shared.add("f: {n} roles are wide", "f: job \"a\" ps is wide", "\"a\" ps (2 nodes)");
            shared.add("f: {n} jobs are odd ({list}), so...", "f: job \"b\" is odd", "\"b\"");
            shared.add("f: {n} jobs are late", "f: job \"c\" is late", "\"c\"");
            shared.add("f: {n} roles are wide", "f: job \"b\" worker is wide",
                       "\"b\" worker (3 nodes)");
            QCOMPARE(shared.said(),
                     (std::vector<std::string>{
                         "f: 2 jobs are odd (\"a\", \"b\"), so...",
                         "f: 2 roles are wide: \"a\" ps (2 nodes), \"b\" worker (3 nodes)",
                         "f: job \"c\" is late"}));
            QVERIFY(SharedWarnings().said().empty());
        }

        Scenario s = cbtest::exportScenario();
        for (Job &j : s.jobs) {
            j.command.clear();
            j.image.clear();
        }
        s.jobs[0].image = "example/train:1";
        Placement p = cbtest::exportPlacement();
        p.waiting = {"late", "later"};
        ExportOptions o;
        o.defaultImage = "example/default:2";
        std::vector<std::string> others; // the jobs given the default image, in order
        for (std::size_t i = 1; i < s.jobs.size(); ++i)
            others.push_back(s.jobs[i].id);
        QVERIFY(others.size() >= 2);
        for (const std::string format : {"k8s-pods", "volcano", "slurm"}) {
            auto r = ExporterRegistry::find(format)->exportPlacement(s, p, o);
            QVERIFY2(r.ok(), format.c_str());
            std::vector<std::string> expected;
            if (format == "slurm") {
                std::vector<std::string> all{s.jobs[0].id};
                all.insert(all.end(), others.begin(), others.end());
                expected.push_back("slurm: " +
                                   jobsWarning(all, "has no command; each task runs 'hostname'",
                                               "have no command; each task runs 'hostname'"));
            } else {
                expected.push_back(jobsWarning(
                    others, "", "have no container image; each uses \"example/default:2\""));
                expected.push_back(
                    "job \"" + s.jobs[0].id +
                    "\" has no command; its containers run the image's own (example/train:1)");
                expected.push_back(jobsWarning(
                    others, "",
                    "have no command; their containers run the image's own (example/default:2)"));
            }
            expected.push_back(
                "2 jobs are waiting (not placed); not exported: \"late\", \"later\"");
            std::vector<std::string> said;
            for (const std::string &w : r->warnings)
                if (w.find("no command") != std::string::npos ||
                    w.find("no container image") != std::string::npos ||
                    w.find("waiting") != std::string::npos)
                    said.push_back(w);
            auto lines = [](const std::vector<std::string> &v) {
                std::string text;
                for (const std::string &w : v)
                    text += w + "\n";
                return text;
            };
            QCOMPARE(lines(said), lines(expected));
        }
        {
            // Slurm: two jobs whose allocations ask every node for the largest share (a copy
            // of "tf-shared" beside it): one warning, each allocation listed.
            Scenario two = cbtest::exportScenario();
            Placement p2 = cbtest::exportPlacement();
            Job copy = *two.job("tf-shared");
            copy.id = "tf-shared-2";
            two.jobs.push_back(copy);
            JobPlacement placed = *p2.job("tf-shared");
            placed.jobId = copy.id;
            p2.jobs.push_back(placed);
            auto r = ExporterRegistry::find("slurm")->exportPlacement(two, p2, ExportOptions{});
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().c_str());
            std::vector<std::string> said;
            for (const std::string &w : r->warnings)
                if (w.find("largest node's share") != std::string::npos)
                    said.push_back(w);
            const std::string share = " on gpu-[03-04] (20 CPUs, 73728 MB, 4 GPUs)";
            QCOMPARE(said, (std::vector<std::string>{
                               "slurm: 2 allocations ask every node for the largest node's share "
                               "because Slurm requests the same on each node of a component; the "
                               "job steps still place every task exactly: \"tf-shared\"" +
                               share + ", \"tf-shared-2\"" + share}));
        }
    }

    void fractionalGpusRoundedUpWithWarning()
    {
        // Two jobs share GPUs of gpu-04 in slices: "share" (two workers at 0.5), "quarter"
        // (one task at 0.25). Every exporter that writes GPU requests rounds each slice up to
        // one whole GPU and says so once, naming both jobs and their tasks, and no other job.
        Scenario s = cbtest::exportScenario();
        TaskGroup half = cbtest::exportGroup(TaskRole::Worker, 2, 2, 8, 1);
        half.gpuFraction = 0.5;
        TaskGroup quarter = cbtest::exportGroup(TaskRole::Single, 1, 1, 4, 1);
        quarter.gpuFraction = 0.25;
        s.jobs.push_back(cbtest::exportJob("share", JobKind::AllReduce, {half}));
        s.jobs.push_back(cbtest::exportJob("quarter", JobKind::Single, {quarter}));
        Placement p = cbtest::exportPlacement();
        p.jobs.push_back({"share",
                          {cbtest::exportTask(TaskRole::Worker, 0, 0, "gpu-04", {6}),
                           cbtest::exportTask(TaskRole::Worker, 0, 1, "gpu-04", {6})},
                          0});
        p.jobs.push_back(
            {"quarter", {cbtest::exportTask(TaskRole::Single, 0, 0, "gpu-04", {7})}, 0});
        int checked = 0;
        for (const Exporter *e : ExporterRegistry::all()) {
            if (!e->needsPlacement())
                continue;
            auto r = e->exportPlacement(s, p, {});
            QVERIFY2(r.ok(), r.error().c_str());
            std::vector<std::string> fractional;
            for (const std::string &w : r->warnings)
                if (w.find("fraction of a GPU") != std::string::npos)
                    fractional.push_back(w);
            QCOMPARE(fractional.size(), std::size_t(1));
            const std::string resource = e->name() == "slurm" ? "Slurm's gres/gpu" : "nvidia.com/gpu";
            QCOMPARE(fractional[0],
                     e->name() + ": 2 jobs ask for a fraction of a GPU, which " + resource +
                         " cannot express; each of these tasks requests 1 whole GPU: \"share\" "
                         "(worker-0, worker-1: 0.5 GPU), \"quarter\" (single-0: 0.25 GPU)");
            // The request itself is one whole GPU.
            const std::string file = e->name() == "slurm" ? "share.sbatch" : "share.yaml";
            const ExportedFile *f = fileNamed(r.value(), file);
            QVERIFY2(f, file.c_str());
            const std::string whole =
                e->name() == "slurm" ? "--gres=gpu:a100:1" : "nvidia.com/gpu: \"1\"";
            QVERIFY2(f->content.find(whole) != std::string::npos, f->content.c_str());
            ++checked;
        }
        QCOMPARE(checked, 8);
        // Without slices, no such warning.
        for (const Exporter *e : ExporterRegistry::all())
            for (const std::string &w : exportFixture(e->name()).warnings)
                QVERIFY2(w.find("fraction of a GPU") == std::string::npos, w.c_str());
    }

    void writerStaysInsideFolder()
    {
        ExportResult r;
        r.files = {{"../evil", "x"}};
        QVERIFY(!ExportWriter::write(QDir::tempPath().toStdString(), r).ok());
        r.files = {{"/abs", "x"}};
        QVERIFY(!ExportWriter::write(QDir::tempPath().toStdString(), r).ok());
        QTemporaryDir dir;
        r.files = {{"sub/a.yaml", "a: 1\n"}};
        QVERIFY(ExportWriter::write(dir.path().toStdString(), r).ok());
        QCOMPARE(readTextFile(dir.path().toStdString() + "/sub/a.yaml").value(),
                 std::string("a: 1\n"));
    }
};

QTEST_APPLESS_MAIN(TestExport)
#include "tst_export.moc"
