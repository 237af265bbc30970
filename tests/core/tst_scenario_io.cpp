// The scenario file format: loading, validation messages, canonical saving, atomic writes.

#include "io/file_io.h"
#include "io/scenario_json.h"
#include "model/validation.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace cb;
using nlohmann::json;

namespace {

// A small valid scenario: 3 nodes on one switch, one PS job.
const char *kBase = R"({
  "format": "clusterbench-scenario",
  "version": 1,
  "name": "tiny",
  "cluster": {
    "gpu_types": [{"name": "T4", "memory_gib": 16, "idle_watts": 10, "busy_watts": 70}],
    "nodes": [
      {"id": "n1", "cpus": 8, "memory_gib": 32, "gpus": 2, "gpu_type": "T4"},
      {"id": "n2", "cpus": 8, "memory_gib": 32, "gpus": 2, "gpu_type": "T4"},
      {"id": "n3", "cpus": 4, "memory_gib": 16}
    ],
    "switches": [{"id": "sw", "tier": "tor"}],
    "links": [
      {"a": "n1", "b": "sw", "capacity_gbps": 10},
      {"a": "n2", "b": "sw", "capacity_gbps": 10},
      {"a": "n3", "b": "sw", "capacity_gbps": 10}
    ]
  },
  "distributions": {"flat": []},
  "jobs": [
    {"id": "j1", "kind": "ps", "submit_s": 0,
     "tasks": [{"role": "ps", "cpus": 2, "memory_gib": 4},
               {"role": "worker", "replicas": 2, "cpus": 2, "memory_gib": 8, "gpus": 1}],
     "model": {"name": "resnet50", "parameter_bytes": 102400000, "iterations": 1000}}
  ]
})";

json base()
{
    json j = json::parse(kBase);
    j["distributions"]["flat"] = json::array();
    for (int i = 0; i < 100; ++i)
        j["distributions"]["flat"].push_back(0.01);
    return j;
}

std::string mutated(const std::function<void(json &)> &edit)
{
    json j = base();
    edit(j);
    return j.dump(1);
}

} // namespace

class TestScenarioIo : public QObject
{
    Q_OBJECT

private slots:
    void baseIsValid()
    {
        auto s = scenarioFromText(base().dump());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(s->cluster.nodes.size(), std::size_t(3));
        QCOMPARE(s->cluster.totalGpus(), 4);
        QCOMPARE(s->jobs[0].taskCount(), 3);
        QCOMPARE(s->jobs[0].gpuCount(), 2);
        QCOMPARE(s->jobs[0].model.parameterBytes, std::int64_t(102400000));
        // Defaults for fields left out.
        QCOMPARE(s->settings.pue, 1.0);
        QCOMPARE(s->cluster.links[0].latencyUs, 1.0);
        QCOMPARE(s->jobs[0].tasks[1].gpuFraction, 1.0);
    }

