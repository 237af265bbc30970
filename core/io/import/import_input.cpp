#include "io/import/import_input.h"

#include "io/file_io.h"
#include "io/import/text_fields.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace cb {

Result<std::string> ImportInput::wholeText() const
{
    if (path.empty())
        return text;
    return readTextFile(path);
}

Result<std::string> ImportInput::wholeUtf8Text() const
{
    auto t = wholeText();
    if (!t)
        return t;
    const std::string &text = t.value();
    if (const auto at = importtext::nonTextAt(text)) {
        int line = 1;
        std::size_t lineStart = 0;
        for (std::size_t i = 0; i < *at; ++i)
            if (text[i] == '\n') {
                ++line;
                lineStart = i + 1;
            }
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[*at]));
        return Result<std::string>::failure(name + ":" + std::to_string(line),
                                            "column " + std::to_string(*at - lineStart + 1) +
                                                ": byte " + byte + " is not " +
                                                (text[*at] == '\0' ? "text" : "UTF-8 text") + ": " +
                                                importtext::toUtf8Advice(text));
    }
    return t;
}

Result<std::string> ImportInput::head(std::size_t bytes) const
{
    if (path.empty())
        return text.substr(0, std::min(bytes, text.size()));
    auto in = InputBytes::open(*this);
    if (!in)
        return in.problems();
    std::string out(bytes, '\0');
    std::size_t got = 0;
    while (got < bytes) {
        const std::size_t n = in.value()->read(out.data() + got, bytes - got);
        if (n == 0)
            break;
        got += n;
    }
    if (in.value()->failed())
        return Result<std::string>::failure(name, "read error");
    out.resize(got);
    return out;
}

Result<std::unique_ptr<InputBytes>> InputBytes::open(const ImportInput &in)
{
    std::unique_ptr<InputBytes> b(new InputBytes);
    if (in.path.empty()) {
        b->m_text = &in.text;
        return b;
    }
    std::error_code ec;
    if (std::filesystem::is_directory(in.path, ec))
        return Result<std::unique_ptr<InputBytes>>::failure(in.name,
                                                            "is a directory, expected a file");
    b->m_file = std::fopen(in.path.c_str(), "rb");
    if (!b->m_file)
        return Result<std::unique_ptr<InputBytes>>::failure(in.name, std::string("cannot open: ") +
                                                                         std::strerror(errno));
    return b;
}

InputBytes::~InputBytes()
{
    if (m_file)
        std::fclose(m_file);
}

std::size_t InputBytes::read(char *buffer, std::size_t n)
{
    std::size_t got = 0;
    if (m_text) {
        got = std::min(n, m_text->size() - m_position);
        std::memcpy(buffer, m_text->data() + m_position, got);
    } else if (m_file) {
        got = std::fread(buffer, 1, n, m_file);
        if (got < n && std::ferror(m_file))
            m_failed = true;
    }
    m_position += got;
    return got;
}

} // namespace cb
