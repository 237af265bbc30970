#include "io/import/philly_job_log_importer.h"

#include "io/import/format_detection.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"
#include "io/json_reader.h"

#include <nlohmann/json.hpp>

namespace cb {

namespace {

// Line of each element of the top-level array (or of the single top-level object), found by
// a scan that respects strings; nlohmann::json keeps no positions.
std::vector<int> elementLines(const std::string &text)
{
    std::vector<int> lines;
    int line = 1, depth = 0;
    bool inString = false, escaped = false, topIsArray = false, seenTop = false;
    for (char c : text) {
        if (c == '\n')
            ++line;
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (!seenTop) {
                seenTop = true;
                topIsArray = c == '[';
                if (!topIsArray)
                    lines.push_back(line);
            } else if (topIsArray && depth == 1) {
                lines.push_back(line);
            }
            ++depth;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return lines;
}

std::optional<double> timeOf(const nlohmann::json &obj, const char *key)
{
    if (!obj.is_object() || !obj.contains(key) || !obj[key].is_string())
        return std::nullopt;
    return importtext::parseDateTime(obj[key].get<std::string>());
}

} // namespace

FormatMatch PhillyJobLogImporter::detect(const ImportSample &sample) const
{
    const char c = detection::firstSignificant(sample.head);
    if ((c == '[' || c == '{') && detection::jsonKey(sample.head, "jobid") &&
        (detection::jsonKey(sample.head, "attempts") ||
         detection::jsonKey(sample.head, "submitted_time")))
        return {3, "JSON jobs with jobid, attempts and submitted_time"};
    return {};
}

Result<ImportReport> PhillyJobLogImporter::read(const std::vector<ImportInput> &inputs,
                                                const ImportOptions &options) const
{
    ImportReport report;
    report.format = name();
    TraceBuilder builder(name(), options);
    std::size_t unfinishedAttempts = 0;
    for (const ImportInput &in : inputs) {
        auto text = in.wholeText();
        if (!text)
            return text.problems();
        auto doc = parseJsonText(text.value());
        if (!doc)
            return Result<ImportReport>::failure(in.name, doc.error());
        in.done();
        nlohmann::json list = doc.value();
        if (list.is_object())
            list = nlohmann::json::array({list});
        if (!list.is_array())
            return Result<ImportReport>::failure(in.name, "expected a JSON list of jobs, found " +
                                                              jsonTypeName(list));
        const std::vector<int> lines = elementLines(text.value());
        text = std::string();
        report.rowsRead += list.size();
        for (std::size_t i = 0; i < list.size(); ++i) {
            const nlohmann::json &j = list[i];
            const int line = i < lines.size() ? lines[i] : 0;
            const std::string where = "/" + std::to_string(i);
            if (!j.is_object()) {
                report.skip(in.name, line, where + ": expected a job object",
                            "expected a job object");
                continue;
            }
            TraceRecord rec;
            rec.file = in.name;
            rec.line = line;
            if (j.contains("jobid") && j["jobid"].is_string())
                rec.id = j["jobid"].get<std::string>();
            if (rec.id.empty()) {
                report.skip(in.name, line, where + "/jobid: expected a job id string",
                            "jobid: expected a job id string");
                continue;
            }
            rec.name = rec.id;
            const auto submitted = timeOf(j, "submitted_time");
            if (!submitted) {
                report.skip(in.name, line,
                            where + "/submitted_time: expected \"YYYY-MM-DD HH:MM:SS\"",
                            "submitted_time: expected a date-time");
                continue;
            }
            rec.submitSeconds = *submitted;
            double runSeconds = 0;
            bool anyRun = false;
            int gpus = 0, machines = 0;
            if (j.contains("attempts") && j["attempts"].is_array()) {
                for (const nlohmann::json &a : j["attempts"]) {
                    const auto s = timeOf(a, "start_time");
                    const auto e = timeOf(a, "end_time");
                    if (s && e && *e >= *s) {
                        runSeconds += *e - *s;
                        anyRun = true;
                    } else {
                        ++unfinishedAttempts;
                    }
                    int g = 0, m = 0;
                    if (a.is_object() && a.contains("detail") && a["detail"].is_array())
                        for (const nlohmann::json &d : a["detail"])
                            if (d.is_object() && d.contains("gpus") && d["gpus"].is_array()) {
                                g += int(d["gpus"].size());
                                ++m;
                            }
                    if (g > 0) {
                        gpus = g;
                        machines = m;
                    }
                }
            }
            if (gpus == 0) {
                report.skip(in.name, line,
                            "job " + rec.id +
                                " never ran on a GPU (no attempt "
                                "lists GPUs): no size to import",
                            "never ran on a GPU (pending or failed at once): no size to import");
                continue;
            }
            rec.gpus = gpus;
            rec.workers = machines;
            if (anyRun)
                rec.durationSeconds = runSeconds;
            builder.add(std::move(rec), report);
        }
    }
    builder.finish(report);
    report.assume("GPUs and machines of each job's last attempt give its size (one worker "
                  "per machine); the duration is the sum of its attempts' run times");
    if (unfinishedAttempts > 0)
        report.assume(std::to_string(unfinishedAttempts) +
                      " attempts without a valid start and end time add nothing to durations");
    return report;
}

} // namespace cb
