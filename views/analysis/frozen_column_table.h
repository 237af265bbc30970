#pragma once
// A table whose first column stays in place while the others scroll sideways (the decision
// table's node names beside plugin scores that do not fit the dock). A second, borderless
// view over the same model and selection shows only column 0 on top of the first column,
// scrolled vertically with the table (after Qt's "Frozen Column" example).

#include <QTableView>

namespace cb::views {

class FrozenColumnTableView : public QTableView
{
    Q_OBJECT

public:
    explicit FrozenColumnTableView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    /// The view drawn over column 0.
    QTableView *frozenView() const { return m_frozen; }
    /// Keeps `index` in view without hiding it under the frozen column.
    void scrollTo(const QModelIndex &index, ScrollHint hint = EnsureVisible) override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    QModelIndex moveCursor(CursorAction cursorAction, Qt::KeyboardModifiers modifiers) override;
    void updateGeometries() override;

private:
    void syncFrozen();
    void updateFrozenGeometry();

    QTableView *m_frozen;
};

} // namespace cb::views
