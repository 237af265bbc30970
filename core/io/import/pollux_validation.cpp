#include "io/import/pollux_validation.h"

#include "io/import/csv_rows.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

namespace cb {

namespace {

/// Rows a reader skipped are failures here: a replay needs every epoch.
Problems rowsSkippedAsProblems(const ImportReport &report)
{
    Problems out;
    for (const ImportNote &n : report.skipped)
        out.push_back({n.file + ":" + std::to_string(n.line), n.message});
    return out;
}

ImportInput validationFileInput(const std::filesystem::path &p)
{
    ImportInput in;
    in.name = p.string();
    in.path = p.string();
    std::error_code ec;
    in.fileSize = std::size_t(std::filesystem::file_size(p, ec));
    return in;
}

/// B of "validation-B.csv" (after the prefix), or 0.
int validationBatchOfName(const std::string &name, const std::string &prefix)
{
    if (name.size() <= prefix.size() + 4 || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - 4, 4, ".csv") != 0)
        return 0;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 4);
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return 0;
    return std::stoi(digits);
}

} // namespace

Result<std::vector<PolluxEpoch>> readPolluxValidation(const ImportInput &in)
{
    using R = Result<std::vector<PolluxEpoch>>;
    ImportReport report;
    std::vector<PolluxEpoch> epochs;
    const Status read =
        readCsvInput(in, {"progress", "grad_sqr", "grad_var"}, report, [&](CsvRowReader &r) {
            PolluxEpoch e;
            e.progress = r.number("progress", 0, 1e15);
            e.gradSqr = r.number("grad_sqr", 0, 1e300);
            e.gradVar = r.number("grad_var", 0, 1e300);
            if (r.ok() && !epochs.empty() && e.progress < epochs.back().progress)
                r.fail("column progress: " + r.text("progress") + " is below the previous epoch's");
            if (r.ok())
                epochs.push_back(e);
        });
    if (!read)
        return read.problems();
    if (report.skippedCount > 0)
        return rowsSkippedAsProblems(report);
    if (epochs.empty())
        return R::failure(in.name, "no epochs (expected a row per epoch after the header)");
    return epochs;
}

Result<std::map<int, std::vector<PolluxEpoch>>>
readPolluxValidationRuns(const std::string &dir, const std::string &application)
{
    namespace fs = std::filesystem;
    using R = Result<std::map<int, std::vector<PolluxEpoch>>>;
    std::vector<std::pair<int, fs::path>> files;
    std::error_code ec;
    for (const auto &[folder, prefix] :
         {std::pair{fs::path(dir), application + "_validation-"},
          std::pair{fs::path(dir) / application, std::string("validation-")}}) {
        if (!fs::is_directory(folder, ec))
            continue;
        for (const fs::directory_entry &e : fs::directory_iterator(folder, ec))
            if (e.is_regular_file(ec))
                if (int b = validationBatchOfName(e.path().filename().string(), prefix); b > 0)
                    files.emplace_back(b, e.path());
    }
    std::sort(files.begin(), files.end());
    std::map<int, std::vector<PolluxEpoch>> runs;
    for (const auto &[batch, path] : files) {
        if (runs.count(batch))
            return R::failure(path.string(),
                              "a second validation run at batch " + std::to_string(batch));
        auto epochs = readPolluxValidation(validationFileInput(path));
        if (!epochs)
            return epochs.problems();
        runs.emplace(batch, std::move(epochs.value()));
    }
    if (runs.empty())
        return R::failure(dir, "no " + application + "_validation-<B>.csv or " + application +
                                   "/validation-<B>.csv");
    return runs;
}

Result<std::vector<PolluxWorkloadJob>> readPolluxWorkload(const ImportInput &in)
{
    ImportReport report;
    std::vector<PolluxWorkloadJob> jobs;
    std::map<std::string, int> lineOfName;
    const Status read =
        readCsvInput(in, {"name", "time", "application", "num_replicas", "batch_size"}, report,
                     [&](CsvRowReader &r) {
                         PolluxWorkloadJob j;
                         j.name = r.text("name");
                         j.submitSeconds = r.number("time", 0, 1e12);
                         j.application = r.text("application");
                         j.replicas = int(r.integer("num_replicas", 1, 1000000));
                         j.batchSize = int(r.integer("batch_size", 1, 1000000000));
                         if (r.ok() && (j.name.empty() || j.application.empty()))
                             r.fail("name and application must not be empty");
                         if (r.ok()) {
                             auto [it, fresh] = lineOfName.emplace(j.name, r.line());
                             if (!fresh)
                                 r.fail("job " + j.name + " is named on line " +
                                        std::to_string(it->second) + " already");
                         }
                         j.source = in.name + ":" + std::to_string(r.line());
                         if (r.ok())
                             jobs.push_back(std::move(j));
                     });
    if (!read)
        return read.problems();
    if (report.skippedCount > 0)
        return rowsSkippedAsProblems(report);
    if (jobs.empty())
        return Result<std::vector<PolluxWorkloadJob>>::failure(in.name, "no jobs");
    return jobs;
}

} // namespace cb
