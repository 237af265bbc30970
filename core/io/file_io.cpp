#include "io/file_io.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace cb {

namespace {

// The temporary files being written, for a signal handler to remove: fixed slots, as a
// handler may not allocate or lock. A slot's path is written before it is marked used and
// the mark cleared before the slot is reused, so a handler reads only whole paths; one that
// runs between a commit's rename and the slot's release unlinks a name that no longer
// exists, which does nothing.
constexpr int kTemporarySlots = 64;
constexpr std::size_t kTemporaryPathMax = 4096;
struct TemporarySlot
{
    std::atomic<int> used{0};
    char path[kTemporaryPathMax];
};
TemporarySlot g_temporary[kTemporarySlots];
std::mutex g_temporaryMutex; // (between threads registering; a handler never takes it)
static_assert(std::atomic<int>::is_always_lock_free);

int rememberTemporary(const std::string &path)
{
    if (path.size() >= kTemporaryPathMax)
        return -1;
    const std::lock_guard<std::mutex> lock(g_temporaryMutex);
    for (int i = 0; i < kTemporarySlots; ++i) {
        TemporarySlot &s = g_temporary[i];
        if (s.used.load() != 0)
            continue;
        std::memcpy(s.path, path.c_str(), path.size() + 1);
        s.used.store(1);
        return i;
    }
    return -1; // (more than 64 at once: that one is not removed on a signal)
}

extern "C" void removeTemporaryFilesAndDie(int sig)
{
    removeTemporaryFilesNow();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

} // namespace

void removeTemporaryFilesNow() noexcept
{
    for (TemporarySlot &s : g_temporary)
        if (s.used.load() != 0)
            ::unlink(s.path);
}

void removeTemporaryFilesOnSignals()
{
    struct sigaction sa {};
    sa.sa_handler = removeTemporaryFilesAndDie;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
        sigaction(sig, &sa, nullptr);
}

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

Status checkOutputFile(const std::string &path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return Status::failure(path, "is a directory, expected a file");
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        return Status::failure(path,
                               "cannot write here: the folder " + dir.string() +
                                   (fs::exists(dir, ec) ? " is not a folder" : " does not exist"));
    return Ok{};
}

Status checkNotAnInput(const std::string &path, const std::vector<std::string> &inputs,
                       const std::string &what)
{
    for (const std::string &in : inputs) {
        std::error_code ec;
        if (std::filesystem::equivalent(in, path, ec) && !ec)
            return Status::failure(path, "is the input " + in + ", which " + what +
                                             " would replace; give another path");
    }
    return Ok{};
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
    forgetTemporary();
}

void AtomicFileWriter::forgetTemporary()
{
    if (m_slot >= 0)
        g_temporary[m_slot].used.store(0);
    m_slot = -1;
}

Status AtomicFileWriter::open()
{
    namespace fs = std::filesystem;
    const fs::path target(m_path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (Status writable = checkOutputFile(m_path); !writable)
        return writable;
    std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    m_fd = ::mkstemp(name.data());
    if (m_fd < 0) {
        const int error = errno;
        // (the usual cause, said plainly: a folder to write into that is not there)
        std::error_code ec;
        if (error == ENOENT && !fs::is_directory(dir, ec))
            return Status::failure(m_path, "cannot write here: the folder " + dir.string() +
                                               " does not exist");
        return Status::failure(m_path, std::string("cannot create a temporary file: ") +
                                           std::strerror(error));
    }
    m_tmpPath = name.data();
    m_slot = rememberTemporary(m_tmpPath);
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
    forgetTemporary();
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
        forgetTemporary();
        return Status::failure(m_path, "close failed: " + reason);
    }
    if (::rename(m_tmpPath.c_str(), m_path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        ::unlink(m_tmpPath.c_str());
        m_tmpPath.clear();
        forgetTemporary();
        return Status::failure(m_path, "rename failed: " + reason);
    }
    m_committed = true;
    forgetTemporary();
    return Ok{};
}

} // namespace cb
