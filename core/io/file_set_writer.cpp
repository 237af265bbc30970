#include "io/file_set_writer.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace cb {

namespace fs = std::filesystem;

namespace {

std::string reason(int error)
{
    return std::strerror(error);
}

/// Creates `dir` and its missing ancestors, appending each folder it made to `created`.
bool makeFolders(const fs::path &dir, std::vector<fs::path> &created, int &error)
{
    fs::path at;
    for (const fs::path &part : dir) {
        at /= part;
        struct stat st {};
        if (::stat(at.c_str(), &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                error = ENOTDIR;
                return false;
            }
            continue;
        }
        if (::mkdir(at.c_str(), 0777) != 0 && errno != EEXIST) {
            error = errno;
            return false;
        }
        created.push_back(at);
    }
    return true;
}

/// Removes folders this write created, deepest first, where they are empty.
void removeFolders(const std::vector<fs::path> &created)
{
    for (auto it = created.rbegin(); it != created.rend(); ++it)
        ::rmdir(it->c_str());
}

/// Writes `content` to a new file at `path` with `mode`, flushed to disk.
bool writeWhole(const std::string &path, const std::string &content, mode_t mode, int &error)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        error = errno;
        return false;
    }
    const char *p = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            error = errno;
            ::close(fd);
            return false;
        }
        p += n;
        left -= std::size_t(n);
    }
    if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) {
        error = errno;
        ::close(fd);
        return false;
    }
    if (::close(fd) != 0) {
        error = errno;
        return false;
    }
    return true;
}

void syncFolder(const fs::path &dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

mode_t newFileMode()
{
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

} // namespace

Status FileSetWriter::write(const std::string &dir, const std::vector<OutputFile> &files,
                            const std::vector<std::string> &folders,
                            const std::function<bool(std::size_t)> &beforeRename)
{
    const fs::path root = dir.empty() ? fs::path(".") : fs::path(dir);
    // Every name must stay inside the folder, once.
    std::set<std::string> names;
    auto checkName = [&](const std::string &name, bool isFile) -> Status {
        const fs::path rel = fs::path(name).lexically_normal();
        bool escapes = name.empty() || rel.is_absolute() || rel.empty() || rel == ".";
        for (const auto &part : rel)
            escapes = escapes || part == "..";
        if (escapes)
            return Status::failure(name, "an output path must stay inside the output folder");
        if (isFile && !names.insert(rel.string()).second)
            return Status::failure(name, "written twice in one output");
        return Ok{};
    };
    for (const OutputFile &f : files)
        if (auto st = checkName(f.path, true); !st)
            return st;
    for (const std::string &f : folders)
        if (auto st = checkName(f, false); !st)
            return st;
    // Targets that exist must be files (a folder in the way fails before anything is written).
    for (const OutputFile &f : files) {
        struct stat st {};
        const fs::path target = root / f.path;
        if (::lstat(target.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
            return Status::failure(target.string(), "is a folder; nothing was written");
    }

    std::vector<fs::path> created;
    int error = 0;
    auto fail = [&](const std::string &where, const std::string &what, const fs::path &stage) {
        std::error_code ec;
        if (!stage.empty())
            fs::remove_all(stage, ec);
        removeFolders(created);
        return Status::failure(where, what + "; nothing in " + root.string() + " was changed");
    };
    if (!makeFolders(root, created, error))
        return fail(root.string(), "cannot create the folder: " + reason(error), {});

    std::string tmpl = (root / ".clusterbench-staging-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr)
        return fail(root.string(), "cannot write in the folder: " + reason(errno), {});
    const fs::path stage = tmpl;

    // 1. Stage: every file complete and on disk, or nothing changes.
    const mode_t fresh = newFileMode();
    for (std::size_t i = 0; i < files.size(); ++i) {
        const OutputFile &f = files[i];
        const fs::path target = root / f.path;
        struct stat st {};
        mode_t mode = ::stat(target.c_str(), &st) == 0 ? (st.st_mode & 07777) : fresh;
        if (f.executable)
            mode |= (mode & 0444) >> 2;
        if (!writeWhole((stage / ("new-" + std::to_string(i))).string(), f.content, mode, error))
            return fail(target.string(), "cannot write: " + reason(error), stage);
    }

    // 2. Commit: rename each into place, keeping the old version (a hard link, no space) so
    // that a failure part-way can put every file back.
    struct Done
    {
        fs::path target;
        bool hadOld = false;
    };
    std::vector<Done> done;
    // File k's old version is stage/old-k; put back every file renamed so far.
    auto rollback = [&](const std::string &where, const std::string &what) {
        for (std::size_t k = done.size(); k-- > 0;) {
            const fs::path old = stage / ("old-" + std::to_string(k));
            if (done[k].hadOld)
                ::rename(old.c_str(), done[k].target.c_str());
            else
                ::unlink(done[k].target.c_str());
        }
        return fail(where, what, stage);
    };
    for (std::size_t i = 0; i < files.size(); ++i) {
        const fs::path target = root / files[i].path;
        if (!makeFolders(target.parent_path(), created, error))
            return rollback(target.parent_path().string(),
                            "cannot create the folder: " + reason(error));
        const fs::path staged = stage / ("new-" + std::to_string(i));
        const fs::path old = stage / ("old-" + std::to_string(i));
        struct stat st {};
        const Done d{target, ::lstat(target.c_str(), &st) == 0};
        // A file moved aside (no hard links) goes back before the rollback of the others.
        auto restoreThis = [&] {
            if (d.hadOld && ::lstat(target.c_str(), &st) != 0)
                ::rename(old.c_str(), target.c_str());
        };
        if (d.hadOld && ::link(target.c_str(), old.c_str()) != 0 &&
            ::rename(target.c_str(), old.c_str()) != 0) // no hard links here: move it aside
            return rollback(target.string(), "cannot replace: " + reason(errno));
        if (beforeRename && !beforeRename(i)) {
            restoreThis();
            return rollback(target.string(), "cannot replace: the rename failed");
        }
        if (::rename(staged.c_str(), target.c_str()) != 0) {
            const int e = errno;
            restoreThis();
            return rollback(target.string(), "cannot replace: " + reason(e));
        }
        done.push_back(d);
    }
    for (const std::string &f : folders)
        if (!makeFolders(root / f, created, error))
            return rollback((root / f).string(), "cannot create the folder: " + reason(error));

    std::set<std::string> synced;
    for (const OutputFile &f : files)
        if (const fs::path parent = (root / f.path).parent_path();
            synced.insert(parent.string()).second)
            syncFolder(parent);
    std::error_code ec;
    fs::remove_all(stage, ec);
    syncFolder(root);
    return Ok{};
}

} // namespace cb
