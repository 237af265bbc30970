#include "runs/generator_dialog.h"

#include "commands/replace_scenario_command.h"
#include "document/document.h"
#include "model/gen_dgx.h"
#include "model/gen_fat_tree.h"
#include "model/gen_leaf_spine.h"
#include "model/gpu_catalog.h"
#include "models/quantity_format.h"
#include "net/topology.h"
#include "util/text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cb::views {

void replaceCluster(Document *document, Cluster cluster, const QString &what)
{
    Scenario s = document->scenario();
    s.cluster = std::move(cluster);
    document->undoStack()->push(new ReplaceScenarioCommand(
        document, std::move(s), QObject::tr("Generate %1").arg(what)));
}

namespace {

QSpinBox *intBox(QWidget *parent, int lo, int hi, int value, int step = 1)
{
    auto *b = new QSpinBox(parent);
    b->setRange(lo, hi);
    b->setSingleStep(step);
    b->setValue(value);
    return b;
}

QDoubleSpinBox *numberBox(QWidget *parent, double lo, double hi, double value,
                          const QString &suffix, int decimals = 1)
{
    auto *b = new QDoubleSpinBox(parent);
    b->setRange(lo, hi);
    b->setDecimals(decimals);
    b->setValue(value);
    b->setSuffix(suffix);
    return b;
}

} // namespace

