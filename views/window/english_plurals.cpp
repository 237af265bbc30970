#include "window/english_plurals.h"

#include <QRegularExpression>

#include <cstring>

namespace cb::views {

QString EnglishPlurals::translate(const char *, const char *sourceText, const char *,
                                  int n) const
{
    if (n < 0 || !sourceText || !std::strstr(sourceText, "%n"))
        return {};
    // "%n" and the words after it up to the first "(s)": a noun, maybe with words before it.
    static const QRegularExpression counted(QStringLiteral("%n((?: [\\w-]+)*?) (\\w+)\\(s\\)"));
    QString text = QString::fromUtf8(sourceText);
    const QRegularExpressionMatch m = counted.match(text);
    if (!m.hasMatch())
        return {};
    text.replace(m.capturedStart(), m.capturedLength(),
                 QStringLiteral("%n") + m.captured(1) + QLatin1Char(' ') + m.captured(2) +
                     (n == 1 ? QString() : QStringLiteral("s")));
    return text;
}

} // namespace cb::views
