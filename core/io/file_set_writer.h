#pragma once
// Writes a set of files below one folder all or nothing (an export's manifests, a sweep's
// grid and scripts): every file is first written in full to a staging folder inside the
// output folder and flushed to disk; only when all of them are there are they renamed into
// place, each replacing its old version atomically. If anything fails (a full disk, a
// permission, a name that is a folder) the folder is left as it was: old files intact,
// nothing new (staged files, created folders) left behind. Other files in the folder are
// never touched.
//
// A crash (power loss, kill -9) while staging leaves the old content and a hidden folder
// ".clusterbench-staging-XXXXXX"; a crash during the renames (milliseconds, no writing) may
// leave some files renewed and that folder holding the others' old versions.

#include "util/result.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cb {

struct OutputFile
{
    std::string path;    ///< relative to the output folder; no "..", not absolute
    std::string content;
    bool executable = false; ///< chmod +x (a script)
};

class FileSetWriter
{
public:
    /// Writes `files` (and creates the empty `folders`, relative like the files) below `dir`,
    /// creating `dir` if needed. A file that exists gets the new content with its old
    /// permissions. `beforeRename(i)`, if set, is called before file i is renamed into
    /// place; returning false makes that rename fail (tests use it for the rollback).
    static Status write(const std::string &dir, const std::vector<OutputFile> &files,
                        const std::vector<std::string> &folders = {},
                        const std::function<bool(std::size_t)> &beforeRename = {});
};

} // namespace cb
