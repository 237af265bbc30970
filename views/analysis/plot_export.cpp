#include "analysis/plot_export.h"

#include "models/quantity_format.h"

#include "io/file_io.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QDir>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <qcustomplot.h>

namespace cb::views {

cb::Status exportPlot(QCustomPlot *plot, const QString &path, QSize size)
{
    if (size.isEmpty())
        size = plot->size();
    if (size.isEmpty())
        size = QSize(800, 600);
    const QString suffix = QFileInfo(path).suffix().toLower();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (suffix == QLatin1String("png")) {
        const QPixmap pixmap = plot->toPixmap(size.width(), size.height(), 1.0);
        if (pixmap.isNull() || !pixmap.save(&buffer, "PNG"))
            return cb::Status::failure(path.toStdString(), "could not render the PNG image");
    } else if (suffix == QLatin1String("pdf")) {
        QPdfWriter writer(&buffer);
        writer.setCreator(QStringLiteral("ClusterBench"));
        writer.setResolution(72);
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setPageSize(QPageSize(QSizeF(size), QPageSize::Point));
        QCPPainter painter(&writer);
        if (!painter.isActive())
            return cb::Status::failure(path.toStdString(), "could not start the PDF writer");
        plot->toPainter(&painter, size.width(), size.height());
        painter.end();
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setOutputDevice(&buffer);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(QStringLiteral("ClusterBench chart"));
        QCPPainter painter(&generator);
        if (!painter.isActive())
            return cb::Status::failure(path.toStdString(), "could not start the SVG writer");
        plot->toPainter(&painter, size.width(), size.height());
        painter.end();
    } else {
        return cb::Status::failure(path.toStdString(),
                                   "unknown image format \"" + suffix.toStdString() +
                                       "\": expected .png, .pdf or .svg");
    }
    buffer.close();
    return cb::writeFileAtomically(path.toStdString(), bytes.toStdString());
}

void confirmWritten(QWidget *parent, const QString &what)
{
    if (auto *window = qobject_cast<QMainWindow *>(parent ? parent->window() : nullptr))
        window->statusBar()->showMessage(what, 15000);
}

void exportPlotWithDialog(QCustomPlot *plot, QWidget *parent, const QString &suggestedName)
{
    // The folder of the last chart written comes back.
    const QString folder = QSettings().value(QStringLiteral("export/chartFolder")).toString();
    QString selected;
    QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export Chart"),
        folder.isEmpty() ? suggestedName : QDir(folder).filePath(suggestedName),
        QObject::tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"), &selected);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += selected.contains(QLatin1String("pdf"))   ? QStringLiteral(".pdf")
                : selected.contains(QLatin1String("svg")) ? QStringLiteral(".svg")
                                                          : QStringLiteral(".png");
    const cb::Status saved = exportPlot(plot, path);
    if (!saved) {
        QMessageBox::warning(parent, QObject::tr("Export failed"),
                             QString::fromStdString(saved.error()));
        return;
    }
    QSettings().setValue(QStringLiteral("export/chartFolder"), QFileInfo(path).absolutePath());
    confirmWritten(parent, QObject::tr("Wrote %1 (%2)")
                               .arg(path, formatByteAmount(double(QFileInfo(path).size()))));
}

} // namespace cb::views
