#include "window/main_window.h"

#include <algorithm>
#include <utility>

#include "analysis/decision_stepper.h"
#include "analysis/jobs_at_time_view.h"
#include "analysis/place_run_dialog.h"
#include "analysis/run_chooser.h"
#include "analysis/run_session.h"
#include "analysis/run_timeline.h"
#include "analysis/sts_session.h"
#include "analysis/sts_stepper.h"
#include "analysis/traffic_heatmap.h"
#include "document/document.h"
#include "io/scenario_json.h"
#include "models/job_queue_model.h"
#include "models/quantity_format.h"
#include "runs/run_comparison.h"
#include "runs/run_launcher.h"
#include "runs/run_service.h"
#include "runs/run_store.h"
#include "runs/run_views.h"
#include "runs/timeline_series.h"
#include "sched/task_pin.h"
#include "topology/topology_scene.h"
#include "topology/topology_view.h"
#include "util/sample_folder.h"
#include "util/text.h"
#include "window/cluster_panel.h"
#include "window/job_queue_panel.h"
#include "window/problems_dialog.h"
#include "window/start_page.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>

static void initClusterBenchResources()
{
    Q_INIT_RESOURCE(clusterbench);
}

namespace cb::views {

namespace {
constexpr int kMaxRecent = 10;
const char *const kRecentKey = "recentFiles";

QIcon icon(const char *name)
{
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name)));
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_document(new Document(this))
    , m_stack(new QStackedWidget(this))
    , m_startPage(new StartPage(this))
    , m_scene(new TopologyScene(m_document, this))
    , m_view(new TopologyView(m_scene, this))
    , m_clusterPanel(nullptr)
    , m_jobPanel(nullptr)
    , m_launcher(new RunLauncher(this))
{
    initClusterBenchResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(icon("clusterbench"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    m_view->setObjectName(QStringLiteral("topologyView"));
    m_stack->addWidget(m_startPage);
    m_stack->addWidget(m_view);
    setCentralWidget(m_stack);

    createDocks();
    createActions();
    connect(m_launcher, &RunLauncher::runFinished, this,
            [this](int, std::shared_ptr<const RunSession> session, qint64, const QString &error) {
                onRunFinished(std::move(session), error);
            });
    connect(m_launcher, &RunLauncher::batchFinished, this, [this] { m_dialogRun = false; });
    for (const char *name : {"stepperDock", "heatmapDock", "timelineDock", "jobsAtTimeDock"})
        if (QDockWidget *d = dock(name))
            d->addActions(m_stepActions);
    m_view->addActions(m_stepActions);
    new RunViews(this); // run, history, comparison docks; export, generator, links, import
    arrangeDocks(screen() ? screen()->availableGeometry().size() : QSize(1920, 1080));

    m_startPage->setSampleFolders(sampleFolders());
    connect(m_startPage, &StartPage::openRequested, this, &MainWindow::openFile);
    connect(m_startPage, &StartPage::openDialogRequested, this, &MainWindow::openWithDialog);
    connect(m_startPage, &StartPage::newRequested, this, &MainWindow::newScenario);

    connect(m_document, &Document::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &Document::scenarioReplaced, this, &MainWindow::updateTitle);
    connect(m_scene, &TopologyScene::rebuilt, this, &MainWindow::updateOverlay);
    // A node clicked in the view is selected in the cluster panel too; the view stays where
    // it is (it centres a node the panel selects, which is for finding one).
    connect(m_scene, &TopologyScene::nodeClicked, this, [this](int n) {
        m_nodeFromView = true;
        m_clusterPanel->selectNode(n);
        m_nodeFromView = false;
    });
    // While stepping a run of this cluster, a click also contrasts the node with the pick.
    connect(m_scene, &TopologyScene::nodeClicked, this, [this](int n) {
        if (m_runMatchesCluster && m_stepper->session())
            m_stepper->setContrastNode(n);
    });
    connect(m_scene, &TopologyScene::contextMenuRequested, this,
            [this](int node, int sw, const QPoint &pos) {
                QList<QAction *> leading;
                if (QAction *whatIf = sw < 0 ? whatIfAction(node) : nullptr)
                    leading << whatIf;
                m_clusterPanel->showContextMenu(node, sw, pos, leading);
                qDeleteAll(leading);
            });
    // What if I put it here: the pick of the decision at the cursor dragged onto another node.
    connect(m_scene, &TopologyScene::taskDropped, this, [this](int, int to) { whatIfHere(to); });
    connect(m_clusterPanel, &ClusterPanel::nodeSelected, this, [this](int n) {
        if (m_nodeFromView)
            m_scene->selectNode(n);
        else
            m_view->centerOnNode(n);
    });

    readSettings();
    updateRecentMenu();
    updateTitle();
    m_stack->setCurrentWidget(m_view); // so that showStartPage() hides the docks
    showStartPage();
}

MainWindow::~MainWindow() = default;

bool MainWindow::isRunning() const
{
    return m_launcher->isRunning();
}

QStringList MainWindow::sampleFolders()
{
    // The installed samples beside the program, else the source tree it was built from.
    const std::string folder =
        sampleFolder(QCoreApplication::applicationDirPath().toStdString(), CB_SAMPLES_DIR);
    return folder.empty() ? QStringList() : QStringList{QString::fromStdString(folder)};
}

void MainWindow::createDocks()
{
    m_clusterPanel = new ClusterPanel(m_document, this);
    auto *clusterDock = new QDockWidget(tr("Cluster"), this);
    clusterDock->setObjectName(QStringLiteral("clusterDock"));
    clusterDock->setWidget(m_clusterPanel);
    addDockWidget(Qt::LeftDockWidgetArea, clusterDock);

    m_jobPanel = new JobQueuePanel(m_document, this);
    auto *jobDock = new QDockWidget(tr("Job queue"), this);
    jobDock->setObjectName(QStringLiteral("jobDock"));
    jobDock->setWidget(m_jobPanel);
    addDockWidget(Qt::BottomDockWidgetArea, jobDock);
    createAnalysisDocks();
}

void MainWindow::createAnalysisDocks()
{
    m_stepper = new DecisionStepper(this);
    m_stsStepper = new StsStepper(this);
    m_stepperModes = new QStackedWidget(this); // placement decisions, or an STS run's events
    m_stepperModes->addWidget(m_stepper);
    m_stepperModes->addWidget(m_stsStepper);
    m_runChooser = new RunChooser(this);
    connect(m_runChooser, &RunChooser::runChosen, this, &MainWindow::showRun);
    auto *stepperPane = new QWidget(this);
    auto *stepperLayout = new QVBoxLayout(stepperPane);
    stepperLayout->setContentsMargins(0, 0, 0, 0);
    stepperLayout->addWidget(m_runChooser);
    stepperLayout->addWidget(m_stepperModes, 1);
    auto *stepperDock = new QDockWidget(tr("Decisions"), this);
    stepperDock->setObjectName(QStringLiteral("stepperDock"));
    stepperDock->setWidget(stepperPane);
    addDockWidget(Qt::RightDockWidgetArea, stepperDock);
    connect(m_stepper, &DecisionStepper::cursorChanged, this, &MainWindow::updateRunOverlay);
    connect(m_stepper, &DecisionStepper::partnerChanged, this, &MainWindow::updateRunOverlay);

    // Its own dock, beside the stepper: the traffic is watched while stepping.
    m_heatmap = new TrafficHeatmap(this);
    auto *heatmapDock = new QDockWidget(tr("Traffic"), this);
    heatmapDock->setObjectName(QStringLiteral("heatmapDock"));
    heatmapDock->setWidget(m_heatmap);
    addDockWidget(Qt::RightDockWidgetArea, heatmapDock);
    connect(m_stepper, &DecisionStepper::cursorChanged, m_heatmap,
            &TrafficHeatmap::decisionMoved);

    m_timeline = new RunTimeline(this);
    auto *timelineDock = new QDockWidget(tr("Timeline"), this);
    timelineDock->setObjectName(QStringLiteral("timelineDock"));
    timelineDock->setWidget(m_timeline);
    addDockWidget(Qt::BottomDockWidgetArea, timelineDock);
    connect(m_timeline, &RunTimeline::timeChanged, m_heatmap, &TrafficHeatmap::setTime);
    // An STS run's event cursor moves the scrubber: the heatmap and the timeline follow.
    connect(m_stsStepper, &StsStepper::cursorChanged, this, [this](int event) {
        if (m_run && m_run->sts && event >= 0 && event < int(m_run->sts->log.events().size()))
            m_timeline->setTime(m_run->sts->log.events()[std::size_t(event)].time);
    });
    // The scrubber moves the STS stepper to the last event at or before its time; an event at
    // that time (several can share one) keeps the cursor, so stepping is not pulled along.
    connect(m_timeline, &RunTimeline::timeChanged, this, [this](double time) {
        if (!m_run || !m_run->sts || m_stsStepper->session() != m_run)
            return;
        const auto &events = m_run->sts->log.events();
        if (events.empty())
            return;
        const auto after = std::upper_bound(events.begin(), events.end(), time,
                                            [](double t, const auto &e) { return t < e.time; });
        const int at = after == events.begin() ? 0 : int(after - events.begin()) - 1;
        const int cursor = m_stsStepper->cursor();
        if (cursor >= 0 && cursor < int(events.size()) &&
            events[std::size_t(cursor)].time == events[std::size_t(at)].time)
            return;
        m_stsStepper->seek(at);
    });
    connect(m_timeline, &RunTimeline::timeChanged, this, &MainWindow::updateLinkUtilisation);
    // ... and the topology shows the GPUs busy after the event, the selected job's node
    // marked (a move to another event selects its first job: one signal for both).
    connect(m_stsStepper, &StsStepper::jobChanged, this, &MainWindow::updateRunOverlay);

    // squeue at the scrubber's time.
    m_jobsAtTime = new JobsAtTimeView(this);
    auto *jobsAtTimeDock = new QDockWidget(tr("Jobs at time"), this);
    jobsAtTimeDock->setObjectName(QStringLiteral("jobsAtTimeDock"));
    jobsAtTimeDock->setWidget(m_jobsAtTime);
    addDockWidget(Qt::BottomDockWidgetArea, jobsAtTimeDock);
    connect(m_timeline, &RunTimeline::timeChanged, m_jobsAtTime, &JobsAtTimeView::setTime);
    // Another document: none of the shown runs is of it.
    connect(m_document, &Document::documentReplaced, this, [this] { showRun(nullptr); });
    // The run chooser offers the runs of this document, not of the one opened before.
    connect(m_document, &Document::documentReplaced, m_runChooser, &RunChooser::clear);
    auto clusterEdited = [this](Document::Part part, int) {
        if (part != Document::Part::Jobs && m_runMatchesCluster) {
            m_runMatchesCluster = false;
            updateStaleRunNote();
            updateRunOverlay();
            updateLinkUtilisation();
        }
    };
    connect(m_document, &Document::rowInserted, this, clusterEdited);
    connect(m_document, &Document::rowRemoved, this, clusterEdited);
    connect(m_document, &Document::rowChanged, this, clusterEdited);
    // The shown run stays after an edit of the queue; say that it is of the queue before
    // (a user added a job and stepped the old run, looking for it).
    m_staleRunNote = new QLabel(tr("The shown run is of the job queue before its edits"), this);
    m_staleRunNote->setObjectName(QStringLiteral("staleRunNote"));
    m_staleRunNote->setToolTip(tr("Run > Place and Simulate (Ctrl+R) runs the queue as it is now"));
    m_staleRunNote->hide();
    statusBar()->addPermanentWidget(m_staleRunNote);
    auto sayRunIsOfQueueBefore = [this] {
        updateStaleRunNote();
        if (!m_staleRunNote->isHidden())
            statusBar()->showMessage(
                tr("The shown run %1 was made before this edit of the job queue: Run > Place "
                   "and Simulate (Ctrl+R) runs the queue as it is now")
                    .arg(m_run->label),
                10000);
    };
    auto queueEdited = [sayRunIsOfQueueBefore](Document::Part part, int) {
        if (part == Document::Part::Jobs)
            sayRunIsOfQueueBefore();
    };
    connect(m_document, &Document::rowInserted, this, queueEdited);
    connect(m_document, &Document::rowRemoved, this, queueEdited);
    connect(m_document, &Document::rowChanged, this, queueEdited);
    // A run of another cluster no longer matches the view; a queue replaced on the same
    // cluster (a job trace imported, or that undone) keeps the shown run, said to be of the
    // queue before as after an edit of one job (it was dropped: "No run yet").
    connect(m_document, &Document::scenarioReplaced, this, [this, sayRunIsOfQueueBefore] {
        // (An empty undo stack: another document was set; documentReplaced, which follows,
        // clears the run once.)
        if (m_document->undoStack()->count() == 0)
            return;
        if (!m_run || !m_runMatchesCluster ||
            m_run->scenario.cluster != m_document->scenario().cluster)
            showRun(nullptr);
        else
            sayRunIsOfQueueBefore();
    });
}

void MainWindow::updateStaleRunNote()
{
    // (a run of another cluster has its own note; this one is for the open scenario's runs)
    if (!m_staleRunNote)
        return;
    m_staleRunNote->setVisible(m_run && m_runMatchesCluster &&
                               m_run->scenario.jobs != m_document->scenario().jobs);
}

bool MainWindow::stsMode() const
{
    return m_stepperModes->currentWidget() == m_stsStepper;
}

void MainWindow::stepNext()
{
    if (stsMode())
        m_stsStepper->step();
    else
        m_stepper->step();
}

void MainWindow::stepBack()
{
    if (stsMode())
        m_stsStepper->back();
    else
        m_stepper->back();
}

void MainWindow::togglePlay()
{
    if (stsMode())
        m_stsStepper->togglePlay();
    else
        m_stepper->togglePlay();
}

QDockWidget *MainWindow::dock(const char *name) const
{
    return findChild<QDockWidget *>(QLatin1String(name));
}

bool MainWindow::isCompactScreen(const QSize &screen)
{
    return screen.width() < 1600 || screen.height() < 950;
}

void MainWindow::arrangeDocks(const QSize &screen)
{
    QDockWidget *cluster = dock("clusterDock"), *run = dock("runDock"), *jobs = dock("jobDock"),
                *stepper = dock("stepperDock"), *heatmap = dock("heatmapDock"),
                *timeline = dock("timelineDock"), *squeue = dock("jobsAtTimeDock"),
                *history = dock("historyDock"), *comparison = dock("comparisonDock");
    const QList<QDockWidget *> all{cluster, run,     jobs,    stepper,   heatmap,
                                   timeline, squeue, history, comparison};
    for (QDockWidget *d : all)
        if (d) {
            d->setFloating(false);
            removeDockWidget(d);
        }
    // The left column edits (cluster, runs), the right one explains (decisions), the bottom
    // row follows time (queue, timeline, jobs at a time, history, comparison).
    addDockWidget(Qt::LeftDockWidgetArea, cluster);
    if (run)
        tabifyDockWidget(cluster, run);
    addDockWidget(Qt::RightDockWidgetArea, stepper);
    addDockWidget(Qt::BottomDockWidgetArea, jobs);
    // Split before tabbing: splitDockWidget() on a tabbed dock adds a tab instead.
    if (isCompactScreen(screen)) {
        // A laptop: the stepper takes the whole right column, as tall as the window (it
        // owns the bottom-right corner), so its tables show more than a row or two; the
        // heatmap sits beside the timeline at the bottom, so the decision, its traffic and
        // the time line stay in view.
        splitDockWidget(jobs, heatmap, Qt::Horizontal);
        setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    } else {
        // A desktop: the heatmap under the stepper in a right column as tall as the window
        // (it owns the bottom-right corner), so both keep a readable height.
        splitDockWidget(stepper, heatmap, Qt::Vertical);
        setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    }
    QDockWidget *last = jobs;
    for (QDockWidget *d : {timeline, squeue, history, comparison})
        if (d) {
            tabifyDockWidget(last, d);
            last = d;
        }
    for (QDockWidget *d : all)
        if (d)
            d->show();
    cluster->raise();
    jobs->raise();
    m_layoutScreen = screen;
}

void MainWindow::sizeDocks()
{
    const QSize s = size();
    QDockWidget *cluster = dock("clusterDock"), *jobs = dock("jobDock"),
                *stepper = dock("stepperDock"), *heatmap = dock("heatmapDock");
    const int w = s.width(), h = s.height();
    if (isCompactScreen(m_layoutScreen)) {
        // The stepper's column as tall as the window; the bottom row, left of it, holds the
        // timeline (and the queue, whose reasons should not be cut) and the heatmap.
        const int right = std::clamp(w * 32 / 100, 380, 560);
        resizeDocks({cluster, stepper}, {std::clamp(w * 22 / 100, 250, 360), right},
                    Qt::Horizontal);
        resizeDocks({jobs}, {std::clamp(h * 41 / 100, 230, 420)}, Qt::Vertical);
        const int bottom = w - right;
        resizeDocks({jobs, heatmap}, {bottom * 62 / 100, bottom * 38 / 100}, Qt::Horizontal);
    } else {
        resizeDocks({cluster, stepper}, {std::clamp(w * 20 / 100, 300, 460),
                                         std::clamp(w * 32 / 100, 480, 820)},
                    Qt::Horizontal);
        resizeDocks({jobs}, {std::clamp(h * 34 / 100, 260, 480)}, Qt::Vertical);
        resizeDocks({stepper, heatmap}, {h * 60 / 100, h * 40 / 100}, Qt::Vertical);
    }
}

void MainWindow::resetLayout()
{
    const QScreen *sc = screen();
    arrangeDocks(sc ? sc->availableGeometry().size() : size());
    sizeDocks();
    statusBar()->showMessage(tr("Layout reset for a %1 x %2 screen")
                                 .arg(m_layoutScreen.width())
                                 .arg(m_layoutScreen.height()),
                             5000);
}

void MainWindow::applyLayoutFor(const QSize &screen)
{
    arrangeDocks(screen);
    sizeDocks();
}

void MainWindow::updateLinkUtilisation()
{
    if (!m_runMatchesCluster || !m_run->result)
        m_scene->setLinkUtilisation({});
    else
        m_scene->setLinkUtilisation(
            linkUtilisationAt(m_run->scenario, *m_run->result, m_timeline->time()));
    updateLegends();
}

void MainWindow::updateRunOverlay()
{
    m_scene->setNodeOverlay(!m_runMatchesCluster ? NodeOverlay{}
                            : stsMode()          ? scheduleOverlay(*m_stsStepper)
                                                 : decisionOverlay(*m_stepper));
    // The pick at the cursor can be dragged onto another node (what if).
    m_scene->setDragSource(m_runMatchesCluster ? m_scene->nodeOverlay().marked : -1);
    updateLegends();
}

void MainWindow::updateLegends()
{
    using Legend = TopologyView::NodeLegend;
    m_view->setLegends(!m_scene->nodeOverlay().active() ? Legend::None
                       : stsMode()                      ? Legend::Schedule
                                                        : Legend::Scores,
                       !m_scene->linkUtilisation().empty(),
                       m_stepper->partner() != nullptr);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QToolBar *tools = addToolBar(tr("Main"));
    tools->setObjectName(QStringLiteral("mainToolBar"));
    tools->setIconSize(QSize(20, 20));

    QAction *newAction = file->addAction(icon("new"), tr("&New Scenario"), this,
                                         &MainWindow::newScenario);
    newAction->setShortcut(QKeySequence::New);
    QAction *open = file->addAction(icon("open"), tr("&Open…"), this,
                                    &MainWindow::openWithDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    m_saveAction = file->addAction(icon("save"), tr("&Save"), this, &MainWindow::save);
    m_saveAction->setShortcut(QKeySequence::Save);
    QAction *saveAsAction = file->addAction(tr("Save &As…"), this, &MainWindow::saveAs);
    saveAsAction->setObjectName(QStringLiteral("saveAsAction"));
    // The platform's, else Ctrl+Shift+S (a desktop without a theme binds none to Save As).
    const QList<QKeySequence> saveAsKeys = QKeySequence::keyBindings(QKeySequence::SaveAs);
    saveAsAction->setShortcuts(
        saveAsKeys.isEmpty() ? QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S)}
                             : saveAsKeys);
    file->addSeparator();
    file->addAction(icon("home"), tr("Start &Page"), this, &MainWindow::showStartPage);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(icon("undo"));
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(icon("redo"));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    // The job editor from anywhere in the window (the job queue's Add job… does the same).
    QAction *addJob = edit->addAction(icon("add"), tr("Add &Job…"), this, [this] {
        if (QDockWidget *d = dock("jobDock")) {
            d->show();
            d->raise();
        }
        m_jobPanel->addJob();
    });
    addJob->setObjectName(QStringLiteral("addJobMenuAction"));
    addJob->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_J));

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QAction *fit = m_viewMenu->addAction(icon("fit"), tr("&Fit to Window"), m_view,
                                         &TopologyView::fitAll);
    fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction *zoomIn = m_viewMenu->addAction(icon("zoom-in"), tr("Zoom &In"), m_view,
                                            &TopologyView::zoomIn);
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction *zoomOut = m_viewMenu->addAction(icon("zoom-out"), tr("Zoom &Out"), m_view,
                                             &TopologyView::zoomOut);
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    m_viewMenu->addSeparator();
    QAction *reset = m_viewMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
    reset->setObjectName(QStringLiteral("resetLayoutAction"));
    reset->setToolTip(tr("Every dock back where the default layout for this screen puts it"));
    m_viewMenu->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        m_viewMenu->addAction(dock->toggleViewAction());

    QMenu *run = menuBar()->addMenu(tr("&Run"));
    QAction *placeRun = run->addAction(style()->standardIcon(QStyle::SP_MediaPlay),
                                       tr("&Place and Simulate…"), this,
                                       &MainWindow::placeAndSimulate);
    placeRun->setObjectName(QStringLiteral("placeAndSimulateAction"));
    placeRun->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    // Which run the stepper, heatmap and timeline show: the chooser above the stepper, from
    // the keyboard (Down and Return pick another).
    QAction *chooseRun = run->addAction(tr("Choose Shown R&un…"), this, [this] {
        if (QDockWidget *d = dock("stepperDock")) {
            d->show();
            d->raise();
        }
        m_runChooser->comboBox()->setFocus(Qt::ShortcutFocusReason);
        if (m_runChooser->count() > 0)
            m_runChooser->comboBox()->showPopup();
    });
    chooseRun->setObjectName(QStringLiteral("chooseRunAction"));
    chooseRun->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_U));
    run->addSeparator();
    // Stepping keys, as in the terminal stepper: n, p and space. They act while the focus is
    // in the topology or the analysis docks (not while typing in a form or a table editor).
    auto stepKey = [this, run](const QString &text, const QKeySequence &key, const char *name,
                               void (MainWindow::*slot)()) {
        QAction *a = run->addAction(text, this, slot);
        a->setObjectName(QLatin1String(name));
        a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_stepActions << a;
        return a;
    };
    stepKey(tr("&Next Decision"), QKeySequence(Qt::Key_N), "stepNextAction", &MainWindow::stepNext);
    stepKey(tr("&Previous Decision"), QKeySequence(Qt::Key_P), "stepBackAction",
            &MainWindow::stepBack);
    stepKey(tr("P&lay / Pause"), QKeySequence(Qt::Key_Space), "stepPlayAction",
            &MainWindow::togglePlay);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ClusterBench"), this, &MainWindow::about);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    tools->addAction(newAction);
    tools->addAction(open);
    tools->addAction(m_saveAction);
    tools->addSeparator();
    tools->addAction(undo);
    tools->addAction(redo);
    tools->addSeparator();
    tools->addAction(fit);
    tools->addAction(zoomIn);
    tools->addAction(zoomOut);
}

