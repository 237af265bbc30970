#pragma once
// Times in trace columns, read the same way by every trace importer. Each time column's format
// is detected from its first non-empty value, unless the user names it:
// - a date-time "YYYY-MM-DD HH:MM:SS" (also with 'T' or '/', fractions, no seconds, a date
//   alone, and a zone such as Z, +08:00, UTC or PDT, which is applied; without one, UTC);
// - a number from 10^11 up: epoch milliseconds (10^11 ms is 1973-03-03);
// - a number from 10^8 up: epoch seconds (10^8 s is 1973-03-03);
// - a smaller number: seconds relative to the trace's start.
// The importers rebase times so the first submission is at 0 s, so the time zone and the epoch
// only matter for what the report says. Named formats (TimeFormat) include relative
// milliseconds, minutes and hours, which cannot be told from seconds by their values.

#include "io/import/csv_table.h"

#include <map>
#include <memory>
#include <set>
#include <optional>
#include <string>

namespace cb {

enum class TimeFormat {
    Auto,
    DateTime,
    EpochSeconds,
    EpochMillis,
    Seconds,
    Millis,
    Minutes,
    Hours
};

/// "auto", "datetime", "epoch", "epoch-ms", "seconds", "ms", "minutes", "hours".
const char *toString(TimeFormat format);
std::optional<TimeFormat> timeFormatFromString(const std::string &name);
/// The names above, comma-separated, for help texts and messages.
std::string timeFormatNames();

/// Formats chosen by the user: one for every time column, and/or one per column name.
struct TimeFormats
{
    TimeFormat all = TimeFormat::Auto;
    std::map<std::string, TimeFormat> byColumn;
    /// The time columns the importers asked about (forColumn), shared by copies: a column
    /// named in byColumn that none asked about is not in the input (a misspelling).
    std::shared_ptr<std::set<std::string>> asked = std::make_shared<std::set<std::string>>();
    TimeFormat forColumn(const std::string &column) const;
    /// Reads "FORMAT" or "COLUMN=FORMAT"; a problem names the allowed formats.
    Status add(const std::string &spec);
};

/// One time column of one input: detects its format on the first non-empty value and reads
/// every value in that format.
class TimeColumn
{
public:
    TimeColumn(std::string column, const TimeFormats &formats);

    const std::string &column() const { return m_column; }
    /// The value of the column in seconds (epoch or relative), nullopt when empty. A value
    /// that does not fit the column's format fails the row with a message naming the
    /// format, where it was detected and how to override it.
    std::optional<double> read(CsvRowReader &row);
    /// The same for a value read some other way (a JSON field); `where` names it ("line 12").
    std::optional<double> read(const std::string &text, int line, std::string *error);
    /// The format in use (Auto until the first value is read).
    TimeFormat format() const { return m_format; }
    /// What the report says, e.g. "column timestamp: date-time without a zone (read as UTC),
    /// detected from line 2 (\"2017-10-09 07:01:55\")"; empty when no value was read.
    std::string describe() const;

private:
    std::string m_column;
    TimeFormat m_format;
    bool m_named;
    int m_detectedLine = 0;
    std::string m_detectedFrom;
    bool m_zone = false;
};

} // namespace cb
