// Every registered terminal command, table-driven: --help (exit 0, usage, options, --json,
// the exit codes), an unknown option (exit 2), missing arguments (exit 2, a message on
// stderr, nothing on stdout); and the stderr progress bar, drawn only on a terminal.

#include "cli/command.h"
#include "cli/progress.h"

#include <QtTest>

#include <QTemporaryDir>

#include <set>
#include <sstream>

using namespace cb::cli;

namespace {

struct Outcome
{
    int code = -1;
    std::string out, err;
};

Outcome run(const std::vector<std::string> &args, bool terminal = false)
{
    std::ostringstream out, err;
    Io io{out, err, terminal};
    const int code = runCommand(args, io);
    return {code, out.str(), err.str()};
}

} // namespace

class TestCommands : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        // Commands that read the default workspace must not touch the user's.
        qputenv("CLUSTERBENCH_WORKSPACE", m_dir.filePath(QStringLiteral("ws.sqlite")).toUtf8());
    }

    void everyCommandIsListed()
    {
        std::set<std::string> names;
        for (const Command &c : commands())
            names.insert(c.name);
        QCOMPARE(names.size(), commands().size());
        for (const char *n : {"validate", "info", "generate", "import", "place", "compare",
                              "export", "experiment", "simulate", "history", "show", "diff", "step",
                              "explain", "why", "sweep", "sweep-point", "merge"})
            QVERIFY2(names.count(n), n);
        const std::string help = mainHelp();
        for (const Command &c : commands())
            QVERIFY2(help.find("  " + c.name + " ") != std::string::npos, c.name.c_str());
    }

    void help_data()
    {
        QTest::addColumn<QString>("name");
        for (const Command &c : commands())
            QTest::newRow(c.name.c_str()) << QString::fromStdString(c.name);
    }
    void help()
    {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        for (const char *flag : {"--help", "-h"}) {
            const Outcome r = run({n, flag});
            QCOMPARE(r.code, 0);
            QVERIFY(r.err.empty());
            QVERIFY2(r.out.rfind("Usage: clusterbench " + n, 0) == 0, r.out.c_str());
            QVERIFY(r.out.find("Exit codes: 0 ok, 1 failure, 2 bad input or usage.") !=
                    std::string::npos);
            QVERIFY2(r.out.find("  --json") != std::string::npos, r.out.c_str());
        }
        const Command *c = findCommand(n);
        QVERIFY(c);
        QVERIFY(!c->summary.empty());
        for (const Option &o : c->options)
            QVERIFY2(!o.help.empty(), (n + " --" + o.name).c_str());
    }

    void unknownOption_data() { help_data(); }
    void unknownOption()
    {
        QFETCH(QString, name);
        const Outcome r = run({name.toStdString(), "--no-such-option"});
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.empty());
        QVERIFY2(r.err.find("--no-such-option: unknown option") != std::string::npos,
                 r.err.c_str());
    }

    void missingArguments_data() { help_data(); }
    void missingArguments()
    {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const Outcome r = run({n});
        if (n == "history") { // lists the (empty) default workspace
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.find("No runs in ") == 0, r.out.c_str());
            return;
        }
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.empty(), r.out.c_str());
        QVERIFY2(r.err.find("clusterbench " + n) != std::string::npos, r.err.c_str());
    }

    void missingFile_data()
    {
        QTest::addColumn<QStringList>("args");
        const QString missing = m_dir.filePath(QStringLiteral("missing.json"));
        auto row = [&](const char *name, QStringList args) {
            QTest::newRow(name) << args;
        };
        row("validate", {"validate", missing});
        row("info", {"info", missing});
        row("place", {"place", missing, "--policy", "dltap"});
        row("compare", {"compare", missing, "--policies", "dltap"});
        row("simulate", {"simulate", missing, "--policy", "dltap"});
        row("step", {"step", missing, "--policy", "dltap"});
        row("explain", {"explain", missing, "--policy", "dltap", "--decision", "1"});
        row("why", {"why", missing, "some-job", "--policy", "dltap"});
        row("sweep", {"sweep", missing, "--policies", "dltap"});
        row("sweep-point", {"sweep-point", missing, "0", "--out", missing + ".out"});
        row("merge", {"merge", missing});
        row("export", {"export", missing, "--policy", "dltap", "--format", "k8s-pods", "--out",
                       m_dir.filePath("out")});
    }
    void missingFile()
    {
        QFETCH(QStringList, args);
        std::vector<std::string> argv;
        for (const QString &a : args)
            argv.push_back(a.toStdString());
        const Outcome r = run(argv);
        QCOMPARE(r.code, 2);
        // validate reports problems as its result (stdout); the others on stderr.
        const std::string report = r.err + r.out;
        QVERIFY2(report.find("missing.json") != std::string::npos, report.c_str());
    }

    void progressBar()
    {
        QCOMPARE(ProgressBar::text("sweep", 3, 12, 8),
                 std::string("sweep [##------] 3/12 25%"));
        QCOMPARE(ProgressBar::text("x", 12, 12, 4), std::string("x [####] 12/12 100%"));
        {
            std::ostringstream out, err;
            Io io{out, err, false};
            ProgressBar bar(io, "quiet");
            bar.update(1, 2);
            bar.update(2, 2);
            bar.finish();
            QVERIFY(err.str().empty());
        }
        {
            std::ostringstream out, err;
            Io io{out, err, true};
            {
                ProgressBar bar(io, "loud");
                bar.update(1, 2);
                bar.update(1, 2); // unchanged: not redrawn
                bar.update(2, 2);
            }
            QCOMPARE(err.str(), "\r" + ProgressBar::text("loud", 1, 2) + "\x1b[K\r" +
                                    ProgressBar::text("loud", 2, 2) + "\x1b[K\r\x1b[K");
        }
    }

    void compareShowsProgressOnATerminalOnly()
    {
        const std::string testbed = CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json";
        const std::vector<std::string> args = {"compare", testbed, "--policies",
                                               "k8s-default,dltap", "--seeds", "3", "--no-save"};
        const Outcome quiet = run(args, false);
        QCOMPARE(quiet.code, 0);
        QVERIFY(quiet.err.empty());
        const Outcome loud = run(args, true);
        QCOMPARE(loud.code, 0);
        QCOMPARE(loud.out, quiet.out);
        QVERIFY2(loud.err.find("6/6 100%") != std::string::npos, loud.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCommands)
#include "tst_commands.moc"
