// STS model and phase planner: termination distributions, conditioned survival, price
// catalogues, the exact planner against hand-computed numbers and a brute-force enumeration
// on the 1 %-of-E grid.

#include "io/sts_tables.h"
#include "stochastic/phase_planner.h"
#include "stochastic/price_catalogue.h"
#include "stochastic/sharing_slices.h"
#include "stochastic/termination_distribution.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace cb;

namespace {

/// Stops at 50 % or at 100 % with probability 1/2 each.
TerminationDistribution halfHalf()
{
    std::vector<double> w(100, 0.0);
    w[49] = 1;
    w[99] = 1;
    return TerminationDistribution::fromWeights("half", w).value();
}

PhaseOption option(const std::string &type, int gpus, double speed, double costPerSecond)
{
    PhaseOption o;
    o.config = {type, gpus, 1.0};
    o.speed = speed;
    o.costPerSecond = costPerSecond;
    return o;
}

/// Two options, A: 1 epoch/s at 1 per second (p = 1), B: 2 epochs/s at 4 per second (p = 2).
PhasePlanInput twoOptions(double done, double secondsLeft)
{
    PhasePlanInput in;
    in.doneEpochs = done;
    in.maxEpochs = 100;
    in.secondsLeft = secondsLeft;
    in.options = {option("X", 1, 1.0, 1.0), option("X", 2, 2.0, 4.0)};
    in.survival = halfHalf().survival(done, 100);
    in.tardinessWeight = 1;
    return in;
}

double planTime(const PhasePlanInput &in, const std::vector<double> &x)
{
    double t = 0;
    for (std::size_t i = 1; i < x.size(); ++i)
        t += (x[i] - x[i - 1]) / in.options[i - 1].speed;
    return t;
}

/// Brute force over the grid {e} + {k E / 100 > e}: every subset of options (in order), every
/// grid placement of all breakpoints but one, the free one solved from the time equation.
double bruteForce(const PhasePlanInput &in)
{
    std::vector<double> grid = {in.doneEpochs};
    for (int k = 1; k <= 100; ++k)
        if (k * in.maxEpochs / 100 > in.doneEpochs + 1e-12)
            grid.push_back(k * in.maxEpochs / 100);
    const std::size_t n = in.options.size();
    double best = std::numeric_limits<double>::infinity();
    for (unsigned mask = 1; mask < (1u << n); ++mask) {
        std::vector<std::size_t> used;
        for (std::size_t i = 0; i < n; ++i)
            if (mask & (1u << i))
                used.push_back(i);
        const std::size_t m = used.size();
        auto evaluate = [&](const std::vector<double> &y) {
            std::vector<double> x(n + 1, in.doneEpochs);
            std::size_t u = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (u < m && used[u] == i)
                    x[i + 1] = y[++u];
                else
                    x[i + 1] = x[i];
            }
            if (std::abs(planTime(in, x) - in.secondsLeft) > 1e-7)
                return;
            best = std::min(best, expectedPhaseCost(in, x));
        };
        std::vector<double> y(m + 1);
        y[0] = in.doneEpochs;
        y[m] = in.maxEpochs;
        if (m == 1) {
            evaluate(y);
            continue;
        }
        // m - 1 inner breakpoints, one free; the others take grid values (m <= 3 here).
        for (std::size_t f = 1; f < m; ++f) {
            const std::size_t other = m == 3 ? (f == 1 ? 2 : 1) : 0;
            const std::size_t choices = m == 3 ? grid.size() : 1;
            for (std::size_t g = 0; g < choices; ++g) {
                if (m == 3)
                    y[other] = grid[g];
                // time = sum (y_i - y_{i-1}) tau_i, linear in y_f.
                const auto tau = [&](std::size_t i) { return 1.0 / in.options[used[i - 1]].speed; };
                const double coef = tau(f) - tau(f + 1);
                if (std::abs(coef) < 1e-15)
                    continue;
                double constant = 0;
                for (std::size_t i = 1; i <= m; ++i) {
                    const double hi = i == f ? 0.0 : y[i], lo = i - 1 == f ? 0.0 : y[i - 1];
                    constant += (hi - lo) * tau(i);
                }
                y[f] = (in.secondsLeft - constant) / coef;
                if (y[f] < y[f - 1] - 1e-9 || y[f] > y[f + 1] + 1e-9)
                    continue;
                y[f] = std::clamp(y[f], y[f - 1], y[f + 1]);
                evaluate(y);
            }
        }
    }
    return best;
}

} // namespace

