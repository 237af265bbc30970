#include "analysis/traffic_heatmap.h"

#include "analysis/named_ticker.h"
#include "analysis/sts_session.h"
#include "runs/decision_replay.h"
#include "runs/run_service.h"
#include "analysis/plot_export.h"
#include "analysis/plot_ticks.h"
#include "analysis/readable_ticker.h"
#include "models/quantity_format.h"
#include "sched/traffic.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cb::views {

namespace {

/// Cells per side beyond which neighbouring cells are pooled (block maximum) for drawing:
/// a screen cannot show more, and single hot cells must not vanish in the image scaling.
/// Fewer when the plot has fewer pixels: a block is then at least a pixel (512 racks in a
/// laptop's 170-pixel dock had shown a few specks of a full matrix).
constexpr int kMaxMapSide = 256;

/// Cells per drawn block for `cells` cells on an axis `pixels` long (0: not laid out yet).
int poolFor(int cells, int pixels)
{
    const int side = pixels >= 16 ? std::min(kMaxMapSide, pixels) : kMaxMapSide;
    return std::max(1, (cells + side - 1) / side);
}
/// Plot height below which node names under the map are written level, not slanted.
constexpr int kSlantedNamesHeight = 300;

QCPColorGradient heatGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    // The least traffic is a visible yellow and none is left blank (the plot's white): a
    // near-white lowest colour made the first small flows look like none.
    g.setColorStopAt(0.0, QColor(0xff, 0xee, 0xa8));
    g.setColorStopAt(0.25, QColor(0xff, 0xe0, 0x82));
    g.setColorStopAt(0.5, QColor(0xff, 0x98, 0x00));
    g.setColorStopAt(0.75, QColor(0xd8, 0x43, 0x15));
    g.setColorStopAt(1.0, QColor(0x4a, 0x14, 0x8c));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    g.setLevelCount(350);
    return g;
}

} // namespace

QString formatBytesExact(double bytes)
{
    const QString shortForm = formatByteAmount(bytes);
    if (std::abs(bytes) < 1000)
        return shortForm;
    QLocale c(QLocale::English);
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return QStringLiteral("%1 (%2 bytes)").arg(shortForm, c.toString(bytes, 'f', 0));
}

TrafficHeatmap::TrafficHeatmap(QWidget *parent)
    : QWidget(parent)
    , m_plot(new QCustomPlot(this))
    , m_sourceBox(new QComboBox(this))
    , m_logBox(new QCheckBox(tr("&Log scale"), this))
    , m_cellsBox(new QComboBox(this))
    , m_summary(new QLabel(this))
{
    setObjectName(QStringLiteral("trafficHeatmap"));
    m_plot->setObjectName(QStringLiteral("heatmapPlot"));
    m_plot->setMinimumSize(200, 150);
    m_map = new QCPColorMap(m_plot->xAxis, m_plot->yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_scale = new QCPColorScale(m_plot);
    m_plot->plotLayout()->addElement(0, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_map->setColorScale(m_scale);
    m_map->setGradient(heatGradient());
    auto *margins = new QCPMarginGroup(m_plot);
    m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, margins);
    m_plot->yAxis->setRangeReversed(true);
    keepTicksReadable(m_plot);
    ignoreEmptyResizes(m_plot);
    m_timeLine = new QCPItemStraightLine(m_plot);
    m_timeLine->setPen(QPen(QColor(0x15, 0x65, 0xc0), 2, Qt::DashLine));
    m_timeLine->setVisible(false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    m_sourceBox->setObjectName(QStringLiteral("heatmapSource"));
    // The choices are long sentences: do not let them set the dock's minimum width.
    m_sourceBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_sourceBox->setMinimumContentsLength(22);
    m_logBox->setObjectName(QStringLiteral("heatmapLog"));
    m_cellsBox->setObjectName(QStringLiteral("heatmapCells"));
    auto *exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Save the heatmap as PNG, PDF or SVG"));
    m_summary->setObjectName(QStringLiteral("heatmapSummary"));
    m_summary->setWordWrap(true); // (a narrow dock cut it at its edge)

    // The source on one line, the display options on another beside it when the dock is
    // wide enough, else under it (a laptop's bottom row), so the controls never set the
    // dock's minimum width to their sum.
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(new QLabel(tr("Show:"), this));
    sourceRow->addWidget(m_sourceBox, 1);
    auto *optionRow = new QHBoxLayout;
    optionRow->addWidget(m_logBox);
    optionRow->addWidget(m_cellsBox);
    optionRow->addStretch(0);
    optionRow->addWidget(exportButton);
    m_bar = new QBoxLayout(QBoxLayout::LeftToRight);
    m_bar->setContentsMargins(0, 0, 0, 0);
    m_bar->addLayout(sourceRow, 1);
    m_bar->addLayout(optionRow);
    m_sourceRow = sourceRow;
    m_optionRow = optionRow;
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(m_bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_plot, 1);

    connect(m_sourceBox, &QComboBox::activated, this, [this](int i) {
        setSource(Source(m_sourceBox->itemData(i).toInt()));
    });
    connect(m_logBox, &QCheckBox::toggled, this, &TrafficHeatmap::setLogScale);
    connect(m_cellsBox, &QComboBox::activated, this, [this](int i) {
        setCells(Cells(m_cellsBox->itemData(i).toInt()));
    });
    connect(exportButton, &QToolButton::clicked, this, &TrafficHeatmap::exportWithDialog);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TrafficHeatmap::showToolTip);
    // A resize that changes how many cells a pixel must show pools them again (once the
    // layout is done: not inside the replot that laid it out).
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] {
        const QRect area = m_plot->axisRect()->rect();
        if (m_repoolQueued || m_nx == 0 ||
            (poolFor(m_nx, area.width()) == m_poolX && poolFor(m_ny, area.height()) == m_poolY))
            return;
        m_repoolQueued = true;
        QTimer::singleShot(0, this, [this] {
            m_repoolQueued = false;
            rebuild();
        });
    });
    updateSourceChoices();
    rebuild();
    fitControls();
}

