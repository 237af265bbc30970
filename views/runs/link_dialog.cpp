#include "runs/link_dialog.h"

#include "commands/add_link_command.h"
#include "commands/remove_link_command.h"
#include "document/document.h"
#include "models/quantity_format.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace cb::views {

QString linkProblem(const Cluster &cluster, const Link &link)
{
    auto known = [&](const std::string &id) {
        return std::any_of(cluster.nodes.begin(), cluster.nodes.end(),
                           [&](const Node &n) { return n.id == id; }) ||
               std::any_of(cluster.switches.begin(), cluster.switches.end(),
                           [&](const Switch &s) { return s.id == id; });
    };
    if (!known(link.a))
        return QObject::tr("no node or switch named \"%1\"").arg(QString::fromStdString(link.a));
    if (!known(link.b))
        return QObject::tr("no node or switch named \"%1\"").arg(QString::fromStdString(link.b));
    if (link.a == link.b)
        return QObject::tr("a link needs two different endpoints");
    if (!(link.capacityGbps > 0))
        return QObject::tr("capacity must be positive");
    if (link.latencyUs < 0)
        return QObject::tr("latency cannot be negative");
    for (const Link &l : cluster.links)
        if ((l.a == link.a && l.b == link.b) || (l.a == link.b && l.b == link.a))
            return QObject::tr("%1 and %2 are already linked")
                .arg(QString::fromStdString(link.a), QString::fromStdString(link.b));
    return {};
}

LinkDialog::LinkDialog(Document *document, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
    , m_a(new QComboBox(this))
    , m_b(new QComboBox(this))
    , m_capacity(new QDoubleSpinBox(this))
    , m_latency(new QDoubleSpinBox(this))
    , m_problem(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_links(new QListWidget(this))
{
    setObjectName(QStringLiteral("linkDialog"));
    setWindowTitle(tr("Links"));
    const Cluster &c = document->scenario().cluster;
    for (QComboBox *box : {m_a, m_b}) {
        box->setEditable(true);
        box->setInsertPolicy(QComboBox::NoInsert);
        for (const Switch &s : c.switches)
            box->addItem(QString::fromStdString(s.id));
        for (const Node &n : c.nodes)
            box->addItem(QString::fromStdString(n.id));
        connect(box, &QComboBox::currentTextChanged, this, &LinkDialog::check);
    }
    m_capacity->setRange(0, 1e6);
    m_capacity->setDecimals(1);
    m_capacity->setValue(100);
    m_capacity->setSuffix(tr(" Gb/s per direction"));
    m_latency->setRange(0, 1e6);
    m_latency->setDecimals(2);
    m_latency->setValue(1);
    m_latency->setSuffix(tr(" µs"));
    connect(m_capacity, &QDoubleSpinBox::valueChanged, this, &LinkDialog::check);
    connect(m_latency, &QDoubleSpinBox::valueChanged, this, &LinkDialog::check);
    m_problem->setStyleSheet(QStringLiteral("color: #b3261e"));

    auto *addBox = new QGroupBox(tr("Add a link"), this);
    auto *form = new QFormLayout(addBox);
    form->addRow(tr("From:"), m_a);
    form->addRow(tr("To:"), m_b);
    form->addRow(tr("Capacity:"), m_capacity);
    form->addRow(tr("Latency:"), m_latency);
    auto *addButton = new QPushButton(tr("&Add Link"), addBox);
    form->addRow(m_problem, addButton);

    auto *removeBox = new QGroupBox(tr("Remove a link"), this);
    auto *removeLayout = new QVBoxLayout(removeBox);
    m_filter->setPlaceholderText(tr("filter by endpoint"));
    auto *removeButton = new QPushButton(tr("&Remove Selected"), removeBox);
    removeLayout->addWidget(m_filter);
    removeLayout->addWidget(m_links, 1);
    removeLayout->addWidget(removeButton, 0, Qt::AlignRight);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    auto *row = new QHBoxLayout;
    row->addWidget(addBox);
    row->addWidget(removeBox, 1);
    layout->addLayout(row, 1);
    layout->addWidget(buttons);
    resize(820, 420);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(addButton, &QPushButton::clicked, this, &LinkDialog::addLink);
    connect(removeButton, &QPushButton::clicked, this, [this] {
        if (QListWidgetItem *item = m_links->currentItem())
            removeLink(item->data(Qt::UserRole).toInt());
    });
    connect(m_filter, &QLineEdit::textChanged, this, &LinkDialog::reloadLinks);
    connect(document, &Document::rowInserted, this, &LinkDialog::reloadLinks);
    connect(document, &Document::rowRemoved, this, &LinkDialog::reloadLinks);
    connect(document, &Document::scenarioReplaced, this, &LinkDialog::reloadLinks);
    if (c.switches.size() + c.nodes.size() > 1)
        m_b->setCurrentIndex(1);
    reloadLinks();
    check();
}

void LinkDialog::setLink(const Link &link)
{
    m_a->setCurrentText(QString::fromStdString(link.a));
    m_b->setCurrentText(QString::fromStdString(link.b));
    m_capacity->setValue(link.capacityGbps);
    m_latency->setValue(link.latencyUs);
}

Link LinkDialog::link() const
{
    return Link{m_a->currentText().trimmed().toStdString(), m_b->currentText().trimmed().toStdString(),
                m_capacity->value(), m_latency->value()};
}

QString LinkDialog::problem() const
{
    return linkProblem(m_document->scenario().cluster, link());
}

void LinkDialog::check()
{
    m_problem->setText(problem());
}

bool LinkDialog::addLink()
{
    const QString why = problem();
    m_problem->setText(why);
    if (!why.isEmpty())
        return false;
    m_document->undoStack()->push(new AddLinkCommand(m_document, link()));
    check();
    return true;
}

bool LinkDialog::removeLink(int index)
{
    if (index < 0 || index >= int(m_document->scenario().cluster.links.size()))
        return false;
    m_document->undoStack()->push(new RemoveLinkCommand(m_document, index));
    return true;
}

void LinkDialog::reloadLinks()
{
    m_links->clear();
    const QString filter = m_filter->text().trimmed();
    const auto &links = m_document->scenario().cluster.links;
    for (int i = 0; i < int(links.size()); ++i) {
        const Link &l = links[std::size_t(i)];
        const QString a = QString::fromStdString(l.a), b = QString::fromStdString(l.b);
        if (!filter.isEmpty() && !a.contains(filter, Qt::CaseInsensitive) &&
            !b.contains(filter, Qt::CaseInsensitive))
            continue;
        auto *item = new QListWidgetItem(QStringLiteral("%1 — %2   %3, %4 µs")
                                             .arg(a, b, formatGbps(l.capacityGbps))
                                             .arg(l.latencyUs),
                                         m_links);
        item->setData(Qt::UserRole, i);
    }
}

} // namespace cb::views
