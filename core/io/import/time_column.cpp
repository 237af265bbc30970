#include "io/import/time_column.h"

#include "io/import/text_fields.h"

#include <array>

namespace cb {

namespace {

constexpr std::array<std::pair<TimeFormat, const char *>, 8> kNames{{
    {TimeFormat::Auto, "auto"},
    {TimeFormat::DateTime, "datetime"},
    {TimeFormat::EpochSeconds, "epoch"},
    {TimeFormat::EpochMillis, "epoch-ms"},
    {TimeFormat::Seconds, "seconds"},
    {TimeFormat::Millis, "ms"},
    {TimeFormat::Minutes, "minutes"},
    {TimeFormat::Hours, "hours"},
}};

std::string describeFormat(TimeFormat f, bool zone)
{
    switch (f) {
    case TimeFormat::DateTime:
        return zone ? "date-time with a time zone" : "date-time without a zone (read as UTC)";
    case TimeFormat::EpochSeconds:
        return "seconds since 1970 (epoch)";
    case TimeFormat::EpochMillis:
        return "milliseconds since 1970 (epoch)";
    case TimeFormat::Seconds:
        return "seconds from the trace's start";
    case TimeFormat::Millis:
        return "milliseconds from the trace's start";
    case TimeFormat::Minutes:
        return "minutes from the trace's start";
    case TimeFormat::Hours:
        return "hours from the trace's start";
    case TimeFormat::Auto:
        break;
    }
    return "not yet known";
}

TimeFormat detect(const std::string &t)
{
    if (importtext::parseDateTime(t))
        return TimeFormat::DateTime;
    if (auto v = importtext::parseNumber(t)) {
        if (*v >= 1e11)
            return TimeFormat::EpochMillis;
        if (*v >= 1e8)
            return TimeFormat::EpochSeconds;
        return TimeFormat::Seconds;
    }
    return TimeFormat::Auto;
}

} // namespace

const char *toString(TimeFormat format)
{
    for (const auto &[f, n] : kNames)
        if (f == format)
            return n;
    return "?";
}

std::optional<TimeFormat> timeFormatFromString(const std::string &name)
{
    for (const auto &[f, n] : kNames)
        if (name == n)
            return f;
    return std::nullopt;
}

std::string timeFormatNames()
{
    std::string s;
    for (const auto &[f, n] : kNames)
        s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}

TimeFormat TimeFormats::forColumn(const std::string &column) const
{
    if (asked)
        asked->insert(column);
    auto it = byColumn.find(column);
    return it != byColumn.end() ? it->second : all;
}

Status TimeFormats::add(const std::string &spec)
{
    const auto eq = spec.find('=');
    const std::string name = eq == std::string::npos ? spec : spec.substr(eq + 1);
    auto f = timeFormatFromString(importtext::trim(name));
    if (!f)
        return Status::failure("--time-format", "expected FORMAT or COLUMN=FORMAT with FORMAT "
                                                "one of " +
                                                    timeFormatNames() + ", found \"" + spec + "\"");
    if (eq == std::string::npos)
        all = *f;
    else
        byColumn[importtext::trim(spec.substr(0, eq))] = *f;
    return Ok{};
}

TimeColumn::TimeColumn(std::string column, const TimeFormats &formats)
    : m_column(std::move(column)), m_format(formats.forColumn(m_column)),
      m_named(m_format != TimeFormat::Auto)
{}

std::optional<double> TimeColumn::read(CsvRowReader &row)
{
    const std::string t = row.text(m_column);
    if (t.empty())
        return std::nullopt;
    std::string error;
    auto v = read(t, row.line(), &error);
    if (!v) {
        // Grouped by what the values look like, so a format named wrongly says which to name.
        const std::string name = toString(m_format);
        std::string reason =
            "column " + m_column + ": not " + (name.front() == 'e' ? "an " : "a ") + name + " time";
        if (m_named) {
            const TimeFormat looks = detect(importtext::trim(t));
            if (looks != TimeFormat::Auto && looks != m_format)
                reason += " (its values read as " + std::string(toString(looks)) +
                          ": name that format, or auto, in --time-format or the mapping's "
                          "time_format)";
        }
        row.fail("column " + m_column + ": " + error, reason);
    }
    return v;
}

std::optional<double> TimeColumn::read(const std::string &text, int line, std::string *error)
{
    const std::string t = importtext::trim(text);
    if (t.empty())
        return std::nullopt;
    if (m_format == TimeFormat::Auto) {
        m_format = detect(t);
        if (m_format == TimeFormat::Auto) {
            if (error)
                *error = "expected a time (a date-time such as \"2017-10-09 07:01:55\" or a "
                         "number of seconds), found " +
                         importtext::shown(t);
            return std::nullopt;
        }
        m_detectedLine = line;
        m_detectedFrom = t;
        m_zone = m_format == TimeFormat::DateTime && importtext::dateTimeHasZone(t);
    }
    const auto how = [&] {
        return m_named ? std::string(" (--time-format ") + m_column + "=" + toString(m_format) +
                             ", or the mapping's time_format)"
                       : " (as its first value at line " + std::to_string(m_detectedLine) + ", " +
                             importtext::shown(m_detectedFrom) + "; --time-format " + m_column +
                             "=FORMAT overrides)";
    };
    if (m_format == TimeFormat::DateTime) {
        auto v = importtext::parseDateTime(t);
        if (!v && error)
            *error = "expected a date-time" + how() + ", found " + importtext::shown(t);
        return v;
    }
    auto v = importtext::parseNumber(t);
    if (!v) {
        if (error)
            *error =
                "expected a number of " +
                std::string(m_format == TimeFormat::EpochMillis || m_format == TimeFormat::Millis
                                ? "milliseconds"
                            : m_format == TimeFormat::Minutes ? "minutes"
                            : m_format == TimeFormat::Hours   ? "hours"
                                                              : "seconds") +
                how() + ", found " + importtext::shown(t);
        return std::nullopt;
    }
    if (!(*v >= -1e15 && *v <= 1e15)) {
        if (error)
            *error = "time " + t + " is out of range";
        return std::nullopt;
    }
    switch (m_format) {
    case TimeFormat::EpochMillis:
    case TimeFormat::Millis:
        return *v / 1000.0;
    case TimeFormat::Minutes:
        return *v * 60.0;
    case TimeFormat::Hours:
        return *v * 3600.0;
    default:
        return *v;
    }
}

std::string TimeColumn::describe() const
{
    if (m_format == TimeFormat::Auto)
        return {};
    std::string s = "column " + m_column + ": " + describeFormat(m_format, m_zone);
    if (m_named)
        return s + " (--time-format, or the mapping's time_format)";
    return s + ", detected from line " + std::to_string(m_detectedLine) + " (" +
           importtext::shown(m_detectedFrom) + ")";
}

} // namespace cb
