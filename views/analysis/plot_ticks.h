#pragma once
// Tick spacing from the pixels an axis has: for every axis of a plot whose ticker is a
// ReadableTicker or a NamedTicker, the smallest tick step whose labels do not touch (the
// font height on vertical axes and rotated labels, the widest label on horizontal ones,
// plus a gap). keepTicksReadable() re-applies it after every layout of the plot.

#include <QList>

class QCPAxis;
class QCustomPlot;

namespace cb::views {

/// Pixels between neighbouring tick labels of `axis` so that they do not overlap.
double minimumTickSpacing(const QCPAxis *axis);
/// Every axis of `plot`, those of its colour scales included.
QList<QCPAxis *> plotAxes(const QCustomPlot *plot);
/// Sets the minimum step of each spaced ticker of `plot` from its axis length; returns
/// whether one changed noticeably (the plot then needs another replot).
bool spaceTicks(QCustomPlot *plot);
/// Connects `plot` so that spaceTicks runs after each layout and replots when it changed.
void keepTicksReadable(QCustomPlot *plot);
/// Connects `plot` so that a change of its minimum size (its charts' minimum sizes plus the
/// margins, known only after a replot) reaches the layout or scroll area holding it.
void keepMinimumSizeKnown(QCustomPlot *plot);
/// Keeps `plot` from taking an empty size as its viewport: a plot laid out at 0 pixels (a
/// dock or tab not yet sized) would replot into empty buffers, which Qt reports as warnings
/// ("QPainter::begin: Paint device returned engine == 0"). It is replotted at its next real
/// size, as every resize does.
void ignoreEmptyResizes(QCustomPlot *plot);

} // namespace cb::views
