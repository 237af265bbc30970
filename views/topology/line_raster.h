#pragma once
// Opaque aliased lines written straight into an image's pixels, for the link layer of a
// zoomed-out fabric: a fitted 16,384-node fat-tree is some 17,000 lines of hundreds of
// pixels each, which Qt's raster engine strokes at about 5 ns a pixel (its span blending);
// writing the pixels costs a fraction of that. The pixels are those of an aliased line
// sampled at pixel centres along its major axis (as Qt's own aliased lines, to within a
// pixel), a wide one filled across as the painter fills it.

#include <QImage>
#include <QLineF>
#include <QRgb>

namespace cb::views {

/// Draws `count` lines, given in the image's pixel coordinates (pixel (i, j) covers
/// [i, i+1) x [j, j+1)), in opaque `color`, `width` pixels wide across the line (1 or less:
/// one pixel per step of the major axis, as a cosmetic pen), over what the image holds; what falls outside the image is clipped. Later lines cover earlier ones. `image` is
/// Format_ARGB32_Premultiplied, Format_RGB32, or Format_Indexed8, whose colour table gets
/// the colour if it lacks it (a byte a pixel: a fitted fabric's image stays in the cache,
/// where a line's pixels, a row apart, are each a cache miss at four bytes). Returns false,
/// drawing nothing, for another format or a full colour table without the colour.
bool drawOpaqueLines(QImage &image, const QLineF *lines, int count, QRgb color,
                     double width);

} // namespace cb::views