GeneratorDialog::GeneratorDialog(QWidget *parent)
    : QDialog(parent)
    , m_kind(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
{
    setObjectName(QStringLiteral("generatorDialog"));
    setWindowTitle(tr("Generate Cluster"));
    const LeafSpineParams ls;
    const FatTreeParams ft;
    const DgxParams dgx;
    m_kind->addItem(tr("Leaf-spine (two-tier Clos)"));
    m_kind->addItem(tr("Fat-tree (k-ary, Al-Fares et al. 2008)"));
    m_kind->addItem(tr("DGX SuperPOD-style (rail-optimised, 8 GPUs per node)"));

    auto *lsPage = new QWidget(this);
    auto *lsForm = new QFormLayout(lsPage);
    m_leaves = intBox(lsPage, 1, 512, ls.leaves);
    m_spines = intBox(lsPage, 0, 128, ls.spines);
    m_hostsPerLeaf = intBox(lsPage, 1, 256, ls.hostsPerLeaf);
    m_oversub = numberBox(lsPage, 1, 64, ls.oversubscription, QStringLiteral(" : 1"));
    m_hostGbps = numberBox(lsPage, 1, 3200, ls.hostLinkGbps, QStringLiteral(" Gbit/s"), 0);
    lsForm->addRow(tr("Leaf switches:"), m_leaves);
    lsForm->addRow(tr("Spine switches:"), m_spines);
    lsForm->addRow(tr("Hosts per leaf:"), m_hostsPerLeaf);
    lsForm->addRow(tr("Oversubscription:"), m_oversub);
    lsForm->addRow(tr("Host link:"), m_hostGbps);

    auto *ftPage = new QWidget(this);
    auto *ftForm = new QFormLayout(ftPage);
    m_k = intBox(ftPage, 2, 64, ft.k, 2);
    m_linkGbps = numberBox(ftPage, 1, 3200, ft.linkGbps, QStringLiteral(" Gbit/s"), 0);
    ftForm->addRow(tr("Switch radix k (even):"), m_k);
    ftForm->addRow(tr("Every link:"), m_linkGbps);

    auto *dgxPage = new QWidget(this);
    auto *dgxForm = new QFormLayout(dgxPage);
    m_dgxNodes = intBox(dgxPage, 1, 4096, dgx.nodes);
    m_nics = intBox(dgxPage, 1, 16, dgx.nicsPerNode);
    m_nicGbps = numberBox(dgxPage, 1, 3200, dgx.nicGbps, QStringLiteral(" Gbit/s"), 0);
    m_perUnit = intBox(dgxPage, 1, 1024, dgx.nodesPerUnit);
    m_dgxSpines = intBox(dgxPage, 0, 128, dgx.spines);
    m_dgxOversub = numberBox(dgxPage, 1, 64, dgx.oversubscription, QStringLiteral(" : 1"));
    m_dgxGpu = new QComboBox(dgxPage);
    dgxForm->addRow(tr("Nodes:"), m_dgxNodes);
    dgxForm->addRow(tr("NICs (rails) per node:"), m_nics);
    dgxForm->addRow(tr("Per NIC:"), m_nicGbps);
    dgxForm->addRow(tr("Nodes per scalable unit:"), m_perUnit);
    dgxForm->addRow(tr("Spine switches:"), m_dgxSpines);
    dgxForm->addRow(tr("Oversubscription:"), m_dgxOversub);
    dgxForm->addRow(tr("GPU (8 per node):"), m_dgxGpu);

    m_pages->addWidget(lsPage);
    m_pages->addWidget(ftPage);
    m_pages->addWidget(dgxPage);

    const HostParams host;
    auto *hostBox = new QGroupBox(tr("Every host"), this);
    m_hostBox = hostBox;
    auto *hostForm = new QFormLayout(hostBox);
    m_gpus = intBox(hostBox, 0, 16, host.gpus);
    m_gpuType = new QComboBox(hostBox);
    for (const GpuCatalogEntry &e : gpuCatalog()) {
        m_gpuType->addItem(QString::fromStdString(e.type.name));
        m_dgxGpu->addItem(QString::fromStdString(e.type.name));
    }
    m_gpuType->setCurrentText(QString::fromStdString(host.gpuType));
    m_dgxGpu->setCurrentText(QString::fromStdString(dgx.host.gpuType));
    m_cpus = numberBox(hostBox, 1, 1024, host.cpus, QString(), 0);
    m_memory = numberBox(hostBox, 1, 65536, host.memoryGiB, QStringLiteral(" GiB"), 0);
    m_prefix = new QLineEdit(QString::fromStdString(host.prefix), hostBox);
    hostForm->addRow(tr("GPUs:"), m_gpus);
    hostForm->addRow(tr("GPU type:"), m_gpuType);
    hostForm->addRow(tr("CPUs:"), m_cpus);
    hostForm->addRow(tr("Memory:"), m_memory);
    hostForm->addRow(tr("Host name prefix:"), m_prefix);

    auto *target = new QGroupBox(tr("Result"), this);
    auto *targetLayout = new QVBoxLayout(target);
    m_replace = new QRadioButton(tr("Replace the cluster of the open scenario (jobs are kept; "
                                    "one undo step)"), target);
    m_new = new QRadioButton(tr("New scenario (the open one is closed)"), target);
    m_replace->setChecked(true);
    targetLayout->addWidget(m_replace);
    targetLayout->addWidget(m_new);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("generatorSummary"));
    m_summary->setWordWrap(true);
    m_summary->setMinimumHeight(48);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Generate"));
    m_okButton = buttons->button(QDialogButtonBox::Ok);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    auto *kindForm = new QFormLayout;
    kindForm->addRow(tr("Fabric:"), m_kind);
    layout->addLayout(kindForm);
    layout->addWidget(m_pages);
    layout->addWidget(hostBox);
    layout->addWidget(target);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_pages->setCurrentIndex(i);
        m_hostBox->setVisible(i != int(Kind::Dgx));
        updateSummary();
    });
    for (QSpinBox *b : findChildren<QSpinBox *>())
        connect(b, &QSpinBox::valueChanged, this, &GeneratorDialog::updateSummary);
    for (QDoubleSpinBox *b : findChildren<QDoubleSpinBox *>())
        connect(b, &QDoubleSpinBox::valueChanged, this, &GeneratorDialog::updateSummary);
    for (QComboBox *b : {m_gpuType, m_dgxGpu})
        connect(b, &QComboBox::currentIndexChanged, this, &GeneratorDialog::updateSummary);
    connect(m_prefix, &QLineEdit::textChanged, this, &GeneratorDialog::updateSummary);
    // Opens as the user last generated: the fabric, its parameters, the hosts and where the
    // result went.
    const QList<QPair<QString, QWidget *>> fields{
        {QStringLiteral("fabric"), m_kind},
        {QStringLiteral("leafSpine/leaves"), m_leaves},
        {QStringLiteral("leafSpine/spines"), m_spines},
        {QStringLiteral("leafSpine/hostsPerLeaf"), m_hostsPerLeaf},
        {QStringLiteral("leafSpine/oversubscription"), m_oversub},
        {QStringLiteral("leafSpine/hostLinkGbps"), m_hostGbps},
        {QStringLiteral("fatTree/k"), m_k},
        {QStringLiteral("fatTree/linkGbps"), m_linkGbps},
        {QStringLiteral("dgx/nodes"), m_dgxNodes},
        {QStringLiteral("dgx/nicsPerNode"), m_nics},
        {QStringLiteral("dgx/nicGbps"), m_nicGbps},
        {QStringLiteral("dgx/nodesPerUnit"), m_perUnit},
        {QStringLiteral("dgx/spines"), m_dgxSpines},
        {QStringLiteral("dgx/oversubscription"), m_dgxOversub},
        {QStringLiteral("dgx/gpuType"), m_dgxGpu},
        {QStringLiteral("host/gpus"), m_gpus},
        {QStringLiteral("host/gpuType"), m_gpuType},
        {QStringLiteral("host/cpus"), m_cpus},
        {QStringLiteral("host/memoryGiB"), m_memory},
        {QStringLiteral("host/prefix"), m_prefix},
        {QStringLiteral("newScenario"), m_new}};
    for (const auto &[key, field] : fields)
        m_remembered.add(key, field);
    m_remembered.restore();
    connect(this, &QDialog::accepted, this, [this] { m_remembered.store(); });
    updateSummary();
}