TrafficHeatmap::~TrafficHeatmap() = default;

void TrafficHeatmap::fitControls()
{
    // The narrowest the heatmap goes is the controls on two lines (a layout's own minimum
    // would be the one line it has now); resizeEvent() chooses the lines for the width.
    const int narrow =
        std::max(m_sourceRow->minimumSize().width(), m_optionRow->minimumSize().width());
    const QMargins margins = layout()->contentsMargins();
    setMinimumWidth(std::max(narrow, m_plot->minimumWidth()) + margins.left() + margins.right());
}

void TrafficHeatmap::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitControls();
}

void TrafficHeatmap::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // The controls on one line when it holds them all at their preferred widths.
    int oneLine = m_bar->spacing();
    for (int i = 0; i < m_bar->count(); ++i)
        oneLine += m_bar->itemAt(i)->sizeHint().width();
    const QMargins margins = layout()->contentsMargins();
    const auto direction = width() - margins.left() - margins.right() >= oneLine
                               ? QBoxLayout::LeftToRight
                               : QBoxLayout::TopToBottom;
    if (m_bar->direction() != direction)
        m_bar->setDirection(direction);
    // Node names under the map: level in a short plot, slanted in a tall one.
    if (!m_plot->xAxis->ticker().dynamicCast<NamedTicker>())
        return;
    const double rotation = m_plot->height() < kSlantedNamesHeight ? 0 : 60;
    if (m_plot->xAxis->tickLabelRotation() != rotation) {
        m_plot->xAxis->setTickLabelRotation(rotation);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TrafficHeatmap::updateSourceChoices()
{
    const QSignalBlocker block(m_sourceBox);
    m_sourceBox->clear();
    // Short names that a laptop's dock shows whole; what each is, in its tooltip.
    auto add = [this](const QString &name, const QString &tip, Source source) {
        m_sourceBox->addItem(name, int(source));
        m_sourceBox->setItemData(m_sourceBox->count() - 1, tip, Qt::ToolTipRole);
    };
    if (m_session && m_session->sts)
        add(tr("Configurations at the scrubber"),
            tr("Traffic of the jobs' configurations at the scrubber's time, bytes per iteration"),
            Source::Decision);
    else
        add(tr("Placement at the decision"),
            tr("Traffic of the placement as it stands at the decision, bytes per iteration"),
            Source::Decision);
    const bool simulated = m_session && m_session->result;
    if (simulated) {
        add(tr("Simulated: bucket at the scrubber"),
            tr("Simulated bytes between node pairs in the time bucket at the scrubber"),
            Source::Bucket);
        add(tr("Simulated: up to the scrubber"),
            tr("Simulated bytes between node pairs, cumulative from the start to the scrubber"),
            Source::Cumulative);
        add(tr("Link utilisation over time"),
            tr("Each link's simulated utilisation, bucket by bucket"), Source::Links);
    } else {
        add(tr("Bytes per link at the decision"),
            tr("Bytes each link carries per iteration with the placement at the decision"),
            Source::Links);
    }
    if (!simulated && (m_source == Source::Bucket || m_source == Source::Cumulative))
        m_source = Source::Decision;
    m_sourceBox->setCurrentIndex(m_sourceBox->findData(int(m_source)));
}

void TrafficHeatmap::setSession(std::shared_ptr<const RunSession> session,
                                const DecisionReplay *replay)
{
    m_session = std::move(session);
    m_replay = m_session ? replay : nullptr;
    m_time = 0;
    m_pods = {};
    m_racksOfPod.clear();
    m_podOfRack.clear();
    if (m_session) {
        const cb::Cluster &cluster = m_session->scenario.cluster;
        const cb::NodeGroups racks = m_replay ? m_replay->groups() : groupNodesByRack(cluster);
        // (a stochastic run has no replay, and so no topology built yet)
        m_pods = m_replay ? groupNodesByPod(m_replay->topology(), racks)
                          : groupNodesByPod(cb::Topology(cluster), racks);
        m_racksOfPod.resize(std::size_t(m_pods.count()));
        m_podOfRack.assign(std::size_t(racks.count()), -1);
        for (std::size_t n = 0; n < cluster.nodes.size() && m_pods.count() > 0; ++n) {
            const auto rack = std::size_t(racks.groupOf[n]);
            if (m_podOfRack[rack] < 0) {
                m_podOfRack[rack] = m_pods.groupOf[n];
                m_racksOfPod[std::size_t(m_pods.groupOf[n])].push_back(int(rack));
            }
        }
        for (std::vector<int> &members : m_racksOfPod)
            std::sort(members.begin(), members.end());
    }
    updateSourceChoices();
    rebuild();
}

void TrafficHeatmap::setSource(Source source)
{
    if (source == m_source)
        return;
    m_source = source;
    updateSourceChoices();
    rebuild();
}

void TrafficHeatmap::setLogScale(bool on)
{
    if (on == m_log)
        return;
    m_log = on;
    {
        const QSignalBlocker block(m_logBox);
        m_logBox->setChecked(on);
    }
    const QCPAxis::ScaleType type = on ? QCPAxis::stLogarithmic : QCPAxis::stLinear;
    m_map->setDataScaleType(type);
    m_scale->setDataScaleType(type);
    updateScaleAxis();
    // Zero cells have no logarithm: blank in log scale, the lowest colour in linear scale.
    refreshMap();
    finish();
}

void TrafficHeatmap::setCells(Cells cells)
{
    const bool first = !m_cellsChosen;
    m_cellsChosen = true;
    if (cells == m_cells && !first)
        return;
    m_cells = cells;
    rebuild(); // (sets the box)
}

int TrafficHeatmap::bucket() const
{
    if (!m_session || !m_session->result)
        return -1;
    const RunSeries &s = m_session->result->series;
    const int n = int(std::max(s.pairBytes.size(), s.linkBytes.size()));
    if (n == 0 || s.bucketSeconds <= 0)
        return -1;
    return std::clamp(int(std::floor(m_time / s.bucketSeconds)), 0, n - 1);
}

double TrafficHeatmap::value(int column, int row) const
{
    if (column < 0 || row < 0 || column >= m_nx || row >= m_ny)
        return 0;
    return m_values[std::size_t(row) * std::size_t(m_nx) + std::size_t(column)];
}

void TrafficHeatmap::refreshBlock(int bx, int by)
{
    double v = 0;
    const int x1 = std::min(m_nx, (bx + 1) * m_poolX), y1 = std::min(m_ny, (by + 1) * m_poolY);
    for (int y = by * m_poolY; y < y1; ++y) {
        const double *row = m_values.data() + std::size_t(y) * std::size_t(m_nx);
        for (int x = bx * m_poolX; x < x1; ++x)
            v = std::max(v, row[x]);
    }
    m_map->data()->setCell(bx, by, v <= 0 ? std::numeric_limits<double>::quiet_NaN() : v);
}

void TrafficHeatmap::refreshMap()
{
    const int mx = (m_nx + m_poolX - 1) / m_poolX, my = (m_ny + m_poolY - 1) / m_poolY;
    for (int by = 0; by < my; ++by)
        for (int bx = 0; bx < mx; ++bx)
            refreshBlock(bx, by);
}

void TrafficHeatmap::rebuild()
{
    m_nx = m_ny = 0;
    m_linkRows.clear();
    const int nodes = m_session ? int(m_session->scenario.cluster.nodes.size()) : 0;
    const bool nodeSources = m_source != Source::Links;
    m_shown = m_cells;
    if (m_shown == Cells::Pod && m_pods.count() == 0)
        m_shown = Cells::Rack;
    if (m_shown == Cells::Node &&
        (nodes > kAggregateAbove || (!m_cellsChosen && nodes > kNodeCellsByDefault)))
        m_shown = Cells::Rack;
    m_grouped = nodeSources && nodes > 0 && m_shown != Cells::Node;
    m_groups = !m_grouped              ? cb::NodeGroups{}
               : m_shown == Cells::Pod ? m_pods
               : m_replay              ? m_replay->groups()
                                       : groupNodesByRack(m_session->scenario.cluster);
    {
        // The choices this cluster has; the box shows what is drawn.
        const QSignalBlocker block(m_cellsBox);
        m_cellsBox->clear();
        if (nodes <= kAggregateAbove)
            m_cellsBox->addItem(tr("Per node"), int(Cells::Node));
        m_cellsBox->addItem(tr("Per rack"), int(Cells::Rack));
        if (m_pods.count() > 0)
            m_cellsBox->addItem(tr("Per pod"), int(Cells::Pod));
        m_cellsBox->setCurrentIndex(m_cellsBox->findData(int(m_shown)));
        m_cellsBox->setEnabled(nodeSources && nodes > 0);
        m_cellsBox->setToolTip(
            !nodeSources
                ? tr("The link view has a row per link")
                : tr("What a cell sums: a node, a rack or a pod (the racks under one set of "
                     "aggregation switches) on each side%1")
                      .arg(nodes > kAggregateAbove
                               ? tr("; clusters of more than %1 nodes have no cell per node")
                                     .arg(QLocale().toString(kAggregateAbove))
                               : QString()));
    }
    if (m_session) {
        switch (m_source) {
        case Source::Decision:
        case Source::Bucket:
        case Source::Cumulative:
            m_nx = m_ny = m_grouped ? m_groups.count() : nodes;
            break;
        case Source::Links: {
            const int links = 2 * int(m_session->scenario.cluster.links.size());
            if (m_session->result) {
                for (int l = 0; l < links && l < int(m_session->result->linkBytes.size()); ++l)
                    if (m_session->result->linkBytes[std::size_t(l)] > 0)
                        m_linkRows.push_back(l);
                m_nx = int(m_session->result->series.linkBytes.size());
            } else {
                // Every link any task's traffic may cross at some decision: the final state
                // is not enough (rollbacks), so take all links; rows stay fixed while stepping.
                for (int l = 0; l < links; ++l)
                    m_linkRows.push_back(l);
                m_nx = 1;
            }
            m_ny = int(m_linkRows.size());
            break;
        }
        }
    }
    m_values.assign(std::size_t(m_nx) * std::size_t(m_ny), 0.0);
    m_decisionSpan = decisionSpan();
    const QRect area = m_plot->axisRect()->rect();
    m_poolX = poolFor(m_nx, area.width());
    m_poolY = poolFor(m_ny, area.height());
    m_map->data()->setSize(std::max((m_nx + m_poolX - 1) / m_poolX, 1),
                           std::max((m_ny + m_poolY - 1) / m_poolY, 1));
    m_map->data()->fill(std::numeric_limits<double>::quiet_NaN());
    m_map->setVisible(m_nx > 0 && m_ny > 0);
    updateAxes();
    if (m_session && m_nx > 0 && m_ny > 0) {
        switch (m_source) {
        case Source::Decision: fillDecision(); break;
        case Source::Bucket: fillPairs(false); break;
        case Source::Cumulative: fillPairs(true); break;
        case Source::Links: fillLinks(); break;
        }
        refreshMap();
    }
    finish();
}

void TrafficHeatmap::updateAxes()
{
    const bool links = m_source == Source::Links;
    QStringList xNames, yNames;
    if (m_session && !links && m_grouped) {
        for (const std::string &g : m_groups.names)
            yNames << QString::fromStdString(g);
        xNames = yNames;
    } else if (m_session && !links) {
        for (const Node &n : m_session->scenario.cluster.nodes)
            yNames << QString::fromStdString(n.id);
        xNames = yNames;
    } else if (m_session) {
        for (int l : m_linkRows)
            yNames << QString::fromStdString(directedLinkName(m_session->scenario.cluster, l));
    }
    const double bucketSeconds =
        m_session && m_session->result ? m_session->result->series.bucketSeconds : 3600;
    // Block b of `pool` cells is drawn centred on its cells: (b * pool + (pool - 1) / 2).
    const int mx = std::max(1, (m_nx + m_poolX - 1) / m_poolX);
    const int my = std::max(1, (m_ny + m_poolY - 1) / m_poolY);
    const double cy0 = (m_poolY - 1) / 2.0, cy1 = (my - 1) * m_poolY + cy0;
    const QCPRange valueRange = my > 1 ? QCPRange(cy0, cy1) : QCPRange(0, 1);
    if (links && m_session && m_session->result) {
        const double cx0 = m_poolX / 2.0, cx1 = (mx - 1) * m_poolX + m_poolX / 2.0;
        m_map->data()->setRange(mx > 1 ? QCPRange(cx0 * bucketSeconds, cx1 * bucketSeconds)
                                       : QCPRange(0, bucketSeconds),
                                valueRange);
        m_plot->xAxis->setTicker(
            QSharedPointer<ReadableTicker>::create(ReadableTicker::Steps::Duration));
        m_plot->xAxis->setTickLabelRotation(0);
        m_plot->xAxis->setLabel(
            tr("simulated time (%1)").arg(durationFormatName(std::max(m_nx, 1) * bucketSeconds)));
        m_plot->xAxis->setRange(0, std::max(m_nx, 1) * bucketSeconds);
    } else if (links) {
        m_map->data()->setRange(QCPRange(0, 1), valueRange);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerText));
        m_plot->xAxis->setTickLabelRotation(0);
        m_plot->xAxis->setLabel(tr("bytes per iteration at the decision"));
        m_plot->xAxis->setRange(-0.5, 1.5);
    } else {
        const double cx0 = (m_poolX - 1) / 2.0, cx1 = (mx - 1) * m_poolX + cx0;
        m_map->data()->setRange(mx > 1 ? QCPRange(cx0, cx1) : QCPRange(0, 1), valueRange);
        m_plot->xAxis->setTicker(QSharedPointer<NamedTicker>::create(xNames));
        // Slanted names fit more columns but take height: a short plot (a laptop's bottom
        // row) writes them level, thinned to what fits.
        m_plot->xAxis->setTickLabelRotation(m_plot->height() < kSlantedNamesHeight ? 0 : 60);
        m_plot->xAxis->setLabel(!m_grouped              ? tr("destination node")
                                : m_shown == Cells::Pod ? tr("destination pod")
                                : m_groups.allRacks     ? tr("destination rack")
                                                        : tr("destination rack or node group"));
        m_plot->xAxis->setRange(-0.5, m_nx - 0.5);
    }
    m_plot->yAxis->setTicker(QSharedPointer<NamedTicker>::create(yNames));
    m_plot->yAxis->setLabel(links                   ? tr("directed link")
                            : !m_grouped            ? tr("source node")
                            : m_shown == Cells::Pod ? tr("source pod")
                            : m_groups.allRacks     ? tr("source rack")
                                                    : tr("source rack or node group"));
    m_plot->yAxis->setRange(-0.5, m_ny - 0.5);
    QFont small = m_plot->xAxis->tickLabelFont();
    small.setPointSizeF(std::max(7.0, font().pointSizeF() - 1.5));
    m_plot->xAxis->setTickLabelFont(small);
    m_plot->yAxis->setTickLabelFont(small);
    const bool simulatedLinks = links && m_session && m_session->result;
    updateScaleAxis();
    m_timeLine->setVisible(simulatedLinks);
    if (simulatedLinks) {
        m_timeLine->point1->setCoords(m_time, 0);
        m_timeLine->point2->setCoords(m_time, 1);
    }
}

