#include "runs/comparison_view.h"

#include "analysis/frozen_column_table.h"

#include "analysis/named_ticker.h"
#include "analysis/plot_export.h"
#include "analysis/plot_ticks.h"
#include "analysis/readable_ticker.h"
#include "models/quantity_format.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPdfWriter>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <set>
#include <cmath>
#include <string_view>

namespace cb::views {

namespace {

/// Inner size below which a bar chart or the CDF is not readable.
constexpr int kChartMinWidth = 180;
constexpr int kChartMinHeight = 110;

/// The y ticker of a metric: its unit on every tick (durations as h:mm:ss).
QSharedPointer<QCPAxisTicker> metricTicker(ComparedMetric::Unit unit)
{
    using S = ReadableTicker::Steps;
    switch (unit) {
    case ComparedMetric::Unit::Bytes:
        return QSharedPointer<ReadableTicker>::create(S::Count, [](double v) {
            return formatByteAmount(v);
        });
    case ComparedMetric::Unit::Seconds: return QSharedPointer<ReadableTicker>::create(S::Duration);
    case ComparedMetric::Unit::KWh:
        return QSharedPointer<ReadableTicker>::create(S::Decimal, [](double v) {
            return formatEnergy(v);
        });
    case ComparedMetric::Unit::Money: return QSharedPointer<ReadableTicker>::create(S::Decimal);
    case ComparedMetric::Unit::Count: return QSharedPointer<ReadableTicker>::create(S::Count);
    }
    return QSharedPointer<ReadableTicker>::create();
}

} // namespace

QColor ComparisonView::runColor(int r) const
{
    return paletteColor(r >= 0 && r < int(m_colours.size()) ? m_colours[std::size_t(r)] : r);
}

QColor ComparisonView::paletteColor(int r)
{
    static const QColor palette[] = {QColor(0x4c, 0x72, 0xb0), QColor(0xdd, 0x84, 0x52),
                                     QColor(0x55, 0xa8, 0x68), QColor(0xc4, 0x4e, 0x52),
                                     QColor(0x81, 0x72, 0xb3), QColor(0x93, 0x78, 0x60),
                                     QColor(0xda, 0x8b, 0xc3), QColor(0x8c, 0x8c, 0x8c)};
    return palette[r % 8];
}

ComparisonView::ComparisonView(QWidget *parent)
    : QWidget(parent)
    , m_model(new ComparisonModel(this))
    , m_baseline(new QComboBox(this))
    , m_bars(new QCustomPlot(this))
    , m_cdf(new QCustomPlot(this))
    , m_table(new FrozenColumnTableView(this))
    , m_note(new QLabel(this))
{
    setObjectName(QStringLiteral("comparisonView"));
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Baseline:"), this));
    m_baseline->setObjectName(QStringLiteral("baselineBox"));
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(m_baseline);
    top->addStretch(1);
    auto *exportButton = new QPushButton(tr("Export…"), this);
    exportButton->setToolTip(tr("Save the charts and the table as PNG or PDF"));
    top->addWidget(exportButton);
    connect(exportButton, &QPushButton::clicked, this, &ComparisonView::exportWithDialog);

    m_table->setModel(m_model);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // (as wide as its columns)
    // Its columns fit their contents once laid out: then it is placed.
    connect(m_table->horizontalHeader(), &QHeaderView::sectionResized, this,
            &ComparisonView::placeTable);

    m_cdf->plotLayout()->insertRow(0);
    m_cdfTitle = new QCPTextElement(m_cdf, QString(), QFont(font().family(), 10, QFont::Bold));
    m_cdf->plotLayout()->addElement(0, 0, m_cdfTitle);
    // The legend sits under the title, above the chart: never on its curves, and in view
    // with the title (below the chart, a laptop's dock scrolled it out of sight).
    m_cdf->axisRect()->insetLayout()->take(m_cdf->legend);
    m_cdf->plotLayout()->insertRow(1);
    m_cdf->plotLayout()->addElement(1, 0, m_cdf->legend);
    m_cdf->plotLayout()->setRowStretchFactor(1, 0.001);
    m_cdf->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    m_cdf->legend->setWrap(3);
    m_cdf->axisRect()->setMinimumSize(kChartMinWidth, kChartMinHeight);
    m_cdf->xAxis->setTicker(QSharedPointer<ReadableTicker>::create(ReadableTicker::Steps::Duration));
    m_cdf->yAxis->setTicker(QSharedPointer<ReadableTicker>::create(
        ReadableTicker::Steps::Decimal, [](double v) { return formatPercent(v); }));
    keepTicksReadable(m_cdf);
    ignoreEmptyResizes(m_cdf);
    keepTicksReadable(m_bars);
    ignoreEmptyResizes(m_bars);
    keepMinimumSizeKnown(m_cdf);
    keepMinimumSizeKnown(m_bars);
    m_note->setWordWrap(true);
    m_note->setObjectName(QStringLiteral("comparisonNote"));
    m_kindsNote = tr("Runs of both kinds are compared: a placement-only run's cross-node "
                     "traffic is per training iteration, not a whole run's, so it has no bar "
                     "there; times, energy and cost exist only for simulated runs.");
    m_note->setStyleSheet(QStringLiteral("color: #8a5300"));
    m_note->hide();

    m_cdf->legend->setFont(QFont(font().family(), 8));
    m_lower = new QSplitter(Qt::Horizontal, this);
    m_lower->addWidget(m_cdf);
    m_lower->addWidget(m_table);
    m_lower->setStretchFactor(0, 2);
    m_lower->setStretchFactor(1, 3);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_bars);
    split->addWidget(m_lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({600, 400}); // bars first: the table scrolls
    m_table->setObjectName(QStringLiteral("comparisonTable"));

    // The charts keep readable sizes; a small dock scrolls them.
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("comparisonScroll"));
    scroll->setWidget(split);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_note);
    layout->addWidget(scroll, 1);
    m_scroll = scroll;
    m_bars->installEventFilter(this);
    m_cdf->installEventFilter(this);

    connect(m_baseline, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0)
            m_model->setBaseline(i);
    });
}

