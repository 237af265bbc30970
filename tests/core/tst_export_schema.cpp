// Every exported Kubernetes object passes the real schemas (tests/data/schemas: Kubernetes
// v1.30 standalone-strict, Kubeflow training-operator v1.9.0, mpi-operator v0.8.0, Volcano
// v1.15.1) through tests/tools/validate_k8s.py; the validator accepts the projects' own
// examples and rejects broken variants (wrong type, unknown field, invalid names).

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/scenario_json.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <filesystem>

using namespace cb;

namespace {

const QString kValidator = QStringLiteral(CB_SOURCE_DIR "/tests/tools/validate_k8s.py");
const QString kSchemas = QStringLiteral(CB_TEST_DATA "/schemas");

struct Run
{
    int exitCode = -1;
    QString output;
};

Run validate(const QStringList &files)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("python3", QStringList{kValidator, "--schemas", kSchemas} + files);
    Run r;
    if (!p.waitForFinished(300000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.output = QString::fromUtf8(p.readAll());
    return r;
}

QStringList writeExport(const QString &dir, const ExportResult &r)
{
    if (!ExportWriter::write(dir.toStdString(), r).ok())
        return {};
    QStringList files;
    for (const ExportedFile &f : r.files)
        files << dir + "/" + QString::fromStdString(f.path);
    return files;
}

const char *const kKubernetesFormats[] = {"k8s-pods", "tfjob", "pytorchjob", "mpijob", "volcano"};

} // namespace

class TestExportSchema : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QProcess p;
        p.start("python3", {"-c", "import jsonschema, yaml"});
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0)
            QSKIP("python3 with the jsonschema and yaml modules is needed "
                  "(Debian: python3-jsonschema python3-yaml)");
    }

    void officialExamplesPass()
    {
        const QDir dir(kSchemas + "/examples");
        QStringList files;
        for (const QString &f : dir.entryList({"*.yaml"}, QDir::Files, QDir::Name))
            files << dir.filePath(f);
        QCOMPARE(files.size(), 8);
        const Run r = validate(files);
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY2(r.output.contains("8 document(s) checked, 0 invalid"), qPrintable(r.output));
    }

    void exportsPassSchemas_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("format");
        QStringList sources = {"fixture", "fixture-affinity", "hostile"};
        const QDir samples(CB_SOURCE_DIR "/sample-clusters");
        for (const QString &f : samples.entryList({"*.json"}, QDir::Files, QDir::Name))
            sources << "sample:" + f;
        for (const QString &s : sources)
            for (const char *format : kKubernetesFormats)
                QTest::newRow(qPrintable(s + " " + format)) << s << QString(format);
    }
    void exportsPassSchemas()
    {
        QFETCH(QString, source);
        QFETCH(QString, format);
        Scenario scenario;
        Placement placement;
        ExportOptions options;
        if (source.startsWith("sample:")) {
            const std::string path =
                CB_SOURCE_DIR "/sample-clusters/" + source.mid(7).toStdString();
            auto loaded = loadScenarioFile(path);
            QVERIFY2(loaded.ok(), loaded.error(path).c_str());
            scenario = loaded.value();
            placement = cbtest::firstFitPlacement(scenario);
            QVERIFY2(!placement.jobs.empty(), "first fit placed no job");
        } else if (source == "hostile") {
            scenario = cbtest::exportScenario();
            const std::vector<std::string> ids = {
                "x'; rm -rf ~ #", "yes", "*a", ": x", "Job_1\nline2", "$(touch /tmp/cb-pwned)"};
            for (std::size_t i = 0; i < scenario.jobs.size(); ++i) {
                scenario.jobs[i].id = ids[i];
                scenario.jobs[i].command = {"sh", "-c", "echo 'a: b' # no", "yes",
                                            "*a", "-",  "multi\nline",      "\"dq\""};
            }
            placement = cbtest::exportPlacement();
            for (std::size_t i = 0; i < placement.jobs.size(); ++i)
                placement.jobs[i].jobId = ids[i];
        } else {
            scenario = cbtest::exportScenario();
            placement = cbtest::exportPlacement();
            if (source == "fixture-affinity") {
                options.pinning = ExportOptions::Pinning::NodeAffinity;
                options.kubernetesNamespace = "team-a";
            }
        }
        auto exported = ExporterRegistry::find(format.toStdString())
                            ->exportPlacement(scenario, placement, options);
        QVERIFY2(exported.ok(), exported.error().c_str());
        QTemporaryDir dir;
        const QStringList files = writeExport(dir.path(), exported.value());
        QVERIFY(!files.isEmpty());
        const Run r = validate(files);
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY2(r.output.contains(", 0 invalid"), qPrintable(r.output));
    }

    void brokenVariantsRejected_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("expected");
        QTest::newRow("pod unknown field")
            << "k8s-pods"
            << "solo.yaml"
            << "  nodeName:"
            << "  nodeNmae:"
            << "/spec: Additional properties are not allowed ('nodeNmae' was unexpected)";
        QTest::newRow("pod wrong type")
            << "k8s-pods"
            << "ring.yaml"
            << "containerPort: 23456"
            << "containerPort: [1]"
            << "/spec/containers/0/ports/0/containerPort: [1] is not of type 'integer'";
        QTest::newRow("service bad name") << "k8s-pods"
                                          << "solo.yaml"
                                          << "  name: \"solo\""
                                          << "  name: \"Solo_1\""
                                          << "/metadata/name: 'Solo_1' is not a DNS-1035 label";
        QTest::newRow("pod bad label value") << "k8s-pods"
                                             << "solo.yaml"
                                             << "replica-index: \"0\""
                                             << "replica-index: \"-0\""
                                             << "'-0' is not a valid label value";
        QTest::newRow("tfjob wrong type")
            << "tfjob"
            << "tf-shared.yaml"
            << "replicas: 2"
            << "replicas: \"two\""
            << "/spec/tfReplicaSpecs/PS/replicas: 'two' is not of type 'integer'";
        QTest::newRow("tfjob unknown field")
            << "tfjob"
            << "tf-shared.yaml"
            << "restartPolicy: \"OnFailure\""
            << "restartPolicy: \"OnFailure\"\n      bogus: 1"
            << "Additional properties are not allowed ('bogus' was unexpected)";
        QTest::newRow("pytorchjob wrong type")
            << "pytorchjob"
            << "ring.yaml"
            << "restartPolicy: \"OnFailure\""
            << "restartPolicy: 7"
            << "/spec/pytorchReplicaSpecs/Master/restartPolicy: 7 is not of type 'string'";
        QTest::newRow("mpijob wrong type") << "mpijob"
                                           << "ring.yaml"
                                           << "slotsPerWorker: 2"
                                           << "slotsPerWorker: \"2\""
                                           << "/spec/slotsPerWorker: '2' is not of type 'integer'";
        QTest::newRow("volcano wrong type") << "volcano"
                                            << "ring.yaml"
                                            << "minAvailable: 2"
                                            << "minAvailable: true"
                                            << "/spec/minAvailable: True is not of type 'integer'";
        QTest::newRow("volcano unknown field") << "volcano"
                                               << "ring.yaml"
                                               << "    - name: \"worker-0\""
                                               << "    - name: \"worker-0\"\n      colour: red"
                                               << "('colour' was unexpected)";
        QTest::newRow("volcano bad task name")
            << "volcano"
            << "ring.yaml"
            << "    - name: \"worker-0\""
            << "    - name: \"W 0\""
            << "/spec/tasks/0/name: 'W 0' is not a DNS-1123 label";
    }
    void brokenVariantsRejected()
    {
        QFETCH(QString, format);
        QFETCH(QString, file);
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, expected);
        auto exported =
            ExporterRegistry::find(format.toStdString())
                ->exportPlacement(cbtest::exportScenario(), cbtest::exportPlacement(), {});
        QVERIFY(exported.ok());
        QTemporaryDir dir;
        QVERIFY(!writeExport(dir.path(), exported.value()).isEmpty());
        const QString path = dir.filePath(file);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        f.close();
        // The unchanged file passes; the broken one fails with the expected message.
        QCOMPARE(validate({path}).exitCode, 0);
        const int at = text.indexOf(from);
        QVERIFY2(at >= 0, qPrintable("\"" + from + "\" not in\n" + text));
        text.replace(at, from.size(), to);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
        f.close();
        const Run r = validate({path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.output.contains(expected), qPrintable(r.output));
    }

    void unknownKindIsUnusable()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("x.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
        f.close();
        const Run r = validate({f.fileName()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.output.contains("no schema for apiVersion 'v1' kind 'ConfigMap'"),
                 qPrintable(r.output));
    }
};

QTEST_APPLESS_MAIN(TestExportSchema)
#include "tst_export_schema.moc"