bool MainWindow::isShowingStartPage() const
{
    return m_stack->currentWidget() == m_startPage;
}

void MainWindow::showStartPage()
{
    m_startPage->setRecentFiles(recentFiles());
    if (!isShowingStartPage()) {
        // The docks have nothing to show yet: hide them, remembering which were open.
        m_dockVisible.clear();
        for (QDockWidget *dock : findChildren<QDockWidget *>()) {
            m_dockVisible.append(dock->isHidden() ? nullptr : dock);
            dock->hide();
        }
    }
    m_stack->setCurrentWidget(m_startPage);
}

void MainWindow::showWorkspace()
{
    if (isShowingStartPage()) {
        for (QDockWidget *dock : std::as_const(m_dockVisible))
            if (dock)
                dock->show();
        m_dockVisible.clear();
    }
    m_stack->setCurrentWidget(m_view);
    if (!m_docksSized && !m_layoutRestored && isVisible()) {
        m_docksSized = true;
        QTimer::singleShot(0, this, &MainWindow::sizeDocks);
    }
}

bool MainWindow::openFile(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute == m_document->filePath() && !m_document->isModified()) {
        showWorkspace();
        return true;
    }
    // The same file again (to revert, or after saving it) is read after the save question;
    // another file is read first, so that one that cannot open asks nothing of the open one.
    const bool same = absolute == m_document->filePath();
    if (same && !maybeSave())
        return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    Result<Scenario> loaded = loadScenarioFile(absolute.toStdString());
    QApplication::restoreOverrideCursor();
    if (!loaded) {
        auto *dialog = new ProblemsDialog(absolute, loaded.problems(), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
        statusBar()->showMessage(tr("Could not open %1").arg(absolute), 8000);
        return false;
    }
    if (!same && !maybeSave())
        return false;
    m_document->setScenario(std::move(loaded).value(), absolute);
    addRecentFile(absolute);
    showWorkspace();
    m_view->fitAll();
    statusBar()->showMessage(tr("Opened %1").arg(absolute), 5000);
    return true;
}

