#include "runs/import_format.h"

#include "io/import/importer_registry.h"

namespace cb::views {

bool makesCluster(const Importer &importer)
{
    return importer.produces() == Importer::Produces::Cluster ||
           importer.produces() == Importer::Produces::ClusterAndJobs;
}

namespace {

/// Why `importer` is not what a dialog wanting `want` reads, or empty when it is.
std::string wrongKind(const Importer &importer, ImportWant want)
{
    if (want == ImportWant::Jobs && importer.produces() == Importer::Produces::Cluster)
        return "a cluster (" + importer.name() + "), not a job trace: import it with Import Cluster";
    if (want == ImportWant::Cluster && !makesCluster(importer))
        return "a job trace (" + importer.name() +
               "), not a cluster: import it with Import Job Trace";
    return {};
}

} // namespace

Result<ResolvedImporter> resolveImporter(const std::string &format,
                                         const std::vector<std::string> &paths, ImportWant want)
{
    using R = Result<ResolvedImporter>;
    const Importer *importer = format.empty() ? nullptr : findImporter(format);
    if (!format.empty() && !importer)
        return R::failure({}, "unknown format \"" + format + "\"");
    std::string detected;
    for (const std::string &path : paths) {
        auto sample = sampleFile(path);
        if (!sample)
            return R(sample.problems());
        if (importer && importer->detect(sample.value()).score > 0)
            continue;
        FormatMatch match;
        const Importer *looks = detectFormat(sample.value(), &match);
        if (importer && looks && looks != importer)
            return R::failure(path, "this is not " + format + " input; it looks like " +
                                        looks->name() + " (" + match.why + "): choose " +
                                        looks->name() + " as the format");
        if (importer)
            continue;
        if (!looks)
            return R::failure(path,
                              "cannot tell which format this is" +
                                  (match.why.empty() ? std::string() : " (" + match.why + ")") +
                                  ": choose the format");
        if (const std::string why = wrongKind(*looks, want); !why.empty())
            return R::failure(path, "this is " + why);
        if (!detected.empty() && detected != looks->name())
            return R::failure(path, "looks like " + looks->name() +
                                        " where the files before it look like " + detected +
                                        ": import one format at a time");
        detected = looks->name();
        importer = looks;
    }
    if (!importer)
        return R::failure({}, "no file to import");
    if (!wrongKind(*importer, want).empty())
        return R::failure({}, importer->name() + (want == ImportWant::Jobs
                                                       ? " imports a cluster, not jobs"
                                                       : " imports jobs, not a cluster"));
    return ResolvedImporter{importer, format.empty() ? detected : std::string()};
}

QString joinImportPaths(const QStringList &paths)
{
    return paths.join(QLatin1String("; "));
}

std::vector<std::string> splitImportPaths(const QString &field)
{
    std::vector<std::string> paths;
    for (const QString &p : field.split(QLatin1Char(';'), Qt::SkipEmptyParts))
        if (const QString t = p.trimmed(); !t.isEmpty())
            paths.push_back(t.toStdString());
    return paths;
}

} // namespace cb::views
