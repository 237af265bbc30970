// Document: loading and saving through core/io, and the promise that a failed load leaves the
// open scenario, its path and its undo history untouched (also through the MainWindow).

#include "commands/edit_job_command.h"
#include "commands/remove_job_command.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "test_scenarios.h"
#include "window/main_window.h"
#include "window/problems_dialog.h"

#include <QFile>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>

using namespace cb;
using namespace cb::views;

class TestDocument : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void loadValidFile();
    void failedLoadKeepsScenario_data();
    void failedLoadKeepsScenario();
    void saveMarksCleanAndRoundTrips();
    void newScenarioTakesTheFileName();
    void mainWindowFailedOpenShowsProblems();

private:
    QString writeFile(const QString &name, const QByteArray &content);
    QString goodFile();
    QTemporaryDir m_dir;
};

void TestDocument::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("ClusterBenchTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_document"));
    QVERIFY(m_dir.isValid());
}

QString TestDocument::writeFile(const QString &name, const QByteArray &content)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(content);
    return path;
}

QString TestDocument::goodFile()
{
    return writeFile(QStringLiteral("good.json"),
                     QByteArray::fromStdString(scenarioToText(testing::leafSpineScenario(2, 1, 2))));
}

void TestDocument::loadValidFile()
{
    Document doc;
    QSignalSpy replaced(&doc, &Document::scenarioReplaced);
    const QString path = goodFile();
    const Status loaded = doc.load(path);
    QVERIFY2(loaded.ok(), loaded.error().c_str());
    QVERIFY(doc.scenario() == testing::leafSpineScenario(2, 1, 2));
    QCOMPARE(doc.filePath(), QFileInfo(path).absoluteFilePath());
    QCOMPARE(doc.displayName(), QStringLiteral("good.json"));
    QVERIFY(!doc.isModified());
    QCOMPARE(replaced.count(), 1);
}

void TestDocument::failedLoadKeepsScenario_data()
{
    QTest::addColumn<QByteArray>("content"); // empty: the file does not exist
    QTest::addColumn<QString>("where");      // JSON pointer of the first problem
    QTest::addColumn<QString>("message");    // a fragment of its message

    const std::string good = scenarioToText(testing::leafSpineScenario(1, 1, 1));
    auto replaced = [&good](const std::string &from, const std::string &to) {
        std::string text = good;
        const auto at = text.find(from);
        if (at != std::string::npos)
            text.replace(at, from.size(), to);
        return QByteArray::fromStdString(text);
    };
    QTest::newRow("missing file") << QByteArray() << QString() << QStringLiteral("missing.json");
    QTest::newRow("not json") << QByteArray("{ nope") << QString() << QStringLiteral("line 1");
    QTest::newRow("newer version")
        << replaced("\"version\": 1", "\"version\": 99") << QStringLiteral("/version")
        << QStringLiteral("newer");
    QTest::newRow("negative cpus")
        << replaced("\"cpus\": 64", "\"cpus\": -1") << QStringLiteral("/cluster/nodes/0/cpus")
        << QString();
    QTest::newRow("dangling link")
        << replaced("\"b\": \"leaf001\"", "\"b\": \"nowhere\"")
        << QStringLiteral("/cluster/links/1/b") << QStringLiteral("nowhere");
}

void TestDocument::failedLoadKeepsScenario()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, where);
    QFETCH(QString, message);

    Document doc;
    QVERIFY(doc.load(goodFile()).ok());
    Job edited = doc.scenario().jobs[0];
    edited.name = "edited before the failed load";
    doc.undoStack()->push(new EditJobCommand(&doc, 0, edited));
    const Scenario before = doc.scenario();
    const QString pathBefore = doc.filePath();
    QSignalSpy aboutToReplace(&doc, &Document::scenarioAboutToBeReplaced);

    const QString bad = content.isEmpty() ? m_dir.filePath(QStringLiteral("missing.json"))
                                          : writeFile(QStringLiteral("bad.json"), content);
    const Status loaded = doc.load(bad);
    QVERIFY(!loaded.ok());
    QVERIFY(!loaded.problems().empty());
    const QString all = QString::fromStdString(loaded.error());
    if (!where.isEmpty())
        QVERIFY2(all.contains(where + QStringLiteral(": ")), qPrintable(all));
    if (!message.isEmpty())
        QVERIFY2(all.contains(message, Qt::CaseInsensitive), qPrintable(all));

    QVERIFY(doc.scenario() == before);
    QCOMPARE(doc.filePath(), pathBefore);
    QCOMPARE(doc.undoStack()->count(), 1);
    QVERIFY(doc.isModified());
    QCOMPARE(aboutToReplace.count(), 0);
    doc.undoStack()->undo();
    QCOMPARE(doc.scenario().jobs[0].name, std::string("ResNet-50 parameter server"));
}

