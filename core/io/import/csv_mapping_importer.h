#pragma once

#include "io/import/importer.h"

namespace cb {

/// Any CSV trace, read through a small JSON mapping file given as the first input:
///
///     {"delimiter": ",", "header": true,
///      "columns": {"id": "job_id", "submit": "submit_time", "gpus": "num_gpu",
///                  "duration": "duration", "start": "start_time", "end": "end_time",
///                  "iterations": "iters", "model": "model", "name": "name",
///                  "cpus": "cpu", "memory_gib": "mem", "workers": "nodes"},
///      "time_format": "seconds", "time_scale": 1,
///      "defaults": {"gpus": 1, "submit": 0}}
///
/// A column is a header name, or a 0-based index when "header" is false. time_format is one
/// of the time formats of time_column.h ("auto", the default, detects each column's from its
/// first value; "datetime", "epoch", "epoch-ms", "seconds", "ms", "minutes", "hours");
/// --time-format COLUMN=FORMAT overrides it per column. time_scale multiplies numeric times
/// and the duration column (60 for minutes written as numbers). Only submit (or
/// defaults.submit) and gpus (or defaults.gpus) are needed; the duration is the duration
/// column, else end - start.
class CsvMappingImporter : public Importer
{
public:
    std::string name() const override { return "csv-mapping"; }
    std::string description() const override
    {
        return "any CSV trace through a JSON column mapping: MAPPING.json TRACE.csv...";
    }
    Produces produces() const override { return Produces::Jobs; }
    std::pair<int, int> fileCount() const override { return {2, 0}; }
    FormatMatch detect(const ImportSample &sample) const override;
    Result<ImportReport> read(const std::vector<ImportInput> &inputs,
                              const ImportOptions &options) const override;
};

} // namespace cb
