#pragma once
// Wires the run side into the main window: the actions for the export, generator, link and
// trace import dialogs. MainWindow creates one RunViews after its own docks and actions.

#include <QObject>

class QMenu;

namespace cb::views {

class MainWindow;

class RunViews : public QObject
{
    Q_OBJECT

public:
    explicit RunViews(MainWindow *window);

    void exportPlacement();
    void generateCluster();
    void importTrace();

private:
    QMenu *menu(const QString &title);

    MainWindow *m_window;
};

} // namespace cb::views