void TrafficHeatmap::updateScaleAxis()
{
    const bool simulatedLinks = m_source == Source::Links && m_session && m_session->result;
    // The colour bar's ticks carry the unit (2 GB, 45 %), so the header only says what.
    m_scale->axis()->setLabel(simulatedLinks ? tr("utilisation of capacity")
                              : m_source == Source::Decision || m_source == Source::Links
                                  ? tr("traffic per iteration")
                              : m_source == Source::Bucket ? tr("traffic in the bucket")
                                                           : tr("traffic up to the bucket"));
    const auto steps = m_log ? ReadableTicker::Steps::Logarithmic : ReadableTicker::Steps::Decimal;
    if (simulatedLinks)
        m_scale->axis()->setTicker(QSharedPointer<ReadableTicker>::create(
            steps, [](double v) { return formatPercent(v); }));
    else
        // Whole bytes: a scale from 0 to 1 B reads 0 B, 1 B (not 0 B, 0 B, 1 B, 1 B).
        m_scale->axis()->setTicker(QSharedPointer<ReadableTicker>::create(
            m_log ? steps : ReadableTicker::Steps::Count,
            [](double v) { return formatByteAmount(v); }));
    // Room for the widest usual label ("888.8 MB", "100 %") whatever the labels are now, so
    // that the map keeps its size from one decision to the next ("5 GB" and "2.5 GB" moved
    // it); a wider label still gets its room.
    QCPAxis *axis = m_scale->axis();
    const int labels = QFontMetrics(axis->tickLabelFont())
                           .horizontalAdvance(simulatedLinks ? QStringLiteral("100 %")
                                                             : QStringLiteral("888.8 MB"));
    m_scale->axis()->axisRect()->setMinimumMargins(
        QMargins(0, 0,
                 axis->offset() + axis->tickLengthOut() + axis->tickLabelPadding() + labels +
                     axis->labelPadding() + QFontMetrics(axis->labelFont()).height(),
                 0));
}

