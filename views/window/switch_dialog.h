#pragma once
// The properties of a switch: its id and tier, for a new switch also what it connects to
// (nodes and switches, ticked in a filterable list) and the capacity and latency of those
// links. Accepting pushes one undo command: AddSwitchCommand for a new switch, or
// EditSwitchCommand (a rename carries the links along). The id is checked as it is typed
// with the scenario validator's rules (switchProblem); OK stays disabled while it is wrong.

#include "model/cluster.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace cb::views {

class Document;

class SwitchDialog : public QDialog
{
    Q_OBJECT

public:
    /// Edits the switch at `switchIndex`, or adds a new one when it is -1.
    SwitchDialog(Document *document, int switchIndex, QWidget *parent = nullptr);

    bool isNew() const { return m_index < 0; }
    void setId(const QString &id);
    void setTier(const QString &tier);
    /// Ticks (or unticks) a node or switch to link a new switch to.
    void setConnected(const QString &endpoint, bool connected);
    void setCapacity(double gbps);
    Switch value() const;
    /// The links a new switch gets (none when editing), in list order.
    std::vector<Link> links() const;
    /// Why the current values cannot be applied, or empty.
    QString problem() const;
    /// Pushes the command; false (nothing pushed) on a problem or when nothing changed.
    bool apply();

    void accept() override;

private:
    void check();

    Document *m_document;
    int m_index;
    QLineEdit *m_id;
    QComboBox *m_tier;
    QLineEdit *m_filter = nullptr;
    QListWidget *m_endpoints = nullptr;
    QDoubleSpinBox *m_capacity = nullptr;
    QDoubleSpinBox *m_latency = nullptr;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};

} // namespace cb::views
