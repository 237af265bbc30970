// The utilities every output depends on: the seeded RNG against known answers (splitmix64
// seeding, xoshiro256**, computed independently from the published algorithms; the first
// splitmix64 output for seed 0 is the reference value 0xe220a8397b1dcdaf), so that
// byte-identical output across platforms cannot drift silently; the one comma-list parser;
// the one mean / standard deviation; Result's checked value access; and a job's command
// line read as a shell reads it.

#include "util/command_line.h"
#include "util/result.h"
#include "util/rng.h"
#include "util/sample_folder.h"
#include "util/sparse_sums.h"
#include "util/stats.h"
#include "util/text.h"

#include <QtTest>

#include <QDir>
#include <QTemporaryDir>

#include <algorithm>
#include <stdexcept>

using namespace cb;

class TestUtil : public QObject
{
    Q_OBJECT

private slots:
    void rngKnownAnswers_data()
    {
        QTest::addColumn<quint64>("seed");
        QTest::addColumn<quint64>("first");
        QTest::addColumn<quint64>("second");
        QTest::addColumn<quint64>("third");
        QTest::newRow("seed 0") << quint64(0) << quint64(0x99ec5f36cb75f2b4ULL)
                                << quint64(0xbf6e1f784956452aULL)
                                << quint64(0x1a5f849d4933e6e0ULL);
        QTest::newRow("seed 1") << quint64(1) << quint64(0xb3f2af6d0fc710c5ULL)
                                << quint64(0x853b559647364ceaULL)
                                << quint64(0x92f89756082a4514ULL);
        QTest::newRow("seed 42") << quint64(42) << quint64(0x15780b2e0c2ec716ULL)
                                 << quint64(0x6104d9866d113a7eULL)
                                 << quint64(0xae17533239e499a1ULL);
    }
    void rngKnownAnswers()
    {
        QFETCH(quint64, seed);
        QFETCH(quint64, first);
        QFETCH(quint64, second);
        QFETCH(quint64, third);
        Rng rng(seed);
        QCOMPARE(quint64(rng.next()), first);
        QCOMPARE(quint64(rng.next()), second);
        QCOMPARE(quint64(rng.next()), third);
    }

    void rngDerivedDraws()
    {
        Rng u(7);
        QCOMPARE(u.uniform(), 0.7005764821796896);
        QCOMPARE(u.uniform(), 0.2787512294737843);
        Rng b(3);
        QList<quint64> got;
        for (int i = 0; i < 8; ++i)
            got << quint64(b.below(10));
        QCOMPARE(got, (QList<quint64>{6, 6, 2, 5, 4, 3, 2, 7}));
        QCOMPARE(quint64(Rng::mix(1, 2)), quint64(0xa3efbcce2e044f84ULL));
        QCOMPARE(quint64(Rng::mix(0x5354, 0)), quint64(0x60057c9614b4205dULL));
        // Reseeding restarts the sequence.
        Rng r(42);
        r.next();
        r.reseed(42);
        QCOMPARE(quint64(r.next()), quint64(0x15780b2e0c2ec716ULL));
    }

