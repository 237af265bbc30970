#include "topology/topology_view.h"

#include "topology/topology_scene.h"
#include "topology/topology_style.h"

#include <QApplication>
#include <QFontMetrics>
#include <QLinearGradient>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace cb::views {

namespace {
constexpr double kMinZoom = 0.002;
constexpr double kMaxZoom = 6.0;
/// The colour legend is laid out in up to this many columns, as fits the cluster best.
constexpr int kMaxLegendColumns = 3;
}

TopologyView::TopologyView(TopologyScene *scene, QWidget *parent)
    : QGraphicsView(scene, parent)
    , m_scene(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState);
    setCacheMode(QGraphicsView::CacheBackground);
    setFrameShape(QFrame::NoFrame);
    connect(scene, &TopologyScene::rebuilt, this, [this] {
        if (m_autoFit)
            fitAll();
        else
            setSceneRect(m_scene->sceneRect()); // (a fit's margins were for the cluster before)
    });
}

double TopologyView::zoom() const
{
    return transform().m11();
}

void TopologyView::setOverlayText(const QString &text)
{
    if (text == m_overlay)
        return;
    m_overlay = text;
    if (m_autoFit)
        fitAll(); // keep the cluster clear of the summary box
    viewport()->update();
}

void TopologyView::fitAll()
{
    m_autoFit = true;
    // (the cluster drawn, not the scene's margin to pan into: a small cluster in a laptop's
    // view was drawn at 70 % of the room it had)
    const QRectF rect = m_scene->clusterRect();
    if (rect.isEmpty())
        return;
    // The summary box sits in the bottom-left corner and the colour legend in the top-right
    // one: the cluster is fitted clear of both, beside the legend or below it, with the
    // legend in one, two or three columns, whichever draws the cluster largest (on a laptop
    // screen a one-column legend beside a wide fabric left it a third of the view).
    const QRect summary = summaryRect();
    const double bottom = summary.isEmpty() ? 8 : viewport()->height() - summary.top() + 4;
    const QRectF view = QRectF(viewport()->rect()).adjusted(8, 8, -8, -bottom);
    auto fitIn = [&rect](const QRectF &room) {
        return room.width() > 0 && room.height() > 0
                   ? std::min(room.width() / rect.width(), room.height() / rect.height())
                   : 0.0;
    };
    // Never magnify a tiny cluster beyond comfortable reading size.
    auto readable = [](double s) { return std::clamp(s > 0 ? s : 1.0, kMinZoom, 2.0); };
    QRectF room = view;
    int columns = 1;
    if (m_nodeLegend != NodeLegend::None || m_utilisationLegend) {
        double best = -1;
        for (int c = 1; c <= kMaxLegendColumns; ++c) {
            const QRect legend = legendRect(c);
            if (c > 1 && legend.left() < 8)
                break; // wider than the view
            const QRectF beside = view.adjusted(0, 0, -(view.right() - legend.left() + 10), 0);
            const QRectF below = view.adjusted(0, legend.bottom() + 10 - view.top(), 0, 0);
            // (a tie keeps fewer columns, and beside over below)
            for (const QRectF &candidate : {beside, below}) {
                const double scale = readable(fitIn(candidate));
                if (scale > best * (1 + 1e-9)) {
                    best = scale;
                    room = candidate;
                    columns = c;
                }
            }
        }
    }
    m_legendColumns = columns;
    const double scale = readable(fitIn(room));
    setTransform(QTransform::fromScale(scale, scale));
    // A cluster smaller than the view is placed by the alignment, not by centerOn(): the
    // view's scene rect reaches from the viewport's top-left corner to the cluster's
    // far corner, so that, aligned top-left, the cluster is centred in the room it was
    // fitted in.
    const QSizeF drawn = rect.size() * scale;
    const double left = std::max(0.0, room.left() + (room.width() - drawn.width()) / 2);
    const double top = std::max(0.0, room.top() + (room.height() - drawn.height()) / 2);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setSceneRect(rect.adjusted(-left / scale, -top / scale, 0, 0));
    centerOn(rect.center()); // (only a cluster too large to fit scrolls)
}

void TopologyView::zoomBy(double factor)
{
    m_autoFit = false;
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    const double f = target / zoom();
    scale(f, f);
}

void TopologyView::setZoom(double zoom)
{
    m_autoFit = false;
    const double z = std::clamp(zoom, kMinZoom, kMaxZoom);
    const QPointF center = mapToScene(viewport()->rect().center());
    setTransform(QTransform::fromScale(z, z));
    centerOn(center);
}

void TopologyView::zoomIn()
{
    zoomBy(1.25);
}

void TopologyView::zoomOut()
{
    zoomBy(0.8);
}

void TopologyView::centerOnNode(int nodeIndex)
{
    const QRectF rect = m_scene->selectNode(nodeIndex);
    if (rect.isEmpty())
        return;
    // A node in view and large enough to read stays where it is: a click on it (to contrast
    // it with a decision) had scrolled the fitted cluster under the summary box.
    if (zoom() >= 0.8 && viewport()->rect().contains(mapFromScene(rect).boundingRect()))
        return;
    if (zoom() < 0.8) {
        m_autoFit = false;
        setTransform(QTransform::fromScale(1.0, 1.0));
    }
    centerOn(rect.center());
}