bool ComparisonView::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Wheel && (watched == m_bars || watched == m_cdf)) {
        QCoreApplication::sendEvent(m_scroll->viewport(), event);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ComparisonView::setRuns(std::vector<ComparedRun> runs, int baseline)
{
    m_model->setRuns(std::move(runs), baseline);
    // Colours: a run compared before keeps its own; the others take the first free ones.
    const auto &shown = m_model->runs();
    constexpr int kPalette = 8;
    m_colours.assign(shown.size(), -1);
    std::set<int> taken;
    for (std::size_t r = 0; r < shown.size(); ++r)
        if (const auto it = m_colourOfRun.find(shown[r].id);
            shown[r].id != 0 && it != m_colourOfRun.end() && !taken.count(it->second)) {
            m_colours[r] = it->second;
            taken.insert(it->second);
        }
    for (std::size_t r = 0; r < shown.size(); ++r) {
        if (m_colours[r] >= 0)
            continue;
        int c = 0;
        while (c < kPalette && taken.count(c))
            ++c;
        m_colours[r] = c < kPalette ? c : int(r) % kPalette; // more runs than colours
        taken.insert(m_colours[r]);
        if (shown[r].id != 0)
            m_colourOfRun[shown[r].id] = m_colours[r];
    }
    {
        const QSignalBlocker block(m_baseline);
        m_baseline->clear();
        for (const ComparedRun &r : m_model->runs())
            m_baseline->addItem(r.label);
        m_baseline->setCurrentIndex(m_model->baseline());
    }
    rebuildBars();
    rebuildCdf();
    std::set<std::string> kinds, models;
    QStringList modelOfRun;
    for (const ComparedRun &r : m_model->runs()) {
        kinds.insert(r.kind);
        if (!r.costModel.empty()) {
            models.insert(r.costModel);
            modelOfRun << QStringLiteral("%1: %2").arg(r.label, QString::fromStdString(r.costModel));
        }
    }
    QStringList notes;
    if (kinds.size() > 1)
        notes << m_kindsNote;
    // Costs under different models are different quantities (electricity against a price
    // list): say so rather than let the bars suggest a saving.
    if (models.size() > 1)
        notes << tr("Cost and total cost are under different cost models (%1): run them with "
                    "the same cost model to compare those rows; energy compares as it is.")
                     .arg(modelOfRun.join(QStringLiteral(", ")));
    // Runs of two versions of the scenario (a job added, a trace imported): their deltas are
    // the edit's as much as the policy's.
    if (const QStringList versions = scenarioVersionsCompared(m_model->runs()); !versions.isEmpty())
        notes << tr("These runs are of different versions of the scenario (%1): the differences "
                    "include the edits between them, not only the policies.")
                     .arg(versions.join(QStringLiteral("; ")));
    m_note->setText(notes.join(QStringLiteral("\n")));
    m_note->setVisible(!notes.isEmpty());
    placeTable();
}

void ComparisonView::rebuildBars()
{
    m_bars->clearPlottables();
    m_bars->clearItems();
    m_bars->plotLayout()->clear();
    const auto &runs = m_model->runs();
    const auto &metrics = comparedMetrics();
    if (runs.empty()) {
        m_bars->replot();
        return;
    }
    QStringList names;
    for (const ComparedRun &run : runs)
        // "#12" over "dltap" (the policy: there is no legend beside the bars; on two lines, a
        // chart in a laptop's dock names both of two runs); "#12" with more runs than the bars
        // have room to name.
        names << (runs.size() <= 3 ? run.label.section(QLatin1Char(' '), 0, 0) + QLatin1Char('\n') +
                                         run.label.section(QLatin1Char(' '), 1, 1)
                                   : run.label.section(QLatin1Char(' '), 0, 0));
    const int columns = barColumns();
    m_barColumnsShown = columns;
    for (int m = 0; m < int(metrics.size()); ++m) {
        const ComparedMetric &metric = metrics[std::size_t(m)];
        auto *rect = new QCPAxisRect(m_bars);
        rect->setMinimumSize(kChartMinWidth, kChartMinHeight);
        m_bars->plotLayout()->addElement(m / columns, m % columns, rect);
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        QCPAxis *y = rect->axis(QCPAxis::atLeft);
        double maxValue = 0;
        bool recorded = false;
        for (const ComparedRun &run : runs)
            if (auto it = run.metrics.find(metric.key); it != run.metrics.end()) {
                maxValue = std::max(maxValue, std::abs(it->second));
                recorded = true;
            }
        for (int r = 0; r < int(runs.size()); ++r) {
            const auto it = runs[std::size_t(r)].metrics.find(metric.key);
            if (it == runs[std::size_t(r)].metrics.end())
                continue;
            auto *bars = new QCPBars(x, y);
            bars->setWidth(0.7);
            bars->setPen(Qt::NoPen);
            bars->setBrush(runColor(r));
            bars->setName(runs[std::size_t(r)].label);
            bars->addData(r, it->second);
        }
        x->setTicker(QSharedPointer<NamedTicker>::create(names));
        x->setRange(-0.6, double(runs.size()) - 0.4);
        x->grid()->setVisible(false);
        const QString title = ComparisonModel::tr(metric.title);
        x->setLabel(metric.unit == ComparedMetric::Unit::Money
                        ? QStringLiteral("%1 (%2)").arg(title, currencyOf(runs))
                        : title);
        y->setTicker(metricTicker(metric.unit));
        y->setRange(0, maxValue > 0 ? maxValue * 1.12 : 1);
        // (nothing above zero: the axis's 0 ... 1 would be ticks of nothing, "0:00:00.20")
        y->setTickLabels(maxValue > 0);
        if (maxValue == 0) {
            // An empty chart says why: nothing to draw is a result too.
            auto *note = new QCPItemText(m_bars);
            note->setObjectName(QStringLiteral("note:") + QString::fromLatin1(metric.key));
            note->setClipAxisRect(rect);
            note->position->setAxisRect(rect);
            note->position->setType(QCPItemPosition::ptAxisRectRatio);
            note->position->setCoords(0.5, 0.45);
            note->setColor(QColor(0x60, 0x60, 0x60));
            if (!recorded)
                note->setText(tr("not recorded"));
            else if (std::string_view(metric.key) == "tardiness_s")
                note->setText(
                    tr("no tardiness:\nno job ended past a due date")); // (or none has one)
            else
                note->setText(tr("zero in every run"));
        }
    }
    m_bars->replot();
}

void ComparisonView::rebuildCdf()
{
    m_cdf->clearGraphs();
    const auto &runs = m_model->runs();
    double maxJct = 0;
    for (const ComparedRun &run : runs)
        if (!run.jctSeconds.empty())
            maxJct = std::max(maxJct, run.jctSeconds.back());
    bool any = false;
    for (int r = 0; r < int(runs.size()); ++r) {
        const auto points = empiricalCdf(runs[std::size_t(r)].jctSeconds);
        if (points.empty())
            continue;
        any = true;
        QCPGraph *g = m_cdf->addGraph();
        g->setName(runs[std::size_t(r)].label);
        g->setPen(QPen(runColor(r), 2));
        g->setLineStyle(QCPGraph::lsStepLeft);
        QVector<double> xs{0}, ys{0};
        for (const auto &[x, y] : points) {
            xs << x;
            ys << y;
        }
        g->setData(xs, ys, true);
    }
    // Without a simulated run there are no times: empty axes, not a made-up hour.
    m_cdf->xAxis->setLabel(
        any ? tr("Job completion time (%1)").arg(durationFormatName(maxJct * 1.05))
            : tr("Job completion time"));
    m_cdf->yAxis->setLabel(tr("Finished jobs"));
    m_cdf->xAxis->setTickLabels(any);
    m_cdf->yAxis->setTickLabels(any);
    m_cdf->xAxis->setRange(0, maxJct > 0 ? maxJct * 1.05 : 3600);
    m_cdf->yAxis->setRange(0, 1.05);
    m_cdf->legend->setVisible(any);
    m_cdfTitle->setText(any ? tr("Job completion times (CDF)")
                            : tr("Job completion times: no simulated run selected"));
    m_cdf->replot();
}

int ComparisonView::barColumns() const
{
    // Three charts in a row where they fit at a readable width, else two, else one.
    const int room = std::max(1, width() - 40);
    const int fit = room / (kChartMinWidth + 80);
    return std::clamp(fit, 1, 3);
}

void ComparisonView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (!m_model->runs().empty() && barColumns() != m_barColumnsShown)
        rebuildBars();
    placeTable();
}

