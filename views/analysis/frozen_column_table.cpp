#include "analysis/frozen_column_table.h"

#include <QHeaderView>
#include <QScrollBar>

#include <algorithm>

namespace cb::views {

FrozenColumnTableView::FrozenColumnTableView(QWidget *parent)
    : QTableView(parent)
    , m_frozen(new QTableView(this))
{
    m_frozen->setObjectName(QStringLiteral("frozenColumn"));
    m_frozen->setFocusPolicy(Qt::NoFocus);
    m_frozen->verticalHeader()->hide();
    m_frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_frozen->setVerticalScrollMode(ScrollPerPixel);
    m_frozen->setFrameShape(QFrame::NoFrame);
    m_frozen->setStyleSheet(QStringLiteral("QTableView { border-right: 1px solid palette(mid); }"));
    viewport()->stackUnder(m_frozen);
    setHorizontalScrollMode(ScrollPerPixel);
    setVerticalScrollMode(ScrollPerPixel);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) {
                if (logical < m_count) {
                    m_frozen->setColumnWidth(logical, size);
                    updateFrozenGeometry();
                }
            });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int logical, int, int size) { m_frozen->setRowHeight(logical, size); });
    // Scrolled sideways by the user: their place is kept, not the last target's.
    connect(horizontalScrollBar(), &QAbstractSlider::actionTriggered, this,
            [this] { m_target = QPersistentModelIndex(); });
    connect(m_frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, verticalScrollBar(),
            &QAbstractSlider::setValue);
    connect(verticalScrollBar(), &QAbstractSlider::valueChanged, m_frozen->verticalScrollBar(),
            &QAbstractSlider::setValue);
    // Sorting by a frozen column from the frozen header sorts the table.
    connect(m_frozen->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int c) {
        if (c < m_count && isSortingEnabled())
            sortByColumn(c, horizontalHeader()->sortIndicatorSection() == c &&
                                    horizontalHeader()->sortIndicatorOrder() == Qt::AscendingOrder
                                ? Qt::DescendingOrder
                                : Qt::AscendingOrder);
    });
}

void FrozenColumnTableView::setModel(QAbstractItemModel *model)
{
    QTableView::setModel(model);
    m_frozen->setModel(model);
    m_frozen->setSelectionModel(selectionModel());
    connect(model, &QAbstractItemModel::modelReset, this, &FrozenColumnTableView::syncFrozen);
    connect(model, &QAbstractItemModel::layoutChanged, this, &FrozenColumnTableView::syncFrozen);
    connect(model, &QAbstractItemModel::columnsInserted, this, &FrozenColumnTableView::syncFrozen);
    syncFrozen();
}

void FrozenColumnTableView::setFrozenColumns(int count)
{
    m_count = std::max(1, count);
    syncFrozen();
}

int FrozenColumnTableView::frozenWidth() const
{
    int width = 0;
    for (int c = 0; c < m_count && model() && c < model()->columnCount(); ++c)
        width += columnWidth(c);
    return width;
}

void FrozenColumnTableView::syncFrozen()
{
    if (!model())
        return;
    m_frozen->setSelectionBehavior(selectionBehavior());
    m_frozen->setSelectionMode(selectionMode());
    m_frozen->setAlternatingRowColors(alternatingRowColors());
    m_frozen->setWordWrap(wordWrap());
    m_frozen->verticalHeader()->setDefaultSectionSize(verticalHeader()->defaultSectionSize());
    m_frozen->verticalHeader()->setSectionResizeMode(verticalHeader()->sectionResizeMode(0));
    for (int c = 0; c < model()->columnCount(); ++c) {
        m_frozen->setColumnHidden(c, c >= m_count);
        if (c < m_count)
            m_frozen->setColumnWidth(c, columnWidth(c));
    }
    m_frozen->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    updateFrozenGeometry();
}

void FrozenColumnTableView::updateGeometries()
{
    QTableView::updateGeometries();
    updateFrozenGeometry();
    // Columns that took new widths after a scroll (a step's new decision) may leave one cut
    // at the frozen columns, or a shorter scroll range may have pulled the view back.
    if (m_target.isValid() && m_target.column() >= m_count)
        scrollTo(m_target);
}

void FrozenColumnTableView::resizeEvent(QResizeEvent *event)
{
    QTableView::resizeEvent(event);
    updateFrozenGeometry();
}

void FrozenColumnTableView::scrollContentsBy(int dx, int dy)
{
    QTableView::scrollContentsBy(dx, dy);
    if (dx != 0)
        updateFrozenGeometry();
}

void FrozenColumnTableView::updateFrozenGeometry()
{
    const int header = verticalHeader()->isVisible() ? verticalHeader()->width() : 0;
    // A column mostly under the frozen ones is covered whole: its sliver beside them (a cut
    // "3" read as part of the total) is left blank, where the scroll range or the column
    // stepping brought into view leaves no room to show it.
    int width = frozenWidth();
    const int cut = columnAt(width);
    if (cut >= m_count && model() && cut < model()->columnCount()) {
        const int left = columnViewportPosition(cut), right = left + columnWidth(cut);
        if (left < width && 2 * (right - width) < columnWidth(cut))
            width = right;
    }
    m_frozen->setGeometry(header + frameWidth(), frameWidth(), width,
                          viewport()->height() + horizontalHeader()->height());
    m_frozen->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    m_frozen->verticalScrollBar()->setValue(verticalScrollBar()->value());
}

QModelIndex FrozenColumnTableView::moveCursor(CursorAction cursorAction,
                                              Qt::KeyboardModifiers modifiers)
{
    const QModelIndex current = QTableView::moveCursor(cursorAction, modifiers);
    // Moving left into columns under the frozen ones: scroll them out from under them.
    if (cursorAction == MoveLeft && current.column() >= m_count &&
        visualRect(current).topLeft().x() < frozenWidth()) {
        const int newValue =
            horizontalScrollBar()->value() + visualRect(current).topLeft().x() - frozenWidth();
        horizontalScrollBar()->setValue(newValue);
    }
    return current;
}

void FrozenColumnTableView::scrollTo(const QModelIndex &index, ScrollHint hint)
{
    if (index.column() >= m_count) {
        m_target = index;
        QTableView::scrollTo(index, hint);
        // Not under the frozen columns.
        const QRect r = visualRect(index);
        if (r.left() < frozenWidth())
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.left() -
                                            frozenWidth());
        // No sliver of a column beside the frozen ones (a cut "3" read as part of the total):
        // the one the edge cuts goes under them, as long as `index` stays in view.
        // Where the scroll bar cannot go that far (the last columns), the cut one is shown
        // whole instead, beside them.
        const int edge = frozenWidth();
        const int cut = columnAt(edge);
        if (cut >= m_count) {
            QScrollBar *bar = horizontalScrollBar();
            const int left = columnViewportPosition(cut);
            const int shift = left + columnWidth(cut) - edge;
            if (left < edge && shift > 0) {
                if (cut != index.column() && visualRect(index).left() - shift >= edge &&
                    bar->value() + shift <= bar->maximum())
                    bar->setValue(bar->value() + shift);
                else if (visualRect(index).right() + (edge - left) < viewport()->width())
                    bar->setValue(bar->value() - (edge - left));
            }
        }
    } else if (index.isValid()) {
        // The frozen columns are always in view: only the row matters.
        const int x = horizontalScrollBar()->value();
        QTableView::scrollTo(index, hint);
        horizontalScrollBar()->setValue(x);
    }
}

} // namespace cb::views
