#include "analysis/stepper_widgets.h"

#include <QEvent>
#include <QHeaderView>
#include <QPersistentModelIndex>
#include <QResizeEvent>
#include <QScrollBar>
#include <QTableView>
#include <QToolButton>

namespace cb::views {

namespace {

/// Keeps a table's current row in view when its viewport gets shorter (a dock docked again,
/// a splitter moved): the view keeps its top row, so a row near the bottom, where stepping
/// forward puts it, would end below the edge. A row the user had scrolled away from stays
/// where it is; the horizontal position is left alone.
class KeepCurrentRowInView : public QObject
{
public:
    explicit KeepCurrentRowInView(QTableView *view) : QObject(view), m_view(view) {}

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() != QEvent::Resize)
            return false;
        // (the height it last had: docked again, a dock's widget is shown anew, and its
        // resize event has no old size)
        const int before = m_height, after = static_cast<QResizeEvent *>(event)->size().height();
        m_height = after;
        const QModelIndex current = m_view->currentIndex();
        if (after >= before || !current.isValid())
            return false;
        const QRect r = m_view->visualRect(current);
        if (r.top() < 0 || r.bottom() >= before || r.bottom() < after)
            return false; // out of view before, or still in view
        // (after the resize is done: the view lays out its scroll bars in its own handler)
        QMetaObject::invokeMethod(
            m_view,
            [view = m_view, row = QPersistentModelIndex(current)] {
                if (!row.isValid())
                    return;
                const int x = view->horizontalScrollBar()->value();
                view->scrollTo(view->model()->index(row.row(), row.column()));
                view->horizontalScrollBar()->setValue(x);
            },
            Qt::QueuedConnection);
        return false;
    }

private:
    QTableView *m_view;
    int m_height = -1;
};

} // namespace

QTableView *makeStepperTable(QWidget *parent, const QString &name)
{
    return configureStepperTable(new QTableView(parent), name);
}

QTableView *configureStepperTable(QTableView *view, const QString &name)
{
    view->setObjectName(name);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->horizontalHeader()->setHighlightSections(false);
    view->setWordWrap(false);
    view->viewport()->installEventFilter(new KeepCurrentRowInView(view));
    return view;
}

QToolButton *makeStepperButton(QWidget *parent, QStyle::StandardPixmap pixmap,
                               const QString &tip, const QString &name)
{
    auto *b = new QToolButton(parent);
    b->setObjectName(name);
    b->setIcon(parent->style()->standardIcon(pixmap));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
}

} // namespace cb::views
