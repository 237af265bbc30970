// Hostile job ids and commands (quotes, $(...), backquotes, ;, newlines, YAML specials) come
// out inert: every Slurm script passes `bash -n`, and run with a stub srun it hands each task
// exactly the original argv and job id while nothing else executes; Kubernetes YAML reads
// back (yaml-cpp) to the original strings.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/file_io.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <yaml-cpp/yaml.h>

using namespace cb;

namespace {

/// Job ids and a command that would do damage (touch `marker`) if anything were evaluated.
struct Hostile
{
    Scenario scenario;
    Placement placement;
    std::vector<std::string> ids;
    std::vector<std::string> command;
};

Hostile hostile(const std::string &marker)
{
    Hostile h;
    h.ids = {"x'; touch " + marker + " #", "$(touch " + marker + ")", "`touch " + marker + "`",
             "a\ntouch " + marker + "\n#"};
    h.command = {"printf",
                 "%s",
                 "x'; touch " + marker + "; '",
                 "$(touch " + marker + ")",
                 "`touch " + marker + "`",
                 "; touch " + marker,
                 "yes",
                 "*a",
                 "&a",
                 ": x",
                 "#",
                 "-",
                 "--help",
                 "line1\nline2",
                 "\"dq\" \\ $HOME ${PATH} !! *",
                 ""};
    h.scenario = cbtest::exportScenario();
    h.placement = cbtest::exportPlacement();
    for (std::size_t i = 0; i < h.scenario.jobs.size(); ++i) {
        h.scenario.jobs[i].id = h.ids[i];
        h.scenario.jobs[i].command = h.command;
        h.placement.jobs[i].jobId = h.ids[i];
    }
    return h;
}

std::vector<std::string> splitNul(const QByteArray &data)
{
    std::vector<std::string> out;
    std::string cur;
    for (char c : data) {
        if (c == '\0') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    return out;
}

} // namespace

class TestExportShell : public QObject
{
    Q_OBJECT

private slots:
    void slurmScriptsAreInert()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath("PWNED");
        const Hostile h = hostile(marker.toStdString());
        auto exported =
            ExporterRegistry::find("slurm")->exportPlacement(h.scenario, h.placement, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        QCOMPARE(exported->files.size(), std::size_t(4));
        const QString out = dir.filePath("out");
        QVERIFY(ExportWriter::write(out.toStdString(), exported.value()).ok());

        // A stub srun records its argv after "--" and the task's environment.
        const QString stubDir = dir.filePath("bin");
        QVERIFY(QDir().mkpath(stubDir));
        const QString calls = dir.filePath("calls");
        QVERIFY(QDir().mkpath(calls));
        QFile stub(stubDir + "/srun");
        QVERIFY(stub.open(QIODevice::WriteOnly));
        stub.write("#!/bin/bash\n"
                   "f=$(mktemp \"$STUB_CALLS/call.XXXXXX\")\n"
                   "while [ $# -gt 0 ] && [ \"$1\" != -- ]; do shift; done\n"
                   "shift\n"
                   "printf '%s\\0' \"$@\" > \"$f.argv\"\n"
                   "printf '%s' \"$CLUSTERBENCH_JOB_ID\" > \"$f.id\"\n");
        stub.close();
        QVERIFY(stub.setPermissions(stub.permissions() | QFileDevice::ExeOwner));

        int calledTotal = 0;
        for (std::size_t i = 0; i < exported->files.size(); ++i) {
            const QString script = out + "/" + QString::fromStdString(exported->files[i].path);
            QProcess syntax;
            syntax.start("bash", {"-n", script});
            QVERIFY(syntax.waitForFinished(30000));
            QVERIFY2(syntax.exitCode() == 0, syntax.readAllStandardError().constData());

            QDir(calls).removeRecursively();
            QVERIFY(QDir().mkpath(calls));
            QProcess run;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert("PATH", stubDir + ":" + env.value("PATH"));
            env.insert("STUB_CALLS", calls);
            run.setProcessEnvironment(env);
            run.setWorkingDirectory(dir.path());
            run.start("bash", {script});
            QVERIFY(run.waitForFinished(30000));
            QVERIFY2(run.exitCode() == 0, run.readAllStandardError().constData());
            QVERIFY2(!QFile::exists(marker), "a hostile string was executed");

            const QStringList argvFiles = QDir(calls).entryList({"*.argv"}, QDir::Files);
            const int tasks = int(h.placement.jobs[i].tasks.size());
            QCOMPARE(argvFiles.size(), tasks);
            for (const QString &a : argvFiles) {
                QFile fa(calls + "/" + a);
                QVERIFY(fa.open(QIODevice::ReadOnly));
                QVERIFY(splitNul(fa.readAll()) == h.command);
                QString idFile = a;
                idFile.replace(".argv", ".id");
                auto id = readTextFile((calls + "/" + idFile).toStdString());
                QVERIFY(id.ok());
                QCOMPARE(id.value(), h.ids[i]);
            }
            calledTotal += argvFiles.size();
        }
        QCOMPARE(calledTotal, 11); // 3 + 5 + 2 + 1 tasks
    }