void GeneratorDialog::setKind(Kind kind)
{
    m_kind->setCurrentIndex(int(kind));
}

GeneratorDialog::Kind GeneratorDialog::kind() const
{
    return Kind(m_kind->currentIndex());
}

bool GeneratorDialog::replaceOpenScenario() const
{
    return m_replace->isChecked();
}

void GeneratorDialog::setReplaceOpenScenario(bool replace)
{
    (replace ? m_replace : m_new)->setChecked(true);
}

Result<Cluster> GeneratorDialog::generate() const
{
    HostParams host;
    host.gpus = m_gpus->value();
    host.gpuType = m_gpuType->currentText().toStdString();
    host.cpus = m_cpus->value();
    host.memoryGiB = m_memory->value();
    host.prefix = m_prefix->text().trimmed().toStdString();
    switch (kind()) {
    case Kind::LeafSpine: {
        LeafSpineParams p;
        p.leaves = m_leaves->value();
        p.spines = m_spines->value();
        p.hostsPerLeaf = m_hostsPerLeaf->value();
        p.oversubscription = m_oversub->value();
        p.hostLinkGbps = m_hostGbps->value();
        p.host = host;
        return generateLeafSpine(p);
    }
    case Kind::FatTree: {
        FatTreeParams p;
        p.k = m_k->value();
        p.linkGbps = m_linkGbps->value();
        p.host = host;
        return generateFatTree(p);
    }
    case Kind::Dgx: {
        DgxParams p;
        p.nodes = m_dgxNodes->value();
        p.nicsPerNode = m_nics->value();
        p.nicGbps = m_nicGbps->value();
        p.nodesPerUnit = m_perUnit->value();
        p.spines = m_dgxSpines->value();
        p.oversubscription = m_dgxOversub->value();
        p.host.gpuType = m_dgxGpu->currentText().toStdString();
        return generateDgx(p);
    }
    }
    return Result<Cluster>::failure({}, "unknown generator");
}

QString GeneratorDialog::describe() const
{
    switch (kind()) {
    case Kind::LeafSpine:
        return tr("Leaf-spine %1 × %2 × %3")
            .arg(m_leaves->value())
            .arg(m_spines->value())
            .arg(m_hostsPerLeaf->value());
    case Kind::FatTree: return tr("Fat-tree k=%1").arg(m_k->value());
    case Kind::Dgx: return tr("DGX cluster, %1 nodes").arg(m_dgxNodes->value());
    }
    return {};
}

void GeneratorDialog::updateSummary()
{
    const auto cluster = generate();
    if (!cluster) {
        QStringList lines;
        for (const Problem &p : cluster.problems())
            lines << QString::fromStdString(p.toString()).toHtmlEscaped();
        m_summary->setText(QStringLiteral("<span style='color:#b3261e'>%1</span>")
                               .arg(lines.join(QStringLiteral("<br>"))));
        m_okButton->setEnabled(false);
        return;
    }
    const Cluster &c = cluster.value();
    int gpus = 0;
    for (const Node &n : c.nodes)
        gpus += n.gpus;
    QString text =
        QString::fromStdString(counted(long(c.nodes.size()), "node") + ", " + counted(gpus, "GPU") +
                               ", " + counted(long(c.switches.size()), "switch", "switches") +
                               ", " + counted(long(c.links.size()), "link"));
    if (c.nodes.size() <= 4096) { // bisection needs routes: keep the dialog responsive
        const Topology topology(c);
        text += tr("; bisection %1").arg(formatGbps(topology.bisectionGbps()));
    }
    m_summary->setText(text);
    m_okButton->setEnabled(true);
}

} // namespace cb::views
