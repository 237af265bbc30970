#pragma once
// Colours and sizes shared by the topology items, so the view reads as one design.

#include <QColor>

namespace cb::views::topology_style {

/// Switch fill by tier, 0 = top tier (core/spine), counted from the top.
QColor switchColor(int tier, int tierCount);
/// Link colour for a link whose upper end sits at `tier` (opaque).
QColor linkColor(int tier, int tierCount);
/// Link colour for a utilisation fraction: idle grey-green through amber to red (>= 1).
QColor utilisationColor(double fraction);
/// Node fill for a relative score 0..1 (pale to deep blue); filtered-out nodes use kFiltered.
QColor scoreColor(double relative);

/// Stroke width in scene units for a capacity: 10 Gbit/s -> 1, 100 -> 5, 400 -> 7.4.
double linkWidth(double capacityGbps);

inline const QColor kSceneBackground{0xfd, 0xfd, 0xfe};
inline const QColor kGroupFill{0xf7, 0xf9, 0xfb};
inline const QColor kGroupBorder{0xb0, 0xbe, 0xc5};
inline const QColor kGroupText{0x37, 0x47, 0x4f};
inline const QColor kGpuNodeFill{0xe3, 0xf2, 0xfd};
inline const QColor kGpuNodeBorder{0x19, 0x76, 0xd2};
inline const QColor kCpuNodeFill{0xec, 0xef, 0xf1};
inline const QColor kCpuNodeBorder{0x78, 0x90, 0x9c};
inline const QColor kGpuChip{0x2e, 0x7d, 0x32};
inline const QColor kSelection{0xff, 0x8f, 0x00};
inline const QColor kBusyGpuChip{0xff, 0x6f, 0x00};
inline const QColor kFilteredNode{0xe0, 0xe0, 0xe0};
/// A node the decision log kept no row for (filtered or scored lower; see the table's last row).
inline const QColor kNoRowNode{0xf4, 0xf4, 0xf4};
inline const QColor kChosenNode{0xd8, 0x43, 0x15};
/// The other run's pick, two runs stepped together (a dashed outline).
inline const QColor kOtherChosenNode{0x5e, 0x35, 0xb1};
/// Frame of a multi-node NVLink domain (the tier below the scale-out fabric).
inline const QColor kNvlinkDomain{0x7b, 0x1f, 0xa2};

} // namespace cb::views::topology_style
