#include "analysis/run_timeline.h"

#include "analysis/gantt_plottable.h"
#include "analysis/named_ticker.h"
#include "analysis/plot_export.h"
#include "analysis/plot_ticks.h"
#include "analysis/readable_ticker.h"
#include "models/quantity_format.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace cb::views {

namespace {
constexpr int kSliderSteps = 1000;
/// Inner heights below which a chart is not readable: the Gantt chart, the use and cost.
constexpr int kGanttMinHeight = 140;
constexpr int kSeriesMinHeight = 90;
const QColor kUtilColor(0x2e, 0x7d, 0x32);
const QColor kPowerColor(0xef, 0x6c, 0x00);
const QColor kCostColor(0x6a, 0x1b, 0x9a);
const QColor kStrandedColor(0xc6, 0x28, 0x28);
const QColor kScrubColor(0x15, 0x65, 0xc0);
/// The settings key of the charts shown, and each chart's name in it (in Chart order).
const QString kShownKey = QStringLiteral("timeline/charts");
const std::array<QString, 3> kChartKeys{QStringLiteral("jobs"), QStringLiteral("use"),
                                        QStringLiteral("cost")};
} // namespace

RunTimeline::RunTimeline(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_timeLabel(new QLabel(this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("runTimeline"));
    m_plot->setObjectName(QStringLiteral("timelinePlot"));
    m_plot->plotLayout()->clear();
    m_ganttRect = new QCPAxisRect(m_plot);
    m_useRect = new QCPAxisRect(m_plot);
    m_costRect = new QCPAxisRect(m_plot);
    // (in the layout from the start: QCustomPlot's items look for a first axis rect)
    m_plot->plotLayout()->addElement(0, 0, m_ganttRect);
    m_plot->plotLayout()->addElement(1, 0, m_useRect);
    m_plot->plotLayout()->addElement(2, 0, m_costRect);
    m_plot->plotLayout()->setRowSpacing(2);
    // Each chart keeps a readable height: below it the dock scrolls instead of crushing them.
    m_ganttRect->setMinimumSize(200, kGanttMinHeight);
    m_useRect->setMinimumSize(200, kSeriesMinHeight);
    m_costRect->setMinimumSize(200, kSeriesMinHeight);
    auto *margins = new QCPMarginGroup(m_plot);
    for (QCPAxisRect *r : {m_ganttRect, m_useRect, m_costRect}) {
        r->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
        r->setRangeDrag(Qt::Horizontal);
        r->setRangeZoom(Qt::Horizontal);
        for (QCPAxis *a : r->axes())
            a->setLayer(QStringLiteral("axes"));
    }
    QFont labelFont = font();
    labelFont.setPointSizeF(std::max(7.0, labelFont.pointSizeF() - 1));
    for (QCPAxisRect *r : {m_ganttRect, m_useRect, m_costRect})
        for (QCPAxis *a : r->axes()) {
            a->setLabelFont(labelFont);
            a->setTickLabelFont(labelFont);
        }
    m_ganttRect->setRangeDrag(Qt::Horizontal | Qt::Vertical);
    m_ganttRect->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    m_useRect->axis(QCPAxis::atRight)->setVisible(true);
    m_ganttRect->axis(QCPAxis::atLeft)->setRangeReversed(true);
    m_ganttRect->axis(QCPAxis::atLeft)->grid()->setVisible(false);
    m_ganttRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<NamedTicker>::create());
    m_ganttRect->axis(QCPAxis::atBottom)->setLabel(QString());
    m_useRect->axis(QCPAxis::atLeft)->setLabel(tr("GPUs busy (%)"));
    m_useRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<ReadableTicker>::create());
    m_useRect->axis(QCPAxis::atRight)->setLabel(tr("power"));
    m_useRect->axis(QCPAxis::atRight)->setTicker(QSharedPointer<ReadableTicker>::create(
        ReadableTicker::Steps::Decimal, [](double w) { return formatPower(w); }));
    m_costRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<ReadableTicker>::create());
    for (QCPAxisRect *r : {m_ganttRect, m_useRect, m_costRect})
        r->axis(QCPAxis::atBottom)->setTicker(
            QSharedPointer<ReadableTicker>::create(ReadableTicker::Steps::Duration));
    // The three charts share the time axis.
    for (QCPAxisRect *a : {m_ganttRect, m_useRect, m_costRect})
        for (QCPAxisRect *b : {m_ganttRect, m_useRect, m_costRect})
            if (a != b)
                connect(a->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::rangeChanged),
                        b->axis(QCPAxis::atBottom), qOverload<const QCPRange &>(&QCPAxis::setRange));
    keepTicksReadable(m_plot);
    ignoreEmptyResizes(m_plot);
    keepMinimumSizeKnown(m_plot);

    m_gantt = new GanttPlottable(m_ganttRect->axis(QCPAxis::atBottom),
                                 m_ganttRect->axis(QCPAxis::atLeft));
    m_util = m_plot->addGraph(m_useRect->axis(QCPAxis::atBottom), m_useRect->axis(QCPAxis::atLeft));
    m_util->setName(tr("GPUs busy"));
    m_util->setPen(QPen(kUtilColor, 1.6));
    m_util->setBrush(QColor(kUtilColor.red(), kUtilColor.green(), kUtilColor.blue(), 40));
    m_util->setLineStyle(QCPGraph::lsStepLeft);
    // Free GPUs a waiting job's task could use while its gang could not be admitted.
    m_stranded = m_plot->addGraph(m_useRect->axis(QCPAxis::atBottom),
                                  m_useRect->axis(QCPAxis::atLeft));
    m_stranded->setName(tr("GPUs stranded"));
    m_stranded->setPen(QPen(kStrandedColor, 1.4, Qt::DashLine));
    m_stranded->setLineStyle(QCPGraph::lsStepLeft);
    m_power = m_plot->addGraph(m_useRect->axis(QCPAxis::atBottom), m_useRect->axis(QCPAxis::atRight));
    m_power->setName(tr("power"));
    m_power->setPen(QPen(kPowerColor, 1.6));
    m_power->setLineStyle(QCPGraph::lsStepLeft);
    m_cost = m_plot->addGraph(m_costRect->axis(QCPAxis::atBottom), m_costRect->axis(QCPAxis::atLeft));
    m_cost->setName(tr("cost"));
    m_cost->setPen(QPen(kCostColor, 1.8));
    m_useRect->axis(QCPAxis::atLeft)->setLabelColor(kUtilColor);
    m_useRect->axis(QCPAxis::atRight)->setLabelColor(kPowerColor);
    m_costRect->axis(QCPAxis::atLeft)->setLabelColor(kCostColor);
    for (QCPAxisRect *r : {m_ganttRect, m_useRect, m_costRect}) {
        auto *line = new QCPItemStraightLine(m_plot);
        line->setClipAxisRect(r);
        line->setClipToAxisRect(true);
        line->point1->setAxes(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
        line->point2->setAxes(r->axis(QCPAxis::atBottom), r->axis(QCPAxis::atLeft));
        line->point1->setAxisRect(r);
        line->point2->setAxisRect(r);
        line->setPen(QPen(kScrubColor, 1.5, Qt::DashLine));
        m_scrubLines.push_back(line);
    }
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    m_slider->setObjectName(QStringLiteral("timeScrubber"));
    m_slider->setRange(0, kSliderSteps);
    m_slider->setToolTip(tr("Time scrubber: moves the heatmap's time too"));
    m_timeLabel->setObjectName(QStringLiteral("scrubberTime"));
    m_timeLabel->setMinimumWidth(m_timeLabel->fontMetrics().horizontalAdvance(
        QStringLiteral("t = 00d 00:00:00")));
    m_summary->setObjectName(QStringLiteral("timelineSummary"));
    m_summary->setWordWrap(true);
    // Charts to show: in a short dock the user keeps the ones they need on screen.
    auto *chartsButton = new QToolButton(this);
    chartsButton->setObjectName(QStringLiteral("timelineCharts"));
    chartsButton->setText(tr("Charts"));
    chartsButton->setToolTip(tr("Choose the charts shown: hide some to give the others room"));
    chartsButton->setPopupMode(QToolButton::InstantPopup);
    auto *chartsMenu = new QMenu(chartsButton);
    const QStringList saved =
        QSettings()
            .value(kShownKey, QStringList(kChartKeys.begin(), kChartKeys.end()))
            .toStringList();
    for (int c = 0; c < kChartCount; ++c) {
        const auto chart = Chart(c);
        QAction *action = chartsMenu->addAction(chart == Chart::Jobs  ? tr("Jobs on nodes")
                                                : chart == Chart::Use ? tr("GPUs busy and power")
                                                                      : tr("Cost"));
        action->setCheckable(true);
        m_shown[std::size_t(c)] = saved.contains(kChartKeys[std::size_t(c)]);
        connect(action, &QAction::toggled, this,
                [this, chart](bool on) { setChartShown(chart, on); });
        m_chartActions[std::size_t(c)] = action;
    }
    if (std::none_of(m_shown.begin(), m_shown.end(), [](bool b) { return b; }))
        m_shown.fill(true); // (settings from elsewhere: never an empty dock)
    chartsButton->setMenu(chartsMenu);
    auto *exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Save the timelines as PNG, PDF or SVG"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Time:"), this));
    bar->addWidget(m_slider, 1);
    bar->addWidget(m_timeLabel);
    bar->addWidget(chartsButton);
    bar->addWidget(exportButton);
    // The charts keep their readable heights; in a short dock they scroll.
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("timelineScroll"));
    m_scroll->setWidget(m_plot);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_scroll, 1);
    layout->addLayout(bar);

    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        if (!m_session || !m_session->result)
            return;
        setTime(m_session->result->makespanSeconds * v / kSliderSteps);
    });
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        if (e->button() != Qt::LeftButton || !(e->modifiers() & Qt::ShiftModifier))
            return;
        // Shift-click moves the scrubber; plain drags pan.
        // (the charts share the time axis and its margins: any shown one converts)
        for (int c = 0; c < kChartCount; ++c)
            if (m_shown[std::size_t(c)]) {
                setTime(chartRect(Chart(c))->axis(QCPAxis::atBottom)->pixelToCoord(e->pos().x()));
                break;
            }
    });
    connect(m_plot, &QCustomPlot::mouseMove, this, &RunTimeline::showToolTip);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &RunTimeline::showWholeRun);
    m_plot->installEventFilter(this);
    for (QCPAxis *axis : {m_ganttRect->axis(QCPAxis::atBottom), m_ganttRect->axis(QCPAxis::atLeft)})
        connect(axis, qOverload<const QCPRange &>(&QCPAxis::rangeChanged), this,
                &RunTimeline::keepInRun);
    connect(exportButton, &QToolButton::clicked, this, &RunTimeline::exportWithDialog);
    layOutCharts();
    rebuild();
}