bool ComparisonView::tableBesideCdf() const
{
    return m_lower->orientation() == Qt::Horizontal;
}

void ComparisonView::placeTable()
{
    // Beside the CDF where the whole table fits there at the CDF's least width, else below
    // it at the dock's full width: a laptop's dock scrolled two runs' table sideways.
    const int table = m_table->horizontalHeader()->length() + 2 * m_table->frameWidth() +
                      m_table->verticalScrollBar()->sizeHint().width();
    // (the room the dock gives, not the splitter's width: the table's least width below
    // would widen that and keep it beside)
    const int room = m_scroll->viewport()->width() - m_lower->handleWidth() -
                     static_cast<QWidget *>(m_cdf)->minimumSizeHint().width();
    const Qt::Orientation want = table <= room ? Qt::Horizontal : Qt::Vertical;
    if (m_lower->orientation() != want)
        m_lower->setOrientation(want);
    // Beside: the table no wider than it is, the CDF takes the rest. Below, in a dock
    // narrower than the table, the table scrolls sideways by itself: the charts keep the
    // dock's width (when the whole view scrolled, the charts grew past it, a third run's
    // bars and the axis titles out of sight).
    const bool beside = want == Qt::Horizontal;
    const bool scrolls = !beside && table > m_scroll->viewport()->width();
    m_table->setMaximumWidth(beside ? table : QWIDGETSIZE_MAX);
    m_table->setMinimumWidth(beside ? table : 0);
    m_table->setHorizontalScrollBarPolicy(scrolls ? Qt::ScrollBarAlwaysOn : Qt::ScrollBarAlwaysOff);
    // Every metric's row in view, and the table's own scroll bar below them, not over the
    // last row: the charts above scroll with it (a laptop's dock left the table one and a
    // half rows in a scroller of its own).
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              m_model->rowCount() *
                                  m_table->verticalHeader()->defaultSectionSize() +
                              2 * m_table->frameWidth() +
                              (scrolls ? m_table->horizontalScrollBar()->sizeHint().height() : 0));
}

