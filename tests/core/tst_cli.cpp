// The terminal interface as a user drives it: exit codes, messages, --help, and the rule that
// core/ stays free of Qt.

#include <QtTest>

#include <QDirIterator>
#include <QProcess>
#include <QRegularExpression>

namespace {

struct Run
{
    int code = -1;
    QString out;
    QString err;
};

Run clusterbench(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(CB_CLUSTERBENCH), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QStringList samples()
{
    QStringList out;
    QDirIterator it(QStringLiteral(CB_SOURCE_DIR "/sample-clusters"), {QStringLiteral("*.json")});
    while (it.hasNext())
        out << it.next();
    out.sort();
    return out;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void everySampleValidates()
    {
        const QStringList files = samples();
        if (files.isEmpty())
            QSKIP("no sample scenarios yet");
        const Run r = clusterbench(QStringList{QStringLiteral("validate")} + files);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QCOMPARE(r.out.count(QStringLiteral(": valid (")), files.size());
    }

    void invalidFileListsEveryProblem()
    {
        QTemporaryFile f;
        QVERIFY(f.open());
        f.write("{\"format\": \"clusterbench-scenario\", \"version\": 1, \"cluster\": "
                "{\"nodes\": [{\"id\": \"a\", \"cpus\": -1, \"memory_gib\": \"x\"}]}}");
        f.close();
        const Run r = clusterbench({QStringLiteral("validate"), f.fileName()});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.contains(f.fileName() + QStringLiteral(": /cluster/nodes/0/cpus: expected "
                                                              "a number from 0 to 1e+06, found -1")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("/cluster/nodes/0/memory_gib: expected a number, "
                                              "found a string")));
        QVERIFY(r.out.contains(QStringLiteral(": 2 problems")));
    }

    void validateJson()
    {
        const Run r = clusterbench({QStringLiteral("validate"), QStringLiteral("--json"),
                                    QStringLiteral("/no/such.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.contains(QStringLiteral("\"valid\": false")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("cannot open")));
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown option first") << QStringList{QStringLiteral("--frobnicate")} << 2
                                              << QStringLiteral("unknown option --frobnicate");
        QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << 2
                                         << QStringLiteral("unknown command \"frobnicate\"\n");
        QTest::newRow("mistyped command")
            << QStringList{QStringLiteral("sweeep"), QStringLiteral("x.json")} << 2
            << QStringLiteral("unknown command \"sweeep\" (did you mean \"sweep\"?)\nRun "
                              "'clusterbench --help' for every command.\n");
        QTest::newRow("validate without file") << QStringList{QStringLiteral("validate")} << 2
                                               << QStringLiteral("expected at least one FILE");
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("info"), QStringLiteral("--bogus"), QStringLiteral("x")}
            << 2 << QStringLiteral("--bogus: unknown option");
        QTest::newRow("info on missing file")
            << QStringList{QStringLiteral("info"), QStringLiteral("/no/file.json")} << 2
            << QStringLiteral("/no/file.json: cannot open");
        QTest::newRow("place on missing file")
            << QStringList{QStringLiteral("place"), QStringLiteral("/no/file.json"),
                           QStringLiteral("--policy"), QStringLiteral("dltap")}
            << 2 << QStringLiteral("/no/file.json: cannot open");
        QTest::newRow("simulate on missing file")
            << QStringList{QStringLiteral("simulate"), QStringLiteral("/no/file.json"),
                           QStringLiteral("--policy"), QStringLiteral("dltap")}
            << 2 << QStringLiteral("/no/file.json: cannot open");
        QTest::newRow("import with a --cluster that is no file")
            << QStringList{QStringLiteral("import"),
                           QStringLiteral(CB_TEST_DATA "/import/traces/tiresias/60_job.csv"),
                           QStringLiteral("--cluster"), QStringLiteral("/no/file.json"),
                           QStringLiteral("--out"), QDir::tempPath() + "/never-written.json"}
            << 2 << QStringLiteral("/no/file.json: cannot open");
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, code);
        QFETCH(QString, message);
        const Run r = clusterbench(args);
        QCOMPARE(r.code, code);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        // A file named in the message is named once ("x.json: x.json: cannot open" before).
        if (message.contains(QStringLiteral(".json:")))
            QCOMPARE(r.err.count(message.section(QLatin1Char(':'), 0, 0)), 1);
    }

    void windowWithoutDisplayExplains()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(CB_CLUSTERBENCH),
                {QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 2);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        if (err.contains(QStringLiteral("built without the GUI")))
            QSKIP("this build has no window (CB_BUILD_GUI=OFF)");
        QVERIFY2(err.contains(QStringLiteral("no display for the window")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("-platform offscreen")), qPrintable(err));
    }

    void everyCommandHasHelp()
    {
        const Run top = clusterbench({QStringLiteral("--help")});
        QCOMPARE(top.code, 0);
        // Command names are the first words of the "Commands:" section's lines indented by
        // two spaces (a summary's wrapped rest is indented further).
        const QString list = top.out.section(QStringLiteral("Commands:\n"), 1).section(
            QStringLiteral("\n\n"), 0, 0);
        const QStringList lines = list.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 2);
        for (const QString &line : lines) {
            if (line.startsWith(QStringLiteral("   ")))
                continue;
            const QString name = line.trimmed().section(QLatin1Char(' '), 0, 0);
            const Run r = clusterbench({name, QStringLiteral("--help")});
            QVERIFY2(r.code == 0, qPrintable(name));
            QVERIFY2(r.out.startsWith(QStringLiteral("Usage: clusterbench ") + name),
                     qPrintable(r.out));
            // `help NAME` is the same text (it printed the list of commands)
            const Run viaHelp = clusterbench({QStringLiteral("help"), name});
            QCOMPARE(viaHelp.code, 0);
            QCOMPARE(viaHelp.out, r.out);
        }
        QCOMPARE(clusterbench({QStringLiteral("help")}).out, top.out);
    }

    void infoSummarises()
    {
        const QStringList files = samples();
        if (files.isEmpty())
            QSKIP("no sample scenarios yet");
        for (const QString &file : files) {
            const Run r = clusterbench({QStringLiteral("info"), file});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY(r.out.contains(QStringLiteral("\nNodes ")));
            QVERIFY(r.out.contains(QStringLiteral("\nBisection ")));
        }
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
