#include "io/import/csv_mapping_importer.h"

#include "io/import/csv_rows.h"
#include "io/import/format_detection.h"
#include "io/import/text_fields.h"
#include "io/import/trace_builder.h"
#include "io/json_reader.h"

#include <array>
#include <map>

namespace cb {

namespace {

constexpr std::array<const char *, 12> kRoles = {"id",    "submit", "gpus",       "duration",
                                                 "start", "end",    "iterations", "model",
                                                 "name",  "cpus",   "memory_gib", "workers"};

struct Mapping
{
    char delimiter = ',';
    bool header = true;
    std::map<std::string, std::string> columns; // role -> header name or index text
    TimeFormat timeFormat = TimeFormat::Auto;   ///< "time_format"; per-column --time-format wins
    double scale = 1;
    std::optional<double> defaultGpus, defaultSubmit;
};

Result<Mapping> readMapping(const ImportInput &in)
{
    auto doc = parseJsonText(in.text);
    if (!doc)
        return Result<Mapping>::failure(in.name, doc.error());
    Problems problems;
    Mapping m;
    ObjectReader r(doc.value(), "", problems);
    if (!r.isObject())
        return Result<Mapping>(Problems{{in.name, "expected a JSON object (see --help)"}});
    const std::string delim = r.string("delimiter", ObjectReader::Optional, ",");
    if (delim.size() != 1)
        r.problem("delimiter", "expected one character, found \"" + delim + "\"");
    else
        m.delimiter = delim[0];
    m.header = r.boolean("header", ObjectReader::Optional, true);
    const std::string tf = r.string("time_format", ObjectReader::Optional, "auto");
    if (auto f = timeFormatFromString(tf))
        m.timeFormat = *f;
    else
        r.problem("time_format", "expected one of " + timeFormatNames() + ", found \"" + tf + "\"");
    m.scale = r.number("time_scale", ObjectReader::Optional, 1, 1e-12, 1e12);
    if (const nlohmann::json *cols = r.object("columns", ObjectReader::Required)) {
        ObjectReader c(*cols, r.pointer("columns"), problems);
        for (const char *role : kRoles) {
            if (!c.has(role))
                continue;
            const nlohmann::json &v = (*cols)[role];
            if (v.is_string())
                m.columns[role] = v.get<std::string>();
            else if (v.is_number_unsigned())
                m.columns[role] = std::to_string(v.get<std::uint64_t>());
            else
                c.problem(role,
                          "expected a column name or a 0-based index, found " + jsonTypeName(v));
            c.skip(role);
        }
        c.finish();
    }
    if (const nlohmann::json *d = r.object("defaults", ObjectReader::Optional)) {
        ObjectReader dr(*d, r.pointer("defaults"), problems);
        if (dr.has("gpus"))
            m.defaultGpus = double(dr.integer("gpus", ObjectReader::Optional, 0, 0, 100000));
        if (dr.has("submit"))
            m.defaultSubmit = dr.number("submit", ObjectReader::Optional, 0, 0, 1e15);
        dr.finish();
    }
    r.finish();
    if (problems.empty() && !m.columns.count("gpus") && !m.defaultGpus)
        problems.push_back({"/columns/gpus", "map a GPU column or give defaults.gpus"});
    if (problems.empty() && !m.columns.count("submit") && !m.defaultSubmit)
        problems.push_back({"/columns/submit", "map a submit column or give defaults.submit"});
    if (!problems.empty()) {
        for (Problem &p : problems)
            p.where = in.name + ":" + p.where;
        return problems;
    }
    return m;
}

} // namespace

FormatMatch CsvMappingImporter::detect(const ImportSample &sample) const
{
    if (detection::firstSignificant(sample.head) == '{' &&
        detection::jsonKey(sample.head, "columns"))
        return {3, "a JSON object with \"columns\": a CSV column mapping"};
    // Any CSV could be read through a mapping: the name fits, the content does not say. Text
    // only.
    const std::string &h = sample.head;
    if (!detection::notText(h).empty() || !detection::yamlTopKeys(h).empty())
        return {}; // (a YAML mapping is not a CSV file)
    if (const char c = detection::firstSignificant(h); c == '{' || c == '[')
        return {}; // (nor is a JSON document)
    if (!detection::firstRow(h).empty())
        return {1, "a CSV file"};
    return {};
}

Result<ImportReport> CsvMappingImporter::read(const std::vector<ImportInput> &inputs,
                                              const ImportOptions &options) const
{
    auto mappingText = inputs.front().wholeText();
    if (!mappingText)
        return mappingText.problems();
    ImportInput mappingInput = inputs.front();
    mappingInput.text = std::move(mappingText.value());
    mappingInput.path.clear();
    auto mapping = readMapping(mappingInput);
    if (!mapping)
        return mapping.problems();
    inputs.front().done();
    const Mapping &m = mapping.value();
    ImportReport report;
    report.format = name();
    TraceBuilder builder("job", options);
    TimeFormats formats = options.timeFormats;
    if (formats.all == TimeFormat::Auto)
        formats.all = m.timeFormat;
    for (std::size_t f = 1; f < inputs.size(); ++f) {
        const ImportInput &in = inputs[f];
        std::map<std::string, std::string> col = m.columns; // role -> table column name
        Result<CsvInput> table = Result<CsvInput>::failure(in.name, "not read");
        if (m.header) {
            std::vector<std::string> required;
            for (const auto &[role, c] : m.columns)
                required.push_back(c);
            table = openCsvInput(in, required, m.delimiter);
        } else {
            table = openCsvInputWithColumns(in, {}, m.delimiter, true);
            if (!table)
                return table.problems();
            const std::size_t width = table->columns.columns().size();
            for (const auto &[role, c] : m.columns) {
                auto idx = importtext::parseInteger(c);
                if (!idx || *idx < 0 || std::size_t(*idx) >= width)
                    return Result<ImportReport>::failure(
                        inputs.front().name + ":/columns/" + role,
                        "column index " + c + " is not in 0.." +
                            std::to_string(width == 0 ? 0 : width - 1) + " (" + in.name + " has " +
                            std::to_string(width) + " fields)");
            }
        }
        if (!table)
            return table.problems();
        auto has = [&](const char *role) { return col.count(role) > 0; };
        builder.expectBytes(in.size());
        std::map<std::string, TimeColumn> times;
        for (const char *role : {"submit", "start", "end"})
            if (has(role))
                times.emplace(role, TimeColumn(col[role], formats));
        const Status read = forEachCsvRow(table.value(), report, [&](CsvRowReader &r) {
            auto time = [&](const char *role) -> std::optional<double> {
                auto v = times.at(role).read(r);
                if (!v)
                    return std::nullopt;
                const TimeFormat f = times.at(role).format();
                const bool numeric = f != TimeFormat::DateTime;
                return numeric ? *v * m.scale : *v;
            };
            TraceRecord rec;
            rec.file = in.name;
            rec.line = r.line();
            if (has("id"))
                rec.id = r.text(col["id"]);
            rec.name = has("name") ? r.text(col["name"]) : rec.id;
            if (has("submit")) {
                auto s = time("submit");
                if (!s && r.ok() && !m.defaultSubmit)
                    r.fail("column " + col["submit"] + " is empty");
                rec.submitSeconds = s ? *s : m.defaultSubmit.value_or(0);
            } else {
                rec.submitSeconds = *m.defaultSubmit;
            }
            rec.gpus = has("gpus")
                           ? int(r.integer(col["gpus"], 0, 100000,
                                           m.defaultGpus
                                               ? std::optional<long long>((long long)*m.defaultGpus)
                                               : std::nullopt))
                           : int(*m.defaultGpus);
            if (has("duration") && !r.text(col["duration"]).empty()) {
                rec.durationSeconds = r.number(col["duration"], 0, 1e15) * m.scale;
            } else if (has("start") && has("end")) {
                auto s = time("start");
                auto e = time("end");
                if (s && e && *e >= *s)
                    rec.durationSeconds = *e - *s;
            }
            if (has("iterations"))
                if (long long it = r.integer(col["iterations"], 0, 1000000000000000LL, 0); it > 0)
                    rec.iterations = it;
            if (has("model"))
                rec.model = r.text(col["model"]);
            if (has("cpus"))
                if (double c = r.number(col["cpus"], 0, 1e9, 0.0); c > 0)
                    rec.cpus = c;
            if (has("memory_gib"))
                if (double g = r.number(col["memory_gib"], 0, 1e12, 0.0); g > 0)
                    rec.memoryGiB = g;
            if (has("workers"))
                rec.workers = int(r.integer(col["workers"], 0, 100000, 0));
            if (!r.ok())
                return;
            builder.add(std::move(rec), report);
        });
        for (const auto &[role, t] : times)
            builder.noteTimeColumn(t);
        if (!read)
            return read.problems();
    }
    builder.finish(report);
    if (!m.columns.count("gpus"))
        report.assume("no GPU column mapped: every job takes defaults.gpus = " +
                      importtext::formatNumber(*m.defaultGpus) + " GPUs");
    if (!m.columns.count("submit"))
        report.assume("no submit column mapped: every job is submitted at defaults.submit");
    if (m.scale != 1)
        report.assume("numeric times and durations multiplied by time_scale " +
                      importtext::formatNumber(m.scale));
    return report;
}

} // namespace cb
