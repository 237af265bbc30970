#pragma once
// Adds or removes links of the open cluster, each as one undo command (AddLinkCommand,
// RemoveLinkCommand): endpoints from the cluster's nodes and switches, capacity and latency,
// checked before anything changes (unknown endpoint, a link to itself, a duplicate, a
// capacity that is not positive); removal from a filterable list of the links.

#include "model/cluster.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace cb::views {

class Document;

/// Why `link` cannot be added to `cluster`, or empty when it can.
QString linkProblem(const Cluster &cluster, const Link &link);

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
    QString problem() const;

private:
    void reloadLinks();
    void check();

    Document *m_document;
    QComboBox *m_a;
    QComboBox *m_b;
    QDoubleSpinBox *m_capacity;
    QDoubleSpinBox *m_latency;
    QLabel *m_problem;
    QLineEdit *m_filter;
    QListWidget *m_links;
};

} // namespace cb::views
