#include "topology/line_raster.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

namespace cb::views {

namespace {

/// One line along its major axis `u` (the other axis `v`), at every pixel centre of u
/// between the ends: a one-pixel line (`width` <= 1) takes the pixel holding the line's
/// centre; a wider one the pixels whose centres lie within half its width (measured across
/// the line, so a slanted line spans more pixels of v) of the centre, as the painter fills
/// a wide aliased line. `put(u, v)` writes a pixel, in range.
template<typename Put>
void drawMajor(double u1, double v1, double u2, double v2, int uSize, int vSize, double width,
               Put put)
{
    if (u1 > u2) {
        std::swap(u1, u2);
        std::swap(v1, v2);
    }
    const double slope = u2 > u1 ? (v2 - v1) / (u2 - u1) : 0.0;
    const bool thin = width <= 1.0;
    // Half the run across, along v: half the width over the cosine of the line's angle.
    const double half = thin ? 0.5 : width / 2 * std::sqrt(1 + slope * slope);
    // Pixel centres i + 0.5 within [u1, u2]; a line shorter than a pixel gets the pixel
    // that holds its middle.
    double from = std::ceil(u1 - 0.5), to = std::floor(u2 - 0.5);
    if (from > to)
        from = to = std::floor((u1 + u2) / 2);
    from = std::max(from, 0.0);
    to = std::min(to, double(uSize - 1));
    // Only the columns where the run across can touch the image: a line crossing it at a
    // slant, or passing by, is not walked where it is outside.
    const double vLo = -half - 1, vHi = double(vSize) + half + 1;
    if (slope == 0.0) {
        if (v1 < vLo || v1 > vHi)
            return;
    } else {
        // v(u) = v1 + (u + 0.5 - u1) * slope within [vLo, vHi]
        double a = u1 - 0.5 + (vLo - v1) / slope, b = u1 - 0.5 + (vHi - v1) / slope;
        if (a > b)
            std::swap(a, b);
        from = std::max(from, std::floor(a));
        to = std::min(to, std::ceil(b));
    }
    if (from > to)
        return;
    // The centre's v in 32.32 fixed point, stepped by the slope: integer additions and
    // shifts a pixel, where floating point cost several times as much (its floor is a call
    // on the baseline x86-64 the build targets). Over the at most few thousand pixels of a
    // clipped line the error stays under 1e-5 pixel.
    constexpr double kOne = 4294967296.0;
    std::int64_t v = std::llround((v1 + (from + 0.5 - u1) * slope) * kOne);
    const std::int64_t step = std::llround(slope * kOne);
    // The run across: centres k + 0.5 in [v - half, v + half), k from ceil(v - half - 0.5)
    // to ceil(v + half - 0.5) - 1; ceil(x) = -floor(-x), a floor being the shift.
    const std::int64_t low = std::llround((half + 0.5) * kOne);
    const std::int64_t high = std::llround((half - 0.5) * kOne);
    const int last = int(to);
    for (int u = int(from); u <= last; ++u, v += step) {
        if (thin) {
            const std::int64_t k = v >> 32;
            if (std::uint64_t(k) < std::uint64_t(vSize))
                put(u, int(k));
            continue;
        }
        const std::int64_t lo = -((low - v) >> 32), hi = -((-(v + high)) >> 32) - 1;
        if (hi < 0 || lo >= vSize)
            continue;
        for (std::int64_t k = std::max<std::int64_t>(lo, 0),
                          end = std::min<std::int64_t>(hi, vSize - 1);
             k <= end; ++k)
            put(u, int(k));
    }
}

} // namespace

bool drawOpaqueLines(QImage &image, const QLineF *lines, int count, QRgb color, double width)
{
    const int w = image.width(), h = image.height();
    if (w <= 0 || h <= 0 || count <= 0)
        return true;
    const QImage::Format format = image.format();
    const bool indexed = format == QImage::Format_Indexed8;
    if (!indexed && format != QImage::Format_ARGB32_Premultiplied && format != QImage::Format_RGB32)
        return false;
    const QRgb opaque = color | 0xff000000u;
    const QRgb pixel = qPremultiply(opaque);
    uchar index = 0;
    if (indexed) {
        QList<QRgb> table = image.colorTable();
        const qsizetype at = table.indexOf(opaque);
        if (at >= 0) {
            index = uchar(at);
        } else if (table.size() >= 256) {
            return false;
        } else {
            index = uchar(table.size());
            table.push_back(opaque);
            image.setColorTable(table);
        }
    }
    uchar *const bits = image.bits();
    const qsizetype stride = image.bytesPerLine();
    auto rowOf = [bits, stride](int y) { return bits + y * stride; };
    for (int k = 0; k < count; ++k) {
        const QLineF &l = lines[k];
        if (!std::isfinite(l.x1()) || !std::isfinite(l.y1()) || !std::isfinite(l.x2()) ||
            !std::isfinite(l.y2()))
            continue;
        const bool xMajor = std::abs(l.dx()) >= std::abs(l.dy());
        if (indexed && xMajor)
            drawMajor(l.x1(), l.y1(), l.x2(), l.y2(), w, h, width,
                      [&](int x, int y) { rowOf(y)[x] = index; });
        else if (indexed)
            drawMajor(l.y1(), l.x1(), l.y2(), l.x2(), h, w, width,
                      [&](int y, int x) { rowOf(y)[x] = index; });
        else if (xMajor)
            drawMajor(l.x1(), l.y1(), l.x2(), l.y2(), w, h, width, [&](int x, int y) {
                reinterpret_cast<QRgb *>(rowOf(y))[x] = pixel;
            });
        else
            drawMajor(l.y1(), l.x1(), l.y2(), l.x2(), h, w, width, [&](int y, int x) {
                reinterpret_cast<QRgb *>(rowOf(y))[x] = pixel;
            });
    }
    return true;
}

} // namespace cb::views
