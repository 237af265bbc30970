#include "util/sample_folder.h"

#include <filesystem>
#include <system_error>

namespace cb {

std::string sampleFolder(const std::string &programDir, const std::string &builtFrom)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!programDir.empty()) {
        const fs::path installed =
            fs::path(programDir) / ".." / "share" / "clusterbench" / "samples";
        if (fs::is_directory(installed, ec))
            return fs::weakly_canonical(installed, ec).string();
        // (a program copied with the samples beside it, as the source tree has them)
        const fs::path beside = fs::path(programDir) / "sample-clusters";
        if (fs::is_directory(beside, ec))
            return beside.string();
    }
    if (!builtFrom.empty() && fs::is_directory(builtFrom, ec))
        return builtFrom;
    return {};
}

std::string programFolder()
{
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

} // namespace cb
