// The layer table: every #include in core/ (and in the front ends app/cli and views/) runs
// down the table, never up or sideways, and no engine target links or includes Qt.
//
//   util -> model -> net -> sched, stochastic -> sim -> io (formats) -> store -> runs
//   front ends: app/cli and views sit on runs (neither includes the other)
//
// Each rule is one row: the real sources of that layer must have no violation, and an
// include of every layer above it (or beside it) written into a file of that layer must be
// reported, so the check itself is shown to fail where it should.

#include <QtTest>

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

struct Layer
{
    QString name; ///< folder under its root (core/NAME, app/cli, views)
    QString root; ///< "core", "app" or "views"
    int rank = 0;
    QString target; ///< its CMake target
};

const std::vector<Layer> &layers()
{
    static const std::vector<Layer> table = {
        {QStringLiteral("util"), QStringLiteral("core"), 0, QStringLiteral("cb_util")},
        {QStringLiteral("model"), QStringLiteral("core"), 1, QStringLiteral("cb_model")},
        {QStringLiteral("net"), QStringLiteral("core"), 2, QStringLiteral("cb_net")},
        {QStringLiteral("sched"), QStringLiteral("core"), 3, QStringLiteral("cb_sched")},
        {QStringLiteral("stochastic"), QStringLiteral("core"), 3, QStringLiteral("cb_stochastic")},
        {QStringLiteral("sim"), QStringLiteral("core"), 4, QStringLiteral("cb_sim")},
        {QStringLiteral("io"), QStringLiteral("core"), 5, QStringLiteral("cb_formats")},
        {QStringLiteral("store"), QStringLiteral("core"), 6, QStringLiteral("cb_store")},
        {QStringLiteral("runs"), QStringLiteral("core"), 7, QStringLiteral("cb_runs")},
        {QStringLiteral("cli"), QStringLiteral("app"), 8, QStringLiteral("cbcli")},
        {QStringLiteral("views"), QStringLiteral("views"), 8, QStringLiteral("cbviews")},
    };
    return table;
}

const Layer *layerNamed(const QString &name)
{
    for (const Layer &l : layers())
        if (l.name == name)
            return &l;
    return nullptr;
}

/// The views' own folders (views/analysis/..., included as "analysis/x.h").
const std::set<QString> &viewFolders()
{
    static const std::set<QString> folders = {
        QStringLiteral("analysis"), QStringLiteral("commands"), QStringLiteral("document"),
        QStringLiteral("models"),   QStringLiteral("runs"),     QStringLiteral("topology"),
        QStringLiteral("window")};
    return folders;
}

/// The includes of `text` (a file of `layer`) that break the table, as "line N: include".
/// Includes of the layer's own folder are fine; so are includes of a lower layer. For views,
/// "runs/x.h" may name its own views/runs/ or core/runs/: both are allowed.
QStringList violations(const Layer &layer, const QString &text)
{
    static const QRegularExpression include(
        QStringLiteral("^[ \\t]*#[ \\t]*include[ \\t]*\"([a-z_]+)/[^\"]*\""),
        QRegularExpression::MultilineOption);
    static const QRegularExpression qtInclude(
        QStringLiteral("^[ \\t]*#[ \\t]*include[ \\t]*[<\"](Q[A-Za-z]+|qcustomplot)[^>\"]*[>\"]"),
        QRegularExpression::MultilineOption);
    QStringList out;
    const auto lineOf = [&text](qsizetype offset) {
        return text.left(offset).count(QLatin1Char('\n')) + 1;
    };
    auto it = include.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        const QString folder = m.captured(1);
        if (folder == layer.name)
            continue;
        if (layer.name == QStringLiteral("views") && viewFolders().count(folder))
            continue;
        const Layer *target = layerNamed(folder);
        const bool ok =
            target && target->root == QStringLiteral("core") && target->rank < layer.rank;
        if (!ok)
            out << QStringLiteral("line %1: %2")
                       .arg(lineOf(m.capturedStart()))
                       .arg(m.captured(0).trimmed());
    }
    if (layer.root != QStringLiteral("views")) {
        auto q = qtInclude.globalMatch(text);
        while (q.hasNext()) {
            const auto m = q.next();
            out << QStringLiteral("line %1: %2 (no Qt below the window)")
                       .arg(lineOf(m.capturedStart()))
                       .arg(m.captured(0).trimmed());
        }
    }
    return out;
}

QString layerFolder(const Layer &l)
{
    if (l.root == QStringLiteral("views"))
        return QStringLiteral(CB_SOURCE_DIR "/views");
    return QStringLiteral(CB_SOURCE_DIR "/%1/%2").arg(l.root, l.name);
}

} // namespace

class TestLayers : public QObject
{
    Q_OBJECT

private slots:
    void sourcesFollowTheTable_data()
    {
        QTest::addColumn<QString>("layer");
        for (const Layer &l : layers())
            QTest::newRow(qPrintable(l.name)) << l.name;
    }

