#pragma once
// Every importer by format name. The CLI's `import FORMAT`, the GUI's import dialog and the
// tests all look formats up here.

#include "io/import/importer.h"

#include <string>
#include <vector>

namespace cb {

/// All importers, in the order help texts list them (clusters first, then traces).
const std::vector<const Importer *> &importers();
/// The importer for `format`, or nullptr.
const Importer *findImporter(const std::string &format);

/// Reads each path and runs the importer. Fails if a file cannot be read, if the number of
/// files does not suit the format, or if the importer fails.
Result<ImportReport> importFiles(const Importer &importer, const std::vector<std::string> &paths,
                                 const ImportOptions &options = {});

} // namespace cb
