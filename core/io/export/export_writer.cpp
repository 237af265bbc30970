#include "io/export/export_writer.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "io/file_set_writer.h"

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

} // namespace cb