void TestDocument::saveMarksCleanAndRoundTrips()
{
    Document doc;
    doc.setScenario(testing::leafSpineScenario(2, 2, 3));
    QVERIFY(!doc.save().ok()); // no path yet
    Job j = doc.scenario().jobs[2];
    j.submitSeconds = 42;
    doc.undoStack()->push(new EditJobCommand(&doc, 2, j));
    QVERIFY(doc.isModified());
    QSignalSpy pathChanged(&doc, &Document::filePathChanged);
    const QString path = m_dir.filePath(QStringLiteral("saved.json"));
    const Status saved = doc.save(path);
    QVERIFY2(saved.ok(), saved.error().c_str());
    QVERIFY(!doc.isModified());
    QCOMPARE(pathChanged.count(), 1);
    QCOMPARE(doc.filePath(), QFileInfo(path).absoluteFilePath());

    Document other;
    QVERIFY(other.load(path).ok());
    QVERIFY(other.scenario() == doc.scenario());
    QCOMPARE(other.scenario().jobs[2].submitSeconds, 42.0);
    // Undo after save makes the document modified again.
    doc.undoStack()->undo();
    QVERIFY(doc.isModified());
}

void TestDocument::newScenarioTakesTheFileName()
{
    // A new scenario ("Untitled") saved as handmade.json is named "handmade" in the file and
    // from then on (its runs and export folder said "Untitled"); a named one keeps its name.
    Document doc;
    Scenario s = testing::leafSpineScenario(1, 1, 2);
    s.name = "Untitled";
    doc.setScenario(s);
    QSignalSpy renamed(&doc, &Document::scenarioRenamed);
    const QString path = m_dir.filePath(QStringLiteral("handmade.json"));
    QVERIFY(doc.save(path).ok());
    QCOMPARE(doc.scenario().name, std::string("handmade"));
    QCOMPARE(renamed.count(), 1);
    Document reread;
    QVERIFY(reread.load(path).ok());
    QCOMPARE(reread.scenario().name, std::string("handmade"));
    QVERIFY(doc.save(m_dir.filePath(QStringLiteral("copy.json"))).ok());
    QCOMPARE(doc.scenario().name, std::string("handmade"));
    QCOMPARE(renamed.count(), 1);
    // A save that fails names nothing.
    Document failing;
    failing.setScenario(s);
    QVERIFY(!failing.save(m_dir.filePath(QStringLiteral("no/such/folder/x.json"))).ok());
    QCOMPARE(failing.scenario().name, std::string("Untitled"));
}

void TestDocument::mainWindowFailedOpenShowsProblems()
{
    MainWindow window;
    const QString good = goodFile();
    QVERIFY(window.openFile(good));
    QVERIFY(!window.isShowingStartPage());
    const Scenario before = window.document()->scenario();
    const QString bad = writeFile(QStringLiteral("bad-window.json"),
                                  "{\"format\": \"clusterbench-scenario\", \"version\": 1}");
    QVERIFY(!window.openFile(bad));
    QVERIFY(window.document()->scenario() == before);
    QCOMPARE(window.document()->filePath(), QFileInfo(good).absoluteFilePath());
    auto *dialog = window.findChild<ProblemsDialog *>();
    QVERIFY(dialog);
    QVERIFY(dialog->problemCount() >= 1);
    QVERIFY(dialog->windowTitle().contains(QStringLiteral("bad-window.json")));
    dialog->close();

    // With unsaved changes, a file that cannot open asks nothing of the open one: it is read
    // before the save question, which comes only for a file that opens.
    QVERIFY(!window.document()->scenario().jobs.empty());
    window.document()->undoStack()->push(new RemoveJobCommand(window.document(), 0));
    QVERIFY(window.document()->isModified());
    int asked = 0;
    QTimer watcher;
    watcher.setInterval(20);
    QObject::connect(&watcher, &QTimer::timeout, [&] {
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *box = qobject_cast<QMessageBox *>(w); box && box->isVisible()) {
                ++asked;
                box->reject(); // (Cancel)
            }
    });
    watcher.start();
    QVERIFY(!window.openFile(bad));
    QCOMPARE(asked, 0);
    QVERIFY(window.document()->isModified());
    if (auto *again = window.findChild<ProblemsDialog *>())
        again->close();
    // Another file that opens asks first (cancelled here: the open scenario stays, modified).
    const QString other = QFileInfo(good).absolutePath() + QStringLiteral("/other-good.json");
    QFile::remove(other);
    QVERIFY(QFile::copy(good, other));
    QVERIFY(!window.openFile(other));
    QCOMPARE(asked, 1);
    QVERIFY(window.document()->isModified());
    QCOMPARE(window.document()->filePath(), QFileInfo(good).absoluteFilePath());
    watcher.stop();
}

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