void MainWindow::openWithDialog()
{
    const QStringList samples = sampleFolders();
    const QString dir = !m_document->filePath().isEmpty()
                            ? QFileInfo(m_document->filePath()).absolutePath()
                        : samples.isEmpty() ? QDir::homePath()
                                            : samples.front();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Scenario"), dir, tr("ClusterBench scenarios (*.json);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::newScenario()
{
    if (!maybeSave())
        return;
    Scenario scenario;
    scenario.name = "Untitled";
    m_document->setScenario(std::move(scenario));
    showWorkspace();
}

bool MainWindow::save()
{
    if (m_document->filePath().isEmpty())
        return saveAs();
    const Status saved = m_document->save();
    if (!saved) {
        QMessageBox::warning(this, tr("Save failed"),
                             QString::fromStdString(saved.error()));
        return false;
    }
    statusBar()->showMessage(tr("Saved %1").arg(m_document->filePath()), 5000);
    return true;
}

bool MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(
        this, tr("Save Scenario As"),
        m_document->filePath().isEmpty() ? QDir::homePath() : m_document->filePath(),
        tr("ClusterBench scenarios (*.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        path += QStringLiteral(".json");
    const Status saved = m_document->save(path);
    if (!saved) {
        QMessageBox::warning(this, tr("Save failed"), QString::fromStdString(saved.error()));
        return false;
    }
    addRecentFile(m_document->filePath());
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        this, tr("Unsaved changes"),
        tr("%1 has unsaved changes. Save them first?").arg(m_document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile() &&
        urls.first().toLocalFile().endsWith(QStringLiteral(".json"), Qt::CaseInsensitive))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    openFile(urls.first().toLocalFile());
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecent)
        files.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files[i];
        QAction *a = m_recentMenu->addAction(
            QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()), this,
            [this, path] { openFile(path); });
        a->setToolTip(path);
    }
    m_recentMenu->setEnabled(!files.isEmpty());
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this] {
            QSettings().remove(QLatin1String(kRecentKey));
            updateRecentMenu();
        });
    }
    m_startPage->setRecentFiles(files);
}

