// The labels a node's fields imply follow the fields (model/node_labels.h): the hostname
// follows the id, the GPU count and product follow the GPUs, a label the user set to
// something else stays; new ids count up the base's number instead of compounding suffixes.

#include "model/gpu_catalog.h"
#include "model/job_defaults.h"
#include "model/node_labels.h"

#include <QtTest>

#include <set>

using namespace cb;

class TestNodeLabels : public QObject
{
    Q_OBJECT

    static Cluster cluster()
    {
        Cluster c;
        c.gpuTypes.push_back(findGpuCatalogEntry("V100")->type);
        c.gpuTypes.push_back(findGpuCatalogEntry("A100-80GB")->type);
        return c;
    }

    static Node host()
    {
        Node n;
        n.id = "node-31";
        n.gpus = 4;
        n.gpuType = "V100";
        n.rack = "r3";
        n.labels = {{"kubernetes.io/hostname", "node-31"},
                    {"nvidia.com/gpu.count", "4"},
                    {"nvidia.com/gpu.product", findGpuCatalogEntry("V100")->product},
                    {"nvidia.com/gpu.memory", "32768"},
                    {"clusterbench.io/rack", "r3"},
                    {"zone", "a"}};
        return n;
    }

private slots:
    void copyGetsItsOwnHostname()
    {
        const Node source = host();
        Node copy = source;
        copy.id = "node-32";
        syncNodeLabels(copy, source, cluster());
        QCOMPARE(copy.labels.at("kubernetes.io/hostname"), std::string("node-32"));
        QCOMPARE(copy.labels.at("nvidia.com/gpu.count"), std::string("4"));
        QCOMPARE(copy.labels.at("zone"), std::string("a"));
    }

    void gpuLabelsFollowTheGpus()
    {
        const Node before = host();
        Node n = before;
        n.gpus = 8;
        syncNodeLabels(n, before, cluster());
        QCOMPARE(n.labels.at("nvidia.com/gpu.count"), std::string("8"));
        Node a100 = n;
        a100.gpuType = "A100-80GB";
        syncNodeLabels(a100, n, cluster());
        QCOMPARE(a100.labels.at("nvidia.com/gpu.product"),
                 findGpuCatalogEntry("A100-80GB")->product);
        QCOMPARE(a100.labels.at("nvidia.com/gpu.memory"), std::string("81920"));
        Node cpu = a100;
        cpu.gpus = 0;
        cpu.gpuType.clear();
        syncNodeLabels(cpu, a100, cluster());
        QCOMPARE(cpu.labels.count("nvidia.com/gpu.count"), std::size_t(0));
        QCOMPARE(cpu.labels.count("nvidia.com/gpu.product"), std::size_t(0));
    }

    void labelsOfTheUsersOwnStay()
    {
        Node before = host();
        before.labels["kubernetes.io/hostname"] = "gpu31.example.org"; // not the id: theirs
        Node n = before;
        n.id = "node-99";
        n.rack = "r9";
        syncNodeLabels(n, before, cluster());
        QCOMPARE(n.labels.at("kubernetes.io/hostname"), std::string("gpu31.example.org"));
        QCOMPARE(n.labels.at("clusterbench.io/rack"), std::string("r9"));
    }

    void nextFreeIds_data()
    {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QStringList>("taken");
        QTest::addColumn<QString>("expected");
        QTest::newRow("free") << "node-40" << QStringList{"node-31"} << "node-40";
        QTest::newRow("counts up") << "node-31" << QStringList{"node-31"} << "node-32";
        QTest::newRow("skips taken") << "node-31" << QStringList{"node-31", "node-32"} << "node-33";
        QTest::newRow("keeps the width") << "r01-n04" << QStringList{"r01-n04"} << "r01-n05";
        QTest::newRow("grows past the width") << "n9" << QStringList{"n9"} << "n10";
        QTest::newRow("no number") << "switch" << QStringList{"switch"} << "switch-2";
    }

    void nextFreeIds()
    {
        QFETCH(QString, base);
        QFETCH(QStringList, taken);
        QFETCH(QString, expected);
        std::set<std::string> used;
        for (const QString &t : taken)
            used.insert(t.toStdString());
        const std::string id =
            nextFreeId(base.toStdString(), [&](const std::string &s) { return used.count(s) > 0; });
        QCOMPARE(QString::fromStdString(id), expected);
    }

    void newJobIdsFollowTheSeries_data()
    {
        QTest::addColumn<QStringList>("ids");
        QTest::addColumn<QString>("expected");
        QTest::newRow("next, width kept") << QStringList{"job-00", "job-01", "job-23"} << "job-24";
        QTest::newRow("past the width") << QStringList{"job-98", "job-99"} << "job-100";
        QTest::newRow("the larger series") << QStringList{"a1", "job-3", "job-7", "b2"} << "job-8";
        QTest::newRow("a tie: the first") << QStringList{"x1", "y5"} << "x2";
        QTest::newRow("no series") << QStringList{"alexnet-a", "vgg16-a", "inception3-a"} << "";
        QTest::newRow("under half") << QStringList{"a", "b", "c", "j1", "j2"} << "";
        QTest::newRow("none") << QStringList{} << "";
    }

    void newJobIdsFollowTheSeries()
    {
        QFETCH(QStringList, ids);
        QFETCH(QString, expected);
        std::vector<std::string> list;
        for (const QString &id : ids)
            list.push_back(id.toStdString());
        QCOMPARE(QString::fromStdString(nextIdInSeries(list)), expected);
    }

    void newJobDueLikeTheOthers()
    {
        // Due 100 s, 300 s and 1000 s after their submission, weights 1, 2, 9: the medians.
        std::vector<Job> jobs(3);
        const double submit[] = {0, 50, 10}, due[] = {100, 350, 1010}, weight[] = {1, 9, 2};
        for (std::size_t k = 0; k < 3; ++k) {
            jobs[k].submitSeconds = submit[k];
            jobs[k].dueSeconds = due[k];
            jobs[k].tardinessWeight = weight[k];
        }
        auto d = dueDefaults(jobs);
        QVERIFY(d);
        QCOMPARE(d->dueAfterSeconds, 300.0);
        QCOMPARE(d->tardinessWeight, 2.0);
        jobs.pop_back(); // two: the mean of the middle pair
        d = dueDefaults(jobs);
        QVERIFY(d);
        QCOMPARE(d->dueAfterSeconds, 200.0);
        QCOMPARE(d->tardinessWeight, 5.0);
        jobs[1].dueSeconds.reset(); // one without: no default
        QVERIFY(!dueDefaults(jobs));
        QVERIFY(!dueDefaults({}));
    }
};

QTEST_MAIN(TestNodeLabels)
#include "tst_node_labels.moc"
