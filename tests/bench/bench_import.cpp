// Import throughput: a 100,000-row trace in the shape of the Pollux authors' Philly trace
// (date-time timestamps, rows out of time order) through the whole import the terminal runs
// (ScenarioImport: detect, read, build the jobs, check them against the cluster and the
// scenario format, write the scenario), in rows per second, with the time of each phase;
// against the baseline of only splitting the same file into CSV rows (CsvStream), measured
// in the same run. Each case runs in its own child process so its peak resident memory
// (getrusage ru_maxrss) is its own.
//
// CB_BENCH_FULL=1 adds a ~100 MB trace of the same shape (2.4 million rows): memory should
// grow with the jobs kept, not with the file (a second 100 MB file whose every job is too big
// for the cluster shows the file alone). CB_BENCH_PHILLY=FILE also imports that file (the
// whole Pollux Philly trace, say). Prints figures; exits 1 only if an import fails or writes
// a different number of jobs than it read.

#include "io/import/csv_reader.h"
#include "io/import/scenario_import.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

using namespace cb;

namespace {

double peakMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// A Philly-shaped trace: "timestamp,duration,num_gpus,gpu_time,cluster", timestamps spread
// over three months and not sorted, GPU counts as in the trace (mostly 1). Deterministic.
std::size_t writeTrace(const std::string &path, std::size_t rows, int gpusAtLeast)
{
    std::ofstream out(path);
    out << "timestamp,duration,num_gpus,gpu_time,cluster\n";
    std::uint64_t x = 88172645463325252ULL;
    const auto next = [&] {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return x;
    };
    static const int kGpus[] = {1, 1, 1, 1, 1, 1, 1, 2, 4, 8};
    static const char *kClusters[] = {"6214e9", "11cb48", "103959", "2869ce", "6c71a0"};
    char line[128];
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < rows; ++i) {
        const long long t = 1504521041LL + (long long)(next() % 9000000ULL); // from 2017-09-04
        const time_t tt = time_t(t);
        tm parts{};
        gmtime_r(&tt, &parts);
        const int duration = 60 + int(next() % 20000);
        const int gpus = std::max(gpusAtLeast, kGpus[next() % 10]);
        const int n = std::snprintf(line, sizeof line, "%04d-%02d-%02d %02d:%02d:%02d,%d.0,%d,%d.0,%s\n",
                                    parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                                    parts.tm_hour, parts.tm_min, parts.tm_sec, duration, gpus,
                                    duration * gpus, kClusters[next() % 5]);
        out.write(line, n);
        bytes += std::size_t(n);
    }
    return bytes;
}

struct Figures
{
    double rows = 0, jobs = 0, seconds = 0, peakMiB = 0;
    double reading = 0, checking = 0, writing = 0;
    int ok = 1;
};

Figures readOnly(const std::string &path)
{
    Figures f;
    ImportInput in;
    in.name = in.path = path;
    auto t0 = std::chrono::steady_clock::now();
    auto stream = CsvStream::open(in);
    if (!stream) {
        f.ok = 0;
        return f;
    }
    CsvRow row;
    while (stream.value()->next(row))
        ++f.rows;
    f.rows -= 1; // the header
    f.seconds = seconds(t0);
    f.peakMiB = peakMiB();
    return f;
}

Figures wholeImport(const std::string &path, const std::string &out, bool expectJobs)
{
    Figures f;
    ImportRequest req;
    req.files = {path};
    std::map<std::string, double> phaseEnd;
    const auto t0 = std::chrono::steady_clock::now();
    ScenarioImport imp(req, [&](const std::string &phase, double) {
        phaseEnd[phase] = seconds(t0);
        return true;
    });
    const bool ran = imp.run();
    const bool ok = ran && imp.write(out);
    f.seconds = seconds(t0);
    f.peakMiB = peakMiB();
    f.rows = double(imp.report().rowsRead);
    f.jobs = double(imp.report().jobsWritten);
    f.reading = phaseEnd["reading"];
    f.checking = phaseEnd["checking"] - f.reading;
    f.writing = phaseEnd.count("writing") ? phaseEnd["writing"] - phaseEnd["checking"] : 0;
    f.ok = expectJobs ? ok && f.jobs > 0 : !ran;
    return f;
}

