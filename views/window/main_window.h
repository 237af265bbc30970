#pragma once
// The workbench window. Wiring only: it owns the Document and connects the start page, the
// topology view, the cluster and job-queue docks, menus, settings and file handling.

#include <QMainWindow>

class QAction;
class QDockWidget;
class QMenu;
class QStackedWidget;

namespace cb::views {

class ClusterPanel;
class Document;
class JobQueuePanel;
class StartPage;
class TopologyScene;
class TopologyView;

class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    Document *document() const { return m_document; }
    TopologyView *topologyView() const { return m_view; }
    TopologyScene *topologyScene() const { return m_scene; }
    StartPage *startPage() const { return m_startPage; }
    ClusterPanel *clusterPanel() const { return m_clusterPanel; }
    JobQueuePanel *jobQueuePanel() const { return m_jobPanel; }
    bool isShowingStartPage() const;

    /// Opens a scenario file. On failure shows the problems (non-blocking) and keeps the
    /// open scenario; returns whether it opened.
    bool openFile(const QString &path);
    /// Folders whose *.json files the start page lists.
    static QStringList sampleFolders();

public slots:
    void showStartPage();
    void showWorkspace();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createDocks();
    void readSettings();
    void writeSettings() const;
    bool maybeSave();
    bool save();
    bool saveAs();
    void newScenario();
    void openWithDialog();
    void addRecentFile(const QString &path);
    QStringList recentFiles() const;
    void updateRecentMenu();
    void updateTitle();
    void updateOverlay();
    void about();

    Document *m_document;
    QStackedWidget *m_stack;
    StartPage *m_startPage;
    TopologyScene *m_scene;
    TopologyView *m_view;
    ClusterPanel *m_clusterPanel;
    JobQueuePanel *m_jobPanel;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QAction *m_saveAction = nullptr;
    QList<QDockWidget *> m_dockVisible; ///< docks to show again when leaving the start page
};

} // namespace cb::views