void TrafficHeatmap::fillDecision()
{
    if (m_session && m_session->sts && m_session->result) {
        // A stochastic run: the configurations running at the scrubber (the STS stepper's
        // event moves it).
        const TrafficReport t =
            stochasticTrafficAt(m_session->scenario, *m_session->result, m_time);
        for (const auto &[pair, bytes] : t.pairBytes)
            addPair(pair.first, pair.second, bytes);
        return;
    }
    if (!m_replay)
        return;
    if (m_grouped && m_shown == Cells::Pod) {
        for (int a = 0; a < m_ny; ++a)
            for (int b = 0; b < m_nx; ++b)
                m_values[std::size_t(a) * std::size_t(m_nx) + std::size_t(b)] =
                    podPairBytes(*m_replay, a, b);
        return;
    }
    for (const auto &[key, bytes] : m_grouped ? m_replay->groupCells() : m_replay->cells())
        m_values[std::size_t(key)] = bytes; // keys are row * columns + column
}

std::pair<double, double> TrafficHeatmap::decisionSpan()
{
    // (the replay costs about what stepping through every decision does, 0.14 ms each on the
    // 1,024-node fat-tree: a run of more than kSpanDecisions keeps each decision's own scale)
    if (m_source != Source::Decision || !m_replay || !m_session || m_session->sts ||
        m_values.empty() || m_replay->decisionCount() > kSpanDecisions)
        return {0, 0};
    if (m_spanFor.lock() == m_session && m_spanCells == m_shown)
        return m_spanFound;
    // A partly placed job can send more between two nodes than it does once whole (fewer
    // parameter servers share its bytes): every decision is looked at, not only the last.
    DecisionReplay pass(m_session->scenario, m_session->log);
    double low = 0, high = 0;
    auto note = [&](double v) {
        if (v > 0) {
            low = low > 0 ? std::min(low, v) : v;
            high = std::max(high, v);
        }
    };
    for (int c = 0; c < pass.decisionCount(); ++c) {
        pass.seek(c);
        if (!m_grouped) {
            for (const auto &[a, b] : pass.changedCells())
                note(pass.pairBytes(a, b));
        } else if (m_shown == Cells::Pod) {
            for (const auto &[a, b] : changedPods(pass))
                note(podPairBytes(pass, a, b));
        } else {
            for (const auto &[a, b] : pass.changedGroupCells())
                note(pass.groupBytes(a, b));
        }
    }
    m_spanFor = m_session;
    m_spanCells = m_shown;
    m_spanFound = {low, high};
    return m_spanFound;
}