void TopologyView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomBy(std::pow(1.2, steps));
    event->accept();
}

void TopologyView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fitAll();
}

void TopologyView::showEvent(QShowEvent *event)
{
    QGraphicsView::showEvent(event);
    if (m_autoFit)
        fitAll();
}

void TopologyView::mousePressEvent(QMouseEvent *event)
{
    m_pressAt = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void TopologyView::mouseMoveEvent(QMouseEvent *event)
{
    // A pan keeps what the user looks at from then on; a click (a node picked to contrast
    // with the decision) keeps the cluster fitted, so a legend shown later moves it aside.
    if ((event->buttons() & Qt::LeftButton) &&
        (event->position().toPoint() - m_pressAt).manhattanLength() >=
            QApplication::startDragDistance())
        m_autoFit = false;
    QGraphicsView::mouseMoveEvent(event);
}

void TopologyView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    viewport()->update();
}

void TopologyView::drawBackground(QPainter *painter, const QRectF &rect)
{
    painter->fillRect(rect, topology_style::kSceneBackground);
}

void TopologyView::setLegends(NodeLegend nodes, bool utilisation, bool otherPick)
{
    if (nodes == m_nodeLegend && utilisation == m_utilisationLegend &&
        otherPick == m_otherPickLegend)
        return;
    m_nodeLegend = nodes;
    m_utilisationLegend = utilisation;
    m_otherPickLegend = otherPick;
    if (m_autoFit)
        fitAll(); // make room for the legend (or take it back)
    viewport()->update();
}

namespace {

struct LegendRow
{
    enum Kind { Gradient, Swatch, Outline, DashedOutline } kind;
    QString text;
    QColor color;
    QColor (*gradient)(double) = nullptr;
};

QColor scoreAt(double v)
{
    return topology_style::scoreColor(v);
}

QColor utilisationAt(double v)
{
    return topology_style::utilisationColor(v);
}

std::vector<LegendRow> legendRows(TopologyView::NodeLegend nodes, bool utilisation,
                                  bool otherPick)
{
    namespace st = topology_style;
    std::vector<LegendRow> rows;
    if (nodes == TopologyView::NodeLegend::Schedule) {
        rows.push_back({LegendRow::Outline, QObject::tr("the selected job's node"),
                        st::kChosenNode});
        rows.push_back({LegendRow::Swatch, QObject::tr("GPU busy after the event"),
                        st::kBusyGpuChip});
    }
    if (nodes == TopologyView::NodeLegend::Scores) {
        rows.push_back({LegendRow::Gradient, QObject::tr("lowest → highest total score"), {},
                        scoreAt});
        rows.push_back({LegendRow::Outline, QObject::tr("chosen node"), st::kChosenNode});
        if (otherPick)
            rows.push_back({LegendRow::DashedOutline, QObject::tr("the other run's pick"),
                            st::kOtherChosenNode});
        rows.push_back({LegendRow::Swatch, QObject::tr("filtered out"), st::kFilteredNode});
        rows.push_back({LegendRow::Swatch, QObject::tr("scored lower, not in the log"),
                        st::kNoRowNode});
        rows.push_back({LegendRow::Swatch, QObject::tr("GPU allocated"), st::kBusyGpuChip});
    }
    if (utilisation)
        rows.push_back({LegendRow::Gradient, QObject::tr("link use 0 → 100 % at the scrubber"),
                        {}, utilisationAt});
    return rows;
}

QFont legendFont(const QFont &base)
{
    QFont font = base;
    font.setPixelSize(12);
    font.setBold(false);
    return font;
}

constexpr int kSwatch = 14;
constexpr int kGradientWidth = 56;
constexpr int kLegendColumnGap = 18;

} // namespace

namespace {

/// The legend's rows laid out in `columns` columns (filled top to bottom, then left to
/// right): each column's left edge from the box's, the row count of the longest column.
struct LegendLayout
{
    std::vector<int> columnLeft;
    int rowsPerColumn = 0;
    int width = 0;
};

int legendRowWidth(const LegendRow &r, const QFontMetrics &fm)
{
    return (r.kind == LegendRow::Gradient ? kGradientWidth : kSwatch) + 8 +
           fm.horizontalAdvance(r.text);
}

LegendLayout layOutLegend(const std::vector<LegendRow> &rows, int columns, const QFontMetrics &fm)
{
    LegendLayout layout;
    const int n = int(rows.size());
    layout.rowsPerColumn = (n + columns - 1) / columns;
    int x = 0;
    for (int c = 0; c * layout.rowsPerColumn < n; ++c) {
        int width = c == 0 ? fm.horizontalAdvance(QObject::tr("Colours")) : 0;
        for (int k = c * layout.rowsPerColumn; k < std::min(n, (c + 1) * layout.rowsPerColumn); ++k)
            width = std::max(width, legendRowWidth(rows[std::size_t(k)], fm));
        layout.columnLeft.push_back(x);
        x += width + kLegendColumnGap;
    }
    layout.width = x - kLegendColumnGap;
    return layout;
}

} // namespace

