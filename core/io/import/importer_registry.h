#pragma once
// Every importer by format name. The CLI's `import FORMAT`, the GUI's import dialogs and the
// tests all look formats up here, and `import FILE...` asks every importer whether a file
// looks like its format.

#include "io/import/importer.h"

#include <string>
#include <vector>

namespace cb {

/// All importers, in the order help texts list them (clusters first, then traces).
const std::vector<const Importer *> &importers();
/// The importer for `format`, or nullptr.
const Importer *findImporter(const std::string &format);

/// The first bytes of `path` for detection (a byte-order mark removed); fails naming the file
/// when it cannot be read.
Result<ImportSample> sampleFile(const std::string &path);

/// The importer `sample` looks most like (the highest FormatMatch score of 2 or more; on a
/// tie the first in the registry), or nullptr; `match` gets its score and reason.
const Importer *detectFormat(const ImportSample &sample, FormatMatch *match = nullptr);

/// Reads each path and runs the importer. Fails if a file cannot be read, if the number of
/// files does not suit the format, or if the importer fails. Files are read as the importer
/// goes (ImportInput::path), not all at once.
Result<ImportReport> importFiles(const Importer &importer, const std::vector<std::string> &paths,
                                 const ImportOptions &options);
/// The same with the default options.
Result<ImportReport> importFiles(const Importer &importer, const std::vector<std::string> &paths);

} // namespace cb