    // Jobs that can never start load (a scenario being edited may be short of nodes for a
    // while) and are listed apart: a task no node holds, more GPUs at once than there are.
    void jobsThatNeverStartAreWarnings_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("task fits nowhere")
            << QString::fromStdString(
                   mutated([](json &j) { j["jobs"][0]["tasks"][1]["gpus"] = 3; }))
            << QString(
                   "/jobs/0/tasks/1: job j1: no node can hold this task even when the cluster is "
                   "empty (needs 2 CPUs, 8 GiB, 3 GPUs)");
        QTest::newRow("job larger than the cluster")
            << QString::fromStdString(mutated([](json &j) {
                   j["jobs"][0]["tasks"][1]["replicas"] = 3;
                   j["jobs"][0]["tasks"][1]["gpus"] = 2;
               }))
            << QString("/jobs/0/tasks: job j1: the job can never start: it needs 6 GPUs at once "
                       "(every task), the cluster has 4");
        QTest::newRow("min_available still larger")
            << QString::fromStdString(mutated([](json &j) {
                   j["jobs"][0]["tasks"][1]["replicas"] = 3;
                   j["jobs"][0]["tasks"][1]["gpus"] = 2;
                   j["jobs"][0]["tasks"][1]["gpu_type"] = "T4";
                   j["jobs"][0]["min_available"] = 3;
               }))
            << QString("/jobs/0/tasks: job j1: the job can never start: it needs 6 T4 GPUs at once "
                       "(its non-worker tasks and min_available workers), the cluster has 4");
        QTest::newRow("fractions add up")
            << QString::fromStdString(mutated([](json &j) {
                   j["jobs"][0]["tasks"][1]["replicas"] = 9;
                   j["jobs"][0]["tasks"][1]["gpu_fraction"] = 0.5;
               }))
            << QString("/jobs/0/tasks: job j1: the job can never start: it needs 4.5 GPUs at once "
                       "(every task), the cluster has 4");
    }
    void jobsThatNeverStartAreWarnings()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        auto s = scenarioFromText(text.toStdString());
        QVERIFY2(s.ok(), s.error().c_str());
        const Problems never = jobsThatNeverStart(s.value());
        QCOMPARE(never.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(never.front().toString()), expected);
    }

    void jobThatStartsShortFitsTheCluster()
    {
        // Three workers of 2 GPUs want 6 of the 4 GPUs; with min_available 2 the job starts
        // on 4 of them. Eight half GPUs are 4 GPUs.
        json j = base();
        j["jobs"][0]["tasks"][1]["replicas"] = 3;
        j["jobs"][0]["tasks"][1]["gpus"] = 2;
        j["jobs"][0]["min_available"] = 2;
        auto s = scenarioFromText(j.dump());
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(jobsThatNeverStart(s.value()).size(), std::size_t(0));
        json shared = base();
        shared["jobs"][0]["tasks"][1]["replicas"] = 8;
        shared["jobs"][0]["tasks"][1]["gpu_fraction"] = 0.5;
        auto t = scenarioFromText(shared.dump());
        QVERIFY2(t.ok(), t.error().c_str());
        QCOMPARE(jobsThatNeverStart(t.value()).size(), std::size_t(0));
    }

    void byteOrderMarkIsAccepted()
    {
        auto s = scenarioFromText("\xEF\xBB\xBF" + base().dump());
        QVERIFY2(s.ok(), s.error().c_str());
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("count");
        auto row = [](const char *name, const std::string &text, const char *expected,
                      int count = 1) {
            QTest::newRow(name) << QString::fromStdString(text) << QString::fromUtf8(expected)
                                << count;
        };
        row("empty file", "", "the file is empty; expected a JSON document");
        row("only whitespace", " \n\t\n", "the file is empty");
        row("truncated", base().dump(1).substr(0, 60), "not valid JSON: line");
        row("trailing comma", "{\"format\": \"clusterbench-scenario\",}",
            "not valid JSON: line 1, column 36");
        row("NaN literal", "{\"version\": NaN}", "not valid JSON: line 1, column 13");
        row("BOM then garbage", "\xEF\xBB\xBFnope", "not valid JSON: line 1");
        row("array at top", "[1, 2]", "/: expected an object, found an array");
        // A key given twice: the parser would keep one value without a word.
        row("repeated top-level key",
            "{\"format\":\"clusterbench-scenario\",\"version\":1,\"version\":2}",
            "/version: this key appears twice in one object; JSON readers keep only one of the "
            "two values, so give it once");
        {
            std::string twice = base().dump();
            const std::size_t at = twice.find("\"id\":\"n2\"");
            twice.insert(at, "\"id\":\"x\",");
            row("repeated key in a node", twice, "/cluster/nodes/1/id: this key appears twice");
        }
        row("other format", mutated([](json &j) { j["format"] = "kubeconfig"; }),
            "/format: expected \"clusterbench-scenario\", found \"kubeconfig\"");
        row("another JSON document", "{\"hello\": \"world\", \"items\": [1, 2]}",
            "/: this is not a ClusterBench scenario: it has neither \"format\": "
            "\"clusterbench-scenario\" nor \"version\"");
        row("missing version", mutated([](json &j) { j.erase("version"); }),
            "/: missing required field \"version\"");
        row("newer version", mutated([](json &j) { j["version"] = 7; }),
            "/version: format version 7 is newer than this ClusterBench understands (1)");
        row("version as string", mutated([](json &j) { j["version"] = "1"; }),
            "/version: expected an integer, found a string");
        row("nodes not an array", mutated([](json &j) { j["cluster"]["nodes"] = json::object(); }),
            "/cluster/nodes: expected an array, found an object");
        row("cpus as string", mutated([](json &j) { j["cluster"]["nodes"][0]["cpus"] = "8"; }),
            "/cluster/nodes/0/cpus: expected a number, found a string");
        row("negative capacity",
            mutated([](json &j) { j["cluster"]["links"][1]["capacity_gbps"] = -10; }),
            "/cluster/links/1/capacity_gbps: expected a positive capacity, found -10");
        row("zero capacity",
            mutated([](json &j) { j["cluster"]["links"][0]["capacity_gbps"] = 0; }),
            "/cluster/links/0/capacity_gbps: expected a positive capacity, found 0");
        row("overflowing number",
            "{\"format\":\"clusterbench-scenario\",\"version\":1,\"cluster\":{\"nodes\":[{\"id\":"
            "\"a\",\"cpus\":1e400,\"memory_gib\":1}]}}",
            "not valid JSON: line 1, column 84: number 1e400 is too large to represent");
        row("huge cpus", mutated([](json &j) { j["cluster"]["nodes"][0]["cpus"] = 1e300; }),
            "/cluster/nodes/0/cpus: expected a number from 0 to 1e+06, found 1e+300");
        row("huge integer",
            mutated([](json &j) {
                j["jobs"][0]["model"]["iterations"] = std::uint64_t(18446744073709551615ULL);
            }),
            "/jobs/0/model/iterations: expected an integer from 1 to 1000000000000, found "
            "18446744073709551615");
        row("fractional gpus", mutated([](json &j) { j["cluster"]["nodes"][0]["gpus"] = 2.5; }),
            "/cluster/nodes/0/gpus: expected an integer from 0 to 4096, found 2.5");
        row("dangling link", mutated([](json &j) { j["cluster"]["links"][2]["b"] = "nowhere"; }),
            "/cluster/links/2/b: unknown endpoint \"nowhere\"", 2);
        row("disconnected node", mutated([](json &j) { j["cluster"]["links"].erase(2); }),
            "/cluster/nodes/2: node \"n3\" cannot reach node \"n1\": no path of links");
        row("self loop",
            mutated([](json &j) {
                j["cluster"]["links"].push_back({{"a", "sw"}, {"b", "sw"}, {"capacity_gbps", 1}});
            }),
            "/cluster/links/3: a link from \"sw\" to itself forms a loop");
        row("duplicate node id", mutated([](json &j) { j["cluster"]["nodes"][1]["id"] = "n1"; }),
            "/cluster/nodes/1/id: duplicate id \"n1\" (first used at /cluster/nodes/0)", 2);
        row("switch reuses node id", mutated([](json &j) { j["cluster"]["switches"][0]["id"] = "n2"; }),
            "/cluster/switches/0/id: duplicate id \"n2\"", 4);
        row("unknown GPU type",
            mutated([](json &j) { j["cluster"]["nodes"][0]["gpu_type"] = "H100"; }),
            "/cluster/nodes/0/gpu_type: unknown GPU type \"H100\" (not in /cluster/gpu_types)");
        row("unknown field", mutated([](json &j) { j["cluster"]["nodes"][0]["cpu"] = 4; }),
            "/cluster/nodes/0/cpu: unknown field \"cpu\"");
        row("missing node id", mutated([](json &j) { j["cluster"]["nodes"][2].erase("id"); }),
            "/cluster/nodes/2: missing required field \"id\"");
        row("ps job without ps",
            mutated([](json &j) { j["jobs"][0]["tasks"][0]["role"] = "worker"; }),
            "/jobs/0/tasks: a parameter-server job needs at least one ps and one worker task, "
            "found 0 ps and 3 worker");
        row("unknown role", mutated([](json &j) { j["jobs"][0]["tasks"][0]["role"] = "boss"; }),
            "/jobs/0/tasks/0/role: expected one of ps, worker, chief, evaluator, single; found "
            "\"boss\"");
        row("fraction of two GPUs",
            mutated([](json &j) {
                j["jobs"][0]["tasks"][1]["gpus"] = 2;
                j["jobs"][0]["tasks"][1]["gpu_fraction"] = 0.5;
            }),
            "/jobs/0/tasks/1/gpu_fraction: a GPU fraction below 1 needs exactly one GPU per "
            "task, found 2");
        row("due before submit",
            mutated([](json &j) {
                j["jobs"][0]["submit_s"] = 100;
                j["jobs"][0]["due_s"] = 50;
            }),
            "/jobs/0/due_s: the due date (50 s) is before the submit time (100 s)");
        row("duplicate job id", mutated([](json &j) { j["jobs"].push_back(j["jobs"][0]); }),
            "/jobs/1/id: duplicate job id \"j1\"");
        row("distribution sum",
            mutated([](json &j) { j["distributions"]["flat"][0] = 0.0; }),
            "/distributions/flat: probabilities sum to 0.99, expected 1");
        row("distribution length",
            mutated([](json &j) { j["distributions"]["flat"] = {0.5, 0.5}; }),
            "/distributions/flat: expected 100 probabilities (1..100 % of max epochs), found 2");
        row("negative probability",
            mutated([](json &j) { j["distributions"]["flat"][3] = -0.01; }),
            "/distributions/flat/3: expected a probability (a number >= 0)");
        row("pue below one", mutated([](json &j) { j["settings"] = {{"pue", 0.5}}; }),
            "/settings/pue: expected a number from 1 to 10, found 0.5");
        row("price schedule order",
            mutated([](json &j) {
                j["settings"] = {{"price_schedule",
                                  {{{"from_hour", 0}, {"price_per_kwh", 0.1}},
                                   {{"from_hour", 0}, {"price_per_kwh", 0.2}}}}};
            }),
            "/settings/price_schedule/1/from_hour: periods must be in increasing hour order");
        row("label value not a string",
            mutated([](json &j) { j["cluster"]["nodes"][0]["labels"] = {{"zone/a", 3}}; }),
            "/cluster/nodes/0/labels/zone~1a: expected a string, found a number");
        row("unknown termination",
            mutated([](json &j) {
                j["jobs"][0]["sts"] = {{"max_epochs", 10},
                                       {"termination", "nope"},
                                       {"execution_times", json::array()}};
            }),
            "/jobs/0/sts/termination: unknown distribution \"nope\" (not in /distributions)");
        row("time limit zero", mutated([](json &j) { j["jobs"][0]["time_limit_s"] = 0; }),
            "/jobs/0/time_limit_s:");
        row("account with a space", mutated([](json &j) { j["jobs"][0]["account"] = "ml team"; }),
            "/jobs/0/account: expected an account name without spaces, quotes or '#', found "
            "\"ml team\"");
        row("currency symbol", mutated([](json &j) { j["settings"]["currency"] = "€"; }),
            "/settings/currency: expected a three-letter ISO 4217 code such as EUR or USD");
    }

    void malformed()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QFETCH(int, count);
        auto s = scenarioFromText(text.toStdString());
        QVERIFY(!s.ok());
        const QString message = QString::fromStdString(s.error());
        QVERIFY2(message.contains(expected), qPrintable(message));
        QCOMPARE(int(s.problems().size()), count);
    }

    void reportsEveryProblemAtOnce()
    {
        const std::string text = mutated([](json &j) {
            j["cluster"]["nodes"][0]["cpus"] = "many";
            j["cluster"]["links"][0]["latency_us"] = -1;
            j["jobs"][0]["kind"] = "mpi";
        });
        auto s = scenarioFromText(text);
        QVERIFY(!s.ok());
        QCOMPARE(s.problems().size(), std::size_t(3));
        QCOMPARE(s.problems()[0].where, std::string("/cluster/nodes/0/cpus"));
        QCOMPARE(s.problems()[1].where, std::string("/cluster/links/0/latency_us"));
        QCOMPARE(s.problems()[2].where, std::string("/jobs/0/kind"));
    }

    void reportsCheckProblemsBesideReadProblems()
    {
        // A value that does not read (job 0's kind), a link to a missing node and a second
        // job due before it is submitted: one reading lists all three, not one per round.
        const std::string text = mutated([](json &j) {
            j["jobs"][0]["kind"] = "mpi";
            j["cluster"]["links"][2]["b"] = "nowhere";
            json second = j["jobs"][0];
            second["id"] = "j2";
            second["kind"] = "ps";
            second["submit_s"] = 100;
            second["due_s"] = 50;
            j["jobs"].push_back(second);
        });
        auto s = scenarioFromText(text);
        QVERIFY(!s.ok());
        std::vector<std::string> where;
        for (const Problem &q : s.problems())
            where.push_back(q.where);
        const std::vector<std::string> expected = {"/jobs/0/kind", "/cluster/links/2/b",
                                                   "/cluster/nodes/2", "/jobs/1/due_s"};
        QCOMPARE(where, expected);
        // Checks that compare with a part that did not read wait for it: with the cluster's
        // link capacity unreadable, the jobs are not checked against the cluster (job 1's
        // due date waits), as a default read in place of a bad value could make problems of
        // its own.
        const std::string broken = mutated([](json &j) {
            j["cluster"]["links"][0]["capacity_gbps"] = "fast";
            j["jobs"][0]["due_s"] = 1;
            j["jobs"][0]["submit_s"] = 5;
        });
        auto b = scenarioFromText(broken);
        QVERIFY(!b.ok());
        QCOMPARE(int(b.problems().size()), 1);
        QCOMPARE(b.problems()[0].where, std::string("/cluster/links/0/capacity_gbps"));
        // A check of ids alone compares nothing else: two jobs of one id are said beside a
        // node's and a job's bad GPU counts (they were said only once those were mended).
        const std::string twice = mutated([](json &j) {
            j["cluster"]["nodes"][0]["gpus"] = 100000;
            j["jobs"][0]["tasks"][0]["gpus"] = -1;
            json second = j["jobs"][0];
            second["tasks"][0]["gpus"] = 1;
            j["jobs"].push_back(second);
        });
        auto t = scenarioFromText(twice);
        QVERIFY(!t.ok());
        where.clear();
        for (const Problem &q : t.problems())
            where.push_back(q.where);
        const std::vector<std::string> all = {"/cluster/nodes/0/gpus", "/jobs/0/tasks/0/gpus",
                                              "/jobs/1/id"};
        QCOMPARE(where, all);
        // ... but not when an id did not read (its default would make a duplicate of its own).
        const std::string unreadId = mutated([](json &j) {
            j["cluster"]["nodes"][0]["gpus"] = 100000;
            j["jobs"].push_back(j["jobs"][0]);
            j["jobs"][0]["id"] = 5;
        });
        auto u = scenarioFromText(unreadId);
        QVERIFY(!u.ok());
        where.clear();
        for (const Problem &q : u.problems())
            where.push_back(q.where);
        const std::vector<std::string> readOnly = {"/cluster/nodes/0/gpus", "/jobs/0/id"};
        QCOMPARE(where, readOnly);
    }

    void canonicalSaveIsStable()
    {
        auto s = scenarioFromText(base().dump());
        QVERIFY(s.ok());
        const std::string once = scenarioToText(s.value());
        auto again = scenarioFromText(once);
        QVERIFY2(again.ok(), again.error().c_str());
        QVERIFY(again.value() == s.value());
        QCOMPARE(scenarioToText(again.value()), once);
        // Integral numbers are written as integers, others exactly.
        QVERIFY(once.find("\"cpus\": 8,") != std::string::npos);
        QVERIFY(once.find("\"flat\": [\n      0.01,") != std::string::npos);
        QVERIFY(once.back() == '\n');
    }

    void jobLimitsAccountAndCurrencyRoundTrip()
    {
        const std::string text = mutated([](json &j) {
            j["jobs"][0]["time_limit_s"] = 5400;
            j["jobs"][0]["account"] = "ml-team";
            j["settings"]["currency"] = "EUR";
        });
        auto s = scenarioFromText(text);
        QVERIFY2(s.ok(), s.ok() ? "" : s.error().c_str());
        QCOMPARE(s->jobs[0].timeLimitSeconds.value_or(0), 5400.0);
        QCOMPARE(s->jobs[0].account, std::string("ml-team"));
        QCOMPARE(s->settings.currency, std::string("EUR"));
        const std::string saved = scenarioToText(s.value());
        QVERIFY(saved.find("\"time_limit_s\": 5400") != std::string::npos);
        QVERIFY(saved.find("\"account\": \"ml-team\"") != std::string::npos);
        QVERIFY(saved.find("\"currency\": \"EUR\"") != std::string::npos);
        QVERIFY(scenarioFromText(saved).value() == s.value());
        // Absent: no limit, no account, USD; and nothing written for them.
        auto plain = scenarioFromText(base().dump());
        QVERIFY(plain.ok());
        QVERIFY(!plain->jobs[0].timeLimitSeconds);
        QVERIFY(plain->jobs[0].account.empty());
        QCOMPARE(plain->settings.currency, std::string("USD"));
        const std::string plainText = scenarioToText(plain.value());
        for (const char *key : {"time_limit_s", "account", "currency"})
            QVERIFY2(plainText.find(key) == std::string::npos, key);
    }

    void everySampleRoundTripsByteForByte()
    {
        namespace fs = std::filesystem;
        int seen = 0;
        for (const auto &entry : fs::directory_iterator(CB_SOURCE_DIR "/sample-clusters")) {
            if (entry.path().extension() != ".json")
                continue;
            ++seen;
            const std::string path = entry.path().string();
            auto text = readTextFile(path);
            QVERIFY(text.ok());
            auto s = scenarioFromText(text.value());
            QVERIFY2(s.ok(), s.error(path).c_str());
            QVERIFY2(scenarioToText(s.value()) == text.value(),
                     (path + " is not in canonical form (re-save it)").c_str());
        }
        if (seen == 0)
            QSKIP("no sample scenarios yet");
    }

    void atomicSaveReplacesWholeFile()
    {
        const QString dir = QDir::tempPath() + "/cb-atomic-" + QString::number(getpid());
        QDir().mkpath(dir);
        const std::string path = (dir + "/s.json").toStdString();
        {
            std::ofstream(path) << std::string(100000, 'x');
        }
        auto s = scenarioFromText(base().dump());
        QVERIFY(s.ok());
        QVERIFY(saveScenarioFile(path, s.value()).ok());
        auto text = readTextFile(path);
        QVERIFY(text.ok());
        QCOMPARE(text.value(), scenarioToText(s.value()));
        // No temporary file is left behind.
        QCOMPARE(QDir(dir).entryList(QDir::Files | QDir::Hidden).size(), 1);
        QDir(dir).removeRecursively();
    }

    void atomicSaveFailureKeepsNothingHalfWritten()
    {
        auto s = scenarioFromText(base().dump());
        QVERIFY(s.ok());
        const std::string path = "/nonexistent-dir-cb/x/s.json";
        auto st = saveScenarioFile(path, s.value());
        QVERIFY(!st.ok());
        QVERIFY2(st.error().find(path) != std::string::npos, st.error().c_str());
        QVERIFY(!std::filesystem::exists(path));
    }

    void missingFileNamesTheFile()
    {
        auto s = loadScenarioFile("/no/such/file.json");
        QVERIFY(!s.ok());
        QVERIFY2(s.error().find("/no/such/file.json: cannot open: No such file") !=
                     std::string::npos,
                 s.error().c_str());
    }
};

QTEST_APPLESS_MAIN(TestScenarioIo)
#include "tst_scenario_io.moc"