    void commaList_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("keepEmpty");
        QTest::addColumn<QStringList>("items");
        QTest::newRow("plain") << "a,b,c" << false << QStringList{"a", "b", "c"};
        QTest::newRow("blanks") << " k8s-default , dltap\t" << false
                                << QStringList{"k8s-default", "dltap"};
        QTest::newRow("empties dropped") << ",a,,b," << false << QStringList{"a", "b"};
        QTest::newRow("empties kept") << "a,,b," << true << QStringList{"a", "", "b", ""};
        QTest::newRow("nothing") << "" << false << QStringList{};
        QTest::newRow("inner blank stays") << "a b, c" << false << QStringList{"a b", "c"};
    }
    void commaList()
    {
        QFETCH(QString, text);
        QFETCH(bool, keepEmpty);
        QFETCH(QStringList, items);
        QStringList got;
        for (const std::string &s : cb::commaList(text.toStdString(), keepEmpty))
            got << QString::fromStdString(s);
        QCOMPARE(got, items);
    }

    void wrapText()
    {
        // Breaks at spaces within the width, the rest indented; a long word stands alone.
        QCOMPARE(cb::wrapText("one two three four", 9), std::string("one two\nthree\nfour"));
        QCOMPARE(cb::wrapText("one two three four", 12, 2, 4),
                 std::string("one two\n  three four"));
        QCOMPARE(cb::wrapText("a verylongword b", 5), std::string("a\nverylongword\nb"));
        // Line breaks kept, blank lines without indent, a paragraph's own indent kept.
        QCOMPARE(cb::wrapText("ab cd\n\n  ef gh ij", 8, 1),
                 std::string("ab cd\n\n   ef gh\n   ij"));
        // Spacing within a line is kept; an item in two columns continues under the second.
        QCOMPARE(cb::wrapText("a  b", 10), std::string("a  b"));
        QCOMPARE(cb::wrapText("  name    what it is here", 20),
                 std::string("  name    what it is\n          here"));
        // Width counts characters, not bytes ("é" is two bytes).
        QCOMPARE(cb::displayWidth("déjà"), std::size_t(4));
        QCOMPARE(cb::wrapText("déjà vu", 7), std::string("déjà vu"));
        QCOMPARE(cb::wrapText("", 10), std::string());
        // A number and its unit stay together ("finish 5592.1" over a lone "s" was read).
        QCOMPARE(cb::wrapText("start 1294.9 s, finish 5592.1 s", 20),
                 std::string("start 1294.9 s,\nfinish 5592.1 s"));
        QCOMPARE(cb::wrapText("with node-0, 356.4 MB on node-1", 18),
                 std::string("with node-0,\n356.4 MB on node-1"));
        QCOMPARE(cb::wrapText("run 4 s", 5), std::string("run\n4 s")); // (down with its number)
        QCOMPARE(cb::wrapText("step 4 steps", 6), std::string("step 4\nsteps"));
        // So does a count of things ("16 x" ending a line over "V100M32" was read).
        QCOMPARE(cb::wrapText("GPUs: 16 x V100M32, 8 × A100", 14),
                 std::string("GPUs:\n16 x V100M32,\n8 × A100"));
        QCOMPARE(cb::wrapText("a 2 x", 4), std::string("a 2\nx")); // (nothing after it)
    }

    void counted()
    {
        QCOMPARE(cb::counted(1, "task"), std::string("1 task"));
        QCOMPARE(cb::counted(0, "task"), std::string("0 tasks"));
        QCOMPARE(cb::counted(12, "grid point"), std::string("12 grid points"));
        QCOMPARE(cb::counted(1, "switch", "switches"), std::string("1 switch"));
        QCOMPARE(cb::counted(3, "switch", "switches"), std::string("3 switches"));
    }

    void meanAndStd()
    {
        const MeanStd s = cb::meanAndStd({2, 4, 4, 4, 5, 5, 7, 9});
        QCOMPARE(s.mean, 5.0);
        // Sample standard deviation: sqrt(32 / 7).
        QCOMPARE(s.std, std::sqrt(32.0 / 7.0));
        QCOMPARE(cb::meanAndStd({3}).std, 0.0);
        QCOMPARE(cb::meanAndStd({}).mean, 0.0);
    }

    void sparseSumsAddSorted()
    {
        // Present keys are added in place, missing ones merged in at their places (before,
        // between and after the present ones), each as 0 + v x scale x fraction.
        SparseSums<int> s(std::vector<std::pair<int, double>>{{2, 1.0}, {5, 2.0}, {9, 4.0}});
        s.addSorted({{1, 1.0}, {2, 1.0}, {3, 2.0}, {4, 3.0}, {9, 1.0}, {12, 5.0}}, 2.0, 0.5);
        std::vector<std::pair<int, double>> got(s.begin(), s.end());
        const std::vector<std::pair<int, double>> want{{1, 1.0}, {2, 2.0}, {3, 2.0}, {4, 3.0},
                                                       {5, 2.0}, {9, 5.0}, {12, 5.0}};
        QCOMPARE(got, want);
        // Only present keys: nothing moves.
        s.addSorted({{3, 4.0}, {12, 2.0}}, 1.0, 0.25);
        QCOMPARE(s.at(3), 3.0);
        QCOMPARE(s.at(12), 5.5);
        QCOMPARE(int(s.size()), 7);
        // Into an empty one, and keyed by node pairs as a run's pair series is.
        SparseSums<std::pair<int, int>> pairs;
        pairs.addSorted({{{0, 1}, 8.0}, {{1, 0}, 4.0}}, 1.0, 1.0);
        pairs.addSorted({{{0, 0}, 1.0}, {{0, 2}, 2.0}, {{1, 0}, 1.0}}, 1.0, 1.0);
        QCOMPARE(int(pairs.size()), 4);
        QCOMPARE(pairs.begin()->first, std::make_pair(0, 0));
        QCOMPARE(pairs.at({0, 2}), 2.0);
        QCOMPARE(pairs.at({1, 0}), 5.0);
        // The same as adding key by key, on random sets (bit for bit).
        Rng rng(7);
        SparseSums<int> fast, slow;
        for (int round = 0; round < 200; ++round) {
            std::vector<std::pair<int, double>> add;
            for (int k = 0; k < 300; ++k)
                if (rng.below(4) == 0)
                    add.emplace_back(k, rng.uniform() * 100);
            const double scale = 0.5 + rng.uniform(), fraction = rng.uniform();
            fast.addSorted(add, scale, fraction);
            for (const auto &[k, v] : add)
                slow[k] += v * scale * fraction;
        }
        QVERIFY(fast.size() > 250);
        QVERIFY(fast == slow);
        // New keys are held apart until they are a quarter of the array (64 at least); one
        // added again while held is summed in the order it came, and a read merges first.
        SparseSums<int> held(std::vector<std::pair<int, double>>{{0, 1.0}, {100, 1.0}});
        held.addSorted({{50, 0.1}}, 1.0, 1.0);
        held.addSorted({{50, 0.2}, {100, 1.0}}, 1.0, 1.0);
        held.addSorted({{50, 0.3}}, 1.0, 1.0);
        QVERIFY(!held.empty());
        QCOMPARE(held.at(50), ((0.0 + 0.1) + 0.2) + 0.3); // not 0.1 + (0.2 + 0.3)
        QCOMPARE(held.at(100), 2.0);
        QCOMPARE(int(held.size()), 3);
        // Growing key ranges, each key added in several rounds, reads in between (bit for
        // bit against key by key).
        SparseSums<int> grown, byKey;
        for (int round = 0; round < 400; ++round) {
            std::vector<std::pair<int, double>> add;
            for (int k = 0; k < 40; ++k)
                add.emplace_back(round * 7 + int(rng.below(200)), rng.uniform() * 100);
            std::sort(add.begin(), add.end(), [](const auto &a, const auto &b) {
                return a.first < b.first;
            });
            add.erase(std::unique(add.begin(), add.end(),
                                  [](const auto &a, const auto &b) { return a.first == b.first; }),
                      add.end());
            const double scale = 0.5 + rng.uniform(), fraction = rng.uniform();
            grown.addSorted(add, scale, fraction);
            for (const auto &[k, v] : add)
                byKey[k] += v * scale * fraction;
            if (round % 97 == 0)
                QCOMPARE(grown.size(), byKey.size());
        }
        QVERIFY(grown.size() > 2500);
        QVERIFY(grown == byKey);
        grown.settle();
        QVERIFY(grown == byKey);
    }

    void sampleFolderPrefersTheInstalledOne()
    {
        // PREFIX/bin/clusterbench finds PREFIX/share/clusterbench/samples before the source
        // tree it was built from; a program that is not installed finds the source tree; a
        // program with neither finds none.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString prefix = dir.filePath(QStringLiteral("prefix"));
        const QString source = dir.filePath(QStringLiteral("src/sample-clusters"));
        QVERIFY(QDir().mkpath(prefix + QStringLiteral("/bin")));
        QVERIFY(QDir().mkpath(source));
        const std::string bin = (prefix + QStringLiteral("/bin")).toStdString();
        QCOMPARE(sampleFolder(bin, source.toStdString()), source.toStdString());
        QVERIFY(QDir().mkpath(prefix + QStringLiteral("/share/clusterbench/samples")));
        QCOMPARE(sampleFolder(bin, source.toStdString()),
                 (prefix + QStringLiteral("/share/clusterbench/samples")).toStdString());
        // A program copied with its samples beside it finds them, not the tree it came from.
        const QString copied = dir.filePath(QStringLiteral("copy"));
        QVERIFY(QDir().mkpath(copied + QStringLiteral("/sample-clusters")));
        QCOMPARE(sampleFolder(copied.toStdString(), source.toStdString()),
                 (copied + QStringLiteral("/sample-clusters")).toStdString());
        QCOMPARE(sampleFolder(dir.filePath(QStringLiteral("elsewhere")).toStdString(),
                              dir.filePath(QStringLiteral("gone")).toStdString()),
                 std::string());
        QVERIFY(!programFolder().empty());
    }

    void commandLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("argv");
        const QString sh = QStringLiteral("/bin/sh");
        const QString c = QStringLiteral("-c");
        // Words and quotes only: split as a shell splits them.
        QTest::newRow("words") << "python train.py --epochs 90"
                               << QStringList{"python", "train.py", "--epochs", "90"};
        QTest::newRow("quotes") << "python a.py --data \"/data/img net\" --tag 'x y' --lr=0.1"
                                << QStringList{"python", "a.py", "--data",  "/data/img net",
                                               "--tag",  "x y",  "--lr=0.1"};
        QTest::newRow("escapes") << "echo a\\ b \"say \\\"hi\\\"\" 'it'\\''s'"
                                 << QStringList{"echo", "a b", "say \"hi\"", "it's"};
        QTest::newRow("empty words") << "run '' \"\"" << QStringList{"run", "", ""};
        QTest::newRow("blank") << "  " << QStringList{};
        // Shell syntax: the whole line, trimmed, under /bin/sh -c.
        const QString chained =
            QStringLiteral("python train.py --data \"/data/img net\" && echo 'done'");
        QTest::newRow("&&") << "  " + chained + " " << QStringList{sh, c, chained};
        QTest::newRow("pipe") << "a | b" << QStringList{sh, c, "a | b"};
        QTest::newRow("redirect") << "a 2>err.log" << QStringList{sh, c, "a 2>err.log"};
        QTest::newRow("variable") << "echo $HOME" << QStringList{sh, c, "echo $HOME"};
        QTest::newRow("variable quoted")
            << "echo \"$HOME\"" << QStringList{sh, c, "echo \"$HOME\""};
        QTest::newRow("glob") << "ls *.tar" << QStringList{sh, c, "ls *.tar"};
        QTest::newRow("assignment") << "NCCL_DEBUG=INFO torchrun t.py"
                                    << QStringList{sh, c, "NCCL_DEBUG=INFO torchrun t.py"};
        QTest::newRow("home") << "cat ~/x" << QStringList{sh, c, "cat ~/x"};
        // What only looks like it: quoted, or an '=' past the first word.
        QTest::newRow("quoted operators")
            << "echo '&&' \"a|b\" \\$x" << QStringList{"echo", "&&", "a|b", "$x"};
        QTest::newRow("option =") << "run --x=1 a#b" << QStringList{"run", "--x=1", "a#b"};
    }

    void commandLines()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, argv);
        std::vector<std::string> expected;
        for (const QString &a : argv)
            expected.push_back(a.toStdString());
        const auto got = commandFromLine(line.toStdString());
        QVERIFY2(got.ok(), got.ok() ? "" : got.error().c_str());
        QCOMPARE(got.value(), expected);
        // Shown again, the line reads back as the same argv.
        const std::string shown = lineFromCommand(expected);
        QCOMPARE(commandFromLine(shown).value(), expected);
    }

    void commandLineShownAsTyped()
    {
        QCOMPARE(lineFromCommand({"/bin/sh", "-c", "a && b"}), std::string("a && b"));
        QCOMPARE(lineFromCommand({"python", "a b.py", "--lr=0.1", "it's", ""}),
                 std::string("python 'a b.py' --lr=0.1 'it'\\''s' ''"));
        // A shell command without shell syntax keeps its shell: it is not the same argv as
        // its line's words.
        QCOMPARE(lineFromCommand({"/bin/sh", "-c", "hostname"}),
                 std::string("/bin/sh -c hostname"));
        QCOMPARE(lineFromCommand({"A=1", "b"}), std::string("'A=1' b"));
        QCOMPARE(commandFromLine("'A=1' b").value(), (std::vector<std::string>{"A=1", "b"}));
    }

    void commandLineProblems()
    {
        const auto open = commandFromLine("python a.py --name 'x y");
        QVERIFY(!open);
        QCOMPARE(open.error(), std::string("command: the ' quote at character 20 is not closed"));
        QCOMPARE(commandFromLine("echo \"a").error(),
                 std::string("command: the \" quote at character 6 is not closed"));
        QCOMPARE(commandFromLine("  echo 'a").error(),
                 std::string("command: the ' quote at character 8 is not closed"));
        QCOMPARE(commandFromLine("echo a\\").error(),
                 std::string("command: the line ends with a backslash"));
    }

    void shellOperatorsAsArguments()
    {
        QCOMPARE(shellOperatorArgument({"python", "t.py", "&&", "echo", "done"}),
                 std::string("&&"));
        QCOMPARE(shellOperatorArgument({"python", "t.py", "2>&1"}), std::string("2>&1"));
        QCOMPARE(shellOperatorArgument({"python", "t.py", "--x", "a&&b"}), std::string());
        // A shell's own arguments, and a program named like an operator, are not.
        QCOMPARE(shellOperatorArgument({"/bin/bash", "-c", "a", "&&"}), std::string());
        QCOMPARE(shellOperatorArgument({"|"}), std::string());
        QCOMPARE(shellOperatorArgument({}), std::string());
        QCOMPARE(programName({"/usr/bin/python3", "t.py"}), std::string("python3"));
        QCOMPARE(programName({"torchrun"}), std::string("torchrun"));
        QCOMPARE(programName({}), std::string());
    }

    void failedResultValueIsCaught()
    {
        const Result<int> bad = Result<int>::failure("/jobs/2", "expected a number");
        QVERIFY(!bad);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, (void)bad.value());
        try {
            (void)bad.value();
        } catch (const std::logic_error &e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("internal error: the value of a failed result was used: "
                                    "/jobs/2: expected a number"));
        }
        const Result<int> good = 5;
        QCOMPARE(good.value(), 5);
    }
};

QTEST_APPLESS_MAIN(TestUtil)
#include "tst_util.moc"
