// The terminal stepper: key decoding, the placement up to the cursor, frames that never
// exceed the width, the script mode, and the real thing driven through tmux (send-keys n n p,
// capture-pane) with the terminal restored after q and after Ctrl-C.

#include "cli/step_view.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "io/policy_json.h"
#include "runs/run_service.h"
#include "util/text.h"

#include "util/count_text.h"

#include <QtTest>

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using namespace cb;
using cb::cli::StepKey;

namespace {

const std::string kTestbed = CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json";

Scenario testbed()
{
    auto s = loadScenarioFile(kTestbed);
    return s.ok() ? s.value() : Scenario{};
}

DecisionLog logOf(const Scenario &s, const Topology &topo, const std::string &policy,
                  std::uint64_t seed, Placement *placement = nullptr)
{
    auto p = resolvePolicy(policy, {});
    DecisionLog log;
    Placement pl = placeScenario(s, topo, p.value(), seed, &log);
    if (placement)
        *placement = pl;
    return log;
}

std::string stripAnsi(const std::string &line)
{
    std::string out;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b') {
            while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i])))
                ++i;
            continue;
        }
        out += line[i];
    }
    return out;
}

int visibleWidth(const std::string &line)
{
    int n = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b') { // skip CSI ... letter
            while (i < line.size() && !std::isalpha(static_cast<unsigned char>(line[i])))
                ++i;
            continue;
        }
        if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80)
            ++n;
    }
    return n;
}

struct Cli
{
    int code = -1;
    std::string out, err;
};

Cli clusterbench(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(CB_CLUSTERBENCH), args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

QString tmux(const QString &socket, const QStringList &args, int *code = nullptr)
{
    QProcess p;
    p.start(QStringLiteral("tmux"), QStringList{QStringLiteral("-L"), socket} + args);
    p.waitForFinished(10000);
    if (code)
        *code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    const QByteArray err = p.readAllStandardError();
    if (!err.isEmpty())
        qWarning("tmux %s: %s", qPrintable(args.join(' ')), err.constData());
    return QString::fromUtf8(p.readAllStandardOutput());
}

/// Polls the pane until it shows `text` (or 15 s pass); returns the last capture.
QString waitFor(const QString &socket, const QString &text)
{
    QElapsedTimer t;
    t.start();
    QString screen;
    while (t.elapsed() < 15000) {
        screen = tmux(socket, {QStringLiteral("capture-pane"), QStringLiteral("-p"),
                               QStringLiteral("-t"), QStringLiteral("step")});
        if (screen.contains(text))
            return screen;
        QTest::qWait(50);
    }
    return screen;
}

} // namespace

class TestStep : public QObject
{
    Q_OBJECT

private slots:
    void keys()
    {
        const std::string in = "np\x1b[C\x1b[D\x1b[H\x1b[F\x1b[1~\x1b[4~\x1bOH\x1bOF +-qx";
        std::vector<StepKey> got;
        for (std::size_t pos = 0; pos < in.size();)
            got.push_back(cli::decodeStepKey(in, pos));
        const std::vector<StepKey> want = {
            StepKey::Next,  StepKey::Previous, StepKey::Next,  StepKey::Previous,
            StepKey::First, StepKey::Last,     StepKey::First, StepKey::Last,
            StepKey::First, StepKey::Last,     StepKey::PlayPause, StepKey::Faster,
            StepKey::Slower, StepKey::Quit,    StepKey::None};
        QVERIFY(got == want);
    }

    void placementUpToCursor()
    {
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        Placement full;
        const DecisionLog log = logOf(s, topo, "dltap", 1, &full);
        const cli::StepView view(s, topo, log);
        // After the last decision: every placed task on the node the placer chose.
        const Placement last = view.placementUpTo(view.decisionCount() - 1);
        QCOMPARE(last.jobs.size(), full.jobs.size());
        for (std::size_t j = 0; j < full.jobs.size(); ++j) {
            QCOMPARE(last.jobs[j].jobId, full.jobs[j].jobId);
            QCOMPARE(last.jobs[j].tasks.size(), full.jobs[j].tasks.size());
            for (std::size_t t = 0; t < full.jobs[j].tasks.size(); ++t) {
                QCOMPARE(last.jobs[j].tasks[t].node, full.jobs[j].tasks[t].node);
                QCOMPARE(last.jobs[j].tasks[t].indexInRole, full.jobs[j].tasks[t].indexInRole);
            }
        }
        // After the first decision: exactly one task.
        const Placement first = view.placementUpTo(0);
        QCOMPARE(first.jobs.size(), std::size_t(1));
        QCOMPARE(first.jobs[0].tasks.size(), std::size_t(1));
        QCOMPARE(first.jobs[0].tasks[0].node, log.nodeNames[std::size_t(log.decisions[0].pick)]);
    }

