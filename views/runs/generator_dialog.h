#pragma once
// Generates a cluster with the core generators (leaf-spine, k-ary fat-tree, DGX rail-optimised
// fabric): the parameters of the chosen kind, the hosts (for leaf-spine and fat-tree), a live
// summary of what will be generated (or every parameter problem), and whether the result
// replaces the open scenario's cluster (one undo step, jobs kept) or becomes a new scenario.

#include "model/cluster.h"
#include "util/result.h"
#include "window/remembered_fields.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QStackedWidget;

namespace cb::views {

class Document;

/// Replaces the document's cluster with `cluster`, keeping the jobs, as one undo step
/// ("Generate <what>").
void replaceCluster(Document *document, Cluster cluster, const QString &what);

class GeneratorDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Kind { LeafSpine, FatTree, Dgx };

    explicit GeneratorDialog(QWidget *parent = nullptr);

    void setKind(Kind kind);
    Kind kind() const;
    /// Generates from the current parameters.
    Result<Cluster> generate() const;
    /// "Fat-tree k=4 (16 nodes)": a name for a new scenario and the undo text.
    QString describe() const;
    /// True: replace the open scenario's cluster; false: open a new scenario.
    bool replaceOpenScenario() const;
    void setReplaceOpenScenario(bool replace);

    // Parameter widgets, for tests and keyboard users alike.
    QSpinBox *leaves() const { return m_leaves; }
    QSpinBox *spines() const { return m_spines; }
    QSpinBox *hostsPerLeaf() const { return m_hostsPerLeaf; }
    QSpinBox *fatTreeK() const { return m_k; }
    QSpinBox *dgxNodes() const { return m_dgxNodes; }

private:
    void updateSummary();

    QComboBox *m_kind;
    QStackedWidget *m_pages;
    // leaf-spine
    QSpinBox *m_leaves, *m_spines, *m_hostsPerLeaf;
    QDoubleSpinBox *m_oversub, *m_hostGbps;
    // fat-tree
    QSpinBox *m_k;
    QDoubleSpinBox *m_linkGbps;
    // DGX
    QSpinBox *m_dgxNodes, *m_nics, *m_perUnit, *m_dgxSpines;
    QDoubleSpinBox *m_nicGbps, *m_dgxOversub;
    QComboBox *m_dgxGpu;
    // hosts (leaf-spine and fat-tree)
    QSpinBox *m_gpus;
    QComboBox *m_gpuType;
    QDoubleSpinBox *m_cpus, *m_memory;
    QLineEdit *m_prefix;
    QWidget *m_hostBox;
    QRadioButton *m_replace, *m_new;
    QLabel *m_summary;
    QWidget *m_okButton = nullptr;
    /// Every parameter, the fabric and where the result goes, as last generated.
    RememberedFields m_remembered{QStringLiteral("generate")};
};

} // namespace cb::views