void MainWindow::updateTitle()
{
    const Scenario &s = m_document->scenario();
    QString title = m_document->displayName();
    if (!s.name.empty() && QString::fromStdString(s.name) != title)
        title += QStringLiteral(" (%1)").arg(QString::fromStdString(s.name));
    setWindowTitle(title + QStringLiteral("[*] — ClusterBench"));
    setWindowModified(m_document->isModified());
}

void MainWindow::updateOverlay()
{
    const Cluster &c = m_document->scenario().cluster;
    QStringList gpus;
    for (const auto &[type, count] : c.gpusByType())
        gpus << QStringLiteral("%1 × %2").arg(QLocale().toString(count),
                                              QString::fromStdString(type));
    double minCap = 0, maxCap = 0;
    for (const Link &l : c.links) {
        minCap = minCap == 0 ? l.capacityGbps : std::min(minCap, l.capacityGbps);
        maxCap = std::max(maxCap, l.capacityGbps);
    }
    const int tiers = m_scene->tierCount();
    auto count = [](std::size_t n, const QString &one, const QString &many) {
        return n == 1 ? one : many.arg(QLocale().toString(qulonglong(n)));
    };
    QString text = tr("%1 · %2 in %3 · %4")
                       .arg(count(c.nodes.size(), tr("1 node"), tr("%1 nodes")),
                            count(c.switches.size(), tr("1 switch"), tr("%1 switches")),
                            count(std::size_t(tiers), tr("1 tier"), tr("%1 tiers")),
                            count(c.links.size(), tr("1 link"), tr("%1 links")));
    if (!gpus.isEmpty())
        text += QLatin1Char('\n') + tr("GPUs: %1").arg(gpus.join(QStringLiteral(", ")));
    if (maxCap > 0)
        text += QLatin1Char('\n') + tr("Line width grows with link capacity: %1 … %2")
                                        .arg(formatGbps(minCap), formatGbps(maxCap));
    m_view->setOverlayText(text);
    statusBar()->showMessage(tr("%1 nodes, %2 jobs").arg(c.nodes.size()).arg(
                                 m_document->scenario().jobs.size()));
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About ClusterBench"),
        tr("<h3>ClusterBench %1</h3><p>A workbench for scheduling distributed deep-learning "
           "training on GPU clusters: DLTAP, STS and their baselines, step by step.</p>"
           "<p>Built with Qt %2 and QCustomPlot.</p>")
            .arg(QStringLiteral(CB_VERSION), QLatin1String(qVersion())));
}

