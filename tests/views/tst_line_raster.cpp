// Lines written straight into an image's pixels (topology/line_raster.h), the link layer's
// path for a zoomed-out fabric: hand-checked pixels (a pixel centre sampled per column or
// row of the major axis), clipping, thickness, order; the same lines as Qt's aliased
// stroking to within a pixel; and the link layer drawing through it as the painter would.

#include "document/document.h"
#include "test_scenarios.h"
#include "topology/line_raster.h"
#include "topology/link_layer_item.h"
#include "topology/topology_scene.h"
#include "topology/topology_style.h"

#include <QPainter>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStyleOptionGraphicsItem>
#include <QtTest>

#include <algorithm>
#include <numeric>
#include <vector>

using namespace cb;
using namespace cb::views;

namespace {

constexpr QRgb kWhite = 0xffffffffu;
constexpr QRgb kRed = 0xffc62828u;
constexpr QRgb kBlue = 0xff1976d2u;

QImage blank(int w, int h)
{
    QImage image(w, h, QImage::Format_ARGB32_Premultiplied);
    image.fill(kWhite);
    return image;
}

/// The pixels of `image` that are `color`, as "x,y" in row order.
QStringList pixelsOf(const QImage &image, QRgb color)
{
    QStringList out;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (image.pixel(x, y) == color)
                out << QStringLiteral("%1,%2").arg(x).arg(y);
    return out;
}

/// How many pixels of `color` in `a` have none of that colour within one pixel in `b`.
int unmatched(const QImage &a, const QImage &b, QRgb color)
{
    int missing = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            if (a.pixel(x, y) != color)
                continue;
            bool near = false;
            for (int dy = -1; dy <= 1 && !near; ++dy)
                for (int dx = -1; dx <= 1 && !near; ++dx)
                    near = b.valid(x + dx, y + dy) && b.pixel(x + dx, y + dy) == color;
            missing += near ? 0 : 1;
        }
    return missing;
}

} // namespace

class TestLineRaster : public QObject
{
    Q_OBJECT

private slots:
    void handChecked()
    {
        // A horizontal line through the centres of row 5: columns 0 to 9 of it.
        QImage image = blank(10, 10);
        const QLineF across(0, 5.5, 10, 5.5);
        drawOpaqueLines(image, &across, 1, kRed, 1);
        QCOMPARE(pixelsOf(image, kRed).size(), 10);
        QCOMPARE(pixelsOf(image, kRed).front(), QStringLiteral("0,5"));
        QCOMPARE(pixelsOf(image, kRed).back(), QStringLiteral("9,5"));
        // The diagonal: one pixel per column, (i, i).
        image = blank(10, 10);
        const QLineF diagonal(0, 0, 10, 10);
        drawOpaqueLines(image, &diagonal, 1, kRed, 1);
        QCOMPARE(pixelsOf(image, kRed),
                 QStringList({"0,0", "1,1", "2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8",
                              "9,9"}));
        // Three pixels thick, centred: a vertical line at x = 3.5 covers columns 2 to 4.
        image = blank(10, 4);
        const QLineF down(3.5, 0, 3.5, 4);
        drawOpaqueLines(image, &down, 1, kRed, 3);
        QCOMPARE(pixelsOf(image, kRed),
                 QStringList({"2,0", "3,0", "4,0", "2,1", "3,1", "4,1", "2,2", "3,2", "4,2",
                              "2,3", "3,3", "4,3"}));
        // Two pixels wide across a diagonal: 2 x sqrt(2) = 2.83 down each column, the pixels
        // whose centres are within 1.41 of the line's: in column 5 (centre 5.5) rows 4 to 6.
        image = blank(10, 10);
        drawOpaqueLines(image, &diagonal, 1, kRed, 2);
        QCOMPARE(pixelsOf(image, kRed).filter(QRegularExpression(QStringLiteral("^5,"))),
                 QStringList({"5,4", "5,5", "5,6"}));
        // Shorter than a pixel: the pixel holding its middle.
        image = blank(10, 10);
        const QLineF dot(4.2, 4.2, 4.4, 4.3);
        drawOpaqueLines(image, &dot, 1, kRed, 1);
        QCOMPARE(pixelsOf(image, kRed), QStringList({"4,4"}));
    }