QString ComparisonView::currencyOf(const std::vector<ComparedRun> &runs)
{
    QString currency;
    for (const ComparedRun &r : runs) {
        if (currency.isEmpty())
            currency = r.currency;
        else if (!r.currency.isEmpty() && r.currency != currency)
            return tr("mixed currencies");
    }
    return currency.isEmpty() ? QStringLiteral("USD") : currency;
}

bool ComparisonView::exportPng(const QString &path)
{
    return grab().save(path, "PNG");
}

bool ComparisonView::exportPdf(const QString &path)
{
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageOrientation(QPageLayout::Landscape);
    pdf.setResolution(96);
    pdf.setTitle(tr("ClusterBench run comparison"));
    pdf.setCreator(QStringLiteral("ClusterBench"));
    QCPPainter painter;
    if (!painter.begin(&pdf))
        return false;
    const QRect page = pdf.pageLayout().paintRectPixels(pdf.resolution());
    const int w = page.width(), h = page.height();
    // Page 1: the bars (upper 60 %) and the CDF, as vectors.
    painter.save();
    m_bars->toPainter(&painter, w, int(h * 0.6));
    painter.translate(0, h * 0.62);
    m_cdf->toPainter(&painter, w, int(h * 0.38));
    painter.restore();
    // Page 2: the delta table.
    pdf.newPage();
    QString html = QStringLiteral("<h3>%1</h3><table border='1' cellspacing='0' cellpadding='3'><tr>")
                       .arg(tr("Deltas against the baseline"));
    for (int c = 0; c < m_model->columnCount(); ++c)
        html += QStringLiteral("<th>%1</th>")
                    .arg(m_model->headerData(c, Qt::Horizontal).toString().toHtmlEscaped());
    html += QStringLiteral("</tr>");
    for (int r = 0; r < m_model->rowCount(); ++r) {
        html += QStringLiteral("<tr>");
        for (int c = 0; c < m_model->columnCount(); ++c)
            html += QStringLiteral("<td align='%1'>%2</td>")
                        .arg(c == 0 ? QStringLiteral("left") : QStringLiteral("right"),
                             m_model->index(r, c).data().toString().toHtmlEscaped());
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
    QTextDocument doc;
    doc.setHtml(html);
    doc.setTextWidth(w);
    doc.drawContents(&painter);
    return painter.end();
}

void ComparisonView::exportWithDialog()
{
    QString selected;
    const QString folder = QSettings().value(QStringLiteral("export/chartFolder")).toString();
    QString path = QFileDialog::getSaveFileName(this, tr("Export Comparison"),
                                                QDir(folder).filePath(QStringLiteral("comparison.png")),
                                                tr("PNG image (*.png);;PDF document (*.pdf)"),
                                                &selected);
    if (path.isEmpty())
        return;
    const bool pdf = path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive) ||
                     (selected.contains(QStringLiteral("pdf")) &&
                      !path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive));
    if (pdf && !path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
        path += QStringLiteral(".pdf");
    if (!pdf && !path.endsWith(QStringLiteral(".png"), Qt::CaseInsensitive))
        path += QStringLiteral(".png");
    if (!(pdf ? exportPdf(path) : exportPng(path))) {
        QMessageBox::warning(this, tr("Export failed"), tr("Could not write %1").arg(path));
        return;
    }
    QSettings().setValue(QStringLiteral("export/chartFolder"), QFileInfo(path).absolutePath());
    confirmWritten(this, tr("Wrote %1 (%2)").arg(path, formatByteAmount(double(QFileInfo(path).size()))));
}

} // namespace cb::views
