#pragma once
// The workbench window. Wiring only: it owns the Document and connects the start page, the
// topology view, the cluster and job-queue docks, menus, settings and file handling.

#include <QMainWindow>

#include <cstdint>
#include <memory>
#include <string>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;

namespace cb::views {

class ClusterPanel;
class DecisionStepper;
class StsStepper;
class RunChooser;
class RunTimeline;
class TrafficHeatmap;
class Document;
class JobQueuePanel;
class JobsAtTimeView;
class RunLauncher;
struct RunSession;
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
    DecisionStepper *decisionStepper() const { return m_stepper; }
    /// The stepper's STS mode, shown in the same dock for STS runs.
    StsStepper *stsStepper() const { return m_stsStepper; }
    TrafficHeatmap *trafficHeatmap() const { return m_heatmap; }
    RunTimeline *runTimeline() const { return m_timeline; }
    /// The squeue-like list at the timeline's scrubber.
    JobsAtTimeView *jobsAtTime() const { return m_jobsAtTime; }
    bool isShowingStartPage() const;

    /// Opens a scenario file. On failure shows the problems (non-blocking) and keeps the
    /// open scenario; returns whether it opened.
    bool openFile(const QString &path);
    /// Folders whose *.json files the start page lists.
    static QStringList sampleFolders();

    /// The run the analysis views show (null before the first run).
    std::shared_ptr<const RunSession> currentRun() const { return m_run; }
    /// Where every run of the window is launched (run panel batches, Place and Simulate).
    RunLauncher *runLauncher() const { return m_launcher; }
    /// Computes a run of the open scenario through the run launcher (progress dialog with
    /// Cancel), stores it and shows it when done; false if a run is already going.
    bool startRun(const std::string &policy, std::uint64_t seed, bool simulate);
    bool isRunning() const;
    /// What if I put it here: makes the shown run again with the task of the stepper's
    /// decision pinned to `node` (and the run's earlier pins), the rest of the queue placed
    /// by the policy; the new run is stored, shown at the same decision and compared with
    /// the shown one. False (with the reason in the status bar) when it cannot.
    bool whatIfHere(int node);
    /// The what-if action for `node` in the topology's context menu (null when not stepping).
    QAction *whatIfAction(int node);

    /// Whether a screen of this size gets the compact layout (a laptop: below 1600 x 950).
    static bool isCompactScreen(const QSize &screen);
    /// Docks every dock where the default layout for a screen of `screen` puts it and sizes
    /// them for the window's current size (tests use it to lay out for a given screen).
    void applyLayoutFor(const QSize &screen);

public slots:
    void showStartPage();
    /// View > Reset Layout: the default layout for the window's screen.
    void resetLayout();
    /// The stepping keys (n, p, space): the decision stepper, or the STS stepper in STS mode.
    void stepNext();
    void stepBack();
    void togglePlay();
    void showWorkspace();
    /// Hands a computed or reopened run to the analysis views (stepper, heatmaps, timelines).
    void showRun(std::shared_ptr<const cb::views::RunSession> session);
    /// Shows run `a` in the stepper with run `b` beside it (two-run mode), at `decision`.
    void showRunPair(std::shared_ptr<const cb::views::RunSession> a,
                     std::shared_ptr<const cb::views::RunSession> b, int decision);

signals:
    /// A run was shown (showRun), or a started run failed or was cancelled (null session).
    void runShown(std::shared_ptr<const cb::views::RunSession> session);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    /// For the status bar: the run shown is of another cluster than the open one (else empty).
    QString otherClusterNote() const;
    void createActions();
    void createDocks();
    /// Fits a window restored from the settings into the screen (X11 only).
    void keepRestoredWindowOnScreen();
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
    void placeAndSimulate();
    void onRunFinished(std::shared_ptr<const RunSession> session, const QString &error);
    void createAnalysisDocks();
    QDockWidget *dock(const char *name) const;
    bool stsMode() const;
    void arrangeDocks(const QSize &screen);
    void sizeDocks();
    void updateRunOverlay();
    /// The progress dialog (with Cancel) of a run started from a menu or the topology.
    void showRunProgress(const QString &text, const QString &title);
    void updateLinkUtilisation();
    void updateLegends();
    /// Shows the stale-run note while the shown run's queue differs from the document's.
    void updateStaleRunNote();

    Document *m_document;
    QStackedWidget *m_stack;
    StartPage *m_startPage;
    TopologyScene *m_scene;
    TopologyView *m_view;
    ClusterPanel *m_clusterPanel;
    JobQueuePanel *m_jobPanel;
    DecisionStepper *m_stepper = nullptr;
    StsStepper *m_stsStepper = nullptr;
    QStackedWidget *m_stepperModes = nullptr;
    TrafficHeatmap *m_heatmap = nullptr;
    RunTimeline *m_timeline = nullptr;
    JobsAtTimeView *m_jobsAtTime = nullptr;
    bool m_runMatchesCluster = false;
    /// On the status bar while the shown run is of the job queue before an edit.
    QLabel *m_staleRunNote = nullptr;
    bool m_nodeFromView = false; ///< the cluster panel selects a node clicked in the view
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QAction *m_saveAction = nullptr;
    std::shared_ptr<const RunSession> m_run;
    RunChooser *m_runChooser = nullptr;
    RunLauncher *m_launcher = nullptr;
    bool m_dialogRun = false; ///< the running batch came from Place and Simulate
    int m_seekAfterRun = -1;  ///< a what-if: the decision to show in its run
    /// A what-if: the run it changes, stepped beside its run (where each pick was before).
    std::shared_ptr<const cb::views::RunSession> m_whatIfBase;
    QList<QDockWidget *> m_dockVisible; ///< docks to show again when leaving the start page
    QSize m_layoutScreen{1920, 1080};   ///< the screen size the dock layout was made for
    bool m_layoutRestored = false;      ///< a saved layout was restored: keep it
    bool m_docksSized = false;          ///< the default layout got its sizes
    QList<QAction *> m_stepActions;     ///< n, p, space
};

} // namespace cb::views