    void slurmScriptHeaderHasNoRawUserLines()
    {
        const Hostile h = hostile("/nonexistent/m");
        auto exported =
            ExporterRegistry::find("slurm")->exportPlacement(h.scenario, h.placement, {});
        QVERIFY(exported.ok());
        for (const ExportedFile &f : exported->files) {
            // Every line before the first command is a comment or #SBATCH line.
            std::istringstream lines(f.content);
            std::string line;
            while (std::getline(lines, line) && !line.empty())
                QVERIFY2(line[0] == '#', line.c_str());
        }
    }

    void kubernetesYamlReadsBack_data()
    {
        QTest::addColumn<QString>("format");
        for (const char *f : {"k8s-pods", "tfjob", "pytorchjob", "mpijob", "volcano"})
            QTest::newRow(f) << QString(f);
    }
    void kubernetesYamlReadsBack()
    {
        QFETCH(QString, format);
        const Hostile h = hostile("/tmp/cb-never");
        auto exported = ExporterRegistry::find(format.toStdString())
                            ->exportPlacement(h.scenario, h.placement, {});
        QVERIFY2(exported.ok(), exported.error().c_str());
        int ids = 0, commands = 0;
        for (const ExportedFile &f : exported->files) {
            for (const YAML::Node &doc : YAML::LoadAll(f.content)) {
                const std::string id =
                    doc["metadata"]["annotations"]["clusterbench.io/job-id"].as<std::string>();
                QVERIFY(std::find(h.ids.begin(), h.ids.end(), id) != h.ids.end());
                ++ids;
                // Every container command anywhere in the object.
                std::vector<YAML::Node> stack = {doc};
                while (!stack.empty()) {
                    YAML::Node n = stack.back();
                    stack.pop_back();
                    if (n.IsMap()) {
                        if (n["containers"])
                            for (const YAML::Node &c : n["containers"])
                                if (c["command"]) {
                                    std::vector<std::string> argv =
                                        c["command"].as<std::vector<std::string>>();
                                    if (argv.size() > 3 && argv[0] == "mpirun")
                                        argv.erase(argv.begin(), argv.begin() + 3);
                                    QVERIFY(argv == h.command);
                                    ++commands;
                                }
                        for (const auto &kv : n)
                            stack.push_back(kv.second);
                    } else if (n.IsSequence()) {
                        for (const YAML::Node &c : n)
                            stack.push_back(c);
                    }
                }
            }
        }
        QVERIFY(ids >= 4);
        QVERIFY(commands >= 4);
    }
};

QTEST_APPLESS_MAIN(TestExportShell)
#include "tst_export_shell.moc"
