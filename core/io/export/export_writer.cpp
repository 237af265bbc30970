#include "io/export/export_writer.h"

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

} // namespace cb
