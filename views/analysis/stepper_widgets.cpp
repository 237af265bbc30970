#include "analysis/stepper_widgets.h"

#include <QHeaderView>
#include <QTableView>
#include <QToolButton>

namespace cb::views {

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
