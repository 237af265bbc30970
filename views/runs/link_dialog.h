#pragma once
// Adds, edits or removes links of the open cluster, each as one undo command (AddLinkCommand,
// EditLinkCommand, RemoveLinkCommand): endpoints from the cluster's nodes and switches,
// capacity and latency, checked before anything changes (unknown endpoint, a link to itself,
// a duplicate, a capacity that is not positive). Choosing a link in the filterable list puts
// it in the form to change or remove it. Every change is confirmed below the form.

#include "model/cluster.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace cb::views {

class Document;

/// Why `link` cannot be added to `cluster` (or replace link `replacing`), or empty when it can.
QString linkProblem(const Cluster &cluster, const Link &link, int replacing = -1);

class LinkDialog : public QDialog
{
    Q_OBJECT

public:
    explicit LinkDialog(Document *document, QWidget *parent = nullptr);

    void setLink(const Link &link);
    Link link() const;
    /// Pushes an AddLinkCommand; false (with the reason shown) when the link is invalid.
    bool addLink();
    /// Pushes a RemoveLinkCommand for the link at `index` in the cluster's list.
    bool removeLink(int index);
    /// Puts link `index` in the form; applyEdit() then changes that link.
    void selectLink(int index);
    int selectedLink() const { return m_editing; }
    /// Pushes an EditLinkCommand for the selected link with the form's values.
    bool applyEdit();
    /// Why the form's link cannot be added (or, with a selected link, applied), or empty.
    QString problem() const;
    /// What the last change did ("Added a — b, 100 Gbit/s"), or the problem that stopped it.
    QString statusText() const;

private:
    void reloadLinks();
    void check();

    Document *m_document;
    QComboBox *m_a;
    QComboBox *m_b;
    QDoubleSpinBox *m_capacity;
    QDoubleSpinBox *m_latency;
    QLabel *m_problem;
    QLabel *m_status;
    QLineEdit *m_filter;
    QListWidget *m_links;
    class QPushButton *m_apply;
    int m_editing = -1;
};

} // namespace cb::views