QCPAxisRect *RunTimeline::chartRect(Chart chart) const
{
    return chart == Chart::Jobs ? m_ganttRect : chart == Chart::Use ? m_useRect : m_costRect;
}

void RunTimeline::setChartShown(Chart chart, bool shown)
{
    const auto c = std::size_t(chart);
    const int showing = int(std::count(m_shown.begin(), m_shown.end(), true));
    if (m_shown[c] != shown && (shown || showing > 1)) {
        m_shown[c] = shown;
        QStringList keys;
        for (std::size_t i = 0; i < m_shown.size(); ++i)
            if (m_shown[i])
                keys << kChartKeys[i];
        QSettings().setValue(kShownKey, keys);
        layOutCharts();
    } else {
        layOutCharts(); // (the menu's check marks follow what is shown)
    }
}

void RunTimeline::layOutCharts()
{
    static constexpr std::array<double, kChartCount> kStretch{3.2, 1.5, 1.1};
    QCPLayoutGrid *grid = m_plot->plotLayout();
    for (int i = grid->elementCount() - 1; i >= 0; --i)
        grid->takeAt(i);
    grid->simplify();
    int row = 0;
    QCPAxisRect *lowest = nullptr;
    for (int c = 0; c < kChartCount; ++c) {
        QCPAxisRect *rect = chartRect(Chart(c));
        const bool shown = m_shown[std::size_t(c)];
        rect->setVisible(shown);
        rect->axis(QCPAxis::atBottom)->setLabel(QString());
        if (QAction *action = m_chartActions[std::size_t(c)]) {
            const QSignalBlocker block(action);
            action->setChecked(shown);
            // The last chart shown stays: its entry cannot be unchecked.
            action->setEnabled(!shown || std::count(m_shown.begin(), m_shown.end(), true) > 1);
        }
        if (!shown)
            continue;
        grid->addElement(row, 0, rect);
        grid->setRowStretchFactor(row, kStretch[std::size_t(c)]);
        ++row;
        lowest = rect;
    }
    m_timeAxis = lowest->axis(QCPAxis::atBottom);
    m_timeAxis->setLabel(tr("simulated time (%1)").arg(durationFormatName(m_endSeconds)));
    // What is drawn on a hidden chart goes with it (it would be clipped to a stale rect).
    m_gantt->setVisible(isChartShown(Chart::Jobs));
    for (QCPGraph *g : {m_util, m_stranded, m_power})
        g->setVisible(isChartShown(Chart::Use));
    m_cost->setVisible(isChartShown(Chart::Cost));
    updateScrubber();
    m_plot->updateGeometry(); // the minimum height changed: the scroll area follows
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

RunTimeline::~RunTimeline() = default;

bool RunTimeline::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_plot && event->type() == QEvent::Wheel &&
        !(static_cast<QWheelEvent *>(event)->modifiers() & Qt::ControlModifier)) {
        QCoreApplication::sendEvent(m_scroll->viewport(), event);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

namespace {

/// `range` moved inside [lo, hi], its size kept where it fits, else the whole of [lo, hi].
QCPRange clampedRange(QCPRange range, double lo, double hi)
{
    if (!(range.size() < hi - lo))
        return QCPRange(lo, hi);
    if (range.lower < lo)
        return QCPRange(lo, lo + range.size());
    if (range.upper > hi)
        return QCPRange(hi - range.size(), hi);
    return range;
}

} // namespace

void RunTimeline::keepInRun()
{
    QCPAxis *time = m_ganttRect->axis(QCPAxis::atBottom);
    const QCPRange t = clampedRange(time->range(), 0, m_endSeconds);
    if (t != time->range())
        time->setRange(t); // (the other charts follow it)
    QCPAxis *rows = m_ganttRect->axis(QCPAxis::atLeft);
    const double last = std::max(0.5, double(m_rowNodes.size()) - 0.5);
    const QCPRange r = clampedRange(rows->range(), -0.5, last);
    if (r != rows->range())
        rows->setRange(r);
}

void RunTimeline::showWholeRun()
{
    m_ganttRect->axis(QCPAxis::atBottom)->setRange(0, m_endSeconds);
    m_ganttRect->axis(QCPAxis::atLeft)
        ->setRange(-0.5, std::max(0.5, double(m_rowNodes.size()) - 0.5));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RunTimeline::setSession(std::shared_ptr<const RunSession> session)
{
    m_session = std::move(session);
    m_time = 0;
    rebuild();
}

void RunTimeline::rebuild()
{
    m_bars.clear();
    m_rowNodes.clear();
    m_series = {};
    const bool simulated = m_session && m_session->result;
    m_slider->setEnabled(simulated);
    if (!simulated) {
        m_gantt->setBars({}, {}, {}, {});
        // No rows: the names of the last run's nodes (perhaps of another cluster) go too.
        m_ganttRect->axis(QCPAxis::atLeft)->setTicker(QSharedPointer<NamedTicker>::create());
        m_util->data()->clear();
        m_stranded->data()->clear();
        m_power->data()->clear();
        m_cost->data()->clear();
        m_summary->setText(m_session ? tr("%1 was placed but not simulated: run it with "
                                          "\"Also simulate\" to see timelines.")
                                           .arg(m_session->label)
                                     : tr("No run yet: Run > Place and Simulate"));
        m_nodeRow.clear();
        m_endSeconds = 3600; // (an empty hour)
        for (QCPAxisRect *r : {m_ganttRect, m_useRect, m_costRect})
            r->axis(QCPAxis::atBottom)->setRange(0, 3600);
        updateScrubber();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const Scenario &s = m_session->scenario;
    const RunResult &r = *m_session->result;
    m_bars = ganttBars(s, r);
    m_series = timelineSeries(s, r);

    // Rows: nodes that ran something, in cluster order.
    std::vector<char> used(s.cluster.nodes.size(), 0);
    for (const GanttBar &b : m_bars)
        used[std::size_t(b.node)] = 1;
    m_nodeRow.assign(s.cluster.nodes.size(), -1);
    std::vector<int> gpus(s.cluster.nodes.size(), 0);
    for (std::size_t n = 0; n < s.cluster.nodes.size(); ++n) {
        gpus[n] = s.cluster.nodes[n].gpus;
        if (used[n]) {
            m_nodeRow[n] = int(m_rowNodes.size());
            m_rowNodes.push_back(int(n));
        }
    }
    std::vector<QColor> colors;
    for (std::size_t j = 0; j < r.jobs.size(); ++j)
        colors.push_back(jobColor(int(j)));
    m_gantt->setBars(m_bars, m_nodeRow, gpus, colors);
    QCPAxis *rows = m_ganttRect->axis(QCPAxis::atLeft);
    QStringList rowNames;
    for (int n : m_rowNodes)
        rowNames << QString::fromStdString(s.cluster.nodes[std::size_t(n)].id);
    // Every node with a task has a row; the names thin out when the rows get close.
    rows->setTicker(QSharedPointer<NamedTicker>::create(rowNames));
    rows->setLabel(QString());
    rows->setRange(-0.5, double(m_rowNodes.size()) - 0.5);

    const double bh = m_series.bucketSeconds;
    QVector<double> keys, util, power, cost, stranded;
    const bool hasStranded = !m_series.strandedShare.empty();
    for (int k = 0; k < m_series.buckets(); ++k) {
        keys << k * bh;
        util << m_series.gpuUtilisation[std::size_t(k)] * 100;
        if (hasStranded)
            stranded << m_series.strandedShare[std::size_t(k)] * 100;
        power << m_series.powerWatts[std::size_t(k)];
        cost << m_series.cost[std::size_t(k)];
    }
    // The step line needs the end of the last bucket too; the cost starts at zero.
    if (!keys.isEmpty()) {
        keys << m_series.buckets() * bh;
        util << util.last();
        power << power.last();
        if (hasStranded)
            stranded << stranded.last();
    }
    QVector<double> costKeys{0};
    QVector<double> costValues{0};
    for (int k = 0; k < m_series.buckets(); ++k) {
        costKeys << std::min((k + 1) * m_series.bucketSeconds, r.makespanSeconds);
        costValues << cost[k];
    }
    m_util->setData(keys, util, true);
    if (hasStranded)
        m_stranded->setData(keys, stranded, true);
    else
        m_stranded->data()->clear();
    m_useRect->axis(QCPAxis::atLeft)->setLabel(hasStranded ? tr("busy, stranded (%)")
                                                           : tr("GPUs busy (%)"));
    m_power->setData(keys, power, true);
    m_cost->setData(costKeys, costValues, true);
    const QString currency = QString::fromStdString(s.settings.currency);
    m_costRect->axis(QCPAxis::atLeft)->setLabel(
        (r.costModel == CostModel::Energy     ? tr("energy cost (%1)")
         : r.costModel == CostModel::GpuHours ? tr("GPU-hour cost (%1)")
                                              : tr("GPU cost, price list (%1)"))
            .arg(currency));
    m_useRect->axis(QCPAxis::atLeft)->setRange(0, 105);
    bool found = false;
    QCPRange pr = m_power->getValueRange(found);
    m_useRect->axis(QCPAxis::atRight)->setRange(0, found && pr.upper > 0 ? pr.upper * 1.1 : 1);
    QCPRange cr = m_cost->getValueRange(found);
    m_costRect->axis(QCPAxis::atLeft)->setRange(0, found && cr.upper > 0 ? cr.upper * 1.1 : 1);
    m_endSeconds = std::max(r.makespanSeconds, 1e-6);
    for (QCPAxisRect *a : {m_ganttRect, m_useRect, m_costRect})
        a->axis(QCPAxis::atBottom)->setRange(0, m_endSeconds);
    if (m_timeAxis)
        m_timeAxis->setLabel(tr("simulated time (%1)").arg(durationFormatName(m_endSeconds)));

    QString text =
        tr("%1: %2 of %3 jobs finished, makespan %4, mean JCT %5, energy %6, "
           "cost %7")
            .arg(m_session->label)
            .arg(r.finishedJobs())
            .arg(r.jobs.size())
            // (each value on one line when the header wraps: not "4d" / "5:32:10")
            .arg(unbroken(formatDuration(r.makespanSeconds)),
                 unbroken(formatDuration(r.meanJctSeconds())), unbroken(formatEnergy(r.energyKWh)),
                 unbroken(formatMoney(r.cost, currency)));
    // A queue of jobs that take no time says nothing about the policies: say so.
    if (r.finishedJobs() > 0 && r.meanJctSeconds() < 1)
        text += QLatin1Char('\n') + tr("Warning: the jobs finish in under a second on average; "
                                       "check their iterations and step times.");
    m_summary->setText(text);
    updateScrubber();
    m_plot->updateGeometry(); // the charts' minimum heights changed: the scroll area follows
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void RunTimeline::setTime(double seconds)
{
    const double end = m_session && m_session->result ? m_session->result->makespanSeconds : 0;
    seconds = std::clamp(seconds, 0.0, std::max(end, 0.0));
    if (seconds == m_time)
        return;
    m_time = seconds;
    updateScrubber();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    emit timeChanged(m_time);
}

void RunTimeline::updateScrubber()
{
    const double x = m_time;
    for (std::size_t c = 0; c < m_scrubLines.size(); ++c) {
        QCPItemStraightLine *line = m_scrubLines[c];
        line->point1->setCoords(x, 0);
        line->point2->setCoords(x, 1);
        line->setVisible(m_session && m_session->result && m_shown[c]);
    }
    const double end = m_session && m_session->result ? m_session->result->makespanSeconds : 0;
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(end > 0 ? int(std::lround(m_time / end * kSliderSteps)) : 0);
    }
    m_timeLabel->setText(tr("t = %1").arg(formatDuration(m_time)));
}

QString RunTimeline::toolTipAt(const QPoint &pos) const
{
    if (!m_session || !m_session->result)
        return {};
    const RunResult &r = *m_session->result;
    if (isChartShown(Chart::Jobs) && m_ganttRect->rect().contains(pos)) {
        const int i = m_gantt->barAt(pos);
        if (i < 0)
            return {};
        const GanttBar &b = m_bars[std::size_t(i)];
        const JobRun &jr = r.jobs[std::size_t(b.job)];
        QString gpus;
        for (int g : b.gpus)
            gpus += (gpus.isEmpty() ? QString() : QStringLiteral(", ")) + QString::number(g);
        // A stochastic run's job runs on one configuration per segment: name it and say
        // which of the job's configurations this is.
        const QString config =
            b.config.empty()
                ? QString()
                : tr(" (%1, configuration %2 of %3)")
                      .arg(QString::fromStdString(b.config))
                      .arg(b.segment + 1)
                      .arg(jr.segments.size());
        return tr("%1 on %2%3%8\n%4 – %5 (%6)%7")
            .arg(QString::fromStdString(jr.id),
                 QString::fromStdString(m_session->scenario.cluster.nodes[std::size_t(b.node)].id),
                 gpus.isEmpty() ? tr(", no GPU") : tr(", GPU %1").arg(gpus),
                 formatDuration(b.start), formatDuration(b.end),
                 formatDuration(b.end - b.start),
                 b.finished ? QString() : tr("\nstill running at the end of the run"), config);
    }
    for (QCPAxisRect *rect : {m_useRect, m_costRect})
        if (rect->visible() && rect->rect().contains(pos) && m_series.buckets() > 0) {
            const double t = rect->axis(QCPAxis::atBottom)->pixelToCoord(pos.x());
            const int k = std::clamp(int(t / m_series.bucketSeconds), 0, m_series.buckets() - 1);
            const QString stranded =
                m_series.strandedShare.empty()
                    ? QString()
                    : tr("\nGPUs stranded %1 (free, enough for a waiting task, its job not "
                         "admitted)")
                          .arg(formatPercent(m_series.strandedShare[std::size_t(k)]));
            return tr("%1 – %2\nGPUs busy %3, power %4\ncost so far %5, energy %6%7")
                .arg(formatDuration(k * m_series.bucketSeconds),
                     formatDuration((k + 1) * m_series.bucketSeconds),
                     formatPercent(m_series.gpuUtilisation[std::size_t(k)]),
                     formatPower(m_series.powerWatts[std::size_t(k)]),
                     formatMoney(m_series.cost[std::size_t(k)],
                                 QString::fromStdString(m_session->scenario.settings.currency)),
                     formatEnergy(m_series.energyKWh[std::size_t(k)]), stranded);
        }
    return {};
}

void RunTimeline::showToolTip(QMouseEvent *event)
{
    const QString text = toolTipAt(event->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void RunTimeline::exportWithDialog()
{
    exportPlotWithDialog(m_plot, this, QStringLiteral("run-timeline.png"));
}

} // namespace cb::views
