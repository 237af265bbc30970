#include "topology/topology_style.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cb::views::topology_style {

namespace {
// From the top tier down: slate, indigo, blue, teal.
const std::array<QColor, 4> kTierColors{QColor(0x37, 0x47, 0x4f), QColor(0x3f, 0x51, 0xb5),
                                        QColor(0x15, 0x65, 0xc0), QColor(0x00, 0x83, 0x8f)};

QColor mix(const QColor &a, const QColor &b, double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

int paletteIndex(int tier, int tierCount)
{
    // Leaves are always teal; tiers above step up the palette.
    const int fromBottom = std::max(0, tierCount - 1 - tier);
    return std::clamp(3 - fromBottom, 0, 3);
}
} // namespace

QColor switchColor(int tier, int tierCount)
{
    return kTierColors[std::size_t(paletteIndex(tier, tierCount))];
}

QColor linkColor(int tier, int tierCount)
{
    // The tier colour at 59 % over the background, as an opaque colour: a translucent line
    // costs the raster engine a blend per pixel, which made a fitted 16,384-node fabric (32,000
    // lines, most pixels drawn many times over) 17 times slower to paint.
    return mix(kSceneBackground, switchColor(tier, tierCount), 150.0 / 255.0);
}

double linkWidth(double capacityGbps)
{
    const double c = std::max(capacityGbps, 1.0);
    return std::clamp(1.0 + 1.2 * std::log2(c / 10.0), 0.8, 10.0);
}

QColor utilisationColor(double fraction)
{
    // Idle links stay visible but quiet; half load is amber, full load red.
    static const QColor idle(0xa5, 0xd6, 0xa7), half(0xff, 0xb3, 0x00), full(0xc6, 0x28, 0x28);
    if (fraction <= 0)
        return QColor(0xb0, 0xbe, 0xc5);
    return fraction < 0.5 ? mix(idle, half, fraction / 0.5) : mix(half, full, (fraction - 0.5) / 0.5);
}

QColor scoreColor(double relative)
{
    static const QColor low(0xe3, 0xf2, 0xfd), high(0x0d, 0x47, 0xa1);
    return mix(low, high, relative);
}

} // namespace cb::views::topology_style
