#include "models/quantity_format.h"
#include "util/text.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace cb::views {

namespace {

/// English digit grouping ("1,234.5") whatever the system locale: one format everywhere.
const QLocale &numberLocale()
{
    static const QLocale locale = [] {
        QLocale l(QLocale::English, QLocale::UnitedStates);
        l.setNumberOptions(QLocale::DefaultNumberOptions);
        return l;
    }();
    return locale;
}

/// `value` with `decimals` decimals, grouped, trailing zeros (and a bare point) dropped.
QString grouped(double value, int decimals)
{
    QString text = numberLocale().toString(value, 'f', decimals);
    if (decimals > 0 && text.contains(QLatin1Char('.'))) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    if (text == QStringLiteral("-0"))
        text = QStringLiteral("0");
    return text;
}

/// Decimals that keep three significant digits of `v` (none from 100 on).
int significantDecimals(double v)
{
    const double a = std::abs(v);
    if (a == 0 || a >= 100)
        return 0;
    return std::clamp(2 - int(std::floor(std::log10(a))), 0, 12);
}

QString scaled(double v, const char *const units[], int count, double step)
{
    int u = 0;
    double a = v;
    while (std::abs(a) >= step * 0.9995 && u < count - 1) {
        a /= step;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(grouped(a, significantDecimals(a)),
                                       QLatin1String(units[u]));
}

} // namespace

QString formatNumber(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    const double a = std::abs(value);
    if (a > 0 && a < 0.01)
        return grouped(value, significantDecimals(value));
    return grouped(value, 2);
}

QString formatBytes(std::int64_t bytes)
{
    return formatByteAmount(double(bytes));
}

QString formatByteAmount(double bytes)
{
    static const char *const units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
    if (!std::isfinite(bytes))
        return QStringLiteral("-");
    if (std::abs(bytes) < 1000)
        return QStringLiteral("%1 B").arg(grouped(std::round(bytes), 0));
    return scaled(bytes, units, 7, 1000);
}

QString formatDuration(double seconds)
{
    return QString::fromStdString(clockText(seconds, true));
}

std::optional<double> parseDuration(const QString &input)
{
    const QString text = input.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double plain = text.toDouble(&ok);
    if (ok)
        return std::isfinite(plain) && plain >= 0 ? std::optional<double>(plain) : std::nullopt;
    // "1d 2:03:04", "2:03:04", "2:03", "1d", each part optional but one.
    static const QRegularExpression clock(QStringLiteral(
        R"(^(?:(\d+)\s*d)?\s*(?:(\d+):)?(?:(\d+):(\d+(?:\.\d*)?))?$)"));
    if (const auto m = clock.match(text); m.hasMatch() && !text.endsWith(QLatin1Char(':'))) {
        const bool clockPart = !m.captured(3).isEmpty();
        if (!clockPart && !m.captured(2).isEmpty())
            return std::nullopt; // "5:" alone
        double s = m.captured(1).toDouble() * 86400;
        if (clockPart) {
            const double first = m.captured(3).toDouble(), sec = m.captured(4).toDouble();
            if (sec >= 60)
                return std::nullopt;
            if (!m.captured(2).isEmpty()) { // h:mm:ss
                if (first >= 60)
                    return std::nullopt;
                s += m.captured(2).toDouble() * 3600 + first * 60 + sec;
            } else { // m:ss
                s += first * 60 + sec;
            }
        }
        if (m.captured(1).isEmpty() && !clockPart)
            return std::nullopt;
        return s;
    }
    // "1.5h", "30m", "45s", "2d", "1h 30m".
    static const QRegularExpression part(QStringLiteral(R"((\d+(?:\.\d*)?)\s*([dhms]))"));
    double s = 0;
    int consumed = 0;
    for (auto it = part.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        if (!text.mid(consumed, m.capturedStart() - consumed).trimmed().isEmpty())
            return std::nullopt;
        const double v = m.captured(1).toDouble();
        const QChar unit = m.captured(2).at(0);
        s += v * (unit == QLatin1Char('d')   ? 86400
                  : unit == QLatin1Char('h') ? 3600
                  : unit == QLatin1Char('m') ? 60
                                             : 1);
        consumed = int(m.capturedEnd());
    }
    if (consumed == 0 || !text.mid(consumed).trimmed().isEmpty())
        return std::nullopt;
    return s;
}

QString formatGbps(double gbps)
{
    static const char *const units[] = {"Gbit/s", "Tbit/s", "Pbit/s"};
    if (std::abs(gbps) < 1 && gbps != 0)
        return QStringLiteral("%1 Mb/s").arg(grouped(gbps * 1000, significantDecimals(gbps * 1000)));
    return scaled(gbps, units, 3, 1000);
}

QString formatMoney(double value, const QString &currency)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    const QString amount = numberLocale().toString(value, 'f', 2);
    return currency.isEmpty() ? amount : QStringLiteral("%1 %2").arg(amount, currency);
}

QString formatEnergy(double kWh)
{
    static const char *const units[] = {"kWh", "MWh", "GWh"};
    if (std::abs(kWh) < 1 && kWh != 0)
        return QStringLiteral("%1 Wh").arg(grouped(kWh * 1000, significantDecimals(kWh * 1000)));
    return scaled(kWh, units, 3, 1000);
}

QString formatPower(double watts)
{
    static const char *const units[] = {"W", "kW", "MW", "GW"};
    return scaled(watts, units, 4, 1000);
}

QString formatPercent(double fraction)
{
    return QStringLiteral("%1 %").arg(grouped(fraction * 100, 1));
}

QString durationFormatName(double upperSeconds)
{
    return upperSeconds >= 86400 ? QStringLiteral("d h:mm:ss") : QStringLiteral("h:mm:ss");
}

QString unbroken(QString text)
{
    return text.replace(QLatin1Char(' '), QChar(QChar::Nbsp));
}

} // namespace cb::views
