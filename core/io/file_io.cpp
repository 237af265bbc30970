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

namespace cb {

Result<std::string> readTextFile(const std::string &path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Result<std::string>::failure(path, "is a directory, expected a file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Result<std::string>::failure(path, std::string("cannot open: ") +
                                                      std::strerror(errno));
    std::ostringstream s;
    s << in.rdbuf();
    if (in.bad())
        return Result<std::string>::failure(path, "read error");
    return s.str();
}

Status writeFileAtomically(const std::string &path, const std::string &content)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
        return Status::failure(path, std::string("cannot create a temporary file: ") +
                                         std::strerror(errno));
    const std::string tmpPath(name.data());
    auto fail = [&](const char *what) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        ::unlink(tmpPath.c_str());
        return Status::failure(path, std::string(what) + ": " + reason);
    };
    const char *p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail("write failed");
        }
        p += n;
        left -= std::size_t(n);
    }
    // Keep the permissions of the file we replace; new files get 0644 less the umask.
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0)
        ::fchmod(fd, st.st_mode & 07777);
    else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd, 0666 & ~mask);
    }
    if (::fsync(fd) != 0)
        return fail("fsync failed");
    if (::close(fd) != 0) {
        ::unlink(tmpPath.c_str());
        return Status::failure(path, std::string("close failed: ") + std::strerror(errno));
    }
    if (::rename(tmpPath.c_str(), path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(tmpPath.c_str());
        return Status::failure(path, "rename failed: " + reason);
    }
    return Ok{};
}

} // namespace cb
