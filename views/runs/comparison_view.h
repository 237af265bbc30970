#pragma once
// Comparison of stored runs: one bar chart per key metric (cross-node traffic, mean JCT,
// makespan, energy, cost, tardiness), a JCT CDF with one curve per run, and the table of
// deltas against a chosen baseline run. Exports to PNG (what is on screen) and PDF (the
// charts as vectors, then the table).

#include "runs/run_comparison.h"

#include <QWidget>

class QCPAxisRect;
class QCPTextElement;
class QComboBox;
class QLabel;
class QCustomPlot;
class QTableView;

namespace cb::views {

class ComparisonView : public QWidget
{
    Q_OBJECT

public:
    explicit ComparisonView(QWidget *parent = nullptr);

    void setRuns(std::vector<ComparedRun> runs, int baseline = 0);
    ComparisonModel *model() const { return m_model; }
    QCustomPlot *barsPlot() const { return m_bars; }
    QCustomPlot *cdfPlot() const { return m_cdf; }
    QComboBox *baselineBox() const { return m_baseline; }

    bool exportPng(const QString &path);
    bool exportPdf(const QString &path);

    /// Colour of run r in every chart.
    static QColor runColor(int r);
    /// Bar charts per row at the current width (three, or fewer when they would crowd).
    int barColumns() const;
    /// The currency of the runs' costs ("mixed currencies" when they differ).
    static QString currencyOf(const std::vector<ComparedRun> &runs);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void rebuildBars();
    void rebuildCdf();
    void exportWithDialog();

    ComparisonModel *m_model;
    QComboBox *m_baseline;
    QCustomPlot *m_bars;
    QCustomPlot *m_cdf;
    QTableView *m_table;
    QLabel *m_note;
    QString m_kindsNote;
    QCPTextElement *m_cdfTitle = nullptr;
    int m_barColumnsShown = 0;
};

} // namespace cb::views
