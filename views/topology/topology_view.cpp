#include "topology/topology_view.h"

#include "topology/topology_scene.h"
#include "topology/topology_style.h"

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
    });
}

double TopologyView::zoom() const
{
    return transform().m11();
}

void TopologyView::setOverlayText(const QString &text)
{
    m_overlay = text;
    viewport()->update();
}

void TopologyView::fitAll()
{
    m_autoFit = true;
    const QRectF rect = m_scene->sceneRect();
    if (rect.isEmpty())
        return;
    // The colour legend sits in the top-right corner: the cluster is fitted beside it or
    // below it, whichever draws it larger, so the legend never hides a switch or a node.
    const QRect legend = legendRect();
    const QRectF view = QRectF(viewport()->rect()).adjusted(8, 8, -8, -8);
    const QRectF beside =
        legend.isEmpty() ? view : view.adjusted(0, 0, -(legend.width() + 10), 0);
    // Below: centred, with the legend's height kept free at the top and the bottom (the
    // bottom-left summary box takes about as much).
    const double band = legend.isEmpty() ? 0 : legend.bottom() + 10 - view.top();
    const QRectF below = view.adjusted(0, band, 0, -band);
    auto fitIn = [&rect](const QRectF &room) {
        return room.width() > 0 && room.height() > 0
                   ? std::min(room.width() / rect.width(), room.height() / rect.height())
                   : 0.0;
    };
    // Never magnify a tiny cluster beyond comfortable reading size.
    auto readable = [](double s) { return std::clamp(s > 0 ? s : 1.0, kMinZoom, 2.0); };
    const bool under = !legend.isEmpty() && fitIn(below) > 0 &&
                       readable(fitIn(below)) > readable(fitIn(beside));
    const double scale = readable(fitIn(under ? below : beside));
    setTransform(QTransform::fromScale(scale, scale));
    // A cluster smaller than the view is placed by the alignment, not by centerOn(): left
    // of the legend, or centred below it, when there is one.
    if (legend.isEmpty() || under) {
        setAlignment(Qt::AlignCenter);
        centerOn(rect.center());
    } else {
        setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        centerOn(rect.center() + QPointF((view.width() - beside.width()) / 2.0 / scale, 0));
    }
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
    m_autoFit = false; // a pan or a click: keep what the user looks at
    QGraphicsView::mousePressEvent(event);
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

void TopologyView::setLegends(bool scores, bool utilisation, bool otherPick)
{
    if (scores == m_scoreLegend && utilisation == m_utilisationLegend &&
        otherPick == m_otherPickLegend)
        return;
    m_scoreLegend = scores;
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

std::vector<LegendRow> legendRows(bool scores, bool utilisation, bool otherPick)
{
    namespace st = topology_style;
    std::vector<LegendRow> rows;
    if (scores) {
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

} // namespace

QRect TopologyView::legendRect() const
{
    const auto rows = legendRows(m_scoreLegend, m_utilisationLegend, m_otherPickLegend);
    if (rows.empty())
        return {};
    const QFontMetrics fm(legendFont(font()));
    int width = fm.horizontalAdvance(tr("Colours"));
    for (const LegendRow &r : rows)
        width = std::max(width, (r.kind == LegendRow::Gradient ? kGradientWidth : kSwatch) + 8 +
                                    fm.horizontalAdvance(r.text));
    const int line = std::max(fm.height(), kSwatch + 2);
    const int height = fm.height() + line * int(rows.size()) + 14;
    return QRect(viewport()->width() - width - 30, 10, width + 20, height);
}

void TopologyView::drawLegend(QPainter *painter) const
{
    const auto rows = legendRows(m_scoreLegend, m_utilisationLegend, m_otherPickLegend);
    if (rows.empty())
        return;
    const QRect box = legendRect();
    const QFont font = legendFont(painter->font());
    painter->setFont(font);
    const QFontMetrics fm(font);
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
    int y = box.top() + 8 + fm.height();
    for (const LegendRow &r : rows) {
        const int x = box.left() + 10;
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
        y += line;
    }
}

void TopologyView::drawForeground(QPainter *painter, const QRectF &)
{
    if (m_scoreLegend || m_utilisationLegend) {
        painter->save();
        painter->resetTransform();
        drawLegend(painter);
        painter->restore();
    }
    if (m_overlay.isEmpty())
        return;
    painter->save();
    painter->resetTransform();
    QFont font = painter->font();
    font.setPixelSize(12);
    font.setBold(false);
    painter->setFont(font);
    const QFontMetrics fm(font);
    const QStringList lines = m_overlay.split(QLatin1Char('\n'));
    int width = 0;
    for (const QString &line : lines)
        width = std::max(width, fm.horizontalAdvance(line));
    const int lineHeight = fm.height();
    const QRect box(10, viewport()->height() - 10 - lineHeight * int(lines.size()) - 12,
                    width + 20, lineHeight * int(lines.size()) + 12);
    painter->setPen(QPen(topology_style::kGroupBorder, 1));
    painter->setBrush(QColor(255, 255, 255, 225));
    painter->drawRoundedRect(box, 6, 6);
    painter->setPen(topology_style::kGroupText);
    for (int i = 0; i < int(lines.size()); ++i)
        painter->drawText(box.left() + 10, box.top() + 6 + fm.ascent() + i * lineHeight,
                          lines[i]);
    painter->restore();
}

} // namespace cb::views