    void clipsAndOrders()
    {
        // Far beyond the image on both sides: only its columns; wholly outside: nothing.
        QImage image = blank(10, 6);
        const QLineF lines[] = {QLineF(-1e6, 2.5, 1e6, 2.5), QLineF(-50, -20, -10, -5),
                                QLineF(3.5, -1e7, 3.5, 1e7)};
        drawOpaqueLines(image, lines, 2, kRed, 1);
        QCOMPARE(pixelsOf(image, kRed).size(), 10);
        // A later line covers an earlier one where they cross.
        drawOpaqueLines(image, lines + 2, 1, kBlue, 1);
        QCOMPARE(image.pixel(3, 2), kBlue);
        QCOMPARE(image.pixel(4, 2), kRed);
        QCOMPARE(pixelsOf(image, kBlue).size(), 6);
        // Not a number: skipped.
        const QLineF nan(0, qQNaN(), 5, 5);
        drawOpaqueLines(image, &nan, 1, kBlue, 1);
        QCOMPARE(pixelsOf(image, kBlue).size(), 6);
    }

    void indexedImagesKeepAColourTable()
    {
        // A byte a pixel: each colour once in the table; a 257th colour is refused and
        // nothing of it is drawn.
        QImage image(8, 8, QImage::Format_Indexed8);
        image.setColorTable({qRgba(0, 0, 0, 0)});
        image.fill(0);
        const QLineF row(0, 2.5, 8, 2.5), column(5.5, 0, 5.5, 8);
        QVERIFY(drawOpaqueLines(image, &row, 1, kRed, 1));
        QVERIFY(drawOpaqueLines(image, &column, 1, kBlue, 1));
        QVERIFY(drawOpaqueLines(image, &row, 1, kRed, 1));
        QCOMPARE(image.colorCount(), 3);
        QCOMPARE(image.pixel(0, 2), kRed);
        QCOMPARE(image.pixel(5, 2), kRed); // the red row drawn again over the blue column
        QCOMPARE(image.pixel(5, 7), kBlue);
        QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
        for (int c = 3; c < 256; ++c)
            QVERIFY(drawOpaqueLines(image, &row, 1, qRgb(c, 0, 0), 1));
        QCOMPARE(image.colorCount(), 256);
        const QRgb before = image.pixel(0, 2);
        QVERIFY(!drawOpaqueLines(image, &row, 1, qRgb(0, 0, 1), 1));
        QCOMPARE(image.pixel(0, 2), before);
        QCOMPARE(image.colorCount(), 256);
    }

    void sameLinesAsQt()
    {
        // 400 random lines, some leaving the image: every pixel of ours is within a pixel of
        // one Qt's aliased stroking sets, and the other way round, with about as many.
        QRandomGenerator random(7);
        std::vector<QLineF> lines;
        auto between = [&random](double lo, double hi) { return lo + random.bounded(hi - lo); };
        for (int i = 0; i < 400; ++i)
            lines.emplace_back(between(-40, 240), between(-40, 190), between(-40, 240),
                               between(-40, 190));
        QImage ours = blank(200, 150), qt = blank(200, 150);
        drawOpaqueLines(ours, lines.data(), int(lines.size()), kRed, 1);
        {
            QPainter p(&qt);
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setPen(QPen(QColor::fromRgba(kRed), 0));
            p.drawLines(lines.data(), int(lines.size()));
        }
        QCOMPARE(unmatched(ours, qt, kRed), 0);
        QCOMPARE(unmatched(qt, ours, kRed), 0);
        const double a = pixelsOf(ours, kRed).size(), b = pixelsOf(qt, kRed).size();
        QVERIFY2(std::abs(a - b) < 0.05 * b, qPrintable(QStringLiteral("%1 against %2").arg(a).arg(b)));
    }

