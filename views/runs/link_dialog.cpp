#include "runs/link_dialog.h"

#include "commands/add_link_command.h"
#include "commands/edit_link_command.h"
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

QString linkProblem(const Cluster &cluster, const Link &link, int replacing)
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
    for (int i = 0; i < int(cluster.links.size()); ++i) {
        const Link &l = cluster.links[std::size_t(i)];
        if (i != replacing &&
            ((l.a == link.a && l.b == link.b) || (l.a == link.b && l.b == link.a)))
            return QObject::tr("%1 and %2 are already linked")
                .arg(QString::fromStdString(link.a), QString::fromStdString(link.b));
    }
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
    , m_status(new QLabel(this))
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
    m_capacity->setSuffix(tr(" Gbit/s per direction"));
    m_latency->setRange(0, 1e6);
    m_latency->setDecimals(2);
    m_latency->setValue(1);
    m_latency->setSuffix(tr(" µs"));
    connect(m_capacity, &QDoubleSpinBox::valueChanged, this, &LinkDialog::check);
    connect(m_latency, &QDoubleSpinBox::valueChanged, this, &LinkDialog::check);
    m_problem->setStyleSheet(QStringLiteral("color: #b3261e"));
    m_problem->setWordWrap(true);
    m_problem->setObjectName(QStringLiteral("linkProblem"));
    m_status->setObjectName(QStringLiteral("linkStatus"));
    m_status->setWordWrap(true);

    auto *addBox = new QGroupBox(tr("Link"), this);
    auto *form = new QFormLayout(addBox);
    form->addRow(tr("From:"), m_a);
    form->addRow(tr("To:"), m_b);
    form->addRow(tr("Capacity:"), m_capacity);
    form->addRow(tr("Latency:"), m_latency);
    auto *addButton = new QPushButton(tr("&Add as New Link"), addBox);
    m_apply = new QPushButton(tr("A&pply to Selected Link"), addBox);
    m_apply->setEnabled(false);
    auto *formButtons = new QHBoxLayout;
    formButtons->addWidget(addButton);
    formButtons->addWidget(m_apply);
    form->addRow(formButtons);
    form->addRow(m_problem);
    form->addRow(m_status);

    auto *removeBox = new QGroupBox(tr("Links (choose one to edit or remove it)"), this);
    auto *removeLayout = new QVBoxLayout(removeBox);
    m_filter->setPlaceholderText(tr("filter by endpoint"));
    m_links->setObjectName(QStringLiteral("linkList"));
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
    connect(m_apply, &QPushButton::clicked, this, &LinkDialog::applyEdit);
    connect(m_links, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        if (item)
            selectLink(item->data(Qt::UserRole).toInt());
    });
    connect(removeButton, &QPushButton::clicked, this, [this] {
        if (QListWidgetItem *item = m_links->currentItem())
            removeLink(item->data(Qt::UserRole).toInt());
    });
    connect(m_filter, &QLineEdit::textChanged, this, &LinkDialog::reloadLinks);
    connect(document, &Document::rowInserted, this, &LinkDialog::reloadLinks);
    connect(document, &Document::rowRemoved, this, &LinkDialog::reloadLinks);
    connect(document, &Document::rowChanged, this, &LinkDialog::reloadLinks);
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
    return linkProblem(m_document->scenario().cluster, link(), m_editing);
}

QString LinkDialog::statusText() const
{
    return m_status->text();
}

void LinkDialog::check()
{
    // A problem only for what the user is about to do; the last confirmation stays until then.
    m_problem->setText(problem());
}

bool LinkDialog::addLink()
{
    const QString why = linkProblem(m_document->scenario().cluster, link());
    if (!why.isEmpty()) {
        m_problem->setText(why);
        return false;
    }
    const Link l = link();
    m_document->undoStack()->push(new AddLinkCommand(m_document, l));
    m_editing = -1;
    m_apply->setEnabled(false);
    m_problem->clear(); // not "already linked": it is, because it was just added
    m_status->setText(tr("Added %1 — %2, %3, %4 µs")
                          .arg(QString::fromStdString(l.a), QString::fromStdString(l.b),
                               formatGbps(l.capacityGbps), formatNumber(l.latencyUs)));
    return true;
}

void LinkDialog::selectLink(int index)
{
    const auto &links = m_document->scenario().cluster.links;
    if (index < 0 || index >= int(links.size()))
        return;
    m_editing = -1; // the form's checks run against the other links once it is filled
    setLink(links[std::size_t(index)]);
    m_editing = index;
    m_apply->setEnabled(true);
    check();
}

bool LinkDialog::applyEdit()
{
    const auto &links = m_document->scenario().cluster.links;
    if (m_editing < 0 || m_editing >= int(links.size()))
        return false;
    const QString why = problem();
    if (!why.isEmpty()) {
        m_problem->setText(why);
        return false;
    }
    const Link l = link();
    if (l.a == links[std::size_t(m_editing)].a && l.b == links[std::size_t(m_editing)].b &&
        l.capacityGbps == links[std::size_t(m_editing)].capacityGbps &&
        l.latencyUs == links[std::size_t(m_editing)].latencyUs)
        return false;
    m_document->undoStack()->push(new EditLinkCommand(m_document, m_editing, l));
    m_problem->clear();
    m_status->setText(tr("Changed the link to %1 — %2, %3, %4 µs")
                          .arg(QString::fromStdString(l.a), QString::fromStdString(l.b),
                               formatGbps(l.capacityGbps), formatNumber(l.latencyUs)));
    return true;
}

bool LinkDialog::removeLink(int index)
{
    const auto &links = m_document->scenario().cluster.links;
    if (index < 0 || index >= int(links.size()))
        return false;
    const Link l = links[std::size_t(index)];
    m_document->undoStack()->push(new RemoveLinkCommand(m_document, index));
    m_editing = -1;
    m_apply->setEnabled(false);
    m_status->setText(tr("Removed %1 — %2").arg(QString::fromStdString(l.a),
                                                QString::fromStdString(l.b)));
    check();
    return true;
}

void LinkDialog::reloadLinks()
{
    const QSignalBlocker block(m_links); // rebuilding is not choosing a link
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
                                             .arg(a, b, formatGbps(l.capacityGbps),
                                                  formatNumber(l.latencyUs)),
                                         m_links);
        item->setData(Qt::UserRole, i);
        if (i == m_editing)
            m_links->setCurrentItem(item);
    }
}

} // namespace cb::views