void MainWindow::placeAndSimulate()
{
    if (isRunning())
        return;
    if (m_document->scenario().jobs.empty()) {
        statusBar()->showMessage(tr("Nothing to place: the scenario has no jobs (add one in "
                                    "the job queue, or import a trace)"),
                                 10000);
        return;
    }
    PlaceRunDialog dialog(m_document->scenario(), this);
    // Defaults: what the user did last (the shown run; else the last choice, kept).
    const char *const simulateKey = "placeRun/simulate";
    const char *const policyKey = "placeRun/policy";
    dialog.setSimulate(QSettings().value(QLatin1String(simulateKey), true).toBool());
    // The policy last run on this scenario; else STS where the jobs carry its time tables;
    // else the last placement policy chosen (a stochastic one chosen for another scenario
    // would refuse jobs that fit no node here).
    const Scenario &scenario = m_document->scenario();
    const QString scenarioKey =
        QStringLiteral("placeRun/policies/%1")
            .arg(qulonglong(fnv1a(scenario.name)), 16, 16, QLatin1Char('0'));
    QString last = QSettings().value(scenarioKey).toString();
    if (last.isEmpty()) {
        const bool stsTables = std::any_of(scenario.jobs.begin(), scenario.jobs.end(),
                                           [](const Job &j) { return j.sts.has_value(); });
        const QString chosen = QSettings().value(QLatin1String(policyKey)).toString();
        if (stsTables)
            last = QStringLiteral("sts");
        else if (stochasticMethod(chosen.toStdString()).empty())
            last = chosen;
    }
    if (!last.isEmpty())
        dialog.setPolicy(last.toStdString()); // (not offered here: the dialog's default stays)
    if (m_run) {
        dialog.setPolicy(m_run->policy);
        dialog.setSeed(m_run->seed);
        if (!m_run->sts) // a stochastic run always simulates: keep the placement choice
            dialog.setSimulate(m_run->result.has_value());
    }
    if (dialog.exec() == QDialog::Accepted) {
        if (!dialog.stochastic()) // the box of a stochastic pick is forced on, not chosen
            QSettings().setValue(QLatin1String(simulateKey), dialog.simulate());
        QSettings().setValue(QLatin1String(policyKey), QString::fromStdString(dialog.policy()));
        QSettings().setValue(scenarioKey, QString::fromStdString(dialog.policy()));
        startRun(dialog.policy(), dialog.seed(), dialog.simulate());
    }
}

