#pragma once
// English plurals for the window's counted texts. A text written "%n run(s)" (Qt's numerus
// form) reads "1 run(s)" without a translation installed; this translator gives "1 run" and
// "3 runs". Only the "(s)" of the words right after %n changes ("%n stored run(s)", "%n
// due-date violation(s)"); any other "(s)" in the text stays as written.

#include <QTranslator>

namespace cb::views {

class EnglishPlurals : public QTranslator
{
    Q_OBJECT
public:
    using QTranslator::QTranslator;
    bool isEmpty() const override { return false; }
    QString translate(const char *context, const char *sourceText,
                      const char *disambiguation = nullptr, int n = -1) const override;
};

} // namespace cb::views
