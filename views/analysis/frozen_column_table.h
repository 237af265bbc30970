#pragma once
// A table whose first columns stay in place while the others scroll sideways (the decision
// table's node names and totals beside plugin scores that do not fit the dock). A second,
// borderless view over the same model and selection shows only those columns on top of them,
// scrolled vertically with the table (after Qt's "Frozen Column" example).

#include <QPersistentModelIndex>
#include <QTableView>

namespace cb::views {

class FrozenColumnTableView : public QTableView
{
    Q_OBJECT

public:
    explicit FrozenColumnTableView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    /// How many leading columns stay in place (1 by default).
    void setFrozenColumns(int count);
    int frozenColumns() const { return m_count; }
    /// The view drawn over the frozen columns.
    QTableView *frozenView() const { return m_frozen; }
    /// Keeps `index` in view without hiding it under the frozen columns.
    void scrollTo(const QModelIndex &index, ScrollHint hint = EnsureVisible) override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void updateGeometries() override;
    void scrollContentsBy(int dx, int dy) override;

private:
    void syncFrozen();
    void updateFrozenGeometry();
    /// The width of the frozen columns together.
    int frozenWidth() const;

    QTableView *m_frozen;
    int m_count = 1;
    /// What the last scrollTo brought into view, brought again when the columns take new
    /// widths after it.
    QPersistentModelIndex m_target;
};

} // namespace cb::views