std::vector<std::pair<int, int>> TrafficHeatmap::changedPods(const DecisionReplay &replay) const
{
    std::vector<std::pair<int, int>> pods;
    for (const auto &[a, b] : replay.changedGroupCells())
        pods.emplace_back(m_podOfRack[std::size_t(a)], m_podOfRack[std::size_t(b)]);
    std::sort(pods.begin(), pods.end());
    pods.erase(std::unique(pods.begin(), pods.end()), pods.end());
    return pods;
}

double TrafficHeatmap::podPairBytes(const DecisionReplay &replay, int a, int b) const
{
    // Always in the same order, so any path to a cursor gives the same bits.
    double bytes = 0;
    for (int r : m_racksOfPod[std::size_t(a)])
        for (int s : m_racksOfPod[std::size_t(b)])
            bytes += replay.groupBytes(r, s);
    return bytes;
}

void TrafficHeatmap::addPair(int from, int to, double bytes)
{
    if (m_grouped) {
        from = m_groups.groupOf[std::size_t(from)];
        to = m_groups.groupOf[std::size_t(to)];
    }
    if (from >= 0 && to >= 0 && from < m_ny && to < m_nx)
        m_values[std::size_t(from) * std::size_t(m_nx) + std::size_t(to)] += bytes;
}

