// Names with escape sequences, carriage returns, DEL, C1 controls, bidirectional overrides
// and bytes that are not UTF-8 reach the terminal escaped: the escaper itself (exact
// outputs, pieces split inside a UTF-8 sequence), every command's output through
// runCommand (info, place, validate, history on a hostile scenario), JSON output that stays
// the same JSON, and the progress bar's own control sequences that still reach the terminal.
// Text laid out for the terminal's width: tables that split rather than overflow, help and
// tables of every command within $COLUMNS.

#include "cli/command.h"
#include "cli/progress.h"
#include "cli/terminal_stream.h"
#include "io/scenario_json.h"
#include "runs/decision_explanation.h"
#include "util/count_text.h"
#include "util/terminal_text.h"
#include "util/text.h"
#include "util/text_table.h"

#include <QtTest>

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <set>
#include <sstream>

using namespace cb;

namespace {

struct Outcome
{
    int code = -1;
    std::string out, err;
};

Outcome run(const std::vector<std::string> &args, bool terminal = false)
{
    std::ostringstream out, err;
    cli::Io io{out, err, terminal};
    const int code = cli::runCommand(args, io);
    return {code, out.str(), err.str()};
}

/// No byte that makes a terminal act: C0 controls other than newline, DEL, ESC above all.
bool inert(const std::string &s)
{
    for (unsigned char c : s)
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return false;
    return s.find("\xc2\x9b") == std::string::npos && s.find("\xe2\x80\xae") == std::string::npos;
}

const std::string kEsc = "\x1b[31mred\x1b]0;title\x07";
const std::string kCr = "ok\rFAKE";

} // namespace

class TestTerminalText : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string m_hostile;

