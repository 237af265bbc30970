#include "workbench.h"

#include "window/english_plurals.h"
#include "window/main_window.h"

#include <QApplication>
#include <QIcon>

namespace cb::views {

int runWorkbench(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ClusterBench"));
    QApplication::setOrganizationDomain(QStringLiteral("clusterbench.invalid"));
    QApplication::setApplicationName(QStringLiteral("clusterbench"));
    QApplication::setApplicationDisplayName(QStringLiteral("ClusterBench"));
    QApplication::setApplicationVersion(QStringLiteral(CB_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("clusterbench"));
    EnglishPlurals plurals; // ("%n run(s)": "1 run", "3 runs")
    QApplication::installTranslator(&plurals);

    MainWindow window;
    QApplication::setWindowIcon(window.windowIcon());
    const QStringList args = QApplication::arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (!args[i].startsWith(QLatin1Char('-'))) {
            window.openFile(args[i]);
            break;
        }
    }
    window.show();
    return QApplication::exec();
}

} // namespace cb::views
