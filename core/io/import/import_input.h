#pragma once
// One input of an import: a file read block by block as the importer goes (so a trace of any
// size is read in constant memory), or text already in memory (tests, the window's paste).

#include "util/result.h"

#include <cstddef>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

namespace cb {

/// Told how many bytes of an input have been read: at most once per 64 KiB and once at the
/// end with the input's size; the values never decrease.
using ReadProgress = std::function<void(std::size_t bytesRead)>;

struct ImportInput
{
    /// What messages call it (usually the path).
    std::string name;
    /// The content, when `path` is empty.
    std::string text;
    /// Bytes read so far (importFiles sets it; may be empty). Streaming readers call it as
    /// they go; importers that need the whole text call done() after each input.
    ReadProgress progress{};
    /// When set, the content is this file's, read when the importer asks for it.
    std::string path{};
    /// The file's size when `path` is set (importFiles fills it in).
    std::size_t fileSize = 0;

    std::size_t size() const { return path.empty() ? text.size() : fileSize; }
    /// The whole content (the file read at once: for the structured formats, whose files are
    /// small). Fails naming the file when it cannot be read.
    Result<std::string> wholeText() const;
    /// wholeText, refused with the file, line and column of the first byte that is not UTF-8
    /// (for formats whose names and labels end up in the scenario).
    Result<std::string> wholeUtf8Text() const;
    /// The first `bytes` bytes (or fewer), for format detection.
    Result<std::string> head(std::size_t bytes) const;

    void done() const
    {
        if (progress)
            progress(size());
    }
};

/// Reads an input's bytes in blocks, from its file or its text.
class InputBytes
{
public:
    static Result<std::unique_ptr<InputBytes>> open(const ImportInput &in);
    ~InputBytes();
    InputBytes(const InputBytes &) = delete;
    InputBytes &operator=(const InputBytes &) = delete;

    /// Up to `n` bytes into `buffer`; 0 at the end or on a read error (then failed()).
    std::size_t read(char *buffer, std::size_t n);
    bool failed() const { return m_failed; }
    /// Bytes handed out so far.
    std::size_t position() const { return m_position; }

private:
    InputBytes() = default;
    std::FILE *m_file = nullptr;
    const std::string *m_text = nullptr;
    std::size_t m_position = 0;
    bool m_failed = false;
};

} // namespace cb
