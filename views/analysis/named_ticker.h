#pragma once
// Ticks at the integer positions 0, 1, ... n-1 of a categorical axis (Gantt rows, heatmap
// nodes), labelled with their names; when the names would crowd each other only every k-th
// is written, k from the minimum step spaceTicks (plot_ticks.h) sets.

#include <qcustomplot.h>

#include <QStringList>

namespace cb::views {

class NamedTicker : public QCPAxisTicker
{
public:
    explicit NamedTicker(QStringList names = {});
    /// The most ticks one range gets, however small the minimum step (no axis has room to
    /// write more names than this).
    static constexpr int kMaxTicks = 1000;

    const QStringList &names() const { return m_names; }
    /// The smallest distance between labelled positions (1 labels every position).
    void setMinimumStep(double step) { m_minimumStep = step; }
    double minimumStep() const { return m_minimumStep; }
    /// Every how many positions a name is written.
    int stride() const;

protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar,
                         int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;

private:
    QStringList m_names;
    double m_minimumStep = 1;
};

} // namespace cb::views
