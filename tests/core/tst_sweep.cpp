// Sweeps: grid order, parameters applied to policies, results independent of the thread
// count, mean and standard deviation per group, and the round trip of an emitted grid: one
// point run by the emitted Slurm script itself, its result merged into the workspace (twice,
// stored once) and listed by history.

#include "runs/sweep_grid.h"
#include "io/scenario_json.h"
#include "io/policy_json.h"
#include "store/workspace.h"

#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace cb;

namespace {

const QString kTestbed = QStringLiteral(CB_SOURCE_DIR "/sample-clusters/dltap-testbed.json");

struct Cli
{
    int code = -1;
    std::string out, err;
};

Cli clusterbench(const QStringList &args, const QString &cwd = {},
                 const QStringList &env = {})
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString &kv : env)
        e.insert(kv.section('=', 0, 0), kv.section('=', 1));
    p.setProcessEnvironment(e);
    if (!cwd.isEmpty())
        p.setWorkingDirectory(cwd);
    if (!args.isEmpty() && args.first() == QStringLiteral("bash"))
        p.start(QStringLiteral("bash"), args.mid(1));
    else
        p.start(QStringLiteral(CB_CLUSTERBENCH), args);
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput().toStdString(), p.readAllStandardError().toStdString()};
}

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT

private slots:
    void gridOrder()
    {
        auto w = parseSweepParam("weight.dltap=1,2");
        auto g = parseSweepParam("gang=true,false");
        QVERIFY(w.ok() && g.ok());
        const auto points = expandGrid({"a", "b"}, {w.value(), g.value()}, 7, 2);
        QCOMPARE(points.size(), std::size_t(16));
        // Policy slowest, then the first parameter, then the second, then the seed.
        const GridPoint &p = points[5];
        QCOMPARE(p.index, 5);
        QCOMPARE(p.policy, std::string("a"));
        QCOMPARE(p.seed, std::uint64_t(8));
        QCOMPARE(p.params[0].second, std::string("2"));
        QCOMPARE(p.params[1].second, std::string("true"));
        QCOMPARE(points[15].policy, std::string("b"));
        QCOMPARE(points[15].params[1].second, std::string("false"));
        QCOMPARE(pointParams(p).dump(), std::string("{\"gang\":true,\"weight.dltap\":2}"));

        QVERIFY(!parseSweepParam("gang").ok());
        QVERIFY(!parseSweepParam("gang=true,,false").ok());
        QVERIFY(expandGrid({"a"}, {}, 1, 3).size() == 3);
    }

    void aBaselineStaysItself()
    {
        // weight.dltap swept beside k8s-default (which has no dltap plugin) is left out of its
        // points: it runs once per seed, as itself, and is not given the plugin; dltap runs
        // once per weight. pointPolicy refuses the plugin it lacks (a grid file written so).
        auto w = parseSweepParam("weight.dltap=1,4");
        auto g = parseSweepParam("tie_break=first");
        QVERIFY(w.ok() && g.ok());
        std::vector<std::pair<std::string, std::string>> leftOut;
        const auto points = applicableGrid(
            expandGrid({"k8s-default", "dltap"}, {w.value(), g.value()}, 1, 2), {}, &leftOut);
        QCOMPARE(points.size(), std::size_t(6));
        std::vector<std::string> shown;
        for (const GridPoint &p : points)
            shown.push_back(std::to_string(p.index) + " " + p.policy + " " +
                            std::to_string(p.seed) + " " + pointParams(p).dump());
        QCOMPARE(shown,
                 (std::vector<std::string>{R"(0 k8s-default 1 {"tie_break":"first"})",
                                           R"(1 k8s-default 2 {"tie_break":"first"})",
                                           R"(2 dltap 1 {"tie_break":"first","weight.dltap":1})",
                                           R"(3 dltap 2 {"tie_break":"first","weight.dltap":1})",
                                           R"(4 dltap 1 {"tie_break":"first","weight.dltap":4})",
                                           R"(5 dltap 2 {"tie_break":"first","weight.dltap":4})"}));
        QCOMPARE(leftOut, (std::vector<std::pair<std::string, std::string>>{
                              {"weight.dltap", "k8s-default"}}));
        const auto plain = pointPolicy(points[0], {});
        QVERIFY(plain.ok());
        QVERIFY(!plain->plugin(PluginKind::Dltap));
        const auto refused = pointPolicy({0, "k8s-default", 1, {{"weight.dltap", "4"}}}, {});
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error(), std::string("--param weight.dltap=4: policy k8s-default has no "
                                              "dltap plugin to vary (sweep it on its own, or give "
                                              "it the plugin in a preset)"));

        // The command: k8s-default's rows are its own placement, the note on stderr.
        const Cli swept =
            clusterbench({QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                          QStringLiteral("k8s-default,dltap"), QStringLiteral("--param"),
                          QStringLiteral("weight.dltap=1,4"), QStringLiteral("--json"),
                          QStringLiteral("--no-save")});
        QVERIFY2(swept.code == 0, swept.err.c_str());
        QVERIFY2(swept.err.find("note: --param weight.dltap is not varied for k8s-default") !=
                     std::string::npos,
                 swept.err.c_str());
        const auto grid = nlohmann::json::parse(swept.out)["grid"];
        QCOMPARE(grid.size(), std::size_t(3));
        const Cli alone = clusterbench({QStringLiteral("sweep"), kTestbed,
                                        QStringLiteral("--policies"), QStringLiteral("k8s-default"),
                                        QStringLiteral("--json"), QStringLiteral("--no-save")});
        QVERIFY2(alone.code == 0, alone.err.c_str());
        QCOMPARE(grid[0]["metrics"].dump(),
                 nlohmann::json::parse(alone.out)["grid"][0]["metrics"].dump());
        QVERIFY(grid[1]["metrics"]["cross_node_bytes"] != grid[2]["metrics"]["cross_node_bytes"]);
    }

    void paramsChangeThePolicy()
    {
        GridPoint p{0, "dltap", 1, {{"weight.dltap", "7"}, {"tie_break", "first"}}};
        auto policy = pointPolicy(p, {});
        QVERIFY2(policy.ok(), policy.error().c_str());
        const auto j = policyToJson(policy.value());
        QCOMPARE(j["tie_break"].get<std::string>(), std::string("first"));
        bool found = false;
        for (const auto &plugin : j["plugins"].items())
            if (plugin.key() == "dltap") {
                found = true;
                QCOMPARE(plugin.value()["weight"].get<double>(), 7.0);
            }
        if (!found) // plugins may be an array of {name, weight}
            for (const auto &plugin : j["plugins"])
                if (plugin.is_object() && plugin.value("plugin", "") == "dltap") {
                    found = true;
                    QCOMPARE(plugin["weight"].get<double>(), 7.0);
                }
        QVERIFY2(found, j.dump().c_str());

        GridPoint bad{0, "dltap", 1, {{"weight.no-such-plugin", "1"}}};
        auto r = pointPolicy(bad, {});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().find("no-such-plugin") != std::string::npos, r.error().c_str());
        const Cli cli = clusterbench({QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                                      QStringLiteral("dltap"), QStringLiteral("--param"),
                                      QStringLiteral("queue=sometimes"), QStringLiteral("--no-save")});
        QCOMPARE(cli.code, 2);
        QVERIFY2(cli.err.find("queue") != std::string::npos, cli.err.c_str());
        // A key given twice is refused (it swept one point with the last value).
        const Cli twice =
            clusterbench({QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                          QStringLiteral("dltap"), QStringLiteral("--param"),
                          QStringLiteral("weight.dltap=1"), QStringLiteral("--param"),
                          QStringLiteral("weight.dltap=2"), QStringLiteral("--no-save")});
        QCOMPARE(twice.code, 2);
        QCOMPARE(twice.err, std::string("clusterbench sweep: --param weight.dltap: given twice; "
                                        "list its values once (--param "
                                        "weight.dltap=V1,V2,...)\n"));
    }

    void sameResultsWhateverTheThreads()
    {
        QTemporaryDir dir;
        std::string outputs[2];
        int i = 0;
        for (const char *jobs : {"1", "3"}) {
            const QString ws = dir.filePath(QStringLiteral("ws%1.sqlite").arg(jobs));
            const Cli r = clusterbench({QStringLiteral("sweep"), kTestbed,
                                        QStringLiteral("--policies"),
                                        QStringLiteral("k8s-default,dltap"),
                                        QStringLiteral("--seeds"), QStringLiteral("3"),
                                        QStringLiteral("--seed"), QStringLiteral("2"),
                                        QStringLiteral("--param"), QStringLiteral("gang=true,false"),
                                        QStringLiteral("--jobs"), QString::fromLatin1(jobs),
                                        QStringLiteral("--json"), QStringLiteral("--workspace"), ws});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.err.find("Saved as runs 1-12 in") != std::string::npos, r.err.c_str());
            outputs[i++] = r.out;
            auto opened = Workspace::open(ws.toStdString());
            QVERIFY(opened.ok());
            auto runs = opened.value()->runs();
            QVERIFY(runs.ok());
            QCOMPARE(runs->size(), std::size_t(12));
            for (const RunRecord &run : runs.value()) {
                QCOMPARE(run.kind, std::string("sweep"));
                QCOMPARE(run.parameters["grid_index"].get<std::int64_t>(), run.id - 1);
            }
        }
        QCOMPARE(outputs[1], outputs[0]);

        // Group statistics, by hand from the points.
        const auto j = nlohmann::json::parse(outputs[0]);
        QCOMPARE(j["points"].get<int>(), 12);
        QCOMPARE(j["groups"].size(), std::size_t(4));
        for (std::size_t g = 0; g < 4; ++g) {
            double v[3];
            for (int k = 0; k < 3; ++k) {
                const auto &pt = j["grid"][g * 3 + std::size_t(k)];
                QCOMPARE(pt["seed"].get<int>(), 2 + k);
                QCOMPARE(pt["policy"], j["groups"][g]["policy"]);
                v[k] = pt["metrics"]["cross_node_bytes"].get<double>();
            }
            const double mean = (v[0] + v[1] + v[2]) / 3;
            const double sd = std::sqrt(((v[0] - mean) * (v[0] - mean) +
                                         (v[1] - mean) * (v[1] - mean) +
                                         (v[2] - mean) * (v[2] - mean)) / 2);
            const auto &m = j["groups"][g]["metrics"]["cross_node_bytes"];
            QVERIFY(std::fabs(m["mean"].get<double>() - mean) <= 1e-9 * std::max(1.0, mean));
            QVERIFY(std::fabs(m["std"].get<double>() - sd) <= 1e-9 * std::max(1.0, sd));
        }
        // The random tie-break of k8s-default makes seeds differ somewhere.
        bool differs = false;
        for (std::size_t g = 0; g < 4; ++g)
            differs = differs || j["groups"][g]["metrics"]["cross_node_bytes"]["std"].get<double>() > 0;
        QVERIFY(differs);

        // The text table: one row per policy and parameter set.
        const Cli text = clusterbench({QStringLiteral("sweep"), kTestbed,
                                       QStringLiteral("--policies"), QStringLiteral("dltap"),
                                       QStringLiteral("--seeds"), QStringLiteral("2"),
                                       QStringLiteral("--simulate"), QStringLiteral("--no-save")});
        QCOMPARE(text.code, 0);
        // (the title is wrapped to the terminal: its line breaks read as spaces)
        QString title = QString::fromStdString(text.out).section(QStringLiteral("\npolicy"), 0, 0);
        title.replace(QStringLiteral("\n  "), QStringLiteral(" "));
        QVERIFY2(title.contains(QStringLiteral("2 runs (1 policy x 1 parameter set x 2 seeds)")),
                 qPrintable(title));
        QVERIFY(text.out.find("mean JCT s") != std::string::npos);
        QVERIFY(text.out.find("\ndltap ") != std::string::npos);
        // Mean and spread written as `experiment` writes them ("+-" here, "+/-" there).
        QVERIFY2(title.contains(QStringLiteral("mean +/- std over seeds")), qPrintable(title));
        QVERIFY(text.out.find(" +/- ") != std::string::npos);
        QVERIFY(text.out.find(" +- ") == std::string::npos);
    }

    void policyFileSweepsLikeScenarioPresets()
    {
        // A preset from --policy-file sweeps as the same preset in the scenario does, and an
        // emitted grid carries it, so a point run from the grid alone finds it.
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("presets.json"));
        const nlohmann::json preset = nlohmann::json::parse(
            R"({"name": "packed", "base": "dltap", "queue": "sjf", "tie_break": "first"})");
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(preset.dump()));
        f.close();
        QFile t(kTestbed);
        QVERIFY(t.open(QIODevice::ReadOnly));
        nlohmann::json withPreset = nlohmann::json::parse(t.readAll().toStdString());
        withPreset["policies"] = nlohmann::json::array({preset});
        const QString inScenario = dir.filePath(QStringLiteral("with-preset.json"));
        QFile w(inScenario);
        QVERIFY(w.open(QIODevice::WriteOnly));
        w.write(QByteArray::fromStdString(withPreset.dump(1)));
        w.close();

        const QStringList grid = {
            QStringLiteral("--policies"), QStringLiteral("packed,k8s-default"),
            QStringLiteral("--seeds"),    QStringLiteral("2"),
            QStringLiteral("--json"),     QStringLiteral("--no-save")};
        const Cli fromFile = clusterbench(
            QStringList{QStringLiteral("sweep"), kTestbed, QStringLiteral("--policy-file"), file} +
            grid);
        QVERIFY2(fromFile.code == 0, fromFile.err.c_str());
        const Cli fromScenario =
            clusterbench(QStringList{QStringLiteral("sweep"), inScenario} + grid);
        QVERIFY2(fromScenario.code == 0, fromScenario.err.c_str());
        const auto a = nlohmann::json::parse(fromFile.out)["grid"];
        const auto b = nlohmann::json::parse(fromScenario.out)["grid"];
        QCOMPARE(a.size(), std::size_t(4));
        for (std::size_t i = 0; i < a.size(); ++i)
            QCOMPARE(a[i]["metrics"].dump(), b[i]["metrics"].dump());
        // sjf and a first-fit tie-break move this testbed's placement off dltap's
        const Cli plain =
            clusterbench({QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                          QStringLiteral("dltap"), QStringLiteral("--seeds"), QStringLiteral("2"),
                          QStringLiteral("--json"), QStringLiteral("--no-save")});
        QCOMPARE(plain.code, 0);
        const auto dltap = nlohmann::json::parse(plain.out)["grid"];
        QCOMPARE(dltap.size(), std::size_t(2));
        QVERIFY(a[0]["metrics"]["cross_node_bytes"] != dltap[0]["metrics"]["cross_node_bytes"]);

        // Without the file the name is unknown.
        const Cli unknown = clusterbench(QStringList{QStringLiteral("sweep"), kTestbed} + grid);
        QCOMPARE(unknown.code, 2);
        QVERIFY2(unknown.err.find("unknown policy \"packed\"") != std::string::npos,
                 unknown.err.c_str());

        // A preset the file gets wrong is named by the file and its place in it, and nothing
        // runs.
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile badFile(bad);
        QVERIFY(badFile.open(QIODevice::WriteOnly));
        badFile.write(
            R"([{"name": "ok", "base": "dltap"}, {"name": "worse", "queue": "sideways"}])");
        badFile.close();
        const Cli wrong = clusterbench(
            QStringList{QStringLiteral("sweep"), kTestbed, QStringLiteral("--policy-file"), bad} +
            grid);
        QCOMPARE(wrong.code, 2);
        QVERIFY2(wrong.err.starts_with(bad.toStdString() + ": /1/queue: "), wrong.err.c_str());
        QCOMPARE(wrong.out, std::string());

        const QString out = dir.filePath(QStringLiteral("array"));
        const Cli emitted =
            clusterbench({QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                          QStringLiteral("packed"), QStringLiteral("--policy-file"), file,
                          QStringLiteral("--emit"), QStringLiteral("slurm-array"), out});
        QVERIFY2(emitted.code == 0, emitted.err.c_str());
        const QString result = dir.filePath(QStringLiteral("point-0.json"));
        const Cli point = clusterbench({QStringLiteral("sweep-point"),
                                        out + QStringLiteral("/grid.json"), QStringLiteral("0"),
                                        QStringLiteral("--out"), result, QStringLiteral("--json")});
        QVERIFY2(point.code == 0, point.err.c_str());
        QCOMPARE(nlohmann::json::parse(point.out)["metrics"].dump(), a[0]["metrics"].dump());
    }

    void emittedPointRunsAndMerges()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("array"));
        const QString ws = dir.filePath(QStringLiteral("ws.sqlite"));
        const Cli emitted = clusterbench({QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                                       QStringLiteral("k8s-default,dltap"), QStringLiteral("--seeds"),
                                       QStringLiteral("2"), QStringLiteral("--emit"),
                                       QStringLiteral("slurm-array"), out});
        QCOMPARE(emitted.code, 0);
        QVERIFY2(emitted.out.find("4 grid points written") != std::string::npos, emitted.out.c_str());
        QFile script(out + QStringLiteral("/sweep.sbatch"));
        QVERIFY(script.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(script.readAll());
        QVERIFY2(text.contains(QStringLiteral("\n#SBATCH --array=0-3\n")), qPrintable(text));
        QVERIFY(QFileInfo(out + QStringLiteral("/sweep.sbatch")).isExecutable());

        // The array task for index 2, run by the emitted script itself.
        const Cli task = clusterbench({QStringLiteral("bash"), QStringLiteral("sweep.sbatch")}, out,
                                      {QStringLiteral("SLURM_ARRAY_TASK_ID=2"),
                                       QStringLiteral("CLUSTERBENCH=" CB_CLUSTERBENCH)});
        QVERIFY2(task.code == 0, (task.out + task.err).c_str());
        const QString result = out + QStringLiteral("/results/point-2.json");
        QVERIFY(QFileInfo::exists(result));
        // Emitted again into the folder: its earlier result is said (merge would store it).
        QVERIFY2(emitted.err.find("warning") == std::string::npos, emitted.err.c_str());
        const Cli again = clusterbench(
            {QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
             QStringLiteral("k8s-default,dltap"), QStringLiteral("--seeds"), QStringLiteral("2"),
             QStringLiteral("--emit"), QStringLiteral("slurm-array"), out});
        QCOMPARE(again.code, 0);
        QVERIFY2(again.err.find("/results holds 1 result file of an earlier run") !=
                     std::string::npos,
                 again.err.c_str());
        QVERIFY(QFileInfo::exists(result)); // left alone

        for (int round = 0; round < 2; ++round) {
            const Cli merge = clusterbench({QStringLiteral("merge"), result,
                                            QStringLiteral("--workspace"), ws,
                                            QStringLiteral("--json")});
            QCOMPARE(merge.code, 0);
            const auto m = nlohmann::json::parse(merge.out);
            QCOMPARE(m["stored"].get<int>(), round == 0 ? 1 : 0);
            QCOMPARE(m["already_present"].get<int>(), round == 0 ? 0 : 1);
            QCOMPARE(m["files"][0]["run"].get<int>(), 1);
            // One point of four: the other three are named, and the stored one stays partial.
            QCOMPARE(m["sweeps"].size(), std::size_t(1));
            QCOMPARE(m["sweeps"][0]["points"].get<int>(), 4);
            QCOMPARE(m["sweeps"][0]["stored"].get<int>(), 1);
            QCOMPARE(m["sweeps"][0]["missing"].dump(), std::string("[0,1,3]"));
            QVERIFY2(merge.err.find("1 of 4 points stored; missing 0-1, 3") != std::string::npos,
                     merge.err.c_str());
        }
        const Cli history = clusterbench({QStringLiteral("history"), QStringLiteral("--workspace"),
                                          ws, QStringLiteral("--json")});
        QCOMPARE(history.code, 0);
        const auto runs = nlohmann::json::parse(history.out);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0]["kind"].get<std::string>(), std::string("sweep"));
        QCOMPARE(runs[0]["policy"].get<std::string>(), std::string("dltap"));
        QCOMPARE(runs[0]["parameters"]["grid_index"].get<int>(), 2);
        QCOMPARE(runs[0]["status"].get<std::string>(), std::string("partial"));
        QVERIFY(runs[0]["scenario"].get<std::string>().rfind("DLTAP testbed", 0) == 0);

        // The same point run locally gives the same figures.
        const Cli local = clusterbench({QStringLiteral("sweep"), kTestbed, QStringLiteral("--policies"),
                                        QStringLiteral("k8s-default,dltap"), QStringLiteral("--seeds"),
                                        QStringLiteral("2"), QStringLiteral("--json"),
                                        QStringLiteral("--no-save")});
        QCOMPARE(local.code, 0);
        const auto grid = nlohmann::json::parse(local.out)["grid"][2];
        QCOMPARE(runs[0]["metrics"]["cross_node_bytes"].get<double>(),
                 grid["metrics"]["cross_node_bytes"].get<double>());
        QCOMPARE(runs[0]["seed"], grid["seed"]);

        // The other three points: once all four are in, the sweep is complete.
        QStringList all;
        for (int index = 0; index < 4; ++index) {
            if (index != 2) {
                const Cli t = clusterbench({QStringLiteral("bash"), QStringLiteral("sweep.sbatch")},
                                           out,
                                           {QStringLiteral("SLURM_ARRAY_TASK_ID=%1").arg(index),
                                            QStringLiteral("CLUSTERBENCH=" CB_CLUSTERBENCH)});
                QVERIFY2(t.code == 0, (t.out + t.err).c_str());
            }
            all << out + QStringLiteral("/results/point-%1.json").arg(index);
        }
        const Cli rest = clusterbench(QStringList{QStringLiteral("merge")} + all +
                                      QStringList{QStringLiteral("--workspace"), ws,
                                                  QStringLiteral("--json")});
        QCOMPARE(rest.code, 0);
        const auto mr = nlohmann::json::parse(rest.out);
        QCOMPARE(mr["stored"].get<int>(), 3);
        QCOMPARE(mr["already_present"].get<int>(), 1);
        QCOMPARE(mr["sweeps"][0]["missing"].dump(), std::string("[]"));
        QCOMPARE(rest.err, std::string());
        const auto done = nlohmann::json::parse(
            clusterbench({QStringLiteral("history"), QStringLiteral("--workspace"), ws,
                          QStringLiteral("--json")})
                .out);
        QCOMPARE(done.size(), std::size_t(4));
        for (const auto &r : done)
            QCOMPARE(r["status"].get<std::string>(), std::string("complete"));
        // The table names each point's sweep and its number in the grid.
        const Cli table =
            clusterbench({QStringLiteral("history"), QStringLiteral("--workspace"), ws}, {},
                         {QStringLiteral("COLUMNS=200")});
        QCOMPARE(table.code, 0);
        const std::string sweepId = mr["sweeps"][0]["sweep"].get<std::string>();
        QVERIFY2(table.out.find("SWEEP") != std::string::npos, table.out.c_str());
        for (int index = 0; index < 4; ++index)
            QVERIFY2(table.out.find(sweepId + " #" + std::to_string(index)) != std::string::npos,
                     table.out.c_str());

        // Files of one sweep that disagree on its size: nothing is stored, the field is named.
        QFile first(all[0]);
        QVERIFY(first.open(QIODevice::ReadOnly));
        auto resized = nlohmann::json::parse(first.readAll().toStdString());
        resized["points"] = 5;
        QFile wrongSize(dir.filePath(QStringLiteral("resized.json")));
        QVERIFY(wrongSize.open(QIODevice::WriteOnly));
        wrongSize.write(QByteArray::fromStdString(resized.dump()));
        wrongSize.close();
        const Cli disagree = clusterbench({QStringLiteral("merge"), all[1], wrongSize.fileName(),
                                           QStringLiteral("--workspace"),
                                           dir.filePath(QStringLiteral("third.sqlite"))});
        QCOMPARE(disagree.code, 2);
        QVERIFY2(disagree.err.find("resized.json: /points: sweep") != std::string::npos,
                 disagree.err.c_str());
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("third.sqlite"))));

        // A broken result file stores nothing and names the file.
        QFile broken(dir.filePath(QStringLiteral("broken.json")));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"format\": \"clusterbench-sweep-result\", \"version\": 1}");
        broken.close();
        const Cli bad = clusterbench({QStringLiteral("merge"), result, broken.fileName(),
                                      QStringLiteral("--workspace"), dir.filePath("other.sqlite")});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.find("broken.json") != std::string::npos, bad.err.c_str());
        QVERIFY(!QFileInfo::exists(dir.filePath("other.sqlite")));

        // Out-of-range index.
        const Cli range = clusterbench({QStringLiteral("sweep-point"), out + "/grid.json",
                                        QStringLiteral("4"), QStringLiteral("--out"),
                                        dir.filePath("x.json")});
        QCOMPARE(range.code, 2);
        QVERIFY2(range.err.find("expected 0..3") != std::string::npos, range.err.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
