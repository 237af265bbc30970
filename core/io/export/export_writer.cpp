#include "io/export/export_writer.h"

#include "io/export/shell_text.h"
#include "io/file_set_writer.h"
#include "io/scenario_json.h"
#include "util/sha256.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

namespace cb {

Status ExportWriter::write(const std::string &dir, const ExportResult &result)
{
    std::vector<OutputFile> files;
    files.reserve(result.files.size());
    for (const ExportedFile &f : result.files)
        files.push_back({f.path, f.content, f.executable});
    return FileSetWriter::write(dir, files);
}

std::vector<std::string> ExportWriter::strayFiles(const std::string &dir,
                                                 const ExportResult &result)
{
    namespace fs = std::filesystem;
    std::set<std::string> written, folders, extensions;
    for (const ExportedFile &f : result.files) {
        const fs::path p = fs::path(f.path).lexically_normal();
        written.insert(p.generic_string());
        folders.insert(p.parent_path().generic_string());
        if (p.has_extension())
            extensions.insert(p.extension().string());
    }
    std::vector<std::string> stray;
    for (const std::string &folder : folders) {
        std::error_code ec;
        const fs::path at = fs::path(dir) / folder;
        for (fs::directory_iterator it(at, ec), end; !ec && it != end; it.increment(ec)) {
            std::error_code typeError;
            if (!it->is_regular_file(typeError))
                continue;
            const fs::path rel = (fs::path(folder) / it->path().filename()).lexically_normal();
            if (extensions.count(rel.extension().string()) && !written.count(rel.generic_string()))
                stray.push_back(rel.generic_string());
        }
    }
    std::sort(stray.begin(), stray.end());
    return stray;
}

std::vector<ExportWriter::Fate> ExportWriter::fates(const std::string &dir,
                                                    const ExportResult &result)
{
    namespace fs = std::filesystem;
    std::vector<Fate> out;
    out.reserve(result.files.size());
    for (const ExportedFile &f : result.files) {
        const fs::path at = fs::path(dir) / f.path;
        std::error_code ec;
        if (!fs::exists(at, ec)) {
            out.push_back(Fate::New);
            continue;
        }
        // (sizes first: a file of another size is replaced without reading it)
        const auto size = fs::file_size(at, ec);
        bool same = !ec && size == f.content.size();
        if (same) {
            std::ifstream in(at, std::ios::binary);
            const std::string held((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
            same = held == f.content; // (a file it could not read is not the same)
        }
        out.push_back(same ? Fate::Same : Fate::Replaces);
    }
    return out;
}

std::string ExportWriter::placementOrigin(const std::string &policy, long long seed)
{
    return policy + ", seed " + std::to_string(seed) + ": every job placed at once";
}

std::string ExportWriter::scenarioTag(const Scenario &scenario)
{
    return "scenario sha256:" + Sha256::hex(scenarioToText(scenario)).substr(0, 12);
}

void ExportWriter::stampOrigin(ExportResult &result, const std::string &origin)
{
    if (origin.empty())
        return;
    // (one comment line, whatever the origin holds)
    const std::string line =
        "# Scheduled by ClusterBench " CB_VERSION ": " + ShellText::comment(origin) + "\n";
    for (ExportedFile &f : result.files) {
        const std::string &p = f.path;
        if (p.ends_with(".yaml") || p.ends_with(".yml") || p.ends_with(".conf"))
            f.content.insert(0, line);
        else if ((p.ends_with(".sbatch") || p.ends_with(".sh")) && f.content.rfind("#!", 0) == 0)
            f.content.insert(f.content.find('\n') == std::string::npos ? f.content.size()
                                                                       : f.content.find('\n') + 1,
                             line);
    }
}

} // namespace cb