bool MainWindow::startRun(const std::string &policy, std::uint64_t seed, bool simulate)
{
    if (m_document->scenario().jobs.empty())
        return false; // (nothing to place: see placeAndSimulate)
    PanelRequest request;
    request.policy = policy;
    request.seed = seed;
    request.simulate = simulate;
    if (!m_launcher->start(m_document->scenario(), {request}))
        return false;
    m_dialogRun = true;
    showRunProgress(tr("Running %1 (seed %2)…").arg(QString::fromStdString(policy)).arg(seed),
                    tr("Place and Simulate"));
    return true;
}

QAction *MainWindow::whatIfAction(int node)
{
    const int c = m_stepper->cursor();
    if (node < 0 || c < 0 || !m_run || m_run->sts || !m_runMatchesCluster ||
        node >= int(m_run->scenario.cluster.nodes.size()))
        return nullptr;
    const Decision &d = m_run->log.decisions[std::size_t(c)];
    if (d.pick == node)
        return nullptr; // already there
    auto *action = new QAction(
        tr("What If %1 %2 Ran Here?")
            .arg(QString::fromStdString(d.jobId), QString::fromStdString(d.task())),
        this);
    action->setObjectName(QStringLiteral("whatIfHereAction"));
    action->setEnabled(!isRunning());
    connect(action, &QAction::triggered, this, [this, node] { whatIfHere(node); });
    return action;
}

