// The JSON Schema that documents the scenario format agrees with the loader: every sample and
// every canonical save passes it, and it rejects what the loader rejects structurally.

#include "io/scenario_json.h"

#include <QtTest>

#include <QDirIterator>
#include <QProcess>

namespace {

const char *kSchema = CB_SOURCE_DIR "/core/io/scenario.schema.json";

// Validates JSON files against the schema with Debian's python3-jsonschema; returns the
// validator's output ("OK name" or "FAIL name: message" per file).
QString validate(const QStringList &files, int *exitCode)
{
    const QString script = QStringLiteral(
        "import json, sys, jsonschema\n"
        "schema = json.load(open(sys.argv[1]))\n"
        "v = jsonschema.Draft202012Validator(schema)\n"
        "bad = 0\n"
        "for f in sys.argv[2:]:\n"
        "    errs = sorted(v.iter_errors(json.load(open(f, encoding='utf-8-sig'))), key=str)\n"
        "    print(('FAIL ' + f + ': ' + errs[0].message) if errs else ('OK ' + f))\n"
        "    bad += bool(errs)\n"
        "sys.exit(1 if bad else 0)\n");
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"),
            QStringList{QStringLiteral("-c"), script, QString::fromUtf8(kSchema)} + files);
    p.waitForFinished(60000);
    *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

bool haveJsonschema()
{
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"),
            {QStringLiteral("-c"), QStringLiteral("import jsonschema")});
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit &&
           p.exitCode() == 0;
}

QString writeTemp(QTemporaryDir &dir, const QString &name, const std::string &text)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(text.data(), qint64(text.size()));
    return path;
}

} // namespace

class TestSchema : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!haveJsonschema())
            QSKIP("python3-jsonschema is not installed (.ci/setup-deps installs it)");
    }

    void samplesPassSchema()
    {
        QStringList files;
        QDirIterator it(QStringLiteral(CB_SOURCE_DIR "/sample-clusters"),
                        {QStringLiteral("*.json")});
        while (it.hasNext())
            files << it.next();
        if (files.isEmpty())
            QSKIP("no samples yet");
        int code = -1;
        const QString out = validate(files, &code);
        QVERIFY2(code == 0, qPrintable(out));
        QCOMPARE(out.count(QStringLiteral("OK ")), files.size());
    }

    void schemaRejectsWhatLoaderRejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("schemaMessage");
        const QString head = QStringLiteral(
            "{\"format\": \"clusterbench-scenario\", \"version\": 1, \"cluster\": {\"nodes\": [");
        QTest::newRow("unknown field")
            << head + QStringLiteral("{\"id\": \"a\", \"cpus\": 1, \"memory_gib\": 1, "
                                     "\"colour\": \"red\"}]}}")
            << QStringLiteral("Additional properties are not allowed");
        QTest::newRow("wrong type")
            << head + QStringLiteral("{\"id\": \"a\", \"cpus\": \"1\", \"memory_gib\": 1}]}}")
            << QStringLiteral("is not of type 'number'");
        QTest::newRow("newer version")
            << QStringLiteral("{\"format\": \"clusterbench-scenario\", \"version\": 2, "
                              "\"cluster\": {\"nodes\": [{\"id\": \"a\", \"cpus\": 1, "
                              "\"memory_gib\": 1}]}}")
            << QStringLiteral("1 was expected");
    }
    void schemaRejectsWhatLoaderRejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, schemaMessage);
        QVERIFY(!cb::scenarioFromText(text.toStdString()).ok());
        QTemporaryDir dir;
        const QString path = writeTemp(dir, QStringLiteral("bad.json"), text.toStdString());
        int code = -1;
        const QString out = validate({path}, &code);
        QCOMPARE(code, 1);
        QVERIFY2(out.contains(schemaMessage), qPrintable(out));
    }
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
