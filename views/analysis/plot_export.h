#pragma once
// Saving a chart: PNG, PDF or SVG by the file's suffix, rendered in memory and written
// atomically (core/io/file_io), so a failed export never leaves half a file behind.

#include "util/result.h"

#include <QSize>
#include <QString>

class QCustomPlot;
class QWidget;

namespace cb::views {

/// Renders `plot` at `size` (empty: its current size) into `path`. The format follows the
/// suffix (.png, .pdf, .svg); another suffix is refused with a problem naming the file.
cb::Status exportPlot(QCustomPlot *plot, const QString &path, QSize size = {});

/// Asks for a file name (PNG, PDF or SVG; in the folder of the last chart written) and
/// exports; problems are shown in a message box, the written file in the status bar.
void exportPlotWithDialog(QCustomPlot *plot, QWidget *parent, const QString &suggestedName);
/// Says in the main window's status bar (of `parent`'s window) what was written.
void confirmWritten(QWidget *parent, const QString &what);

} // namespace cb::views