template<typename Fn>
Figures inChild(Fn fn)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        const Figures f = fn();
        if (write(fds[1], &f, sizeof f) != ssize_t(sizeof f))
            _exit(2);
        _exit(0);
    }
    close(fds[1]);
    Figures f;
    f.ok = 0;
    if (read(fds[0], &f, sizeof f) != ssize_t(sizeof f))
        f.ok = 0;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return f;
}

void print(const char *what, const Figures &f, const Figures &base)
{
    std::printf("%-34s %9.0f rows %8.2f s %10.0f rows/s %8.1f MiB peak", what, f.rows, f.seconds,
                f.rows / std::max(f.seconds, 1e-9), f.peakMiB);
    if (f.jobs > 0)
        std::printf("  %.0f jobs", f.jobs);
    if (base.seconds > 0 && &f != &base)
        std::printf("  %.1fx the read-only time", f.seconds / base.seconds);
    std::printf("\n");
    if (f.reading > 0)
        std::printf("%-34s reading %.2f s (%.0f %%), checking %.2f s (%.0f %%), writing %.2f s "
                    "(%.0f %%)\n",
                    "", f.reading, 100 * f.reading / f.seconds, f.checking,
                    100 * f.checking / f.seconds, f.writing, 100 * f.writing / f.seconds);
}

int runSize(const std::string &dir, const char *label, std::size_t rows)
{
    const std::string trace = dir + "/trace-" + std::to_string(rows) + ".csv";
    const std::size_t bytes = writeTrace(trace, rows, 0);
    std::printf("%s: %zu rows, %.1f MB\n", label, rows, double(bytes) / 1e6);
    const Figures base = inChild([&] { return readOnly(trace); });
    const Figures all = inChild([&] { return wholeImport(trace, dir + "/s.json", true); });
    print("  CSV rows only (baseline)", base, base);
    print("  whole import", all, base);
    int ok = base.ok && all.ok && all.jobs == double(rows) ? 0 : 1;
    std::filesystem::remove(trace);
    std::filesystem::remove(dir + "/s.json");
    return ok;
}

} // namespace

int main()
{
    const std::string dir = std::filesystem::temp_directory_path() /
                            ("cb-bench-import-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    int failed = runSize(dir, "Philly-shaped trace", 100000);
    if (const char *full = std::getenv("CB_BENCH_FULL"); full && std::strcmp(full, "1") == 0) {
        failed |= runSize(dir, "100 MB Philly-shaped trace", 2400000);
        // Every job needs 64 GPUs, more than the default cluster's 32: nothing is kept, so
        // the peak is what reading the file costs.
        const std::string big = dir + "/too-big.csv";
        const std::size_t bytes = writeTrace(big, 2400000, 64);
        const Figures none = inChild([&] { return wholeImport(big, dir + "/none.json", false); });
        std::printf("100 MB trace, no job kept: %.1f MB\n", double(bytes) / 1e6);
        print("  whole import (exit 1)", none, Figures{});
        failed |= none.ok ? 0 : 1;
        std::filesystem::remove(big);
    }
    if (const char *philly = std::getenv("CB_BENCH_PHILLY")) {
        const Figures base = inChild([&] { return readOnly(philly); });
        const Figures all = inChild([&] { return wholeImport(philly, dir + "/p.json", true); });
        std::printf("%s\n", philly);
        print("  CSV rows only (baseline)", base, base);
        print("  whole import", all, base);
        failed |= all.ok ? 0 : 1;
    }
    std::filesystem::remove_all(dir);
    return failed;
}
