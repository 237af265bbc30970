#include "models/quantity_format.h"

#include <cmath>

namespace cb::views {

QString formatNumber(double value)
{
    return QString::number(value, 'g', 12);
}

QString formatBytes(std::int64_t bytes)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB", "PB"};
    double v = double(bytes);
    int unit = 0;
    while (std::abs(v) >= 1000 && unit < 5) {
        v /= 1000;
        ++unit;
    }
    const int decimals = unit == 0 || v >= 100 ? 0 : 1;
    return QStringLiteral("%1 %2").arg(QString::number(v, 'f', decimals),
                                       QLatin1String(units[unit]));
}

QString formatDuration(double seconds)
{
    if (!std::isfinite(seconds))
        return QStringLiteral("-");
    auto total = static_cast<long long>(std::floor(std::abs(seconds)));
    const long long days = total / 86400;
    total %= 86400;
    const QString clock = QStringLiteral("%1:%2:%3")
                              .arg(total / 3600)
                              .arg((total % 3600) / 60, 2, 10, QLatin1Char('0'))
                              .arg(total % 60, 2, 10, QLatin1Char('0'));
    QString text = days > 0 ? QStringLiteral("%1d %2").arg(days).arg(clock) : clock;
    return seconds < 0 ? QLatin1Char('-') + text : text;
}

QString formatGbps(double gbps)
{
    if (gbps >= 1000)
        return QStringLiteral("%1 Tb/s").arg(formatNumber(std::round(gbps / 100) / 10));
    return QStringLiteral("%1 Gb/s").arg(formatNumber(gbps));
}

} // namespace cb::views
