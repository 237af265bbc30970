#include "io/import/philly_job_log_importer.h"

#include "io/import/format_detection.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"
#include "io/json_reader.h"
#include "util/text.h"

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

/// An attempt's time that is there but is not a date-time: the trace writes an attempt not
/// yet started or ended as null, "" or "None"; anything else that does not read is an error.
std::optional<std::string> badTime(const nlohmann::json &attempt, const char *key)
{
    if (!attempt.is_object() || !attempt.contains(key) || attempt[key].is_null())
        return std::nullopt;
    const nlohmann::json &v = attempt[key];
    if (v.is_string()) {
        const std::string text = v.get<std::string>();
        if (text.empty() || text == "None" || importtext::parseDateTime(text))
            return std::nullopt;
        return "\"" + text + "\"";
    }
    return v.dump();
}

/// Longer than this, an attempt's dates are taken for a mistake (the Philly trace spans
/// months; its longest jobs ran for weeks).
constexpr double kLongestAttemptSeconds = 366 * 86400.0;

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
            // A field of an attempt that cannot be read skips the job: its size or duration
            // would be silently wrong.
            std::string badField, badReason;
            if (j.contains("attempts") && j["attempts"].is_array()) {
                const nlohmann::json &attempts = j["attempts"];
                for (std::size_t k = 0; k < attempts.size() && badField.empty(); ++k) {
                    const nlohmann::json &a = attempts[k];
                    const std::string at = where + "/attempts/" + std::to_string(k);
                    for (const char *key : {"start_time", "end_time"})
                        if (const auto bad = badTime(a, key); bad && badField.empty()) {
                            badField = at + "/" + key +
                                       ": expected \"YYYY-MM-DD HH:MM:SS\" or "
                                       "None, found " +
                                       *bad;
                            badReason = "attempt time: expected a date-time";
                        }
                    const auto s = timeOf(a, "start_time");
                    const auto e = timeOf(a, "end_time");
                    if (badField.empty() && s && e && *e < *s) {
                        badField = at + ": ends (" + importtext::formatDateTime(*e) +
                                   ") before it starts (" + importtext::formatDateTime(*s) + ")";
                        badReason = "an attempt ends before it starts";
                    } else if (badField.empty() && s && e && *e - *s > kLongestAttemptSeconds) {
                        badField = at + ": runs " + std::to_string(int((*e - *s) / 86400)) +
                                   " days (" + importtext::formatDateTime(*s) + " to " +
                                   importtext::formatDateTime(*e) +
                                   "), over a year: check its dates";
                        badReason = "an attempt runs over a year";
                    }
                    if (!badField.empty())
                        break;
                    if (s && e) {
                        runSeconds += *e - *s;
                        anyRun = true;
                    } else {
                        ++unfinishedAttempts;
                    }
                    int g = 0, m = 0;
                    if (a.is_object() && a.contains("detail") && a["detail"].is_array())
                        for (std::size_t d = 0; d < a["detail"].size(); ++d) {
                            const nlohmann::json &machine = a["detail"][d];
                            if (!machine.is_object() || !machine.contains("gpus"))
                                continue;
                            if (!machine["gpus"].is_array()) {
                                badField = at + "/detail/" + std::to_string(d) +
                                           "/gpus: expected a list of GPU ids, found " +
                                           machine["gpus"].dump();
                                badReason = "gpus: expected a list of GPU ids";
                                break;
                            }
                            g += int(machine["gpus"].size());
                            ++m;
                        }
                    if (g > 0) {
                        gpus = g;
                        machines = m;
                    }
                }
            }
            if (!badField.empty()) {
                report.skip(in.name, line, "job " + rec.id + ": " + badField, badReason);
                continue;
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
        report.assume(counted(int(unfinishedAttempts), "attempt") +
                      " without a start or an end time (None: not started, or still running "
                      "when the trace ends) " +
                      (unfinishedAttempts == 1 ? "adds" : "add") + " nothing to durations");
    return report;
}

} // namespace cb
