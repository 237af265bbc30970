#include "runs/run_views.h"

#include "analysis/decision_stepper.h"
#include "analysis/run_session.h"
#include "analysis/run_timeline.h"
#include "commands/replace_scenario_command.h"
#include "document/document.h"
#include "models/quantity_format.h"
#include "runs/cluster_import_dialog.h"
#include "runs/comparison_view.h"
#include "runs/export_dialog.h"
#include "runs/generator_dialog.h"
#include "runs/history_panel.h"
#include "runs/link_dialog.h"
#include "runs/run_history_model.h"
#include "runs/run_launcher.h"
#include "runs/run_panel.h"
#include "runs/run_service.h"
#include "runs/trace_import_dialog.h"
#include "store/workspace.h"
#include "topology/topology_view.h"
#include "window/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QUndoStack>

namespace cb::views {

namespace {
const char *const kWorkspaceKey = "workspace/path";
} // namespace

RunViews::RunViews(MainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_runPanel(new RunPanel(window->document(), window->runLauncher(), window))
    , m_history(new HistoryPanel(window))
    , m_comparison(new ComparisonView(window))
    , m_comparisonDock(new QDockWidget(tr("Comparison"), window))
{
    setObjectName(QStringLiteral("runViews"));
    auto *runDock = new QDockWidget(tr("Run"), window);
    runDock->setObjectName(QStringLiteral("runDock"));
    runDock->setWidget(m_runPanel); // its settings scroll, Run stays in view
    window->addDockWidget(Qt::LeftDockWidgetArea, runDock);
    auto *historyDock = new QDockWidget(tr("History"), window);
    historyDock->setObjectName(QStringLiteral("historyDock"));
    historyDock->setWidget(m_history);
    window->addDockWidget(Qt::BottomDockWidgetArea, historyDock);
    m_comparisonDock->setObjectName(QStringLiteral("comparisonDock"));
    m_comparisonDock->setWidget(m_comparison);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_comparisonDock);
    // MainWindow arranges every dock (View > Reset Layout).

    const QString stored = QSettings().value(QLatin1String(kWorkspaceKey)).toString();
    setWorkspacePath(stored.isEmpty() ? QString::fromStdString(Workspace::defaultPath()) : stored);

    connect(m_runPanel, &RunPanel::runStored, m_history, &HistoryPanel::runStored);
    // What-if: every batch lands in the comparison, a single run against the run before it.
    connect(window->runLauncher(), &RunLauncher::batchFinished, this, [this] {
        const RunLauncher *launcher = m_window->runLauncher();
        std::vector<ComparedRun> runs = launcher->comparedRuns();
        if (runs.empty())
            return;
        if (runs.size() == 1 && launcher->previousRun())
            runs.insert(runs.begin(), *launcher->previousRun());
        m_comparison->setRuns(std::move(runs));
        m_comparisonDock->show();
        m_window->statusBar()->showMessage(
            m_window->statusBar()->currentMessage() + tr(" — compared in the Comparison tab"),
            10000);
    });
    // Another document: the runs compared were of the last one.
    connect(window->document(), &Document::documentReplaced, this, [this] {
        m_comparison->setRuns({});
        // (once the window has taken the document in: fitted it, said it opened)
        QTimer::singleShot(0, this, &RunViews::reopenStoredRun);
    });
    connect(m_history, &HistoryPanel::sessionRequested, window, &MainWindow::showRun);
    connect(m_history, &HistoryPanel::pairRequested, window, &MainWindow::showRunPair);
    connect(m_history, &HistoryPanel::seekRequested, window, [window](int decision) {
        window->decisionStepper()->seek(decision);
    });
    connect(m_history, &HistoryPanel::compareRequested, this,
            [this](std::vector<ComparedRun> runs) {
                m_comparison->setRuns(std::move(runs));
                m_comparisonDock->show();
                m_comparisonDock->raise();
            });

    QMenu *file = menu(tr("&File"));
    QAction *firstFileAction = file->actions().value(3); // after New, Open, Open Recent
    auto *clusterImport = new QAction(tr("Import &Cluster…"), this);
    clusterImport->setObjectName(QStringLiteral("importClusterAction"));
    clusterImport->setToolTip(tr("Kubernetes nodes, Slurm configuration, scontrol output, GPU "
                                 "counts: every cluster format"));
    connect(clusterImport, &QAction::triggered, this, &RunViews::importCluster);
    auto *importAction = new QAction(tr("Import Job &Trace…"), this);
    importAction->setObjectName(QStringLiteral("importTraceAction"));
    connect(importAction, &QAction::triggered, this, &RunViews::importTrace);
    auto *exportAction = new QAction(tr("&Export Placement…"), this);
    exportAction->setObjectName(QStringLiteral("exportAction"));
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(exportAction, &QAction::triggered, this, &RunViews::exportPlacement);
    auto *workspaceAction = new QAction(tr("Open &Workspace…"), this);
    connect(workspaceAction, &QAction::triggered, this, &RunViews::chooseWorkspace);
    file->insertActions(firstFileAction, {clusterImport, importAction, exportAction, workspaceAction});
    file->insertSeparator(clusterImport);

    QMenu *edit = menu(tr("&Edit"));
    edit->addSeparator();
    QAction *generate = edit->addAction(tr("&Generate Cluster…"), this, &RunViews::generateCluster);
    generate->setObjectName(QStringLiteral("generateAction"));
    edit->addAction(tr("&Links…"), this, [this] {
        LinkDialog dialog(m_window->document(), m_window);
        dialog.exec();
    });

    QMenu *run = menu(tr("&Run"));
    run->addSeparator();
    QAction *runSelected = run->addAction(tr("Run &Selected Policies"), m_runPanel, [this, runDock] {
        runDock->show();
        runDock->raise();
        m_runPanel->start();
    });
    runSelected->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    // The policy list from the keyboard: type a name to go to it, space checks it.
    QAction *choose = run->addAction(tr("Choose Polic&ies…"), m_runPanel, [this, runDock] {
        runDock->show();
        runDock->raise();
        m_runPanel->focusPolicies();
    });
    choose->setObjectName(QStringLiteral("choosePoliciesAction"));
    choose->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    run->addAction(tr("&Cancel Runs"), m_runPanel, &RunPanel::cancel);
    QAction *compare = run->addAction(tr("C&ompare Selected Runs"), this, [this, historyDock] {
        historyDock->show();
        historyDock->raise();
        const auto ids = m_history->selectedRuns();
        if (ids.empty()) {
            const QString why = tr("Nothing to compare: select runs in the History (Ctrl-click "
                                   "for several), then Compare.");
            m_history->setStatusText(why);
            m_window->statusBar()->showMessage(why, 10000);
            return;
        }
        m_history->compareRuns(ids);
    });
    compare->setObjectName(QStringLiteral("compareAction"));
    QAction *part = run->addAction(tr("Where Selected Runs &Part"), this, [this, historyDock] {
        historyDock->show();
        historyDock->raise();
        const auto ids = m_history->selectedRuns();
        if (ids.size() != 2) {
            const QString why = tr("Where two runs part: select exactly two runs of one "
                                   "scenario in the History (Ctrl-click the second).");
            m_history->setStatusText(why);
            m_window->statusBar()->showMessage(why, 10000);
            return;
        }
        m_history->diffRuns(ids[0], ids[1]);
    });
    part->setObjectName(QStringLiteral("diffRunsAction"));

    QMenu *view = menu(tr("&View"));
    view->addSeparator();
    for (QDockWidget *dock : {runDock, historyDock, m_comparisonDock})
        view->addAction(dock->toggleViewAction());
}

QMenu *RunViews::menu(const QString &title)
{
    QMenuBar *bar = m_window->menuBar();
    for (QAction *a : bar->actions())
        if (a->menu() && a->text() == title)
            return a->menu();
    // Insert before Help so that Help stays last.
    QAction *help = nullptr;
    for (QAction *a : bar->actions())
        if (a->menu() && a->text() == tr("&Help"))
            help = a;
    auto *m = new QMenu(title, bar);
    bar->insertMenu(help, m);
    return m;
}

void RunViews::reopenStoredRun()
{
    const Document *document = m_window->document();
    // History lists the open scenario's runs (every run when it has none yet), and nothing
    // stays selected from the scenario before: Show would put its run over this cluster.
    m_history->reload();
    m_history->setScenarioFilter(QString::fromStdString(document->scenario().name));
    m_history->selectRuns({});
    if (document->filePath().isEmpty() || !QFileInfo::exists(m_history->workspacePath()))
        return;
    const std::string digest = Workspace::digestOf(document->scenario());
    std::int64_t newest = 0;
    int count = 0, stored = 0;
    for (const RunRecord &r : m_history->model()->runs()) {
        if (r.scenarioDigest != digest)
            continue;
        ++stored;
        if (r.kind == "place" || r.kind == "simulate") {
            newest = std::max(newest, r.id);
            ++count;
        }
    }
    if (newest == 0)
        return;
    m_history->selectRuns({newest});
    if (!m_history->showRun(newest))
        return;
    const QString opened = m_window->statusBar()->currentMessage();
    const QString shown =
        count == 1 && stored == 1 ? tr("showing its stored run #%1").arg(newest)
        : count == stored
            ? tr("showing run #%1, the newest of its %2 stored runs (History lists them)")
                  .arg(newest)
                  .arg(count)
            : tr("showing run #%1, the newest of its %2 placed or simulated runs (History "
                 "lists all %3 of its runs)")
                  .arg(newest)
                  .arg(count)
                  .arg(stored);
    m_window->statusBar()->showMessage(
        opened.isEmpty() ? shown : opened + QStringLiteral("; ") + shown, 10000);
}

void RunViews::setWorkspacePath(const QString &path)
{
    m_runPanel->setWorkspacePath(path);
    m_history->setWorkspacePath(path);
}

void RunViews::chooseWorkspace()
{
    const QString path = QFileDialog::getSaveFileName(
        m_window, tr("Open or Create Workspace"), m_history->workspacePath(),
        tr("ClusterBench workspaces (*.sqlite);;All files (*)"), nullptr,
        QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    auto ws = Workspace::open(path.toStdString());
    if (!ws) {
        QMessageBox::warning(m_window, tr("Cannot open workspace"),
                             QString::fromStdString(ws.error()));
        return;
    }
    QSettings().setValue(QLatin1String(kWorkspaceKey), path);
    setWorkspacePath(path);
    m_window->statusBar()->showMessage(tr("Workspace %1").arg(path), 5000);
}

void RunViews::exportPlacement()
{
    const auto run = m_window->currentRun();
    const Scenario &open = m_window->document()->scenario();
    std::optional<Placement> shown;
    QString label;
    // The run on screen is what the user wants written out (an STS run has no placement to
    // export: its configurations change over time).
    if (run && !run->sts) {
        shown = run->placement;
        label = run->label;
    }
    ExportDialog dialog(open, shown, label, m_window);
    if (run)
        dialog.setSeed(int(run->seed)); // (the scenario's own seed is not the run's)
    if (run && !run->sts && (run->scenario.cluster != open.cluster || run->scenario.jobs != open.jobs))
        dialog.setShownScenario(run->scenario);
    // A simulated run is offered first as its schedule: a stochastic run's configurations
    // change over time, so it is exported as it runs at the scrubber's time; a placement
    // policy's with every job as it first runs (its placement above has only the jobs that
    // fit at once). The time is editable in the dialog; the jobs are as the run ran them.
    if (run && run->result) {
        auto kept = run;
        dialog.setShownSchedule(
            run->label,
            [kept](double t) {
                return cb::stochasticScheduleAt(
                    kept->scenario, *kept->result,
                    t <= ExportDialog::kFirstRuns ? std::nullopt : std::optional<double>(t));
            },
            run->result->makespanSeconds,
            run->sts ? m_window->runTimeline()->time() : ExportDialog::kFirstRuns);
    }
    if (run && run->result) {
        std::vector<std::string> overruns;
        for (const Problem &p : timeLimitOverruns(run->scenario, *run->result))
            overruns.push_back(p.message);
        for (std::string &n : reconfigurationNotes(*run->result))
            overruns.push_back(std::move(n));
        dialog.setShownRunWarnings(overruns);
    }
    connect(&dialog, &ExportDialog::written, this,
            [this](int files, qint64 bytes, const QString &folder) {
                m_window->statusBar()->showMessage(
                    tr("Exported %n file(s), %1, to %2", nullptr, files)
                        .arg(formatByteAmount(double(bytes)), folder),
                    15000);
            });
    dialog.exec();
}

void RunViews::generateCluster()
{
    GeneratorDialog dialog(m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    auto cluster = dialog.generate();
    if (!cluster) {
        QMessageBox::warning(m_window, tr("Cannot generate"), QString::fromStdString(cluster.error()));
        return;
    }
    Document *doc = m_window->document();
    if (dialog.replaceOpenScenario()) {
        replaceCluster(doc, std::move(cluster).value(), dialog.describe());
    } else {
        if (doc->isModified() &&
            QMessageBox::question(m_window, tr("Unsaved changes"),
                                  tr("%1 has unsaved changes. Discard them and open the "
                                     "generated cluster as a new scenario?")
                                      .arg(doc->displayName())) != QMessageBox::Yes)
            return;
        Scenario s;
        s.name = dialog.describe().toStdString();
        s.description = "Generated by ClusterBench.";
        s.cluster = std::move(cluster).value();
        doc->setScenario(std::move(s));
    }
    m_window->showWorkspace();
    m_window->topologyView()->fitAll();
}

void RunViews::importCluster()
{
    ClusterImportDialog dialog(m_window->document(), m_window);
    connect(&dialog, &ClusterImportDialog::imported, this, [this](int nodes, const QString &files) {
        m_window->showWorkspace();
        m_window->topologyView()->fitAll();
        m_window->statusBar()->showMessage(
            tr("Imported a cluster of %n node(s) from %1", nullptr, nodes).arg(files), 10000);
    });
    dialog.exec();
}

void RunViews::importTrace()
{
    TraceImportDialog dialog(m_window->document(), m_window);
    dialog.exec();
}

} // namespace cb::views
