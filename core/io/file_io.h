#pragma once
// Whole-file reads and crash-safe writes.

#include "util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace cb {

/// Reads a whole file; the problem names the file and the system's reason.
Result<std::string> readTextFile(const std::string &path);

/// Writes `content` to a temporary file beside `path`, flushes it to disk, then renames it
/// over `path`: readers see the old file or the new one, never half of one. On failure the
/// old file is untouched and the temporary file removed.
Status writeFileAtomically(const std::string &path, const std::string &content);

/// Whether a file can be written at `path` as far as can be told before writing: not when it
/// is a folder ("is a directory, expected a file") or its folder does not exist. For a command
/// to refuse its output path before it does the work.
Status checkOutputFile(const std::string &path);
/// Whether `path` is none of the files a command reads (`inputs`): writing `what` there
/// would replace what the user gave ("is the input X, which the run file would replace").
Status checkNotAnInput(const std::string &path, const std::vector<std::string> &inputs,
                       const std::string &what);

/// Removes every temporary file an AtomicFileWriter is writing now. Async-signal-safe: a
/// handler of a signal that ends the process calls it, so that an interrupted write (Ctrl-C
/// during an import of a large trace) leaves no hidden partial file beside its target.
void removeTemporaryFilesNow() noexcept;
/// Handles SIGINT, SIGTERM, SIGHUP and SIGQUIT by removing the temporary files being written
/// (removeTemporaryFilesNow), then ending the process by the same signal as before.
void removeTemporaryFilesOnSignals();

/// The same as writeFileAtomically for content written in pieces (a file too big to hold in
/// memory): write() appends to a temporary file beside `path`, commit() flushes it to disk and
/// renames it over `path`. Without a successful commit (an error, or destruction first) the
/// temporary file is removed and `path` is untouched.
class AtomicFileWriter
{
public:
    explicit AtomicFileWriter(std::string path);
    ~AtomicFileWriter();
    AtomicFileWriter(const AtomicFileWriter &) = delete;
    AtomicFileWriter &operator=(const AtomicFileWriter &) = delete;

    /// Creates the temporary file; fails naming `path`.
    Status open();
    /// Appends `data` (buffered); false once anything failed.
    bool write(std::string_view data);
    Status commit();

private:
    bool flushBuffer();
    Status fail(const std::string &what);

    void forgetTemporary();

    std::string m_path, m_tmpPath;
    int m_slot = -1; ///< its entry among the temporary files a signal removes
    int m_fd = -1;
    std::string m_buffer;
    std::string m_error;
    bool m_committed = false;
};

} // namespace cb