private slots:
    void initTestCase()
    {
        qputenv("CLUSTERBENCH_WORKSPACE", m_dir.filePath("ws.sqlite").toUtf8());
        auto s = loadScenarioFile(CB_SOURCE_DIR "/tests/fuzz/seeds/scenario/tiny.json");
        QVERIFY(s.ok());
        s->name = "lab" + kEsc;
        s->cluster.nodes[0].id = "n1" + kCr;
        s->cluster.links[0].a = s->cluster.nodes[0].id;
        s->jobs[0].id = "job\x7f\xc2\x9b" "2J\xe2\x80\xae";
        s->jobs[1].model.name = "m\tx";
        m_hostile = m_dir.filePath("hostile.json").toStdString();
        QVERIFY(saveScenarioFile(m_hostile, s.value()).ok());
    }

    void escapes_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("plain") << QByteArray("node-01 x") << QByteArray("node-01 x");
        QTest::newRow("esc") << QByteArray("\x1b[2J") << QByteArray("\\u001b[2J");
        QTest::newRow("cr tab newline") << QByteArray("a\rb\tc\nd") << QByteArray("a\\rb\\tc\\nd");
        QTest::newRow("bell nul") << QByteArray("a\x07", 2) + QByteArray(1, '\0')
                                  << QByteArray("a\\u0007\\u0000");
        QTest::newRow("del") << QByteArray("N\x7f" "de") << QByteArray("N\\u007fde");
        QTest::newRow("c1 csi") << QByteArray("\xc2\x9b" "31m") << QByteArray("\\u009b31m");
        QTest::newRow("bidi override") << QByteArray("abc\xe2\x80\xae" "fed")
                                       << QByteArray("abc\\u202efed");
        QTest::newRow("line separator") << QByteArray("a\xe2\x80\xa8" "b")
                                        << QByteArray("a\\u2028b");
        QTest::newRow("utf-8 kept") << QByteArray("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80")
                                    << QByteArray("\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
        QTest::newRow("not utf-8") << QByteArray("a\xff" "b\xc3") << QByteArray("a\\xffb\\xc3");
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << QByteArray("\\xc0\\xaf");
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << QByteArray("\\xed\\xa0\\x80");
        QTest::newRow("cut sequence") << QByteArray("\xe2\x82" "x") << QByteArray("\\xe2\\x82x");
    }
    void escapes()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, shown);
        const std::string out = terminalText(std::string_view(in.data(), std::size_t(in.size())));
        QCOMPARE(QByteArray::fromStdString(out), shown);
        QVERIFY(inert(out));
    }

    void streamKeepsNewlinesAndJoinsSplitSequences()
    {
        TerminalEscaper e(true);
        // "é" and "€" split across pieces, then a piece ending in half a sequence at the end.
        std::string out = e.feed("line 1\n\xc3");
        out += e.feed("\xa9\xe2");
        out += e.feed("\x82");
        out += e.feed("\xac\x1b");
        out += e.feed("\xe2\x80");
        out += e.finish();
        QCOMPARE(QByteArray::fromStdString(out),
                 QByteArray("line 1\n\xc3\xa9\xe2\x82\xac\\u001b\\xe2\\x80"));
    }

    void commandsShowNamesEscaped_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("info") << QStringList{"info"};
        QTest::newRow("validate") << QStringList{"validate"};
        QTest::newRow("place") << QStringList{"place", "--policy", "dltap", "--no-save"};
        QTest::newRow("place log") << QStringList{"place", "--policy", "dltap", "--log",
                                                  "--no-save"};
        QTest::newRow("simulate") << QStringList{"simulate", "--policy", "dltap"};
        QTest::newRow("compare") << QStringList{"compare", "--policies", "dltap,binpack",
                                                "--no-save"};
        QTest::newRow("step") << QStringList{"step", "--policy", "dltap", "--script", "nnp"};
    }
    void commandsShowNamesEscaped()
    {
        QFETCH(QStringList, args);
        std::vector<std::string> argv = {args.front().toStdString(), m_hostile};
        for (int i = 1; i < args.size(); ++i)
            argv.push_back(args[i].toStdString());
        const Outcome r = run(argv);
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(inert(r.out), r.out.c_str());
        QVERIFY2(inert(r.err), r.err.c_str());
        QVERIFY(!r.out.empty());
    }

    void historyShowsStoredNamesEscaped()
    {
        const Outcome sim = run({"simulate", m_hostile, "--policy", "dltap"});
        QVERIFY2(sim.code == 0, sim.err.c_str());
        const Outcome h = run({"history"});
        QCOMPARE(h.code, 0);
        QVERIFY2(inert(h.out), h.out.c_str());
        QVERIFY2(h.out.find("lab\\u001b[31mred") != std::string::npos, h.out.c_str());
        const Outcome show = run({"show", "1"});
        QCOMPARE(show.code, 0);
        QVERIFY2(inert(show.out), show.out.c_str());
    }

    void jsonStaysTheSameJson()
    {
        const Outcome r = run({"place", m_hostile, "--policy", "dltap", "--no-save", "--json"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(inert(r.out));
        const auto j = nlohmann::json::parse(r.out);
        std::set<std::string> jobs;
        for (const auto &job : j["placement"]["jobs"])
            jobs.insert(job["job"].get<std::string>());
        QVERIFY2(jobs.count("job\x7f\xc2\x9b" "2J\xe2\x80\xae"), r.out.c_str());
        QCOMPARE(j["scenario"].get<std::string>(), "lab" + kEsc);
    }

    void unknownCommandAndOptionAreEscaped()
    {
        const Outcome r = run({"\x1b[2Jsweep"});
        QCOMPARE(r.code, 2);
        QVERIFY(inert(r.err));
        QVERIFY(r.err.find("\\u001b[2Jsweep") != std::string::npos);
        const Outcome o = run({"info", m_hostile, "--\x1b[1mcolour"});
        QCOMPARE(o.code, 2);
        QVERIFY(inert(o.err));
    }

    void amountsBelowTheLastDecimal()
    {
        // A positive amount that rounds to nothing reads as below the smallest step shown;
        // zero, negative and visible amounts read as formatFixed writes them.
        QCOMPARE(formatAmount(0.004, 2), std::string("<0.01"));
        QCOMPARE(formatAmount(0.005, 2), std::string("0.01"));
        QCOMPARE(formatAmount(0.0, 2), std::string("0.00"));
        QCOMPARE(formatAmount(-0.004, 2), std::string("-0.00"));
        QCOMPARE(formatAmount(14.92, 2), std::string("14.92"));
        QCOMPARE(formatAmount(0.00004, 4), std::string("<0.0001"));
        QCOMPARE(formatAmount(1e-300, 0), std::string("<1"));
    }

    void thousandsGrouped()
    {
        // Terminal figures group the thousands of their whole part, as people read them.
        QCOMPARE(groupedFixed(2693305.14, 1), std::string("2,693,305.1"));
        QCOMPARE(groupedFixed(-1234.5, 1), std::string("-1,234.5"));
        QCOMPARE(groupedFixed(999.994, 2), std::string("999.99"));
        QCOMPARE(groupedFixed(999.996, 2), std::string("1,000.00"));
        QCOMPARE(groupedFixed(1e6, 0), std::string("1,000,000"));
        QCOMPARE(groupedFixed(0.5, 3), std::string("0.500"));
        // (whole figures without decimals: generate's and info's bisection, CPUs)
        QCOMPARE(groupedNumber(28800), std::string("28,800"));
        QCOMPARE(groupedNumber(2.5), std::string("2.5"));
        QCOMPARE(groupedNumber(-1024), std::string("-1,024"));
        QCOMPARE(bytesText(45277.7e12), std::string("45.3 PB"));
        QCOMPARE(bytesText(2e18), std::string("2,000.0 PB"));
    }

    void memoryInItsLargestUnit()
    {
        QCOMPARE(memoryText(262144), std::string("262,144 GiB"));
        QCOMPARE(memoryText(1.5), std::string("1.5 GiB"));
        QCOMPARE(memoryText(0.99999), std::string("1 GiB"));
        QCOMPARE(memoryText(0.5), std::string("512 MiB"));
        QCOMPARE(memoryText(3.0 / (1024 * 1024)), std::string("3 KiB"));
        QCOMPARE(memoryText(512.0 / (1024.0 * 1024 * 1024)), std::string("512 bytes"));
        QCOMPARE(memoryText(1.0 / (1024.0 * 1024 * 1024)), std::string("1 byte"));
        QCOMPARE(memoryText(0), std::string("0 GiB"));
        // info reads them so, a 1,024-node cluster's figures grouped.
        const Outcome info = run({"info", CB_SOURCE_DIR "/sample-clusters/fat-tree-1024.json"});
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.find("Nodes        1,024 (32,768 CPUs, 262,144 GiB)\n") !=
                     std::string::npos,
                 info.out.c_str());
        QVERIFY2(info.out.find("Bisection    51,200 Gbit/s\n") != std::string::npos,
                 info.out.c_str());
    }

    void tableColumnsTakeWhatTheyNeed()
    {
        TextTable t;
        t.headers = {"policy", "jobs", "cross MB"};
        t.rightAligned = {false, true, true};
        t.rows = {{"dltap", "9", "11303.1"}, {"k8s-default", "12", "16078.3"}};
        QCOMPARE(t.render(80), std::string("policy       jobs  cross MB\n"
                                           "dltap           9   11303.1\n"
                                           "k8s-default    12   16078.3\n"));
        // Too wide: the other columns in blocks under each other, the key column repeated;
        // a column wider than the room still printed whole.
        QCOMPARE(t.render(20), std::string("policy       jobs\n"
                                           "dltap           9\n"
                                           "k8s-default    12\n"
                                           "\n"
                                           "policy       cross MB\n"
                                           "dltap         11303.1\n"
                                           "k8s-default   16078.3\n"));
        t.indent = 2;
        t.rows.push_back({"a"}); // missing cells are blank
        QCOMPARE(t.render(80), std::string("  policy       jobs  cross MB\n"
                                           "  dltap           9   11303.1\n"
                                           "  k8s-default    12   16078.3\n"
                                           "  a\n"));
    }

    void outputFitsColumns()
    {
        // Every command's help, and compare's tables, within $COLUMNS (words are not cut: the
        // longest, the workspace's default path at an option's 24-column indent, ends at 69).
        qputenv("COLUMNS", "72");
        const auto fits = [](const std::string &text) {
            std::istringstream lines(text);
            for (std::string l; std::getline(lines, l);)
                if (displayWidth(l) > 72)
                    return l;
            return std::string();
        };
        for (const cli::Command &c : cli::commands()) {
            const Outcome help = run({c.name, "--help"});
            QCOMPARE(help.code, 0);
            QCOMPARE(QString::fromStdString(fits(help.out)), QString());
        }
        QCOMPARE(QString::fromStdString(fits(cli::mainHelp())), QString());
        const Outcome compare = run({"compare", CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json",
                                     "--policies", "dltap,k8s-default,spread", "--no-save"});
        QCOMPARE(compare.code, 0);
        QCOMPARE(QString::fromStdString(fits(compare.out)), QString());
        // Per model: a row per model, a column per policy.
        QVERIFY2(compare.out.find("model         dltap        k8s-default             spread\n"
                                  "alexnet     3,421.6  4,399.3 (-28.6 %)  4,399.3 (-28.6 %)\n") !=
                     std::string::npos,
                 compare.out.c_str());
        qputenv("COLUMNS", "80"); // as the test bundle sets it
    }

    void progressBarStillDrawsOnTheTerminal()
    {
        // The bar's own \r and erase-line reach the terminal; the text inside is escaped.
        std::ostringstream out, err;
        std::ostringstream safeOut, safeErr;
        cli::Io io{safeOut, safeErr, true, &out, &err};
        {
            cli::ProgressBar bar(io, "import x\x1b[2J");
            bar.update(1, 2);
        }
        const std::string e = err.str();
        QVERIFY2(e.rfind("\rimport x\\u001b[2J [", 0) == 0, e.c_str());
        QVERIFY(e.find("\x1b[K") != std::string::npos);
        QVERIFY(safeErr.str().empty());
    }

    void stderrAtATerminalIsWrapped()
    {
        // Each complete line is broken at spaces to the width, continuing 2 deeper than the
        // line's own indent; a line written in pieces is wrapped whole; a flush passes a
        // line not yet ended as it is.
        std::ostringstream target;
        {
            cli::LineWrapStream wrap(target, 40);
            wrap << "clusterbench import: /data/trace.csv:12: col";
            wrap << "umn \"gpus\" expected a count, found \"x\"\n";
            wrap << "  - a list item that runs on past the forty columns\nshort\n";
            wrap << "progress 1 of 2" << std::flush;
            QCOMPARE(target.str(), std::string("clusterbench import: /data/trace.csv:12:\n"
                                               "  column \"gpus\" expected a count, found\n"
                                               "  \"x\"\n"
                                               "  - a list item that runs on past the\n"
                                               "    forty columns\n"
                                               "short\n"
                                               "progress 1 of 2"));
            wrap << " done\n";
        }
        QVERIFY(target.str().ends_with("progress 1 of 2 done\n"));
        // Through runCommand: an error at a 40-column terminal fits it; redirected, it is one
        // line (for grep).
        qputenv("COLUMNS", "40");
        const std::vector<std::string> args{"info", "/no/such/folder/with/a/long/name/s.json"};
        for (const bool terminal : {true, false}) {
            std::ostringstream out, err;
            cli::Io io{out, err, terminal};
            QCOMPARE(cli::runCommand(args, io), 2);
            std::istringstream lines(err.str());
            int count = 0;
            for (std::string line; std::getline(lines, line); ++count)
                if (terminal)
                    QVERIFY2(displayWidth(line) <= 40 || line.find(' ', 2) == std::string::npos,
                             line.c_str());
            QVERIFY2(terminal ? count > 1 : count == 1, err.str().c_str());
        }
        qputenv("COLUMNS", "80"); // as the test bundle sets it
    }
};

QTEST_APPLESS_MAIN(TestTerminalText)
#include "tst_terminal_text.moc"