void TrafficHeatmap::fillPairs(bool cumulative)
{
    const RunSeries &s = m_session->result->series;
    const int k = bucket();
    if (k >= 0 && k < int(s.pairBytes.size())) {
        for (int b = cumulative ? 0 : k; b <= k; ++b)
            for (const auto &[pair, bytes] : s.pairBytes[std::size_t(b)])
                addPair(pair.first, pair.second, bytes);
    }
}

void TrafficHeatmap::fillLinks()
{
    const Cluster &c = m_session->scenario.cluster;
    for (int r = 0; r < m_ny; ++r) {
        const int l = m_linkRows[std::size_t(r)];
        const double capBytesPerSecond = c.links[std::size_t(l / 2)].capacityGbps * 1e9 / 8;
        for (int x = 0; x < m_nx; ++x) {
            double v = 0;
            if (m_session->result) {
                const RunSeries &s = m_session->result->series;
                const auto &bucketLinks = s.linkBytes[std::size_t(x)];
                auto it = bucketLinks.find(l);
                if (it != bucketLinks.end() && capBytesPerSecond > 0 && s.bucketSeconds > 0)
                    v = it->second / (capBytesPerSecond * s.bucketSeconds);
            } else if (m_replay) {
                v = m_replay->linkBytes()[std::size_t(l)];
            }
            m_values[std::size_t(r) * std::size_t(m_nx) + std::size_t(x)] = v;
        }
    }
}

