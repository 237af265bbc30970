#pragma once
// Timelines of a simulated run: a Gantt chart of jobs on nodes (each node's band split into
// one lane per GPU, so tasks show on the GPUs they hold), the GPU utilisation and the power
// drawn over time, and the cost accrued. A time scrubber (slider, or a click in the charts)
// is shared with the heatmap through timeChanged().

#include "analysis/run_session.h"
#include "runs/timeline_series.h"

#include <QWidget>

#include <array>
#include <memory>
#include <vector>

class QAction;
class QCPAxis;
class QCPAxisRect;
class QCPGraph;
class QCPItemStraightLine;
class QCustomPlot;
class QLabel;
class QScrollArea;
class QSlider;

namespace cb::views {

class GanttPlottable;

class RunTimeline : public QWidget
{
    Q_OBJECT

public:
    /// The charts, top to bottom; each can be hidden from the Charts menu so that the others
    /// fit a short dock (the choice is kept in the settings).
    enum class Chart { Jobs, Use, Cost };
    static constexpr int kChartCount = 3;

    explicit RunTimeline(QWidget *parent = nullptr);
    ~RunTimeline() override;

    bool isChartShown(Chart chart) const { return m_shown[std::size_t(chart)]; }
    /// Shows or hides one chart; the last chart shown stays. Saved in the settings.
    void setChartShown(Chart chart, bool shown);
    /// The menu action that shows or hides `chart`.
    QAction *chartAction(Chart chart) const { return m_chartActions[std::size_t(chart)]; }

    void setSession(std::shared_ptr<const RunSession> session);
    double time() const { return m_time; }
    /// Nodes with a row in the Gantt chart, top to bottom.
    const std::vector<int> &rowNodes() const { return m_rowNodes; }
    const std::vector<GanttBar> &bars() const { return m_bars; }
    const TimelineSeries &series() const { return m_series; }
    QCustomPlot *plot() const { return m_plot; }
    /// The scroll area the charts sit in (they keep readable heights, the dock may not).
    QScrollArea *scrollArea() const { return m_scroll; }
    /// Tooltip text at a widget position of the plot (a Gantt bar or a series value).
    QString toolTipAt(const QPoint &plotPos) const;

    /// Shows the whole run: every row, from 0 to the makespan (a double-click does it).
    void showWholeRun();

public slots:
    /// Moves the scrubber (seconds, clamped to the run); emits timeChanged when it moved.
    void setTime(double seconds);
    void exportWithDialog();

protected:
    /// A plain wheel scrolls the dock; Ctrl+wheel zooms the charts' time.
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void timeChanged(double seconds);

private:
    void rebuild();
    /// Lays out the charts shown, the time axis's title under the lowest.
    void layOutCharts();
    QCPAxisRect *chartRect(Chart chart) const;
    void updateScrubber();
    void showToolTip(QMouseEvent *event);
    /// Keeps the time axes within [0, the run's end] and the rows within the rows (a zoom
    /// or pan went on into negative time, with nothing to bring the run back).
    void keepInRun();

    std::shared_ptr<const RunSession> m_session;
    std::vector<GanttBar> m_bars;
    std::vector<int> m_rowNodes;
    std::vector<int> m_nodeRow;
    TimelineSeries m_series;
    double m_time = 0;
    double m_endSeconds = 1;
    QCPAxis *m_timeAxis = nullptr; ///< the time axis under the lowest chart shown
    QCustomPlot *m_plot;
    QScrollArea *m_scroll = nullptr;
    QCPAxisRect *m_ganttRect;
    QCPAxisRect *m_useRect;
    QCPAxisRect *m_costRect;
    GanttPlottable *m_gantt;
    QCPGraph *m_util;
    QCPGraph *m_stranded;
    QCPGraph *m_power;
    QCPGraph *m_cost;
    std::vector<QCPItemStraightLine *> m_scrubLines; // one per chart, in Chart order
    std::array<bool, kChartCount> m_shown{true, true, true};
    std::array<QAction *, kChartCount> m_chartActions{};
    QSlider *m_slider;
    QLabel *m_timeLabel;
    QLabel *m_summary;
};

} // namespace cb::views