bool MainWindow::whatIfHere(int node)
{
    const auto refuse = [this](const QString &why) {
        statusBar()->showMessage(why, 8000);
        return false;
    };
    const int c = m_stepper->cursor();
    if (m_run && m_run->sts)
        return refuse(tr("What if pins a task of a placement run (dltap, k8s-default, …) to a "
                         "node; an STS run chooses configurations over time, so it has no "
                         "task to pin"));
    if (!m_run || c < 0 || !m_runMatchesCluster)
        return refuse(tr("What if: step a placement run of this cluster first"));
    if (isRunning())
        return refuse(tr("What if: a run is going; try again when it ends"));
    if (node < 0 || node >= int(m_run->scenario.cluster.nodes.size()))
        return false;
    const Decision &d = m_run->log.decisions[std::size_t(c)];
    TaskPin pin{d.jobId, d.role, d.indexInRole, m_run->scenario.cluster.nodes[std::size_t(node)].id};
    // The shown run again, its earlier pins kept (this task's replaced).
    PanelRequest request = requestForSession(*m_run);
    std::erase_if(request.pins, [&](const TaskPin &p) {
        return p.jobId == pin.jobId && p.role == pin.role && p.indexInRole == pin.indexInRole;
    });
    request.pins.push_back(pin);
    // Compared with the run it changes, not with whatever ran last.
    ComparedRun baseline = comparedRun(recordForSession(*m_run, requestForSession(*m_run)));
    baseline.id = m_run->id;
    baseline.label = m_run->label;
    baseline.currency = QString::fromStdString(m_run->scenario.settings.currency);
    baseline.scenarioDigest = Workspace::digestOf(m_run->scenario);
    if (!m_launcher->start(m_run->scenario, {request}, std::move(baseline)))
        return refuse(tr("What if: could not start the run"));
    m_dialogRun = true;
    m_seekAfterRun = c;
    m_whatIfBase = m_run;
    const QString what = QString::fromStdString(toString(pin));
    statusBar()->showMessage(tr("What if %1, against %2").arg(what, m_run->label));
    showRunProgress(tr("What if %1: %2 places the rest…")
                        .arg(what, QString::fromStdString(request.policy)),
                    tr("What If"));
    return true;
}

void MainWindow::showRunProgress(const QString &text, const QString &title)
{
    auto *progress = new QProgressDialog(text, tr("Cancel"), 0, 0, this);
    progress->setWindowTitle(title);
    progress->setMinimumDuration(300);
    progress->setAutoClose(false);
    connect(progress, &QProgressDialog::canceled, m_launcher, &RunLauncher::cancel);
    connect(m_launcher, &RunLauncher::batchFinished, progress, &QObject::deleteLater);
}

