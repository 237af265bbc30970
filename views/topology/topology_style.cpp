#include "topology/topology_style.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cb::views::topology_style {

namespace {
// From the top tier down: slate, indigo, blue, teal.
const std::array<QColor, 4> kTierColors{QColor(0x37, 0x47, 0x4f), QColor(0x3f, 0x51, 0xb5),
                                        QColor(0x15, 0x65, 0xc0), QColor(0x00, 0x83, 0x8f)};

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
    QColor c = switchColor(tier, tierCount);
    c.setAlpha(150);
    return c;
}

double linkWidth(double capacityGbps)
{
    const double c = std::max(capacityGbps, 1.0);
    return std::clamp(1.0 + 1.2 * std::log2(c / 10.0), 0.8, 10.0);
}

} // namespace cb::views::topology_style
