#pragma once
// Which importer reads a dialog's files: the one chosen, or the one their contents name
// ("Detect from the files"), as the terminal's `import` finds it. Shared by the cluster and
// the trace import dialogs, so that both say the same when a file is not what was chosen.

#include "io/import/importer.h"
#include "util/result.h"

#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace cb::views {

/// What a dialog imports: a cluster (any format that gives one) or jobs.
enum class ImportWant { Cluster, Jobs };

/// Whether `importer` gives a cluster (alone, or with jobs).
bool makesCluster(const Importer &importer);

struct ResolvedImporter
{
    const Importer *importer = nullptr;
    std::string detected; ///< its name when found from the files; empty when chosen
};

/// The importer `format` names, or with `format` empty the one every file looks like. A file
/// that looks like another format than the one chosen, one that looks like none, files of two
/// formats, or a format of the other kind than `want`: a failure naming the file and what to
/// choose. Reads the first bytes of each file; no Qt: safe on a worker thread.
Result<ResolvedImporter> resolveImporter(const std::string &format,
                                         const std::vector<std::string> &paths, ImportWant want);

/// A dialog's file field: the paths it shows, "; " between them (so each reads apart), and
/// the paths it holds, split at ";" with the spaces around each path dropped.
QString joinImportPaths(const QStringList &paths);
std::vector<std::string> splitImportPaths(const QString &field);

} // namespace cb::views
