#pragma once
// Whole-file reads and crash-safe writes.

#include "util/result.h"

#include <string>

namespace cb {

/// Reads a whole file; the problem names the file and the system's reason.
Result<std::string> readTextFile(const std::string &path);

/// Writes `content` to a temporary file beside `path`, flushes it to disk, then renames it
/// over `path`: readers see the old file or the new one, never half of one. On failure the
/// old file is untouched and the temporary file removed.
Status writeFileAtomically(const std::string &path, const std::string &content);

} // namespace cb