QRect TopologyView::legendRect() const
{
    return legendRect(m_legendColumns);
}

QRect TopologyView::legendRect(int columns) const
{
    const auto rows = legendRows(m_nodeLegend, m_utilisationLegend, m_otherPickLegend);
    if (rows.empty())
        return {};
    const QFontMetrics fm(legendFont(font()));
    const LegendLayout layout = layOutLegend(rows, columns, fm);
    const int line = std::max(fm.height(), kSwatch + 2);
    const int height = fm.height() + line * layout.rowsPerColumn + 14;
    return QRect(viewport()->width() - layout.width - 30, 10, layout.width + 20, height);
}

QRect TopologyView::summaryRect() const
{
    if (m_overlay.isEmpty())
        return {};
    const QFontMetrics fm(legendFont(font()));
    const QStringList lines = m_overlay.split(QLatin1Char('\n'));
    int width = 0;
    for (const QString &line : lines)
        width = std::max(width, fm.horizontalAdvance(line));
    const int height = fm.height() * int(lines.size()) + 12;
    return QRect(10, viewport()->height() - 10 - height, width + 20, height);
}

void TopologyView::drawLegend(QPainter *painter) const
{
    const auto rows = legendRows(m_nodeLegend, m_utilisationLegend, m_otherPickLegend);
    if (rows.empty())
        return;
    const QRect box = legendRect();
    const QFont font = legendFont(painter->font());
    painter->setFont(font);
    const QFontMetrics fm(font);
    const LegendLayout layout = layOutLegend(rows, m_legendColumns, fm);
    painter->setPen(QPen(topology_style::kGroupBorder, 1));
    painter->setBrush(QColor(255, 255, 255, 235));
    painter->drawRoundedRect(box, 6, 6);
    painter->setPen(topology_style::kGroupText);
    QFont bold = font;
    bold.setBold(true);
    painter->setFont(bold);
    painter->drawText(box.left() + 10, box.top() + 6 + fm.ascent(), tr("Colours"));
    painter->setFont(font);
    const int line = std::max(fm.height(), kSwatch + 2);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const LegendRow &r = rows[k];
        const int column = int(k) / layout.rowsPerColumn;
        const int x = box.left() + 10 + layout.columnLeft[std::size_t(column)];
        const int y = box.top() + 8 + fm.height() + line * (int(k) % layout.rowsPerColumn);
        const int top = y + (line - kSwatch) / 2;
        int textX = x + kSwatch + 8;
        if (r.kind == LegendRow::Gradient) {
            QLinearGradient g(x, 0, x + kGradientWidth, 0);
            for (double t : {0.0, 0.25, 0.5, 0.75, 1.0})
                g.setColorAt(t, r.gradient(t));
            painter->setPen(QPen(topology_style::kGroupBorder, 1));
            painter->setBrush(g);
            painter->drawRect(x, top, kGradientWidth, kSwatch);
            textX = x + kGradientWidth + 8;
        } else if (r.kind == LegendRow::Outline || r.kind == LegendRow::DashedOutline) {
            painter->setPen(QPen(r.color, r.kind == LegendRow::Outline ? 3 : 2,
                                 r.kind == LegendRow::Outline ? Qt::SolidLine : Qt::DashLine));
            painter->setBrush(topology_style::kGpuNodeFill);
            painter->drawRect(x + 1, top + 1, kSwatch - 2, kSwatch - 2);
        } else {
            painter->setPen(QPen(topology_style::kGroupBorder, 1));
            painter->setBrush(r.color);
            painter->drawRect(x, top, kSwatch, kSwatch);
        }
        painter->setPen(topology_style::kGroupText);
        painter->drawText(textX, y + (line + fm.ascent() - fm.descent()) / 2, r.text);
    }
}

void TopologyView::drawForeground(QPainter *painter, const QRectF &)
{
    if (m_nodeLegend != NodeLegend::None || m_utilisationLegend) {
        painter->save();
        painter->resetTransform();
        drawLegend(painter);
        painter->restore();
    }
    const QRect box = summaryRect();
    if (box.isEmpty())
        return;
    painter->save();
    painter->resetTransform();
    const QFont font = legendFont(painter->font());
    painter->setFont(font);
    const QFontMetrics fm(font);
    painter->setPen(QPen(topology_style::kGroupBorder, 1));
    painter->setBrush(QColor(255, 255, 255, 225));
    painter->drawRoundedRect(box, 6, 6);
    painter->setPen(topology_style::kGroupText);
    const QStringList lines = m_overlay.split(QLatin1Char('\n'));
    for (int i = 0; i < int(lines.size()); ++i)
        painter->drawText(box.left() + 10, box.top() + 6 + fm.ascent() + i * fm.height(),
                          lines[i]);
    painter->restore();
}

} // namespace cb::views