void MainWindow::onRunFinished(std::shared_ptr<const RunSession> session, const QString &error)
{
    const int seek = std::exchange(m_seekAfterRun, -1);
    std::shared_ptr<const RunSession> base = std::exchange(m_whatIfBase, nullptr);
    if (session) {
        const QString status = statusBar()->currentMessage();
        if (seek >= 0) {
            // A what-if: its pinned decision shown beside the run it changed, whose pick
            // there is outlined in the topology; say what was compared.
            showRunPair(std::move(session), std::move(base), seek);
            statusBar()->showMessage(status + tr(": %1").arg(m_run->label), 10000);
        } else {
            showRun(std::move(session));
        }
        if (!error.isEmpty()) // computed and shown, but not stored
            statusBar()->showMessage(tr("Run shown, %1").arg(error), 10000);
        return;
    }
    if (!m_dialogRun)
        return; // the run panel lists the problems of its batches
    const bool cancelled = m_launcher->isCancelled();
    if (!cancelled) {
        // Not modal-blocking: the window stays usable and tests are not stopped.
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Run failed"), error,
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    statusBar()->showMessage(cancelled ? tr("Run cancelled") : tr("Run failed"), 5000);
    emit runShown(nullptr);
}

void MainWindow::showRunPair(std::shared_ptr<const RunSession> a,
                             std::shared_ptr<const RunSession> b, int decision)
{
    showRun(std::move(a));
    if (!m_stepper->session())
        return;
    if (b)
        m_stepper->setPartner(std::move(b));
    m_stepper->seek(decision);
    if (QDockWidget *d = dock("stepperDock")) {
        d->show();
        d->raise();
    }
}

QString MainWindow::otherClusterNote() const
{
    if (!m_run || m_runMatchesCluster)
        return {};
    return tr("; a run of %1, not of the open cluster: the topology does not show it, and "
              "Export writes that scenario's nodes")
        .arg(QString::fromStdString(m_run->scenario.name));
}

void MainWindow::showRun(std::shared_ptr<const RunSession> session)
{
    m_run = std::move(session);
    // The topology view draws the open scenario: colour it only if the run used that cluster.
    m_runMatchesCluster = m_run && m_run->scenario.cluster == m_document->scenario().cluster;
    updateStaleRunNote();
    // The heatmap reads the stepper's replay: let go of the old one before it is replaced.
    m_heatmap->setSession(nullptr, nullptr);
    // An STS run has no placement log: the stepper's STS mode steps its events, and the
    // heatmap and timeline follow its scrubber.
    const bool sts = m_run && m_run->sts;
    const auto placementRun = sts ? nullptr : m_run;
    m_stepper->setSession(placementRun);
    m_heatmap->setSession(m_run, sts ? nullptr : m_stepper->replay());
    m_timeline->setSession(m_run);
    m_stsStepper->setSession(sts ? m_run : nullptr);
    m_runChooser->setCurrent(m_run);
    m_jobsAtTime->setSession(m_run);
    m_jobPanel->model()->setRunStates(m_run ? jobStates(*m_run)
                                            : std::map<std::string, JobState>{});
    m_stepperModes->setCurrentWidget(sts ? static_cast<QWidget *>(m_stsStepper) : m_stepper);
    updateRunOverlay();
    updateLinkUtilisation();
    if (m_run) {
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("stepperDock")))
            dock->raise();
        if (auto *dock = findChild<QDockWidget *>(QStringLiteral("timelineDock")); dock && m_run->result)
            dock->raise();
    }
    if (sts) {
        static const cb::RunResult none;
        const cb::RunResult &r = m_run->result ? *m_run->result : none;
        const QString currency = QString::fromStdString(m_run->scenario.settings.currency);
        statusBar()->showMessage(
            tr("Run %1: %2 scheduling events; total cost %3 (running %4 "
               "at %6, tardiness %5), %n due-date violation(s)",
               nullptr, r.violations())
                    .arg(m_run->label)
                    .arg(m_run->sts->log.events().size())
                    .arg(formatMoney(r.totalCost(), currency), formatMoney(r.cost, currency),
                         formatMoney(r.tardinessCost, currency), runningCostBasis(r)) +
                otherClusterNote(),
            10000);
    } else if (m_run) {
        // A simulated run says what the simulation did: its first pass's waiting jobs start
        // later ("35 jobs placed, 5 waiting" beside a timeline of 40 of 40 finished read as
        // a contradiction).
        const cb::RunResult *r = m_run->result ? &*m_run->result : nullptr;
        const QString text =
            r ? tr("Run %1: %2 decisions; simulated: %3 of %4 jobs finished, makespan %5")
                    .arg(m_run->label)
                    .arg(m_run->log.decisions.size())
                    .arg(r->finishedJobs())
                    .arg(r->jobs.size())
                    .arg(formatDuration(r->makespanSeconds))
              : tr("Run %1: %2 decisions, %3 jobs placed, %4 waiting")
                    .arg(m_run->label)
                    .arg(m_run->log.decisions.size())
                    .arg(m_run->placement.jobs.size())
                    .arg(m_run->placement.waiting.size());
        statusBar()->showMessage(text + otherClusterNote(), 10000);
    }
    emit runShown(m_run);
}

void MainWindow::readSettings()
{
    QSettings settings;
    const QSize available =
        screen() ? screen()->availableGeometry().size() : QSize(1920, 1080);
    if (restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray())) {
        keepRestoredWindowOnScreen();
    } else {
        // First start: fill a laptop's screen, leave a desktop's some room.
        if (isCompactScreen(available)) {
            resize(available);
            setWindowState(windowState() | Qt::WindowMaximized);
        } else {
            resize(std::min(1600, available.width() * 9 / 10),
                   std::min(1000, available.height() * 9 / 10));
        }
    }
    m_layoutRestored = restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (m_layoutRestored)
        m_layoutScreen = settings.value(QStringLiteral("window/layoutScreen"), available).toSize();
}

void MainWindow::keepRestoredWindowOnScreen()
{
    // Qt keeps a restored window's title bar on the screen by assuming a 20 px frame above
    // it. Without a window manager (Xvfb, kiosks) there is none, so a window saved at the
    // top of the screen came back 20 px lower with its status bar off a 1366x768 screen.
    // Only X11 places windows where the program says; elsewhere the compositor does.
    if (QGuiApplication::platformName() != QLatin1String("xcb") || !screen())
        return;
    const QRect avail = screen()->availableGeometry();
    QRect g = geometry();
    if (avail.contains(g))
        return;
    g.setSize(g.size().boundedTo(avail.size()));
    g.moveLeft(std::clamp(g.left(), avail.left(), avail.right() - g.width() + 1));
    g.moveTop(std::clamp(g.top(), avail.top(), avail.bottom() - g.height() + 1));
    setGeometry(g);
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    if (!isShowingStartPage()) { // on the start page the docks are hidden on purpose
        settings.setValue(QStringLiteral("window/state"), saveState());
        settings.setValue(QStringLiteral("window/layoutScreen"), m_layoutScreen);
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_docksSized && !m_layoutRestored && !isShowingStartPage()) {
        m_docksSized = true;
        // After the window has its final (maximised) size.
        QTimer::singleShot(0, this, &MainWindow::sizeDocks);
    }
}

} // namespace cb::views
