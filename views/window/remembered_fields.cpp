#include "window/remembered_fields.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>

namespace cb::views {

void RememberedFields::add(const QString &key, QWidget *field)
{
    m_fields.append({key, field});
}

void RememberedFields::restore() const
{
    QSettings settings;
    settings.beginGroup(m_group);
    for (const auto &[key, field] : m_fields) {
        if (!settings.contains(key))
            continue;
        const QVariant v = settings.value(key);
        if (auto *b = qobject_cast<QSpinBox *>(field)) {
            bool ok = false;
            const int n = v.toInt(&ok);
            if (ok)
                b->setValue(n);
        } else if (auto *d = qobject_cast<QDoubleSpinBox *>(field)) {
            bool ok = false;
            const double x = v.toDouble(&ok);
            if (ok)
                d->setValue(x);
        } else if (auto *c = qobject_cast<QComboBox *>(field)) {
            const int i = c->findText(v.toString());
            if (i >= 0)
                c->setCurrentIndex(i);
        } else if (auto *e = qobject_cast<QLineEdit *>(field)) {
            e->setText(v.toString());
        } else if (auto *a = qobject_cast<QAbstractButton *>(field)) {
            a->setChecked(v.toBool());
        }
    }
}

void RememberedFields::store() const
{
    QSettings settings;
    settings.beginGroup(m_group);
    for (const auto &[key, field] : m_fields) {
        if (auto *b = qobject_cast<QSpinBox *>(field))
            settings.setValue(key, b->value());
        else if (auto *d = qobject_cast<QDoubleSpinBox *>(field))
            settings.setValue(key, d->value());
        else if (auto *c = qobject_cast<QComboBox *>(field))
            settings.setValue(key, c->currentText());
        else if (auto *e = qobject_cast<QLineEdit *>(field))
            settings.setValue(key, e->text());
        else if (auto *a = qobject_cast<QAbstractButton *>(field))
            settings.setValue(key, a->isChecked());
    }
}

} // namespace cb::views