    void linkLayerDrawsThroughIt_data()
    {
        QTest::addColumn<bool>("coloured");
        QTest::newRow("tier colours") << false;
        // 440 bundles in as many utilisation shades: more colours than a byte indexes.
        QTest::newRow("utilisation shades") << true;
    }

    void linkLayerDrawsThroughIt()
    {
        QFETCH(bool, coloured);
        // A leaf-spine drawn small (level of detail 0.3, under 0.5): the layer writes its
        // lines itself. Every pixel it writes is within a pixel of one of the same colour
        // where Qt strokes the same bundles (a cosmetic pen under a pixel wide, else the
        // bundle's width, flat caps).
        Document doc;
        doc.setScenario(coloured ? testing::leafSpineScenario(40, 10, 2)
                                 : testing::leafSpineScenario(8, 2, 2));
        TopologyScene scene(&doc);
        LinkLayerItem *links = nullptr;
        for (QGraphicsItem *item : scene.items())
            if (auto *layer = dynamic_cast<LinkLayerItem *>(item))
                links = layer;
        QVERIFY(links && links->bundleCount() > 0);
        std::vector<QRgb> colours;
        if (coloured) {
            const std::size_t n = doc.scenario().cluster.links.size();
            std::vector<double> perLink(n);
            for (std::size_t l = 0; l < n; ++l)
                perLink[l] = double(l) / double(n);
            scene.setLinkUtilisation(perLink);
        }
        auto drawnColour = [&](int i) {
            const double u = links->utilisation(i);
            return (u >= 0 ? topology_style::utilisationColor(u) : links->bundle(i).color).rgba();
        };
        for (int i = 0; i < links->bundleCount(); ++i)
            colours.push_back(drawnColour(i));
        std::sort(colours.begin(), colours.end());
        colours.erase(std::unique(colours.begin(), colours.end()), colours.end());
        if (coloured)
            QVERIFY2(colours.size() > 255, qPrintable(QString::number(colours.size())));
        const QRectF rect = links->boundingRect();
        const double scale = 0.3;
        const QSize size = (rect.size() * scale).toSize() + QSize(2, 2);
        QTransform t;
        t.scale(scale, scale);
        t.translate(-rect.left(), -rect.top());
        QImage ours = blank(size.width(), size.height());
        {
            QPainter p(&ours);
            p.setWorldTransform(t);
            QStyleOptionGraphicsItem option;
            option.exposedRect = rect;
            links->paint(&p, &option, nullptr);
        }
        QImage qt = blank(size.width(), size.height());
        {
            QPainter p(&qt);
            p.setWorldTransform(t);
            p.setRenderHint(QPainter::Antialiasing, false);
            // In the layer's order: idle first, then by utilisation.
            std::vector<int> order(std::size_t(links->bundleCount()));
            std::iota(order.begin(), order.end(), 0);
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                return links->utilisation(a) < links->utilisation(b);
            });
            for (int i : order) {
                const auto &b = links->bundle(i);
                p.setPen(QPen(QColor::fromRgba(drawnColour(i)), b.width * scale < 1 ? 0 : b.width,
                              Qt::SolidLine, Qt::FlatCap));
                p.drawLine(b.line);
            }
        }
        // Where hundreds of lines cross, which line shows in a pixel can differ by a pixel
        // between the two: a few such pixels in a thousand.
        int drawn = 0, apart = 0;
        for (const QRgb c : colours) {
            drawn += pixelsOf(ours, c).size();
            apart += unmatched(ours, qt, c);
        }
        QVERIFY2(drawn > 100, qPrintable(QString::number(drawn)));
        QVERIFY2(apart * 200 <= drawn, qPrintable(QStringLiteral("%1 of %2 pixels without a "
                                                                 "match").arg(apart).arg(drawn)));
        if (!coloured)
            QCOMPARE(apart, 0);
    }
};

QTEST_MAIN(TestLineRaster)
#include "tst_line_raster.moc"
