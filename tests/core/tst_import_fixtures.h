#pragma once
// Shared by the importer tests on real files: import files from tests/data/import by format,
// and search the report's skipped rows and assumptions for a text.

#include "io/import/importer.h"
#include "io/import/importer_registry.h"

#include <string>
#include <vector>

namespace cbtest {

inline const std::string kImportData = CB_TEST_DATA "/import/";

/// Imports `files` (paths under tests/data/import) with the importer named `format`.
inline cb::Result<cb::ImportReport> importData(const std::string &format,
                                               const std::vector<std::string> &files,
                                               const cb::ImportOptions &options)
{
    std::vector<std::string> paths;
    for (const std::string &f : files)
        paths.push_back(kImportData + f);
    return cb::importFiles(*cb::findImporter(format), paths, options);
}

/// The same with the options `clusterbench import` uses when none are given.
inline cb::Result<cb::ImportReport> importData(const std::string &format,
                                               const std::vector<std::string> &files)
{
    static const cb::ImportOptions defaults;
    return importData(format, files, defaults);
}

/// Every skipped row and assumption of a report, one per line.
inline std::string importNotes(const cb::ImportReport &r)
{
    std::string s;
    for (const cb::ImportNote &n : r.skipped)
        s += n.toString() + "\n";
    for (const std::string &a : r.assumptions)
        s += a + "\n";
    return s;
}

inline bool importNotesHave(const cb::ImportReport &r, const std::string &text)
{
    return importNotes(r).find(text) != std::string::npos;
}

} // namespace cbtest
