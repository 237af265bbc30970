#pragma once
// Writes an exporter's files below an output folder, all or nothing (FileSetWriter): on any
// failure the folder keeps its old content and nothing new.

#include "io/export/exporter.h"
#include "util/result.h"

#include <string>

namespace cb {

class ExportWriter
{
public:
    /// Creates `dir` (and subfolders) as needed and writes every file, all or nothing. A file
    /// path must be relative and stay inside `dir`.
    static Status write(const std::string &dir, const ExportResult &result);
};

} // namespace cb