    void framesFitTheWidth_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<bool>("colour");
        QTest::newRow("wide") << 160 << 60 << false;
        QTest::newRow("80x24 colour") << 80 << 24 << true;
        QTest::newRow("narrow") << 40 << 12 << false;
    }
    void framesFitTheWidth()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(bool, colour);
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        const DecisionLog log = logOf(s, topo, "k8s-default", 2);
        const cli::StepView view(s, topo, log);
        cli::StepScreen screen{width, height, colour, false, 1, {}};
        for (int k = 0; k < view.decisionCount(); ++k) {
            const auto lines = view.render(k, screen);
            QVERIFY(int(lines.size()) <= height);
            bool cut = false;
            for (const std::string &l : lines) {
                QVERIFY2(visibleWidth(l) <= width, l.c_str());
                cut = cut || (l.size() >= 3 && l.compare(l.size() - 3, 3, "...") == 0);
            }
            QCOMPARE(stripAnsi(lines[1]).substr(0, 9 + std::to_string(k + 1).size()),
                     "Decision " + std::to_string(k + 1));
            if (width == 40)
                QVERIFY(cut);
        }
        if (width == 80) {
            // Too narrow for every plugin's name and raw score: numbered plugins, weighted
            // scores only, the total right after the node, nothing in the table cut.
            const auto lines = view.render(5, screen);
            const Decision &d = log.decisions[5];
            const std::string winner = log.nodeNames[std::size_t(d.pick)];
            bool header = false, legend = false, row = false;
            for (const std::string &raw : lines) {
                const std::string l = stripAnsi(raw);
                if (l.rfind("  node ", 0) == 0 && l.find("total") != std::string::npos) {
                    header = true;
                    QVERIFY2(l.find("total") < l.find("#1 x"), l.c_str());
                    QVERIFY2(l.find("...") == std::string::npos, l.c_str());
                }
                if (l.rfind("  #1 " + log.pluginNames[0], 0) == 0)
                    legend = true;
                if (l.rfind("> " + winner, 0) == 0) {
                    row = true;
                    QVERIFY2(l.find(" -> ") == std::string::npos, l.c_str());
                    // Each plugin's cell is its weighted score, written "=S" under "#N xW"
                    // so that it does not read as a raw score to multiply by W.
                    const std::string total = l.substr(2 + winner.size());
                    QCOMPARE(int(std::count(total.begin(), total.end(), '=')),
                             int(log.pluginNames.size()));
                }
            }
            QVERIFY(header);
            QVERIFY(legend);
            QVERIFY(row);
            // The heatmap's title, its legend (all five levels) and the keys are whole at 80
            // columns: the title's second half goes on a line of its own, the legend says
            // its unit once, the keys take fewer words. Each was cut with "..." before.
            int heatWhat = 0, levels = -1, keys = 0;
            for (const std::string &raw : lines) {
                const std::string l = stripAnsi(raw);
                const bool cut = l.size() >= 3 && l.compare(l.size() - 3, 3, "...") == 0;
                if (l.rfind("  row sends to column; cross-node ", 0) == 0 && !cut)
                    ++heatWhat;
                if (l.rfind("  legend, MB: ", 0) == 0 && !cut) {
                    levels = 0;
                    for (std::size_t at = l.find("<="); at != std::string::npos;
                         at = l.find("<=", at + 2))
                        ++levels;
                }
                if (l.rfind("n next  p previous", 0) == 0 && l.find("q quit") != std::string::npos)
                    ++keys;
            }
            QCOMPARE(heatWhat, 1);
            QCOMPARE(levels, 5);
            QCOMPARE(keys, 1);
        }
        if (width == 160) {
            // Everything fits: all 8 nodes in the table and in the heatmap, winner marked.
            const auto lines = view.render(5, screen);
            const Decision &d = log.decisions[5];
            const std::string winner = log.nodeNames[std::size_t(d.pick)];
            int marked = 0;
            for (const std::string &l : lines)
                if (l.rfind("> " + winner, 0) == 0 && l.find("winner") != std::string::npos)
                    ++marked;
            QCOMPARE(marked, 1);
            for (const std::string &l : lines)
                QVERIFY(l.find("more nodes") == std::string::npos);
        }
        if (colour)
            QVERIFY(view.render(3, screen)[1].find("\x1b[") != std::string::npos);
    }

    // The nodes a summary log keeps no row for are said under the table, on two lines when
    // one does not hold them (the line was cut with "..." at 80 columns on the fat-tree).
    void omittedNodesWrapped()
    {
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        auto p = resolvePolicy("dltap", {});
        DecisionLog log;
        log.detail = LogDetail::topK(1);
        (void)placeScenario(s, topo, p.value(), 1, &log);
        const cli::StepView view(s, topo, log);
        const std::string omitted = log.omittedSummary(log.decisions[5]);
        QVERIFY(omitted.size() + 2 > 40); // (too long for one line of 40)
        cli::StepScreen screen{40, 30, false, false, 1, {}};
        const auto lines = view.render(5, screen);
        std::string said;
        int at = -1;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            QVERIFY2(visibleWidth(lines[i]) <= 40, lines[i].c_str());
            if (lines[i].rfind("  + ", 0) == 0) {
                at = int(i);
                said = lines[i].substr(2) + " " + lines[i + 1].substr(4);
            }
        }
        QVERIFY(at >= 0);
        if (omitted.size() + 2 <= 2 * 40 - 4) // (whole on two lines)
        {
            // (the words, whatever spaces the wrap left at the break)
            std::string words;
            for (char c : said)
                if (c != ' ' || (!words.empty() && words.back() != ' '))
                    words += c;
            QVERIFY2(words == omitted, (words + " | " + omitted).c_str());
        }
        QVERIFY(int(lines.size()) <= 30);
    }

    // A job that can never start is said under the title (the alternate screen hides stderr
    // until the stepper quits); the frame stays within its height.
    void noticeUnderTheTitle()
    {
        Scenario s = testbed();
        Job big = s.jobs.front();
        big.id = "big";
        for (TaskGroup &g : big.tasks)
            if (g.role == TaskRole::Worker)
                g.replicas = 40; // 40 x 1 GPU and more on 32 GPUs
        s.jobs.push_back(big);
        QTemporaryDir dir;
        const std::string path = dir.filePath("big.json").toStdString();
        QVERIFY(saveScenarioFile(path, s).ok());
        const Cli r = clusterbench({QStringLiteral("step"), QString::fromStdString(path),
                                    QStringLiteral("--policy"), QStringLiteral("dltap"),
                                    QStringLiteral("--script"), QStringLiteral("n"),
                                    QStringLiteral("--width"), QStringLiteral("200"),
                                    QStringLiteral("--height"), QStringLiteral("24")});
        QCOMPARE(r.code, 0);
        const std::string notice = "warning: 1 job can never start on this cluster (big): "
                                   "`clusterbench validate " +
                                   path + "` says why";
        // Under the title of both frames, before the decision line.
        for (const std::string frame : {"== start ==\n", "== after key 'n' ==\n"}) {
            const std::size_t at = r.out.find(frame);
            QVERIFY2(at != std::string::npos, frame.c_str());
            const std::size_t title = at + frame.size();
            const std::size_t second = r.out.find('\n', title) + 1;
            const std::size_t third = r.out.find('\n', second);
            QCOMPARE(r.out.substr(second, third - second), notice);
            QVERIFY(r.out.compare(third + 1, 9, "Decision ") == 0);
        }

        // The view: every frame of 80 x 24 keeps to 24 lines with the notice in it.
        const Topology topo(s.cluster);
        const cli::StepView view(s, topo, logOf(s, topo, "dltap", 1));
        cli::StepScreen screen{80, 24, false, false, 1, {}};
        screen.notice = notice;
        for (int k = 0; k < view.decisionCount(); ++k) {
            const auto lines = view.render(k, screen);
            QVERIFY2(lines.size() <= 24, std::to_string(lines.size()).c_str());
            QCOMPARE(lines[1].substr(0, 20), notice.substr(0, 20));
            QCOMPARE(lines.back().substr(0, 6), std::string("n next")); // the keys still shown
        }
    }

    void heatmapCountsTheTrafficSoFar()
    {
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        const DecisionLog log = logOf(s, topo, "k8s-default", 1);
        const cli::StepView view(s, topo, log);
        cli::StepScreen screen{160, 60, false, false, 1, {}};
        // One task placed: no traffic yet, every cell empty.
        const auto lines = view.render(0, screen);
        int cells = 0;
        for (const std::string &l : lines)
            if (l.find("legend") == std::string::npos)
                for (std::size_t i = l.find("::"); i != std::string::npos; i = l.find("::", i + 2))
                    ++cells;
        QCOMPARE(cells, 0);
        bool headline = false;
        for (const std::string &l : lines)
            headline = headline || l.find("cross-node 0.0 MB, on-node 0.0 MB") != std::string::npos;
        QVERIFY(headline);
        // At the end, the busiest pair is drawn at the top level "@@" and the legend says so.
        const auto end = view.render(view.decisionCount() - 1, screen);
        bool top = false;
        for (const std::string &l : end)
            top = top || (l.find("@@") != std::string::npos && l.find("legend") == std::string::npos);
        QVERIFY(top);
    }

    void heatmapScaleSpansTheRun()
    {
        // One scale for every decision, as the window's: a pair that sends 489 MB at decision
        // 2 and 978 MB at decision 3 read as the top level at both.
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        const cli::StepView view(s, topo, logOf(s, topo, "dltap", 1));
        cli::StepScreen screen{160, 60, false, false, 1, {}};
        double spanMax = 0;
        std::vector<double> own;
        for (int k = 0; k < view.decisionCount(); ++k) {
            double m = 0;
            for (const auto &[pair, bytes] :
                 computeTraffic(s.jobs, s.cluster, topo, view.placementUpTo(k),
                                s.settings.allreduce)
                     .pairBytes)
                m = std::max(m, bytes);
            own.push_back(m);
            spanMax = std::max(spanMax, m);
        }
        auto legendOf = [&](const std::vector<std::string> &lines) {
            for (const std::string &l : lines)
                if (l.rfind("  legend", 0) == 0)
                    return l;
            return std::string();
        };
        auto drawsTop = [](const std::vector<std::string> &lines) {
            for (const std::string &l : lines)
                if (l.find("@@") != std::string::npos && l.find("legend") == std::string::npos)
                    return true;
            return false;
        };
        const std::string last = legendOf(view.render(view.decisionCount() - 1, screen));
        // (the top level's bound is the run's busiest pair: "<=" its MB, whole from 100 MB)
        const std::string top = "<=" + groupedFixed(spanMax / 1e6, spanMax >= 1e8 ? 0 : 1) + " MB";
        QVERIFY2(last.find(top) != std::string::npos, (last + " / " + top).c_str());
        int below = 0;
        for (int k = 0; k < view.decisionCount(); ++k) {
            if (own[std::size_t(k)] <= 0)
                continue;
            const auto lines = view.render(k, screen);
            QCOMPARE(legendOf(lines), last);
            QCOMPARE(drawsTop(lines), std::floor(4.999 * own[std::size_t(k)] / spanMax) >= 4);
            below += own[std::size_t(k)] < spanMax ? 1 : 0;
        }
        QVERIFY(below > 0); // (decisions whose busiest pair is below the run's)
    }

    void scriptMode()
    {
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        const DecisionLog log = logOf(s, topo, "dltap", 1);
        const Cli r = clusterbench({QStringLiteral("step"), QString::fromStdString(kTestbed),
                                    QStringLiteral("--policy"), QStringLiteral("dltap"),
                                    QStringLiteral("--seed"), QStringLiteral("1"),
                                    QStringLiteral("--script"), QStringLiteral("nnp"),
                                    QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["cursor"].get<int>(), 2);
        QCOMPARE(j["decisions"].get<std::size_t>(), log.decisions.size());
        QCOMPARE(j["decision"].dump(), nlohmann::json(log.toJson()["decisions"][1]).dump());

        const Cli frames = clusterbench({QStringLiteral("step"), QString::fromStdString(kTestbed),
                                         QStringLiteral("--policy"), QStringLiteral("dltap"),
                                         QStringLiteral("--seed"), QStringLiteral("1"),
                                         QStringLiteral("--script"), QStringLiteral("nnpl"),
                                         QStringLiteral("--width"), QStringLiteral("90")});
        QCOMPARE(frames.code, 0);
        const std::string n = std::to_string(log.decisions.size());
        for (const char *f : {"== start ==\n", "== after key 'n' ==\n", "== after key 'p' ==\n",
                              "== after key 'l' ==\n"})
            QVERIFY2(frames.out.find(f) != std::string::npos, f);
        QVERIFY(frames.out.find("Decision " + n + "/" + n) != std::string::npos);
        QVERIFY(frames.out.find("\x1b[") == std::string::npos); // no colour into a pipe
        // No line ends in the padding of a cell (diffs of printed frames stay quiet).
        QCOMPARE(frames.out.find(" \n"), std::string::npos);

        // Without --width or $COLUMNS, frames into a pipe are 80 columns wide, as every
        // command's piped output is.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("COLUMNS"));
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(CB_CLUSTERBENCH),
                {QStringLiteral("step"), QString::fromStdString(kTestbed),
                 QStringLiteral("--policy"), QStringLiteral("dltap"), QStringLiteral("--script"),
                 QStringLiteral("l")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        int widest = 0;
        for (const QString &line : QString::fromUtf8(p.readAllStandardOutput()).split('\n'))
            widest = std::max(widest, int(line.size()));
        QCOMPARE(widest, 80);

        const Cli unknown = clusterbench({QStringLiteral("step"), QString::fromStdString(kTestbed),
                                          QStringLiteral("--policy"), QStringLiteral("dltap"),
                                          QStringLiteral("--script"), QStringLiteral("nxn")});
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.find("--script: unknown key 'x' at position 2") != std::string::npos,
                 unknown.err.c_str());
        QVERIFY(unknown.out.empty());

        const Cli bad = clusterbench({QStringLiteral("step"), QString::fromStdString(kTestbed),
                                      QStringLiteral("--policy"), QStringLiteral("dltap"),
                                      QStringLiteral("--width"), QStringLiteral("5")});
        QCOMPARE(bad.code, 2);
    }

    void clockTimes()
    {
        QCOMPARE(clockText(0), std::string("0:00:00"));
        QCOMPARE(clockText(8870), std::string("2:27:50"));
        QCOMPARE(clockText(1749.9999999999998), std::string("0:29:10")); // (a rounding short)
        QCOMPARE(clockText(1749.6), std::string("0:29:09"));             // (the second below)
        QCOMPARE(clockText(595737), std::string("6d 21:28:57"));
        QCOMPARE(clockText(-5), std::string("-0:00:05"));
        QCOMPARE(clockText(2.5, true), std::string("0:00:02.50")); // (the window's, below 10 s)
        QCOMPARE(clockText(2.5), std::string("0:00:02"));
        QCOMPARE(clockText(std::nan("")), std::string("-"));
    }

    // A stochastic run's event, by hand: the jobs in the order taken, each with its
    // candidates (the chosen one marked), and what does not fit counted.
    void stochasticEventScreen()
    {
        StsEventRecord e;
        e.time = 8870;
        e.trigger = "arrival";
        StsJobDecision a;
        a.job = "job-000";
        a.pressure = -4950;
        a.doneEpochs = 54.09;
        a.chosen = "K80 x1";
        a.node = "node-0";
        a.phaseSeconds = 11624;
        a.reason = "cheapest expected cost";
        StsCandidateRecord k80{"K80", "optimised", 12.03, 12.03, 0, {{"K80 x1", 54.09, 124.98}},
                               "K80 x1", 11624};
        StsCandidateRecord m60{"M60", "tardy", 40.27, 25.35, 14.92, {{"M60 x8", 54.09, 500}},
                               "M60 x8", 0};
        a.candidates = {k80, m60};
        StsJobDecision b;
        b.job = "job-001";
        b.pressure = -6629;
        b.reason = "no GPU free";
        e.jobs = {a, b, b, b};
        StsDecisionLog log;
        log.add(e);
        const cli::StsStepView view("hand", "sts", 1, log, "total cost 12.03");
        QCOMPARE(view.eventCount(), 1);
        cli::StepScreen screen;
        screen.width = 120;
        screen.height = 12;
        const auto lines = view.render(0, screen);
        QCOMPARE(int(lines.size()), 12);
        QCOMPARE(lines[1], std::string("total cost 12.03"));
        QCOMPARE(lines[2], std::string("Event 1/1  at 2:27:50  arrival  4 jobs to schedule"));
        QCOMPARE(lines[4], std::string("  #  job      pressure   epochs done  chosen   node      "
                                       "phase       why"));
        QCOMPARE(lines[5], std::string("  1  job-000  -4,950     54.09        K80 x1   node-0    "
                                       "3:13:44     cheapest expected cost"));
        QCOMPARE(lines[6], std::string("              * K80     optimised cost 12.03     running "
                                       "12.03     tardiness 0.00      K80 x1 epochs 54.09-124.98"));
        QCOMPARE(lines[7], std::string("                M60     tardy     cost 40.27     running "
                                       "25.35     tardiness 14.92     M60 x8 epochs 54.09-500.00"));
        QCOMPARE(lines[8], std::string("  2  job-001  -6,629     0.00         (waits)  -         "
                                       "to end      no GPU free"));
        QCOMPARE(lines[9], std::string("  3  job-001  -6,629     0.00         (waits)  -         "
                                       "to end      no GPU free"));
        // One more job than the 12 lines hold: counted, and the keys stay on the last line.
        QCOMPARE(lines[10], std::string("  ... 1 more job below (a taller terminal shows them)"));
        QVERIFY(lines[11].starts_with("n/-> next"));
        screen.width = 40;
        for (const std::string &l : view.render(0, screen))
            QVERIFY2(visibleWidth(l) <= 40, l.c_str());
        // At 80 columns the reason and each plan's phases go on lines of their own, whole,
        // rather than cut at the edge.
        screen.width = 80;
        screen.height = 14;
        const auto narrow = view.render(0, screen);
        QCOMPARE(int(narrow.size()), 14);
        QCOMPARE(narrow[5], std::string("  1  job-000  -4,950     54.09        K80 x1   node-0    "
                                        "3:13:44     "));
        QCOMPARE(narrow[6], std::string("     cheapest expected cost"));
        QCOMPARE(narrow[7], std::string("    * K80     optimised cost 12.03    running 12.03    "
                                        "tardiness 0.00     "));
        QCOMPARE(narrow[8], std::string("          K80 x1 epochs 54.09-124.98"));
        QCOMPARE(narrow[10], std::string("          M60 x8 epochs 54.09-500.00"));
        QCOMPARE(narrow[11], std::string("  2  job-001  -6,629     0.00         (waits)  -         "
                                         "to end      no GPU free"));
        QCOMPARE(narrow[12], std::string("  ... 2 more jobs below (a taller terminal shows them)"));
        for (const std::string &l : narrow)
            QVERIFY2(visibleWidth(l) <= 80, l.c_str());
        screen.height = 12;

        // A phase of days keeps a space before the reason; a pressure just below zero reads 0.
        StsJobDecision c = a;
        c.pressure = -0.3;
        c.phaseSeconds = 2 * 86400 + 20 * 3600 + 54 * 60 + 36;
        c.candidates.clear();
        e.jobs = {c};
        StsDecisionLog longLog;
        longLog.add(e);
        const cli::StsStepView longView("hand", "sts", 1, longLog, "total cost 12.03");
        screen.width = 120;
        QCOMPARE(longView.render(0, screen)[5],
                 std::string("  1  job-000  0          54.09        K80 x1   node-0    "
                             "2d 20:54:36 cheapest expected cost"));
    }

    // `step --policy sts`: the simulated run's events, the keys moving over them; --json
    // gives the event the keys end on as the run's STS log holds it.
    void stochasticScriptMode()
    {
        const std::string path = CB_SOURCE_DIR "/sample-clusters/sts-datacenter.json";
        auto s = loadScenarioFile(path);
        QVERIFY2(s.ok(), s.error().c_str());
        RunRequest request;
        request.policy = "sts";
        request.seed = s->settings.seed;
        auto run = executeRun(s.value(), request);
        QVERIFY2(run.ok(), run.error().c_str());
        const nlohmann::json events = run->stsLog.toJson()["events"];
        const Cli r = clusterbench({QStringLiteral("step"), QString::fromStdString(path),
                                    QStringLiteral("--policy"), QStringLiteral("sts"),
                                    QStringLiteral("--script"), QStringLiteral("nnp"),
                                    QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["cursor"].get<int>(), 2);
        QCOMPARE(j["events"].get<std::size_t>(), events.size());
        QCOMPARE(j["event"].dump(), events[1].dump());
        const Cli frames = clusterbench({QStringLiteral("step"), QString::fromStdString(path),
                                         QStringLiteral("--policy"), QStringLiteral("sts"),
                                         QStringLiteral("--script"), QStringLiteral("l")});
        QCOMPARE(frames.code, 0);
        const std::string n = std::to_string(events.size());
        QVERIFY(frames.out.find("Event " + n + "/" + n + "  at ") != std::string::npos);
        QVERIFY(frames.out.find("highest total") == std::string::npos); // (no placement screen)
        // The run's cost in the scenario's currency, as simulate says it.
        const std::string cost =
            "total cost " + groupedFixed(run->result->totalCost(), 2) + " EUR (resource ";
        QVERIFY2(frames.out.find(cost) != std::string::npos, frames.out.c_str());
    }

    void throughTmux()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("tmux")).isEmpty())
            QSKIP("tmux is not installed");
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        const DecisionLog log = logOf(s, topo, "dltap", 1);
        const Decision &second = log.decisions[1];
        const std::string winner = log.nodeNames[std::size_t(second.pick)];
        const QString n = QString::number(log.decisions.size());
        int round = 0;
        // After the stepper exits, the shell prints the terminal's line discipline: "icanon"
        // (restored) or "-icanon" (left raw). The shell survives the stepper's Ctrl-C (trap).
        const QString command =
            QStringLiteral("trap : INT; '%1' step '%2' --policy dltap --seed 1; stty -a | tr ' ' '\\n' | "
                           "grep -x -- '-\\?icanon' | sed 's/^/after: /'; sleep 30")
                .arg(QStringLiteral(CB_CLUSTERBENCH), QString::fromStdString(kTestbed));
        for (const char *quit : {"q", "C-c"}) {
            // A server of its own per round: a new client must never meet the previous
            // server while it shuts down.
            const QString socket = QStringLiteral("cbstep%1-%2")
                                       .arg(QCoreApplication::applicationPid())
                                       .arg(round++);
            int code = -1;
            tmux(socket,
                 {QStringLiteral("-f"), QStringLiteral("/dev/null"), QStringLiteral("new-session"),
                  QStringLiteral("-d"), QStringLiteral("-s"), QStringLiteral("step"),
                  QStringLiteral("-x"), QStringLiteral("120"), QStringLiteral("-y"),
                  QStringLiteral("45"), command},
                 &code);
            QCOMPARE(code, 0);
            QString screen = waitFor(socket, QStringLiteral("Decision 1/") + n);
            QVERIFY2(screen.contains(QStringLiteral("Decision 1/") + n), qPrintable(screen));
            for (const char *key : {"n", "n", "p"})
                tmux(socket, {QStringLiteral("send-keys"), QStringLiteral("-t"),
                              QStringLiteral("step"), QString::fromLatin1(key)});
            screen = waitFor(socket, QStringLiteral("Decision 2/") + n);
            QVERIFY2(screen.contains(QStringLiteral("Decision 2/") + n), qPrintable(screen));
            const QString headline = QString::fromStdString("job " + second.jobId + "  task " +
                                                            second.task() + "  -> " + winner);
            QVERIFY2(screen.contains(headline), qPrintable(screen));
            QVERIFY2(screen.contains(QString::fromStdString("> " + winner)), qPrintable(screen));
            tmux(socket, {QStringLiteral("send-keys"), QStringLiteral("-t"), QStringLiteral("step"),
                          QString::fromLatin1(quit)});
            screen = waitFor(socket, QStringLiteral("after: "));
            tmux(socket, {QStringLiteral("kill-server")});
            QVERIFY2(screen.contains(QStringLiteral("after: icanon")), qPrintable(screen));
            QVERIFY2(!screen.contains(QStringLiteral("Decision 2/")), qPrintable(screen));
        }
    }
};

QTEST_GUILESS_MAIN(TestStep)
#include "tst_step.moc"
