// Every exported Kubernetes object passes the real schemas (tests/data/schemas: Kubernetes
// v1.30 standalone-strict, Kubeflow training-operator v1.9.0, mpi-operator v0.8.0, Volcano
// v1.15.1 Job and HyperNode, JobSet v1alpha2, Kueue v1beta2 Topology, ResourceFlavor,
// ClusterQueue, LocalQueue) through tests/tools/validate_k8s.py; the validator accepts the projects' own
// examples and rejects broken variants (wrong type, unknown field, invalid names).
//
// Starting Python and loading the schemas costs about a second per run, so initTestCase
// writes every export and every broken variant first and validates them in two runs (the
// valid files, which must exit 0, and the broken ones, which must exit 1); the rows then
// look up their own files in the per-file results.

#include "io/export/export_writer.h"
#include "io/export/exporter_registry.h"
#include "io/scenario_json.h"
#include "runs/run_service.h"

#include "tst_export_fixtures.h"

#include <QtTest>

#include <QRegularExpression>

#include <iterator>

using namespace cb;

namespace {

const QString kValidator = QStringLiteral(CB_SOURCE_DIR "/tests/tools/validate_k8s.py");
const QString kSchemas = QStringLiteral(CB_TEST_DATA "/schemas");

struct ValidatorRun
{
    int exitCode = -1;
    QString output;
};

ValidatorRun validate(const QStringList &files)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start("python3", QStringList{kValidator, "--schemas", kSchemas, "--per-file"} + files);
    ValidatorRun r;
    if (!p.waitForFinished(300000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.output = QString::fromUtf8(p.readAll());
    return r;
}

/// What the validator said about one file: its "N document(s), M invalid" line and every
/// problem line.
struct FileResult
{
    int documents = -1; ///< -1: the file has no per-file line (not checked)
    int invalid = -1;
    QStringList problems;
};

void collect(const ValidatorRun &run, const QStringList &files, QHash<QString, FileResult> &results)
{
    static const QRegularExpression summary("^(\\d+) document\\(s\\), (\\d+) invalid$");
    for (const QString &f : files)
        results.insert(f, {});
    for (const QString &line : run.output.split('\n')) {
        // Paths never contain ": " here (temporary folders and the source tree).
        const int at = line.indexOf(": ");
        if (at < 0)
            continue;
        const QString file = line.left(at);
        auto it = results.find(file);
        if (it == results.end())
            continue;
        const QString rest = line.mid(at + 2);
        const auto m = summary.match(rest);
        if (m.hasMatch()) {
            it->documents = m.captured(1).toInt();
            it->invalid = m.captured(2).toInt();
        } else {
            it->problems << rest;
        }
    }
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

const char *const kKubernetesFormats[] = {"k8s-pods",  "tfjob",     "pytorchjob",
                                          "mpijob",    "volcano",   "k8s-nodes",
                                          "volcano-hypernodes", "jobset", "kueue"};

QStringList exportSources()
{
    QStringList sources = {"fixture", "fixture-affinity", "hostile"};
    const QDir samples(CB_SOURCE_DIR "/sample-clusters");
    for (const QString &f : samples.entryList({"*.json"}, QDir::Files, QDir::Name))
        sources << "sample:" + f;
    // STS's schedule (each job's first configuration, one task per node).
    sources << "sts:sts-datacenter.json";
    return sources;
}

struct BrokenVariant
{
    const char *tag;
    const char *format;
    const char *file;
    const char *from;
    const char *to;
    const char *expected;
};

const BrokenVariant kBroken[] = {
    {"pod unknown field", "k8s-pods", "solo.yaml", "  nodeName:", "  nodeNmae:",
     "/spec: Additional properties are not allowed ('nodeNmae' was unexpected)"},
    {"pod wrong type", "k8s-pods", "ring.yaml", "containerPort: 23456", "containerPort: [1]",
     "/spec/containers/0/ports/0/containerPort: [1] is not of type 'integer'"},
    {"service bad name", "k8s-pods", "solo.yaml", "  name: \"solo\"", "  name: \"Solo_1\"",
     "/metadata/name: 'Solo_1' is not a DNS-1035 label"},
    {"pod bad label value", "k8s-pods", "solo.yaml", "replica-index: \"0\"",
     "replica-index: \"-0\"", "'-0' is not a valid label value"},
    {"tfjob wrong type", "tfjob", "tf-shared.yaml", "replicas: 2", "replicas: \"two\"",
     "/spec/tfReplicaSpecs/PS/replicas: 'two' is not of type 'integer'"},
    {"tfjob unknown field", "tfjob", "tf-shared.yaml", "restartPolicy: \"OnFailure\"",
     "restartPolicy: \"OnFailure\"\n      bogus: 1",
     "Additional properties are not allowed ('bogus' was unexpected)"},
    {"pytorchjob wrong type", "pytorchjob", "ring.yaml", "restartPolicy: \"OnFailure\"",
     "restartPolicy: 7",
     "/spec/pytorchReplicaSpecs/Master/restartPolicy: 7 is not of type 'string'"},
    {"mpijob wrong type", "mpijob", "ring.yaml", "slotsPerWorker: 2", "slotsPerWorker: \"2\"",
     "/spec/slotsPerWorker: '2' is not of type 'integer'"},
    {"volcano wrong type", "volcano", "ring.yaml", "minAvailable: 2", "minAvailable: true",
     "/spec/minAvailable: True is not of type 'integer'"},
    {"volcano unknown field", "volcano", "ring.yaml", "    - name: \"worker-0\"",
     "    - name: \"worker-0\"\n      colour: red", "('colour' was unexpected)"},
    {"volcano bad task name", "volcano", "ring.yaml", "    - name: \"worker-0\"",
     "    - name: \"W 0\"", "/spec/tasks/0/name: 'W 0' is not a DNS-1123 label"},
    {"volcano bad topology mode", "volcano", "ring.yaml", "mode: \"hard\"", "mode: \"strict\"",
     "/spec/networkTopology/mode: 'strict' is not one of ['hard', 'soft']"},
    {"hypernode wrong type", "volcano-hypernodes", "hypernodes.yaml", "tier: 2", "tier: \"2\"",
     "/spec/tier: '2' is not of type 'integer'"},
    {"hypernode unknown member type", "volcano-hypernodes", "hypernodes.yaml",
     "- type: \"HyperNode\"", "- type: \"Switch\"", "is not one of ['Node', 'HyperNode']"},
    {"jobset wrong type", "jobset", "ring.yaml", "parallelism: 2", "parallelism: \"2\"",
     "/spec/replicatedJobs/0/template/spec/parallelism: '2' is not of type 'integer'"},
    {"jobset unknown field", "jobset", "ring.yaml", "backoffLimit: 0", "backoffLimit: 0\n          retries: 1",
     "('retries' was unexpected)"},
    {"kueue topology unknown field", "kueue", "00-kueue-setup.yaml", "- nodeLabel:",
     "- nodeLable:", "('nodeLable' was unexpected)"},
    {"kueue queue wrong type", "kueue", "00-kueue-setup.yaml", "clusterQueue: \"clusterbench\"",
     "clusterQueue: 7", "/spec/clusterQueue: 7 is not of type 'string'"},
};

} // namespace

class TestExportSchema : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QStringList m_examples;
    QHash<QString, QStringList> m_caseFiles; ///< "source format" -> exported files
    QHash<QString, QString> m_caseErrors;    ///< "source format" -> why it was not exported
    QHash<QString, QString> m_brokenFiles;   ///< tag -> broken copy
    QHash<QString, QString> m_brokenErrors;  ///< tag -> why the variant could not be made
    QHash<QString, FileResult> m_results;    ///< file -> what the validator said
    ValidatorRun m_validRun;
    ValidatorRun m_brokenRun;

    /// Exports `format` from `source` into its own folder; an empty list and an error on failure.
    QStringList exportCase(const QString &source, const QString &format, QString *error)
    {
        Scenario scenario;
        Placement placement;
        ExportOptions options;
        if (source.startsWith("sample:")) {
            const std::string path =
                CB_SOURCE_DIR "/sample-clusters/" + source.mid(7).toStdString();
            auto loaded = loadScenarioFile(path);
            if (!loaded) {
                *error = QString::fromStdString(loaded.error(path));
                return {};
            }
            scenario = loaded.value();
            placement = cbtest::firstFitPlacement(scenario);
            if (placement.jobs.empty()) {
                *error = "first fit placed no job";
                return {};
            }
        } else if (source.startsWith("sts:")) {
            const std::string path =
                CB_SOURCE_DIR "/sample-clusters/" + source.mid(4).toStdString();
            auto loaded = loadScenarioFile(path);
            if (!loaded) {
                *error = QString::fromStdString(loaded.error(path));
                return {};
            }
            RunRequest request;
            request.policy = "sts";
            auto run = executeRun(loaded.value(), request);
            if (!run) {
                *error = QString::fromStdString(run.error());
                return {};
            }
            auto [shaped, scheduled] = stochasticScheduleAt(loaded.value(), *run->result);
            oneTaskPerNode(shaped, scheduled);
            scenario = std::move(shaped);
            placement = std::move(scheduled);
        } else if (source == "hostile") {
            scenario = cbtest::exportScenario();
            const std::vector<std::string> ids = {
                "x'; rm -rf ~ #", "yes", "*a", ": x", "Job_1\nline2", "$(touch /tmp/cb-pwned)"};
            for (std::size_t i = 0; i < scenario.jobs.size(); ++i) {
                scenario.jobs[i].id = ids[i];
                // (and a time limit: activeDeadlineSeconds where each kind keeps it)
                scenario.jobs[i].timeLimitSeconds = 3600.0 * double(i + 1) - 0.5;
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
        if (!exported) {
            *error = QString::fromStdString(exported.error());
            return {};
        }
        const QString dir = m_dir.filePath(QString("case-%1").arg(m_caseFiles.size()));
        const QStringList files = writeExport(dir, exported.value());
        if (files.isEmpty())
            *error = "nothing written to " + dir;
        return files;
    }

    QString makeBroken(const BrokenVariant &b, QString *error)
    {
        const QStringList &original = m_caseFiles.value(QString("fixture ") + b.format);
        const QString source =
            original.isEmpty() ? QString() : QFileInfo(original.first()).path() + "/" + b.file;
        QFile in(source);
        if (!in.open(QIODevice::ReadOnly)) {
            *error = "cannot read " + source;
            return {};
        }
        QString text = QString::fromUtf8(in.readAll());
        const int at = text.indexOf(b.from);
        if (at < 0) {
            *error = QString("\"%1\" not in\n%2").arg(b.from, text);
            return {};
        }
        text.replace(at, int(strlen(b.from)), b.to);
        const QString dir = m_dir.filePath(QString("broken-%1").arg(m_brokenFiles.size()));
        QDir().mkpath(dir);
        QFile out(dir + "/" + b.file);
        if (!out.open(QIODevice::WriteOnly) || out.write(text.toUtf8()) < 0) {
            *error = "cannot write " + out.fileName();
            return {};
        }
        return out.fileName();
    }

private slots:
    void initTestCase()
    {
        QProcess p;
        p.start("python3", {"-c", "import jsonschema, yaml"});
        if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0)
            QSKIP("python3 with the jsonschema and yaml modules is needed "
                  "(Debian: python3-jsonschema python3-yaml)");
        QVERIFY(m_dir.isValid());

        const QDir dir(kSchemas + "/examples");
        for (const QString &f : dir.entryList({"*.yaml"}, QDir::Files, QDir::Name))
            m_examples << dir.filePath(f);

        QStringList valid = m_examples;
        for (const QString &source : exportSources())
            for (const char *format : kKubernetesFormats) {
                const QString key = source + " " + format;
                QString error;
                const QStringList files = exportCase(source, format, &error);
                m_caseFiles.insert(key, files);
                if (!error.isEmpty())
                    m_caseErrors.insert(key, error);
                valid += files;
            }
        QStringList broken;
        for (const BrokenVariant &b : kBroken) {
            QString error;
            const QString file = makeBroken(b, &error);
            m_brokenFiles.insert(b.tag, file);
            if (!error.isEmpty())
                m_brokenErrors.insert(b.tag, error);
            else
                broken << file;
        }

        m_validRun = validate(valid);
        collect(m_validRun, valid, m_results);
        m_brokenRun = validate(broken);
        collect(m_brokenRun, broken, m_results);
    }

    void validRunExitsZero()
    {
        // Every exported object and every official example in one run: exit 0.
        QVERIFY2(m_validRun.exitCode == 0, qPrintable(m_validRun.output.right(4000)));
        QVERIFY2(m_validRun.output.contains(" document(s) checked, 0 invalid"),
                 qPrintable(m_validRun.output.right(4000)));
    }

    void officialExamplesPass()
    {
        QCOMPARE(m_examples.size(), 10);
        int documents = 0;
        for (const QString &f : m_examples) {
            const FileResult r = m_results.value(f);
            QVERIFY2(r.documents > 0, qPrintable(f + " was not checked"));
            QVERIFY2(r.invalid == 0 && r.problems.isEmpty(),
                     qPrintable(f + ":\n" + r.problems.join('\n')));
            documents += r.documents;
        }
        QCOMPARE(documents, 13);
    }

    void exportsPassSchemas_data()
    {
        QTest::addColumn<QString>("key");
        for (const QString &s : exportSources())
            for (const char *format : kKubernetesFormats)
                QTest::newRow(qPrintable(s + " " + format)) << QString(s + " " + format);
    }
    void exportsPassSchemas()
    {
        QFETCH(QString, key);
        QVERIFY2(!m_caseErrors.contains(key), qPrintable(m_caseErrors.value(key)));
        const QStringList files = m_caseFiles.value(key);
        QVERIFY(!files.isEmpty());
        for (const QString &f : files) {
            const FileResult r = m_results.value(f);
            QVERIFY2(r.documents > 0, qPrintable(f + " was not checked"));
            QVERIFY2(r.invalid == 0 && r.problems.isEmpty(),
                     qPrintable(f + ":\n" + r.problems.join('\n')));
        }
    }

    void brokenVariantsRejected_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < int(std::size(kBroken)); ++i)
            QTest::newRow(kBroken[i].tag) << i;
    }
    void brokenVariantsRejected()
    {
        QFETCH(int, index);
        const BrokenVariant &b = kBroken[index];
        QVERIFY2(!m_brokenErrors.contains(b.tag), qPrintable(m_brokenErrors.value(b.tag)));
        // The unchanged file passed in the valid run; the broken one fails with the message.
        const QString original =
            QFileInfo(m_caseFiles.value(QString("fixture ") + b.format).first()).path() + "/" +
            b.file;
        QCOMPARE(m_results.value(original).invalid, 0);
        const FileResult r = m_results.value(m_brokenFiles.value(b.tag));
        QCOMPARE(r.invalid, 1);
        QVERIFY2(r.problems.join('\n').contains(b.expected), qPrintable(r.problems.join('\n')));
    }

    void brokenRunExitsOne()
    {
        QCOMPARE(m_brokenRun.exitCode, 1);
        // One invalid document per broken file, counted in the run's summary line.
        QVERIFY2(m_brokenRun.output.contains(
                     QString(" document(s) checked, %1 invalid").arg(std::size(kBroken))),
                 qPrintable(m_brokenRun.output));
    }

    void unknownKindIsUnusable()
    {
        QTemporaryDir dir;
        QFile f(dir.filePath("x.yaml"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
        f.close();
        const ValidatorRun r = validate({f.fileName()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.output.contains("no schema for apiVersion 'v1' kind 'ConfigMap'"),
                 qPrintable(r.output));
    }
};

QTEST_APPLESS_MAIN(TestExportSchema)
#include "tst_export_schema.moc"