void TrafficHeatmap::finish()
{
    double hi = 0, lowPositive = std::numeric_limits<double>::infinity(), sum = 0;
    for (double v : m_values) {
        hi = std::max(hi, v);
        sum += v;
        if (v > 0)
            lowPositive = std::min(lowPositive, v);
    }
    // (stepping: at least the span of the run's placement, so unchanged cells keep their
    // colour)
    const double top = std::max(hi, m_decisionSpan.second);
    if (m_decisionSpan.first > 0)
        lowPositive = std::min(lowPositive, m_decisionSpan.first);
    QCPRange range =
        m_log ? QCPRange(std::isfinite(lowPositive) ? lowPositive : 1, top > 0 ? top : 10)
              : QCPRange(0, top > 0 ? top : 1);
    if (range.upper <= range.lower)
        range.upper = range.lower * (m_log ? 10 : 2) + (m_log ? 0 : 1);
    m_map->setDataRange(range);
    // Nothing to colour: a scale from "0 B" to a made-up "1 B" would read as a measurement.
    // (Its room is kept: the map does not move when the labels come back.)
    m_scale->axis()->setTickLabels(hi > 0);
    QString text;
    if (!m_session)
        text = tr("No run yet: Run > Place and Simulate");
    else if (m_source == Source::Links && m_session->result)
        text = tr("%1 links carry traffic; busiest bucket %2 of capacity")
                   .arg(m_ny)
                   .arg(formatPercent(hi));
    else if (m_source == Source::Decision && m_session->sts)
        text = tr("At %1: %2 per iteration of the configurations running")
                   .arg(formatDuration(m_time), formatByteAmount(sum));
    else if (m_source == Source::Decision && !(sum > 0))
        text = tr("Decision %1: no traffic yet between the tasks placed")
                   .arg(m_replay ? m_replay->cursor() + 1 : 0);
    else if (m_source == Source::Decision || m_source == Source::Links)
        text = tr("Decision %1: %2 per iteration in total")
                   .arg(m_replay ? m_replay->cursor() + 1 : 0)
                   .arg(formatByteAmount(m_source == Source::Links ? 0 : sum));
    else {
        const double bs = m_session->result->series.bucketSeconds;
        const int k = bucket();
        text = m_source == Source::Bucket
                   ? tr("Bucket %1 (%2 – %3): %4 moved")
                         .arg(k + 1)
                         .arg(formatDuration(k * bs), formatDuration((k + 1) * bs),
                              formatByteAmount(sum))
                   : tr("Up to %1: %2 moved")
                         .arg(formatDuration((k + 1) * bs), formatByteAmount(sum));
    }
    if (m_source == Source::Links && m_session && !m_session->result && m_replay) {
        double linkSum = 0;
        for (double v : m_values)
            linkSum += v;
        text = tr("Decision %1: %2 per iteration over the links")
                   .arg(m_replay->cursor() + 1)
                   .arg(formatByteAmount(linkSum));
    }
    // (A cell without traffic is left blank, not drawn in the scale's lowest colour: said, as
    // the scale's "0 B" is that colour.)
    if (hi > 0)
        text += m_source == Source::Links && m_session && m_session->result
                    ? tr(" · blank: unused")
                    : tr(" · blank: no traffic");
    if (m_poolX > 1 || m_poolY > 1)
        text += tr(" · a drawn cell is the largest of %1 × %2").arg(m_poolX).arg(m_poolY);
    if (m_grouped)
        text += (m_shown == Cells::Pod ? tr(" · per pod: %1 nodes in %2 pods")
                 : m_groups.allRacks   ? tr(" · per rack: %1 nodes in %2 racks")
                                       : tr(" · per rack or node group: %1 nodes in %2 groups"))
                    .arg(QLocale().toString(qlonglong(m_session->scenario.cluster.nodes.size())))
                    .arg(QLocale().toString(m_groups.count()));
    m_summary->setText(text);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TrafficHeatmap::decisionMoved()
{
    if (!m_session || !m_replay)
        return;
    if (m_source == Source::Decision) {
        std::vector<std::pair<int, int>> blocks;
        if (m_grouped && m_shown == Cells::Pod) {
            // The pod pairs of the rack pairs that changed, each summed again.
            for (const auto &[a, b] : changedPods(*m_replay)) {
                m_values[std::size_t(a) * std::size_t(m_nx) + std::size_t(b)] =
                    podPairBytes(*m_replay, a, b);
                blocks.emplace_back(b / m_poolX, a / m_poolY);
            }
        } else {
            for (const auto &[a, b] :
                 m_grouped ? m_replay->changedGroupCells() : m_replay->changedCells()) {
                const std::size_t i = std::size_t(a) * std::size_t(m_nx) + std::size_t(b);
                m_values[i] = m_grouped ? m_replay->groupBytes(a, b) : m_replay->pairBytes(a, b);
                blocks.emplace_back(b / m_poolX, a / m_poolY);
            }
        }
        std::sort(blocks.begin(), blocks.end());
        blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
        for (const auto &[bx, by] : blocks)
            refreshBlock(bx, by);
        finish();
    } else if (m_source == Source::Links && !m_session->result) {
        fillLinks();
        refreshMap();
        finish();
    }
}

void TrafficHeatmap::setTime(double seconds)
{
    const int before = bucket();
    m_time = std::max(0.0, seconds);
    if (!m_session || !m_session->result)
        return;
    if (m_source == Source::Links) {
        m_timeLine->point1->setCoords(m_time, 0);
        m_timeLine->point2->setCoords(m_time, 1);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else if (m_source == Source::Decision && m_session->sts) {
        std::fill(m_values.begin(), m_values.end(), 0.0);
        fillDecision();
        refreshMap();
        finish();
    } else if ((m_source == Source::Bucket || m_source == Source::Cumulative) &&
               bucket() != before) {
        std::fill(m_values.begin(), m_values.end(), 0.0);
        fillPairs(m_source == Source::Cumulative);
        refreshMap();
        finish();
    }
}

QString TrafficHeatmap::cellText(int column, int row) const
{
    if (!m_session || column < 0 || row < 0 || column >= m_nx || row >= m_ny)
        return {};
    const double v = value(column, row);
    const Cluster &c = m_session->scenario.cluster;
    if (m_source == Source::Links) {
        const QString link =
            QString::fromStdString(directedLinkName(c, m_linkRows[std::size_t(row)]));
        if (!m_session->result)
            return tr("%1\n%2 per iteration").arg(link, formatBytesExact(v));
        const RunSeries &s = m_session->result->series;
        const auto &bucketLinks = s.linkBytes[std::size_t(column)];
        auto it = bucketLinks.find(m_linkRows[std::size_t(row)]);
        return tr("%1, %2 – %3\n%4 of capacity; %5 moved")
            .arg(link, formatDuration(column * s.bucketSeconds),
                 formatDuration((column + 1) * s.bucketSeconds), formatPercent(v),
                 formatBytesExact(it == bucketLinks.end() ? 0 : it->second));
    }
    const QString what = m_source == Source::Decision ? tr(" per iteration") : QString();
    if (m_grouped) {
        const auto group = [this](int g) {
            return tr("%1 (%n nodes)", "", m_groups.sizes[std::size_t(g)])
                .arg(QString::fromStdString(m_groups.names[std::size_t(g)]));
        };
        if (row == column)
            return tr("within %1\n%2%3").arg(group(row), formatBytesExact(v), what);
        return tr("%1 → %2\n%3%4").arg(group(row), group(column), formatBytesExact(v), what);
    }
    const QString from = QString::fromStdString(c.nodes[std::size_t(row)].id);
    const QString to = QString::fromStdString(c.nodes[std::size_t(column)].id);
    if (row == column)
        return tr("%1 (within the node)\n%2%3").arg(from, formatBytesExact(v), what);
    return tr("%1 → %2\n%3%4").arg(from, to, formatBytesExact(v), what);
}

void TrafficHeatmap::showToolTip(QMouseEvent *event)
{
    const double key = m_plot->xAxis->pixelToCoord(event->pos().x());
    const double val = m_plot->yAxis->pixelToCoord(event->pos().y());
    if (!m_map->visible() || !m_plot->axisRect()->rect().contains(event->pos()))
        return QToolTip::hideText();
    // Exact cells (not pooled blocks): rows and matrix columns are at integer coordinates,
    // time columns are buckets in seconds.
    int x = int(std::lround(key)), y = int(std::lround(val));
    if (m_source == Source::Links) {
        if (m_session && m_session->result) {
            const double bh = m_session->result->series.bucketSeconds;
            x = bh > 0 ? int(std::floor(key / bh)) : -1;
        } else {
            x = key >= 0 && key <= 1 ? 0 : -1;
        }
    }
    const QString text = cellText(x, y);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, m_plot);
}

void TrafficHeatmap::exportWithDialog()
{
    exportPlotWithDialog(m_plot, this, QStringLiteral("traffic-heatmap.png"));
}

} // namespace cb::views
