// The terminal stepper: key decoding, the placement up to the cursor, frames that never
// exceed the width, the script mode, and the real thing driven through tmux (send-keys n n p,
// capture-pane) with the terminal restored after q and after Ctrl-C.

#include "cli/step_view.h"
#include "io/scenario_json.h"
#include "net/topology.h"
#include "sched/placer.h"
#include "io/policy_json.h"

#include <QtTest>

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>

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
        cli::StepScreen screen{width, height, colour, false, 1};
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

    void heatmapCountsTheTrafficSoFar()
    {
        const Scenario s = testbed();
        const Topology topo(s.cluster);
        const DecisionLog log = logOf(s, topo, "k8s-default", 1);
        const cli::StepView view(s, topo, log);
        cli::StepScreen screen{160, 60, false, false, 1};
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

        const Cli bad = clusterbench({QStringLiteral("step"), QString::fromStdString(kTestbed),
                                      QStringLiteral("--policy"), QStringLiteral("dltap"),
                                      QStringLiteral("--width"), QStringLiteral("5")});
        QCOMPARE(bad.code, 2);
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
