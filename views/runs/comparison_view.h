#pragma once
// Comparison of stored runs: one bar chart per key metric (cross-node traffic, mean JCT,
// makespan, energy, cost, tardiness), a JCT CDF with one curve per run, and the table of
// deltas against a chosen baseline run. Exports to PNG (what is on screen) and PDF (the
// charts as vectors, then the table).

#include "runs/run_comparison.h"

#include <QWidget>

#include <cstdint>
#include <map>
#include <vector>

class QCPAxisRect;
class QCPTextElement;
class QComboBox;
class QLabel;
class QSplitter;
class QCustomPlot;
class QScrollArea;
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

    /// Colour of the r-th run shown, in every chart. A run keeps its colour from one
    /// comparison to the next (by workspace id) while no other run shown has it.
    QColor runColor(int r) const;
    /// The palette's colour `index` (of 8, repeating).
    static QColor paletteColor(int index);
    /// Bar charts per row at the current width (three, or fewer when they would crowd).
    int barColumns() const;
    /// Whether the delta table sits beside the JCT CDF (a wide dock) or below it.
    bool tableBesideCdf() const;
    QTableView *table() const { return m_table; }
    /// The currency of the runs' costs ("mixed currencies" when they differ).
    static QString currencyOf(const std::vector<ComparedRun> &runs);

protected:
    void resizeEvent(QResizeEvent *event) override;
    /// The wheel over a chart scrolls the view (the charts do not zoom): QCustomPlot takes
    /// every wheel event, so a short dock could not be scrolled with the mouse over a chart.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void rebuildBars();
    void rebuildCdf();
    void placeTable();
    void exportWithDialog();

    ComparisonModel *m_model;
    QComboBox *m_baseline;
    QCustomPlot *m_bars;
    QCustomPlot *m_cdf;
    QScrollArea *m_scroll = nullptr; ///< holds the charts and the table
    QTableView *m_table;
    QSplitter *m_lower = nullptr;
    QLabel *m_note;
    QString m_kindsNote;
    QCPTextElement *m_cdfTitle = nullptr;
    int m_barColumnsShown = 0;
    std::vector<int> m_colours;                 ///< palette index per run shown
    std::map<std::int64_t, int> m_colourOfRun;  ///< by workspace id, over comparisons
};

} // namespace cb::views
