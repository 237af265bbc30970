#include "io/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace cb {

Result<std::string> readTextFile(const std::string &path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Result<std::string>::failure(path, "is a directory, expected a file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Result<std::string>::failure(path,
                                            std::string("cannot open: ") + std::strerror(errno));
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad())
        return Result<std::string>::failure(path, "read error");
    return s.str();
}

Status writeFileAtomically(const std::string &path, const std::string &content)
{
    AtomicFileWriter w(path);
    if (auto opened = w.open(); !opened)
        return opened;
    w.write(content);
    return w.commit();
}

AtomicFileWriter::AtomicFileWriter(std::string path) : m_path(std::move(path)) {}

AtomicFileWriter::~AtomicFileWriter()
{
    if (m_fd >= 0)
        ::close(m_fd);
    if (!m_committed && !m_tmpPath.empty())
        ::unlink(m_tmpPath.c_str());
}

Status AtomicFileWriter::open()
{
    namespace fs = std::filesystem;
    const fs::path target(m_path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    m_fd = ::mkstemp(name.data());
    if (m_fd < 0)
        return Status::failure(m_path, std::string("cannot create a temporary file: ") +
                                           std::strerror(errno));
    m_tmpPath = name.data();
    return Ok{};
}

bool AtomicFileWriter::flushBuffer()
{
    const char *p = m_buffer.data();
    std::size_t left = m_buffer.size();
    while (left > 0) {
        const ssize_t n = ::write(m_fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            m_error = std::string("write failed: ") + std::strerror(errno);
            return false;
        }
        p += n;
        left -= std::size_t(n);
    }
    m_buffer.clear();
    return true;
}

bool AtomicFileWriter::write(std::string_view data)
{
    if (m_fd < 0 || !m_error.empty())
        return false;
    m_buffer.append(data);
    if (m_buffer.size() >= (1u << 20))
        return flushBuffer();
    return true;
}

Status AtomicFileWriter::fail(const std::string &what)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    ::unlink(m_tmpPath.c_str());
    m_tmpPath.clear();
    return Status::failure(m_path, what);
}

Status AtomicFileWriter::commit()
{
    if (m_fd < 0)
        return Status::failure(m_path, m_error.empty() ? "not open" : m_error);
    if (!m_error.empty() || !flushBuffer())
        return fail(m_error);
    // Keep the permissions of the file we replace; new files get 0644 less the umask.
    struct stat st
    {};
    if (::stat(m_path.c_str(), &st) == 0)
        ::fchmod(m_fd, st.st_mode & 07777);
    else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(m_fd, 0666 & ~mask);
    }
    if (::fsync(m_fd) != 0)
        return fail(std::string("fsync failed: ") + std::strerror(errno));
    const int fd = m_fd;
    m_fd = -1;
    if (::close(fd) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(m_tmpPath.c_str());
        m_tmpPath.clear();
        return Status::failure(m_path, "close failed: " + reason);
    }
    if (::rename(m_tmpPath.c_str(), m_path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(m_tmpPath.c_str());
        m_tmpPath.clear();
        return Status::failure(m_path, "rename failed: " + reason);
    }
    m_committed = true;
    return Ok{};
}

} // namespace cb
