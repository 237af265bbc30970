#pragma once
// The widgets both steppers (placement decisions, STS events) are built from, so they look
// and behave alike: compact row-selecting tables and auto-raised transport buttons.

#include <QStyle>

class QString;
class QTableView;
class QToolButton;
class QWidget;

namespace cb::views {

/// A table for a stepper: whole-row single selection, alternating rows, no row header,
/// fixed row height, no word wrap. `name` is its object name (tests find it by that).
QTableView *makeStepperTable(QWidget *parent, const QString &name);
/// Gives an existing table the stepper tables' look and behaviour; returns it.
QTableView *configureStepperTable(QTableView *view, const QString &name);

/// An auto-raised tool button with the style's standard icon and a tool tip.
QToolButton *makeStepperButton(QWidget *parent, QStyle::StandardPixmap pixmap,
                               const QString &tip, const QString &name);

} // namespace cb::views
