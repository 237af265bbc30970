// Hostile names across every exporter. Node ids, racks, partitions, labels, job ids and
// commands hold control characters (DEL, ESC, CR, tab, C1, U+2028), quotes, shell syntax,
// spaces, upper case, dots and slashes and overlong runs:
//  - every Kubernetes manifest parses with a strict YAML 1.1 reader (PyYAML) and yaml-cpp and
//    reads back to the original job ids, node ids and commands;
//  - every object passes the schemas and the API server's name rules (validate_k8s.py): names,
//    nodeName, affinity values and labels are valid, derived names are unique and the same
//    in the Node list and in the pods pinned to those nodes;
//  - an invalid --namespace is refused (exit 2) before anything is written;
//  - Slurm scripts pass `bash -n` and, run with srun stubbed, give every task exactly its
//    argv while nothing injected runs; the sweep's job-array script and the printed
//    Submit/Apply hints run with sbatch and kubectl stubbed receive the folder intact.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/export/kubernetes_names.h"
#include "io/export/kubernetes_node_names.h"
#include "io/file_io.h"
#include "io/scenario_json.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

using namespace cb;

namespace {

struct Cli
{
    int code = -1;
    std::string out, err;
};

Cli run(const QString &program, const QStringList &args, const QString &cwd = {},
        const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    p.start(program, args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

const std::vector<std::string> kNodeIds = {
    "N\x7f" "de", "gpu\x1b[31m-02", "cr\rnode", "Tab\tNode", "UP_per.Case"};

/// The export fixture with hostile names (node ids for Kubernetes only: Slurm host names
/// must be real host names and are refused otherwise).
struct Hostile
{
    Scenario scenario;
    Placement placement;
    std::vector<std::string> jobIds;
    std::vector<std::string> command;
};

Hostile hostile(const std::string &marker, bool hostileNodes)
{
    Hostile h;
    h.scenario = cbtest::exportScenario();
    h.placement = cbtest::exportPlacement();
    h.jobIds = {"tf\x7f" "disjoint; touch " + marker, "tf-Shared\x1b]0;x\x07",
                "ring\r\xc2\x85$(touch " + marker + ")", "solo\xe2\x80\xa8`touch " + marker + "`"};
    h.command = {"python3", "a\x7f" "b", "c\x1b[2Jd", "e\rf", "g\xc2\x9bh", "i\xe2\x80\xa8j",
                 "'; touch " + marker + "; '", "$(touch " + marker + ")", "k\tl", "\xef\xbb\xbfm"};
    std::map<std::string, std::string> rename;
    for (std::size_t i = 0; i < h.scenario.cluster.nodes.size(); ++i) {
        Node &n = h.scenario.cluster.nodes[i];
        const std::string id = hostileNodes ? kNodeIds[i] : n.id;
        rename[n.id] = id;
        n.id = id;
        n.rack = "Rack \x7f" + std::to_string(i % 2);
        n.partition = i < 4 ? "gpu" : "cpu";
        n.labels = {{"zone", "z\x1b" + std::to_string(i)},
                    {"bad key!", "v"},
                    {"example.com/ok", "fine"}};
    }
    for (Link &l : h.scenario.cluster.links) {
        if (rename.count(l.a))
            l.a = rename[l.a];
        if (rename.count(l.b))
            l.b = rename[l.b];
    }
    for (std::size_t j = 0; j < h.scenario.jobs.size(); ++j) {
        h.scenario.jobs[j].id = h.jobIds[j];
        h.scenario.jobs[j].name = h.jobIds[j];
        h.scenario.jobs[j].command = h.command;
        h.placement.jobs[j].jobId = h.jobIds[j];
        for (TaskAssignment &a : h.placement.jobs[j].tasks)
            a.node = rename[a.node];
    }
    return h;
}

/// Every string anywhere in a JSON value, with the key it was found under.
void strings(const nlohmann::json &v, const std::string &key,
             std::multimap<std::string, std::string> &out)
{
    if (v.is_string())
        out.emplace(key, v.get<std::string>());
    else if (v.is_object())
        for (auto it = v.begin(); it != v.end(); ++it)
            strings(it.value(), it.key(), out);
    else if (v.is_array())
        for (const auto &e : v)
            strings(e, key, out);
}

std::vector<nlohmann::json> commandsIn(const nlohmann::json &v)
{
    std::vector<nlohmann::json> out;
    if (v.is_object()) {
        if (v.contains("containers"))
            for (const auto &c : v["containers"])
                if (c.contains("command"))
                    out.push_back(c["command"]);
        for (auto it = v.begin(); it != v.end(); ++it)
            for (auto &c : commandsIn(it.value()))
                out.push_back(c);
    } else if (v.is_array()) {
        for (const auto &e : v)
            for (auto &c : commandsIn(e))
                out.push_back(c);
    }
    return out;
}

} // namespace

class TestHostileNames : public QObject
{
    Q_OBJECT

private slots:
    void derivedNamesFollowOneRule()
    {
        QCOMPARE(KubernetesNames::labelValue("rack-1"), std::string("rack-1"));
        QCOMPARE(KubernetesNames::labelValue(""), std::string(""));
        const std::string derived = KubernetesNames::labelValue("Rack \x7f" "1");
        QVERIFY2(KubernetesNames::isLabelValue(derived), derived.c_str());
        QCOMPARE(derived.substr(0, 7), std::string("Rack-1-"));
        QCOMPARE(derived.size(), std::size_t(7 + 8));
        QVERIFY(KubernetesNames::labelValue("Rack 1") != KubernetesNames::labelValue("Rack_1 "));
        QVERIFY(KubernetesNames::isLabelValue(KubernetesNames::labelValue(std::string(200, 'a'))));
        QVERIFY(KubernetesNames::isLabelValue(KubernetesNames::labelValue("---")));
        QVERIFY(KubernetesNames::isLabelKey("example.com/zone"));
        QVERIFY(!KubernetesNames::isLabelKey("bad key!"));
        QVERIFY(!KubernetesNames::isLabelKey("Bad_Prefix/x"));
        QVERIFY(KubernetesNames::isDns1123Subdomain("node-1.example.com"));
        QVERIFY(!KubernetesNames::isDns1123Subdomain("Node-1"));
        QVERIFY(!KubernetesNames::isDns1123Subdomain("a..b"));

        Cluster c;
        for (const char *id : {"ok-1", "OK-1", "ok 1", "ok-1.example.com", "ok_1"}) {
            Node n;
            n.id = id;
            c.nodes.push_back(n);
        }
        c.nodes.push_back(c.nodes[0]);
        c.nodes.back().id = std::string(40, 'x') + "." + std::string(40, 'y') + ".z";
        const KubernetesNodeNames names(c);
        std::set<std::string> seen;
        for (const Node &n : c.nodes) {
            QVERIFY2(KubernetesNames::isDns1123Subdomain(names.name(n.id)), n.id.c_str());
            QVERIFY2(KubernetesNames::isLabelValue(names.hostname(n.id)), n.id.c_str());
            QVERIFY(seen.insert(names.name(n.id)).second);
        }
        QCOMPARE(names.name("ok-1"), std::string("ok-1"));
        QCOMPARE(names.name("ok-1.example.com"), std::string("ok-1.example.com"));
        QVERIFY(!names.renamed("ok-1"));
        QVERIFY(names.renamed("OK-1"));
        // A long but valid node name keeps its name; its hostname label is derived.
        const std::string longId = std::string(40, 'x') + "." + std::string(40, 'y') + ".z";
        QCOMPARE(names.name(longId), longId);
        QVERIFY(names.hostname(longId).size() <= 63);
    }

    void kubernetesManifestsParseAndStayValid_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("affinity");
        for (const char *f : {"k8s-pods", "tfjob", "pytorchjob", "mpijob", "volcano", "jobset", "kueue"})
            QTest::newRow(f) << QString(f) << false;
        QTest::newRow("k8s-pods affinity") << "k8s-pods" << true;
    }
    void kubernetesManifestsParseAndStayValid()
    {
        QFETCH(QString, format);
        QFETCH(bool, affinity);
        QTemporaryDir dir;
        const Hostile h = hostile(dir.filePath("PWNED").toStdString(), true);
        ExportOptions options;
        options.kubernetesNamespace = "team-a";
        if (affinity)
            options.pinning = ExportOptions::Pinning::NodeAffinity;
        auto exported = ExporterRegistry::find(format.toStdString())
                            ->exportPlacement(h.scenario, h.placement, options);
        QVERIFY2(exported.ok(), exported.error().c_str());
        const QString out = dir.filePath("out");
        QVERIFY(ExportWriter::write(out.toStdString(), exported.value()).ok());
        QStringList files;
        for (const ExportedFile &f : exported->files) {
            files << out + "/" + QString::fromStdString(f.path);
            (void)YAML::LoadAll(f.content); // yaml-cpp reads it too (throws if not)
        }

        const Cli valid = run("python3", QStringList{CB_SOURCE_DIR "/tests/tools/validate_k8s.py"}
                                             << files);
        QVERIFY2(valid.code == 0, (valid.out + valid.err).c_str());

        const Cli parsed =
            run("python3", QStringList{CB_SOURCE_DIR "/tests/tools/yaml_to_json.py"} << files);
        QVERIFY2(parsed.code == 0, parsed.err.c_str());
        std::multimap<std::string, std::string> all;
        std::set<std::string> names;
        std::size_t commands = 0;
        std::istringstream lines(parsed.out);
        std::string line;
        while (std::getline(lines, line)) {
            const auto j = nlohmann::json::parse(line);
            for (const auto &doc : j["documents"]) {
                strings(doc, "", all);
                QVERIFY(names.insert(doc["kind"].get<std::string>() + "/" +
                                     doc["metadata"]["name"].get<std::string>())
                            .second);
                for (const auto &c : commandsIn(doc)) {
                    std::vector<std::string> argv = c.get<std::vector<std::string>>();
                    if (argv.size() > 3 && argv[0] == "mpirun")
                        argv.erase(argv.begin(), argv.begin() + 3);
                    QVERIFY(argv == h.command);
                    ++commands;
                }
            }
        }
        QVERIFY(commands >= 4);
        // Every job id reads back exactly from its annotation.
        std::set<std::string> ids;
        for (auto [it, end] = all.equal_range("clusterbench.io/job-id"); it != end; ++it)
            ids.insert(it->second);
        QCOMPARE(ids, std::set<std::string>(h.jobIds.begin(), h.jobIds.end()));
        // Pods are pinned to the names the Node list gives these nodes.
        const KubernetesNodeNames nodeNames(h.scenario.cluster);
        std::set<std::string> expected, pinned;
        for (const JobPlacement &jp : h.placement.jobs)
            for (const TaskAssignment &a : jp.tasks)
                expected.insert(affinity || format != "k8s-pods" ? nodeNames.hostname(a.node)
                                                                  : nodeNames.name(a.node));
        const char *key = format == "k8s-pods" && !affinity ? "nodeName" : "values";
        for (auto [it, end] = all.equal_range(key); it != end; ++it)
            pinned.insert(it->second);
        for (const std::string &p : pinned)
            QVERIFY2(expected.count(p) || std::string(key) == "values", p.c_str());
        for (const std::string &e : expected)
            QVERIFY2(pinned.count(e), e.c_str());
    }

    void nodeListKeepsOriginalsInAnnotations()
    {
        QTemporaryDir dir;
        const Hostile h = hostile("/nonexistent", true);
        auto exported =
            ExporterRegistry::find("k8s-nodes")->exportPlacement(h.scenario, {}, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        QVERIFY(ExportWriter::write(dir.path().toStdString(), exported.value()).ok());
        const Cli valid = run("python3", {CB_SOURCE_DIR "/tests/tools/validate_k8s.py",
                                          dir.filePath("nodes.json")});
        QVERIFY2(valid.code == 0, (valid.out + valid.err).c_str());
        const auto list = nlohmann::json::parse(exported->files[0].content);
        const KubernetesNodeNames names(h.scenario.cluster);
        std::set<std::string> seen;
        for (std::size_t i = 0; i < list["items"].size(); ++i) {
            const auto &meta = list["items"][i]["metadata"];
            const Node &n = h.scenario.cluster.nodes[i];
            QCOMPARE(meta["name"].get<std::string>(), names.name(n.id));
            QVERIFY(seen.insert(meta["name"].get<std::string>()).second);
            QCOMPARE(meta["labels"]["kubernetes.io/hostname"].get<std::string>(),
                     names.hostname(n.id));
            if (names.renamed(n.id))
                QCOMPARE(meta["annotations"]["clusterbench.io/node-id"].get<std::string>(), n.id);
            QCOMPARE(meta["annotations"]["clusterbench.io/rack"].get<std::string>(), n.rack);
            QCOMPARE(nlohmann::json::parse(
                         meta["annotations"]["clusterbench.io/labels"].get<std::string>()),
                     nlohmann::json(n.labels));
            QVERIFY(!meta["labels"].contains("bad key!"));
            QCOMPARE(meta["labels"]["example.com/ok"].get<std::string>(), std::string("fine"));
        }
        QCOMPARE(seen.size(), h.scenario.cluster.nodes.size());
        bool warned = false;
        for (const std::string &w : exported->warnings)
            warned = warned || w.find("clusterbench.io/node-id") != std::string::npos;
        QVERIFY(warned);
    }

    void badNamespaceIsRefused()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("out");
        const Cli r = run(CB_CLUSTERBENCH,
                          {"export", CB_SOURCE_DIR "/tests/fuzz/seeds/scenario/tiny.json",
                           "--policy", "dltap", "--format", "k8s-pods", "--namespace", "Bad NS!",
                           "--out", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("--namespace: \"Bad NS!\" is not a valid Kubernetes namespace") !=
                     std::string::npos,
                 r.err.c_str());
        QVERIFY(!QFileInfo::exists(out));
    }

    void slurmScriptsRunNothingInjected()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath("PWNED");
        const Hostile h = hostile(marker.toStdString(), false);
        auto exported =
            ExporterRegistry::find("slurm")->exportPlacement(h.scenario, h.placement, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        const QString out = dir.filePath("out");
        QVERIFY(ExportWriter::write(out.toStdString(), exported.value()).ok());
        const QString bin = dir.filePath("bin");
        QVERIFY(QDir().mkpath(bin));
        QFile stub(bin + "/srun");
        QVERIFY(stub.open(QIODevice::WriteOnly));
        // Tasks run at once: each call writes its own file.
        stub.write("#!/bin/bash\nwhile [ $# -gt 0 ] && [ \"$1\" != -- ]; do shift; done\nshift\n"
                   "printf '%s\\0' \"$@\" > \"$(mktemp \"$STUB_OUT/call.XXXXXX\")\"\n");
        stub.close();
        QVERIFY(stub.setPermissions(stub.permissions() | QFileDevice::ExeOwner));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", bin + ":" + env.value("PATH"));
        env.insert("STUB_OUT", dir.filePath("argv"));
        QVERIFY(QDir().mkpath(dir.filePath("argv")));
        for (const ExportedFile &f : exported->files) {
            const QString script = out + "/" + QString::fromStdString(f.path);
            const Cli syntax = run("bash", {"-n", script});
            QVERIFY2(syntax.code == 0, syntax.err.c_str());
            const Cli ran = run("bash", {script}, dir.path(), env);
            QVERIFY2(ran.code == 0, ran.err.c_str());
        }
        QVERIFY2(!QFile::exists(marker), "an injected command ran");
        std::string expected;
        for (const std::string &a : h.command)
            expected += a + std::string(1, '\0');
        const QStringList calls = QDir(dir.filePath("argv")).entryList(QDir::Files);
        QCOMPARE(calls.size(), 11); // one per task
        for (const QString &c : calls) {
            auto argv = readTextFile((dir.filePath("argv") + "/" + c).toStdString());
            QVERIFY(argv.ok());
            QCOMPARE(QByteArray::fromStdString(argv.value()), QByteArray::fromStdString(expected));
        }
    }

    void sweepScriptAndHintsKeepHostileFolders()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath("PWNED");
        // A folder name that would run `touch` if a printed hint did not quote it.
        const QString folder = "x;touch " + marker + ";z $(touch " + marker + ")";
        QVERIFY(QDir(dir.path()).mkpath(folder));
        const QString bin = dir.filePath("bin");
        QVERIFY(QDir().mkpath(bin));
        for (const char *tool : {"kubectl", "sbatch", "clusterbench-stub"}) {
            QFile stub(bin + "/" + tool);
            QVERIFY(stub.open(QIODevice::WriteOnly));
            stub.write(QByteArray("#!/bin/bash\nprintf '%s\\0' \"$PWD\" \"$@\" >> \"$STUB_OUT\"\n"));
            stub.close();
            QVERIFY(stub.setPermissions(stub.permissions() | QFileDevice::ExeOwner));
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("PATH", bin + ":" + env.value("PATH"));
        env.insert("STUB_OUT", dir.filePath("calls"));
        env.insert("CLUSTERBENCH", bin + "/clusterbench-stub");
        env.insert("SLURM_ARRAY_TASK_ID", "0");
        for (const char *format : {"k8s-indexed-job", "slurm-array"}) {
            const QString emitDir = dir.path() + "/" + folder + "/" + format;
            const Cli r = run(CB_CLUSTERBENCH,
                              {"sweep", CB_SOURCE_DIR "/tests/fuzz/seeds/scenario/tiny.json",
                               "--policies", "dltap", "--seeds", "2", "--emit", format, emitDir},
                              dir.path());
            QVERIFY2(r.code == 0, r.err.c_str());
            // Run the printed command lines as a user would paste them.
            std::istringstream lines(r.out);
            std::string line, pasted;
            while (std::getline(lines, line))
                if (line.rfind("Apply: ", 0) == 0 || line.rfind("Submit: ", 0) == 0)
                    pasted += line.substr(line.find(' ') + 1) + "\n";
            QVERIFY2(!pasted.empty(), r.out.c_str());
            const Cli ran = run("bash", {"-c", QString::fromStdString(pasted)}, dir.path(), env);
            QVERIFY2(ran.code == 0, ran.err.c_str());
            if (QString(format) == "slurm-array") {
                const QString script = emitDir + "/sweep.sbatch";
                QVERIFY(run("bash", {"-n", script}).code == 0);
                const Cli job = run("bash", {script}, emitDir, env);
                QVERIFY2(job.code == 0, job.err.c_str());
            }
        }
        QVERIFY2(!QFile::exists(marker), "an injected command ran");
        auto calls = readTextFile(dir.filePath("calls").toStdString());
        QVERIFY(calls.ok());
        // kubectl got both files of the hostile folder, sbatch ran in it, the array task
        // ran sweep-point with the grid.
        const std::string k8s = (dir.path() + "/" + folder + "/k8s-indexed-job").toStdString();
        QVERIFY(calls->find(k8s + "/grid-configmap.yaml") != std::string::npos);
        QVERIFY(calls->find(k8s + "/sweep-job.yaml") != std::string::npos);
        const std::string slurm = (dir.path() + "/" + folder + "/slurm-array").toStdString();
        QVERIFY(calls->find(slurm + std::string(1, '\0') + "sweep.sbatch") != std::string::npos);
        QVERIFY(calls->find(std::string("sweep-point") + '\0' + "grid.json" + '\0' + "0") !=
                std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestHostileNames)
#include "tst_hostile_names.moc"
