#pragma once
// A dialog's fields as the user last used them: each field is given the value stored under
// its key (QSettings), if any, and stores its value when the dialog's work is done (a
// generator dialog accepted, an import that added jobs), so the dialog opens next time with
// what the user just did.

#include <QList>
#include <QPair>
#include <QString>

#include <utility>

class QWidget;

namespace cb::views {

class RememberedFields
{
public:
    /// `group`: the settings group, e.g. "generate".
    explicit RememberedFields(QString group) : m_group(std::move(group)) {}
    /// Keeps `field` (a spin box, combo box, line edit or checkable button) under `key`.
    void add(const QString &key, QWidget *field);
    /// Sets every field that has a stored value to it (a value a field cannot take, such as
    /// a combo entry that no longer exists or a number out of range, leaves it or clamps it).
    void restore() const;
    /// Stores every field's value.
    void store() const;

private:
    QString m_group;
    QList<QPair<QString, QWidget *>> m_fields;
};

} // namespace cb::views
