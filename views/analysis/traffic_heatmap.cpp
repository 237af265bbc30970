#include "analysis/traffic_heatmap.h"

#include "analysis/sts_session.h"
#include "runs/run_service.h"
#include "models/quantity_format.h"

#include "runs/decision_replay.h"
#include "analysis/plot_export.h"
#include "sched/traffic.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cb::views {

namespace {

constexpr int kMaxNamedTicks = 48;
/// Cells per side beyond which neighbouring cells are pooled (block maximum) for drawing:
/// a screen cannot show more, and single hot cells must not vanish in the image scaling.
constexpr int kMaxMapSide = 256;

QCPColorGradient heatGradient()
{
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0xff, 0xfd, 0xe7));
    g.setColorStopAt(0.25, QColor(0xff, 0xe0, 0x82));
    g.setColorStopAt(0.5, QColor(0xff, 0x98, 0x00));
    g.setColorStopAt(0.75, QColor(0xd8, 0x43, 0x15));
    g.setColorStopAt(1.0, QColor(0x4a, 0x14, 0x8c));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    g.setLevelCount(350);
    return g;
}

QSharedPointer<QCPAxisTicker> namedTicker(const QStringList &names)
{
    if (names.size() > kMaxNamedTicks)
        return QSharedPointer<QCPAxisTicker>(new QCPAxisTicker);
    auto ticker = QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText);
    for (int i = 0; i < names.size(); ++i)
        ticker->addTick(i, names[i]);
    return ticker;
}

} // namespace

QString formatBytesExact(double bytes)
{
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    double v = std::abs(bytes);
    int u = 0;
    while (v >= 1000 && u < 6) {
        v /= 1000;
        ++u;
    }
    const QString shortForm =
        u == 0 ? QStringLiteral("%1 B").arg(bytes, 0, 'f', 0)
               : QStringLiteral("%1 %2").arg(std::copysign(v, bytes), 0, 'f', v < 10 ? 2 : v < 100 ? 1 : 0)
                     .arg(QLatin1String(units[u]));
    if (u == 0)
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
    m_plot->xAxis->setTickLabelRotation(60);
    m_timeLine = new QCPItemStraightLine(m_plot);
    m_timeLine->setPen(QPen(QColor(0x15, 0x65, 0xc0), 2, Qt::DashLine));
    m_timeLine->setVisible(false);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);

    m_sourceBox->setObjectName(QStringLiteral("heatmapSource"));
    // The choices are long sentences: do not let them set the dock's minimum width.
    m_sourceBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_sourceBox->setMinimumContentsLength(22);
    m_logBox->setObjectName(QStringLiteral("heatmapLog"));
    auto *exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Save the heatmap as PNG, PDF or SVG"));
    m_summary->setObjectName(QStringLiteral("heatmapSummary"));

    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(new QLabel(tr("Show:"), this));
    bar->addWidget(m_sourceBox, 1);
    bar->addWidget(m_logBox);
    bar->addWidget(exportButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_summary);
    layout->addWidget(m_plot, 1);

    connect(m_sourceBox, &QComboBox::activated, this, [this](int i) {
        setSource(Source(m_sourceBox->itemData(i).toInt()));
    });
    connect(m_logBox, &QCheckBox::toggled, this, &TrafficHeatmap::setLogScale);
    connect(exportButton, &QToolButton::clicked, this, &TrafficHeatmap::exportWithDialog);
    connect(m_plot, &QCustomPlot::mouseMove, this, &TrafficHeatmap::showToolTip);
    updateSourceChoices();
    rebuild();
}

TrafficHeatmap::~TrafficHeatmap() = default;

