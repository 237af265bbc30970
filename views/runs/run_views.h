#pragma once
// Wires the run side into the main window: the Run and History docks, the Comparison dock,
// and the actions for the export, generator and trace import dialogs and for choosing the
// workspace file. MainWindow creates one RunViews after its own docks and actions.

#include <QObject>

class QDockWidget;
class QMenu;

namespace cb::views {

class ComparisonView;
class HistoryPanel;
class MainWindow;
class RunPanel;

class RunViews : public QObject
{
    Q_OBJECT

public:
    explicit RunViews(MainWindow *window);

    RunPanel *runPanel() const { return m_runPanel; }
    HistoryPanel *historyPanel() const { return m_history; }
    ComparisonView *comparisonView() const { return m_comparison; }
    /// Points the run panel and the history at another workspace file (remembered).
    void setWorkspacePath(const QString &path);

    void exportPlacement();
    void generateCluster();
    void importCluster();
    void importTrace();
    void chooseWorkspace();

private:
    QMenu *menu(const QString &title);
    /// A document opened from a file whose scenario has stored runs: the newest placement or
    /// simulation of exactly this scenario is shown again, and the history lists its runs.
    void reopenStoredRun();

    MainWindow *m_window;
    RunPanel *m_runPanel;
    HistoryPanel *m_history;
    ComparisonView *m_comparison;
    QDockWidget *m_comparisonDock;
};

} // namespace cb::views