class TestStsPlanner : public QObject
{
    Q_OBJECT

private slots:
    void distributionNormalisesAndRejects()
    {
        std::vector<double> w(100, 0.0);
        w[9] = 3;
        w[19] = 1;
        auto d = TerminationDistribution::fromWeights("d", w);
        QVERIFY(d.ok());
        QCOMPARE(d->pmf(10), 0.75);
        QCOMPARE(d->tail(11), 0.25);
        QCOMPARE(d->meanPercent(), 12.5);
        QVERIFY(!TerminationDistribution::fromWeights("d", std::vector<double>(99, 1.0)));
        w[3] = -1;
        auto bad = TerminationDistribution::fromWeights("d", w, "/distributions/d");
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.problems()[0].where), QString("/distributions/d/3"));
        QVERIFY(!TerminationDistribution::fromWeights("z", std::vector<double>(100, 0.0)));
    }

    void samplingFollowsPmf()
    {
        Rng rng(7);
        const TerminationDistribution d = halfHalf();
        int fifty = 0;
        for (int i = 0; i < 10000; ++i) {
            const int k = d.sample(rng);
            QVERIFY(k == 50 || k == 100);
            fifty += k == 50;
        }
        QVERIFY(fifty > 4800 && fifty < 5200);
    }

    void survivalConditioned_data()
    {
        QTest::addColumn<double>("done");
        QTest::addColumn<double>("w");
        QTest::addColumn<double>("expected");
        QTest::newRow("start, first half") << 0.0 << 30.0 << 1.0;
        QTest::newRow("start, at 50") << 0.0 << 50.0 << 1.0;
        QTest::newRow("start, after 50") << 0.0 << 50.5 << 0.5;
        QTest::newRow("done 50, still running") << 50.0 << 60.0 << 1.0;
        QTest::newRow("done 20") << 20.0 << 70.0 << 0.5;
        QTest::newRow("beyond E") << 0.0 << 101.0 << 0.0;
    }
    void survivalConditioned()
    {
        QFETCH(double, done);
        QFETCH(double, w);
        QFETCH(double, expected);
        const SurvivalFunction s = halfHalf().survival(done, 100);
        QCOMPARE(s.value(w), expected);
    }

    void survivalIntegralIsExact()
    {
        const SurvivalFunction s = halfHalf().survival(0, 100);
        QCOMPARE(s.integral(0, 100), 75.0);
        QCOMPARE(s.integral(40, 60), 15.0);
        QCOMPARE(s.integral(60, 40), 0.0);
        // E = 200 epochs, 12.5 done: cells of 2 epochs, the first one (12.5, 14].
        const SurvivalFunction t = halfHalf().survival(12.5, 200);
        QCOMPARE(t.cells().front().from, 12.5);
        QCOMPARE(t.cells().front().to, 14.0);
        QCOMPARE(t.integral(12.5, 200), 87.5 + 50.0);
    }

    void priceCatalogues()
    {
        auto cloud = parseCloudPriceCsv(
            "VMtype,GPUtype,nGPUs,cost\nNC6,K80,1,0.56\nNC12,K80,2,1.13\nNC24,K80,4,2.25\n",
            "GPU-cost.csv");
        QVERIFY2(cloud.ok(), cloud.error().c_str());
        QCOMPARE(cloud->ratePerHour("K80", 2), 1.13);
        QCOMPARE(cloud->ratePerHour("K80", 3), 1.695); // per GPU from the 2-GPU row
        QCOMPARE(cloud->ratePerHour("M60", 1), 0.0);
        auto energy = parseEnergyPriceCsv(
            "GPUtype,nGPUs,PowerConsumption[W],EnergyCost[€/kWh],PUE,cost\n"
            "TESLA,1,500,0.2,1.5,0\n",
            "e.csv");
        QVERIFY2(energy.ok(), energy.error().c_str());
        QCOMPARE(energy->ratePerHour("TESLA", 1), 0.15);
        auto bad = parseCloudPriceCsv("GPUtype,nGPUs,cost\nK80,x,1\n", "p.csv");
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.problems()[0].where), QString("p.csv:2"));
    }

    void sharingSlices()
    {
        auto s = parseSharingSlicesCsv("GPUtype,Memory,GPUf,inflate_max,inflate\n"
                                         "K80,6,0.25,1.11,1\nK80,12,0.5,1.05,1\n",
                                         "fractions.csv");
        QVERIFY2(s.ok(), s.error().c_str());
        QCOMPARE(int(s->fitting("K80", 4).size()), 2);
        QCOMPARE(int(s->fitting("K80", 8).size()), 1);
        QCOMPARE(s->fitting("K80", 8)[0].fraction, 0.5);
        QCOMPARE(int(s->fitting("M60", 1).size()), 0);
    }

    void twoOptionsByHand_data()
    {
        QTest::addColumn<double>("done");
        QTest::addColumn<double>("secondsLeft");
        QTest::addColumn<double>("breakpoint");
        QTest::addColumn<double>("cost");
        // Need to save 25 s: cells after 50 (S = 1/2) move up first, each saves 0.5 s.
        QTest::newRow("second half fast") << 0.0 << 75.0 << 50.0 << 100.0;
        // 40 s: all of (50, 100] plus 30 cells of (0, 50]: x1 = 20, 20 + 2 (30 + 25) = 130.
        QTest::newRow("from 20") << 0.0 << 60.0 << 20.0 << 130.0;
        // A partial cell: x1 = 20.5, 20.5 + 2 (29.5 + 25) = 129.5.
        QTest::newRow("partial cell") << 0.0 << 60.25 << 20.5 << 129.5;
        // 50 done and running: S = 1 on (50, 100]; 40 s for 50 epochs: x1 = 80, 30 + 40.
        QTest::newRow("conditioned") << 50.0 << 40.0 << 80.0 << 70.0;
    }
    void twoOptionsByHand()
    {
        QFETCH(double, done);
        QFETCH(double, secondsLeft);
        QFETCH(double, breakpoint);
        QFETCH(double, cost);
        const PhasePlanInput in = twoOptions(done, secondsLeft);
        auto plan = planPhases(in);
        QVERIFY2(plan.ok(), plan.error().c_str());
        QCOMPARE(plan->kind, PlanKind::Optimised);
        const std::vector<double> x = plan->breakpoints(2, done);
        QVERIFY(std::abs(x[1] - breakpoint) < 1e-9);
        QVERIFY(std::abs(plan->expectedEnergyCost - cost) < 1e-9);
        QVERIFY(std::abs(plan->worstCaseSeconds - secondsLeft) < 1e-9);
        QCOMPARE(plan->expectedTardinessCost, 0.0);
        QCOMPARE(plan->enactedOption, std::size_t(0));
        QVERIFY(std::abs(plan->enactedUntilEpoch - breakpoint) < 1e-9);
        QVERIFY(std::abs(plan->enactedSeconds - (breakpoint - done)) < 1e-9);
        QVERIFY(!plan->enactedIsLast);
        QVERIFY(!plan->reordered);
    }

    void shortcuts()
    {
        // Cheapest alone meets the due date: A for everything, real expected cost 75.
        auto loose = planPhases(twoOptions(0, 100));
        QVERIFY(loose.ok());
        QCOMPARE(loose->kind, PlanKind::Loose);
        QCOMPARE(int(loose->segments.size()), 1);
        QCOMPARE(loose->segments[0].option, std::size_t(0));
        QCOMPARE(loose->expectedEnergyCost, 75.0);
        QVERIFY(loose->enactedIsLast);
        QCOMPARE(loose->enactedSeconds, 100.0);
        // Even the fastest misses it: B for everything; stopping at 100 % ends 10 s late
        // (probability 1/2, weight 1): expected tardiness 5; energy 2 x 75.
        auto tardy = planPhases(twoOptions(0, 40));
        QVERIFY(tardy.ok());
        QCOMPARE(tardy->kind, PlanKind::Tardy);
        QCOMPARE(tardy->segments[0].option, std::size_t(1));
        QCOMPARE(tardy->expectedEnergyCost, 150.0);
        QCOMPARE(tardy->expectedTardinessCost, 5.0);
        QCOMPARE(tardy->enactedSeconds, 50.0);
        // Already late.
        auto late = planPhases(twoOptions(0, -10));
        QVERIFY(late.ok());
        QCOMPARE(late->kind, PlanKind::Tardy);
    }

    void dominatedOptionUnused()
    {
        // C (index 1) is slower than B and dearer per epoch: never on the hull.
        PhasePlanInput in = twoOptions(0, 75);
        in.options.insert(in.options.begin() + 1, option("X", 2, 1.5, 4.0));
        auto plan = planPhases(in);
        QVERIFY(plan.ok());
        const std::vector<double> x = plan->breakpoints(3, 0);
        QCOMPARE(x[1], x[2]);
        QVERIFY(std::abs(plan->expectedEnergyCost - 100.0) < 1e-9);
    }

    void badInput()
    {
        PhasePlanInput in = twoOptions(0, 75);
        in.options[1].speed = 0;
        auto plan = planPhases(in);
        QVERIFY(!plan);
        QCOMPARE(QString::fromStdString(plan.problems()[0].where), QString("options/1"));
        in.options.clear();
        QVERIFY(!planPhases(in));
    }

    void matchesBruteForce_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("options");
        for (int seed = 1; seed <= 24; ++seed)
            QTest::newRow(qPrintable(QString("seed %1").arg(seed)))
                << seed << (seed % 2 == 0 ? 3 : 2);
    }
    void matchesBruteForce()
    {
        QFETCH(int, seed);
        QFETCH(int, options);
        Rng rng(std::uint64_t(seed) * 7919);
        // A random distribution with a random support, E = 200, some epochs already done.
        std::vector<double> w(100, 0.0);
        for (double &v : w)
            v = rng.uniform() < 0.3 ? rng.uniform() : 0.0;
        w[99] += 0.01;
        const TerminationDistribution d = TerminationDistribution::fromWeights("r", w).value();
        PhasePlanInput in;
        in.maxEpochs = 200;
        in.doneEpochs = seed % 3 == 0 ? 0.0 : std::floor(rng.uniform(0, 60)) + 0.5;
        in.survival = d.survival(in.doneEpochs, in.maxEpochs);
        double speed = rng.uniform(0.5, 1.0);
        for (int i = 0; i < options; ++i) {
            in.options.push_back(option("X", i + 1, speed, rng.uniform(0.5, 2.0) * (i + 1)));
            speed *= rng.uniform(1.2, 2.0); // faster with more GPUs
        }
        const double remaining = in.maxEpochs - in.doneEpochs;
        double slowest = 0, fastest = std::numeric_limits<double>::infinity();
        std::size_t cheap = 0;
        for (std::size_t i = 0; i < in.options.size(); ++i) {
            if (in.options[i].costPerEpoch() < in.options[cheap].costPerEpoch())
                cheap = i;
            fastest = std::min(fastest, remaining / in.options[i].speed);
        }
        slowest = remaining / in.options[cheap].speed;
        in.secondsLeft = fastest + rng.uniform(0.05, 0.95) * (slowest - fastest);
        auto plan = planPhases(in);
        QVERIFY2(plan.ok(), plan.error().c_str());
        if (plan->kind == PlanKind::Loose) // the cheapest option is also the fastest
            QSKIP("no trade-off in this draw");
        QCOMPARE(plan->kind, PlanKind::Optimised);
        QVERIFY(!plan->reordered);
        const std::vector<double> x = plan->breakpoints(in.options.size(), in.doneEpochs);
        QVERIFY(std::abs(planTime(in, x) - in.secondsLeft) < 1e-7);
        QVERIFY(std::abs(expectedPhaseCost(in, x) - plan->expectedEnergyCost) < 1e-9);
        const double brute = bruteForce(in);
        QVERIFY2(std::abs(brute - plan->expectedEnergyCost) < 1e-6,
                 qPrintable(QString("planner %1, brute force %2")
                                .arg(plan->expectedEnergyCost, 0, 'g', 12)
                                .arg(brute, 0, 'g', 12)));
    }
};

QTEST_APPLESS_MAIN(TestStsPlanner)
#include "tst_sts_planner.moc"