void TrafficHeatmap::updateSourceChoices()
{
    const QSignalBlocker block(m_sourceBox);
    m_sourceBox->clear();
    m_sourceBox->addItem(m_session && m_session->sts
                             ? tr("Traffic of the configurations at the scrubber (per iteration)")
                             : tr("Placement traffic at the decision (bytes per iteration)"),
                         int(Source::Decision));
    const bool simulated = m_session && m_session->result;
    if (simulated) {
        m_sourceBox->addItem(tr("Simulated traffic in the bucket at the scrubber"),
                             int(Source::Bucket));
        m_sourceBox->addItem(tr("Simulated traffic, cumulative to the scrubber"),
                             int(Source::Cumulative));
        m_sourceBox->addItem(tr("Link utilisation over time (simulated)"), int(Source::Links));
    } else {
        m_sourceBox->addItem(tr("Bytes per link at the decision (per iteration)"),
                             int(Source::Links));
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
    if (on)
        m_scale->axis()->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    else
        m_scale->axis()->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    // Zero cells have no logarithm: blank in log scale, the lowest colour in linear scale.
    refreshMap();
    finish();
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
    m_map->data()->setCell(bx, by, m_log && v <= 0 ? std::numeric_limits<double>::quiet_NaN() : v);
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
    if (m_session) {
        switch (m_source) {
        case Source::Decision: m_nx = m_ny = int(m_session->scenario.cluster.nodes.size()); break;
        case Source::Bucket:
        case Source::Cumulative:
            m_nx = m_ny = int(m_session->scenario.cluster.nodes.size());
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
    m_poolX = std::max(1, (m_nx + kMaxMapSide - 1) / kMaxMapSide);
    m_poolY = std::max(1, (m_ny + kMaxMapSide - 1) / kMaxMapSide);
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
    if (m_session && !links) {
        for (const Node &n : m_session->scenario.cluster.nodes)
            yNames << QString::fromStdString(n.id);
        xNames = yNames;
    } else if (m_session) {
        for (int l : m_linkRows)
            yNames << QString::fromStdString(directedLinkName(m_session->scenario.cluster, l));
    }
    const double bucketHours =
        m_session && m_session->result ? m_session->result->series.bucketSeconds / 3600 : 1;
    // Block b of `pool` cells is drawn centred on its cells: (b * pool + (pool - 1) / 2).
    const int mx = std::max(1, (m_nx + m_poolX - 1) / m_poolX);
    const int my = std::max(1, (m_ny + m_poolY - 1) / m_poolY);
    const double cy0 = (m_poolY - 1) / 2.0, cy1 = (my - 1) * m_poolY + cy0;
    const QCPRange valueRange = my > 1 ? QCPRange(cy0, cy1) : QCPRange(0, 1);
    if (links && m_session && m_session->result) {
        const double cx0 = m_poolX / 2.0, cx1 = (mx - 1) * m_poolX + m_poolX / 2.0;
        m_map->data()->setRange(mx > 1 ? QCPRange(cx0 * bucketHours, cx1 * bucketHours)
                                       : QCPRange(0, bucketHours),
                                valueRange);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        m_plot->xAxis->setTickLabelRotation(0);
        m_plot->xAxis->setLabel(tr("simulated time (hours)"));
        m_plot->xAxis->setRange(0, std::max(m_nx, 1) * bucketHours);
    } else if (links) {
        m_map->data()->setRange(QCPRange(0, 1), valueRange);
        m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerText));
        m_plot->xAxis->setTickLabelRotation(0);
        m_plot->xAxis->setLabel(tr("bytes per iteration at the decision"));
        m_plot->xAxis->setRange(-0.5, 1.5);
    } else {
        const double cx0 = (m_poolX - 1) / 2.0, cx1 = (mx - 1) * m_poolX + cx0;
        m_map->data()->setRange(mx > 1 ? QCPRange(cx0, cx1) : QCPRange(0, 1), valueRange);
        m_plot->xAxis->setTicker(namedTicker(xNames));
        m_plot->xAxis->setTickLabelRotation(xNames.size() <= kMaxNamedTicks ? 60 : 0);
        m_plot->xAxis->setLabel(xNames.size() <= kMaxNamedTicks ? tr("destination")
                                                                : tr("destination node (index)"));
        m_plot->xAxis->setRange(-0.5, m_nx - 0.5);
    }
    m_plot->yAxis->setTicker(namedTicker(yNames));
    m_plot->yAxis->setLabel(links ? (yNames.size() <= kMaxNamedTicks ? QString()
                                                                      : tr("directed link (index)"))
                                  : yNames.size() <= kMaxNamedTicks ? tr("source")
                                                                    : tr("source node (index)"));
    m_plot->yAxis->setRange(-0.5, m_ny - 0.5);
    QFont small = m_plot->xAxis->tickLabelFont();
    small.setPointSizeF(std::max(6.5, 9.0 - (std::max(xNames.size(), yNames.size()) / 16.0)));
    m_plot->xAxis->setTickLabelFont(small);
    m_plot->yAxis->setTickLabelFont(small);
    const bool simulatedLinks = links && m_session && m_session->result;
    m_scale->axis()->setLabel(simulatedLinks ? tr("utilisation of capacity")
                              : m_source == Source::Decision || links ? tr("bytes per iteration")
                                                                      : tr("bytes"));
    m_timeLine->setVisible(simulatedLinks);
    if (simulatedLinks) {
        const double x = m_time / 3600;
        m_timeLine->point1->setCoords(x, 0);
        m_timeLine->point2->setCoords(x, 1);
    }
}

void TrafficHeatmap::fillDecision()
{
    if (m_session && m_session->sts && m_session->result) {
        // A stochastic run: the configurations running at the scrubber (the STS stepper's
        // event moves it).
        const TrafficReport t =
            stochasticTrafficAt(m_session->scenario, *m_session->result, m_time);
        for (const auto &[pair, bytes] : t.pairBytes)
            if (pair.first < m_ny && pair.second < m_nx)
                m_values[std::size_t(pair.first) * std::size_t(m_nx) + std::size_t(pair.second)] =
                    bytes;
        return;
    }
    if (!m_replay)
        return;
    m_values = m_replay->matrix();
}

void TrafficHeatmap::fillPairs(bool cumulative)
{
    const RunSeries &s = m_session->result->series;
    const int k = bucket();
    if (k >= 0 && k < int(s.pairBytes.size())) {
        for (int b = cumulative ? 0 : k; b <= k; ++b)
            for (const auto &[pair, bytes] : s.pairBytes[std::size_t(b)])
                if (pair.first < m_ny && pair.second < m_nx)
                    m_values[std::size_t(pair.first) * std::size_t(m_nx) +
                             std::size_t(pair.second)] += bytes;
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
    QCPRange range = m_log ? QCPRange(std::isfinite(lowPositive) ? lowPositive : 1,
                                      hi > 0 ? hi : 10)
                           : QCPRange(0, hi > 0 ? hi : 1);
    if (range.upper <= range.lower)
        range.upper = range.lower * (m_log ? 10 : 2) + (m_log ? 0 : 1);
    m_map->setDataRange(range);
    QString text;
    if (!m_session)
        text = tr("No run yet: Run > Place and Simulate");
    else if (m_source == Source::Links && m_session->result)
        text = tr("%1 links carry traffic; busiest bucket %2 % of capacity")
                   .arg(m_ny)
                   .arg(hi * 100, 0, 'f', 1);
    else if (m_source == Source::Decision && m_session->sts)
        text = tr("At %1: %2 per iteration of the configurations running")
                   .arg(formatDuration(m_time))
                   .arg(formatBytesExact(sum).section(QLatin1Char(' '), 0, 1));
    else if (m_source == Source::Decision || m_source == Source::Links)
        text = tr("Decision %1: %2 per iteration in total")
                   .arg(m_replay ? m_replay->cursor() + 1 : 0)
                   .arg(formatBytesExact(m_source == Source::Links ? 0 : sum).section(QLatin1Char(' '), 0, 1));
    else {
        const double bs = m_session->result->series.bucketSeconds;
        const int k = bucket();
        text = m_source == Source::Bucket
                   ? tr("Bucket %1 (%2 – %3 h): %4 moved")
                         .arg(k + 1)
                         .arg(k * bs / 3600, 0, 'f', 2)
                         .arg((k + 1) * bs / 3600, 0, 'f', 2)
                         .arg(formatBytesExact(sum).section(QLatin1Char(' '), 0, 1))
                   : tr("Up to %1 h: %2 moved")
                         .arg((k + 1) * bs / 3600, 0, 'f', 2)
                         .arg(formatBytesExact(sum).section(QLatin1Char(' '), 0, 1));
    }
    if (m_source == Source::Links && m_session && !m_session->result && m_replay) {
        double linkSum = 0;
        for (double v : m_values)
            linkSum += v;
        text = tr("Decision %1: %2 per iteration over the links")
                   .arg(m_replay->cursor() + 1)
                   .arg(formatBytesExact(linkSum).section(QLatin1Char(' '), 0, 1));
    }
    m_summary->setText(text);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TrafficHeatmap::decisionMoved()
{
    if (!m_session || !m_replay)
        return;
    if (m_source == Source::Decision) {
        const std::vector<double> &m = m_replay->matrix();
        std::vector<std::pair<int, int>> blocks;
        for (const auto &[a, b] : m_replay->changedCells()) {
            const std::size_t i = std::size_t(a) * std::size_t(m_nx) + std::size_t(b);
            m_values[i] = m[i];
            blocks.emplace_back(b / m_poolX, a / m_poolY);
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
        const double x = m_time / 3600;
        m_timeLine->point1->setCoords(x, 0);
        m_timeLine->point2->setCoords(x, 1);
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
        return tr("%1, %2 – %3 h\n%4 % of capacity; %5 moved")
            .arg(link)
            .arg(column * s.bucketSeconds / 3600, 0, 'f', 2)
            .arg((column + 1) * s.bucketSeconds / 3600, 0, 'f', 2)
            .arg(v * 100, 0, 'f', 2)
            .arg(formatBytesExact(it == bucketLinks.end() ? 0 : it->second));
    }
    const QString from = QString::fromStdString(c.nodes[std::size_t(row)].id);
    const QString to = QString::fromStdString(c.nodes[std::size_t(column)].id);
    const QString what = m_source == Source::Decision ? tr(" per iteration") : QString();
    return (row == column ? tr("%1 (within the node)\n%3%4") : tr("%1 → %2\n%3%4"))
        .arg(from, to, formatBytesExact(v), what);
}

void TrafficHeatmap::showToolTip(QMouseEvent *event)
{
    const double key = m_plot->xAxis->pixelToCoord(event->pos().x());
    const double val = m_plot->yAxis->pixelToCoord(event->pos().y());
    if (!m_map->visible() || !m_plot->axisRect()->rect().contains(event->pos()))
        return QToolTip::hideText();
    // Exact cells (not pooled blocks): rows and matrix columns are at integer coordinates,
    // time columns are buckets in hours.
    int x = int(std::lround(key)), y = int(std::lround(val));
    if (m_source == Source::Links) {
        if (m_session && m_session->result) {
            const double bh = m_session->result->series.bucketSeconds / 3600;
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