    void sourcesFollowTheTable()
    {
        QFETCH(QString, layer);
        const Layer &l = *layerNamed(layer);
        QDirIterator it(layerFolder(l), {QStringLiteral("*.h"), QStringLiteral("*.cpp")},
                        QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        QStringList found;
        while (it.hasNext()) {
            const QString path = it.next();
            QFile f(path);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(path));
            for (const QString &v : violations(l, QString::fromUtf8(f.readAll())))
                found << QStringLiteral("%1 %2").arg(path.mid(int(qstrlen(CB_SOURCE_DIR)) + 1), v);
            ++files;
        }
        QVERIFY2(files > 0, qPrintable(layerFolder(l)));
        QCOMPARE(found.join(QLatin1Char('\n')), QString());
    }

    /// Every layer above (or beside) a layer, included from it, is reported.
    void upwardIncludeIsReported_data()
    {
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QString>("includes");
        QTest::addColumn<int>("line");
        for (const Layer &from : layers())
            for (const Layer &to : layers()) {
                if (&from == &to || (to.root == QStringLiteral("core") && to.rank < from.rank))
                    continue;
                const QString folder =
                    to.name == QStringLiteral("views") ? QStringLiteral("window") : to.name;
                if (from.name == QStringLiteral("views") && viewFolders().count(folder))
                    continue; // views' own folder of that name
                QTest::newRow(qPrintable(from.name + QStringLiteral(" -> ") + to.name))
                    << from.name << folder << 3;
            }
        QTest::newRow("sched -> Qt") << QStringLiteral("sched") << QStringLiteral("<QString>") << 3;
        QTest::newRow("cli -> qcustomplot")
            << QStringLiteral("cli") << QStringLiteral("<qcustomplot.h>") << 3;
    }

    void upwardIncludeIsReported()
    {
        QFETCH(QString, layer);
        QFETCH(QString, includes);
        QFETCH(int, line);
        const Layer &l = *layerNamed(layer);
        const QString header = includes.startsWith(QLatin1Char('<'))
                                   ? includes
                                   : QStringLiteral("\"%1/x.h\"").arg(includes);
        const QString text =
            QStringLiteral("#include \"%1/own.h\"\n\n#include %2\n")
                .arg(l.name == QStringLiteral("views") ? QStringLiteral("window") : l.name, header);
        const QStringList found = violations(l, text);
        QCOMPARE(found.size(), 1);
        QVERIFY2(
            found.front().startsWith(QStringLiteral("line %1: #include %2").arg(line).arg(header)),
            qPrintable(found.front()));
    }

    /// A lower layer and the layer's own folder are fine.
    void downwardIncludeIsFine()
    {
        const Layer &sim = *layerNamed(QStringLiteral("sim"));
        QCOMPARE(violations(sim, QStringLiteral("#include \"sim/a.h\"\n#include \"sched/b.h\"\n"
                                                "#include \"stochastic/c.h\"\n"
                                                "#include \"util/d.h\"\n#include <vector>\n")),
                 QStringList());
        const Layer &views = *layerNamed(QStringLiteral("views"));
        QCOMPARE(
            violations(views, QStringLiteral("#include \"runs/run_service.h\"\n"
                                             "#include \"analysis/x.h\"\n#include <QWidget>\n")),
            QStringList());
    }

    /// The engine targets link what the table says and nothing of Qt (the file is written
    /// by core/CMakeLists.txt at generate time).
    void engineTargetsLinkDownwardWithoutQt()
    {
        QFile f(QStringLiteral(CB_BINARY_DIR "/cb-layer-links.txt"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        std::map<QString, QStringList> links;
        for (const QString &line :
             QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const qsizetype colon = line.indexOf(QLatin1Char(':'));
            QVERIFY2(colon > 0, qPrintable(line));
            links[line.left(colon)] =
                line.mid(colon + 1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        }
        int engineTargets = 0;
        for (const Layer &l : layers()) {
            if (l.root != QStringLiteral("core"))
                continue;
            ++engineTargets;
            QVERIFY2(links.count(l.target), qPrintable(l.target));
            for (const QString &dep : links[l.target]) {
                QVERIFY2(!dep.contains(QStringLiteral("Qt")),
                         qPrintable(l.target + QStringLiteral(" links ") + dep));
                bool known = false;
                for (const Layer &other : layers())
                    if (other.target == dep) {
                        known = true;
                        QVERIFY2(other.rank < l.rank,
                                 qPrintable(l.target + QStringLiteral(" links ") + dep));
                    }
                if (!known) // a third-party library of the allowed set
                    QVERIFY2(dep.startsWith(QStringLiteral("nlohmann_json")) ||
                                 dep == QStringLiteral("Threads::Threads") ||
                                 dep == QStringLiteral("yaml-cpp") ||
                                 dep == QStringLiteral("LibXml2::LibXml2") ||
                                 dep.startsWith(QStringLiteral("SQLite::")) ||
                                 dep == QStringLiteral("ZLIB::ZLIB"),
                             qPrintable(l.target + QStringLiteral(" links ") + dep));
            }
        }
        QCOMPARE(int(links.size()), engineTargets);
    }
};

QTEST_GUILESS_MAIN(TestLayers)
#include "tst_layers.moc"
