#include "io/export/export_writer.h"

#include "io/file_io.h"

#include <filesystem>

namespace cb {

Status ExportWriter::write(const std::string &dir, const ExportResult &result)
{
    namespace fs = std::filesystem;
    for (const ExportedFile &f : result.files) {
        const fs::path rel(f.path);
        bool escapes = rel.empty() || rel.is_absolute();
        for (const auto &part : rel)
            escapes = escapes || part == "..";
        if (escapes)
            return Status::failure(f.path, "exported file path must stay inside the output folder");
    }
    for (const ExportedFile &f : result.files) {
        const fs::path target = fs::path(dir) / f.path;
        std::error_code ec;
        fs::create_directories(target.parent_path(), ec);
        if (ec)
            return Status::failure(target.parent_path().string(),
                                   "cannot create folder: " + ec.message());
        if (Status s = writeFileAtomically(target.string(), f.content); !s)
            return s;
    }
    return Ok{};
}

} // namespace cb
