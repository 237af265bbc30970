#include "window/switch_dialog.h"

#include "commands/add_switch_command.h"
#include "commands/edit_switch_command.h"
#include "document/document.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace cb::views {

SwitchDialog::SwitchDialog(Document *document, int switchIndex, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
    , m_index(switchIndex)
    , m_id(new QLineEdit(this))
    , m_tier(new QComboBox(this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("switchDialog"));
    const Cluster &c = document->scenario().cluster;
    m_tier->setEditable(true);
    m_tier->setInsertPolicy(QComboBox::NoInsert);
    m_tier->addItems({QStringLiteral("tor"), QStringLiteral("leaf"), QStringLiteral("edge"),
                      QStringLiteral("aggregation"), QStringLiteral("spine"),
                      QStringLiteral("core")});
    m_tier->setToolTip(tr("Free text; the topology view places switches by their links, "
                          "the tier is what the exporters write"));
    m_problem->setStyleSheet(QStringLiteral("color: #b3261e"));
    m_problem->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Id:"), m_id);
    form->addRow(tr("&Tier:"), m_tier);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);

    if (isNew()) {
        setWindowTitle(tr("Add Switch"));
        m_id->setText(QString::fromStdString(document->uniqueNodeId("switch")));
        m_tier->setCurrentText(QStringLiteral("leaf"));
        m_filter = new QLineEdit(this);
        m_filter->setPlaceholderText(tr("filter nodes and switches"));
        m_endpoints = new QListWidget(this);
        m_endpoints->setObjectName(QStringLiteral("switchEndpoints"));
        for (const Switch &s : c.switches) {
            auto *item = new QListWidgetItem(QString::fromStdString(s.id), m_endpoints);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
            item->setToolTip(tr("switch, %1").arg(QString::fromStdString(s.tier)));
        }
        for (const Node &n : c.nodes) {
            auto *item = new QListWidgetItem(QString::fromStdString(n.id), m_endpoints);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Unchecked);
            item->setToolTip(tr("node, rack %1").arg(QString::fromStdString(n.rack)));
        }
        m_capacity = new QDoubleSpinBox(this);
        m_capacity->setRange(0.1, 1e6);
        m_capacity->setDecimals(1);
        m_capacity->setValue(100);
        m_capacity->setSuffix(tr(" Gbit/s per direction"));
        m_latency = new QDoubleSpinBox(this);
        m_latency->setRange(0, 1e6);
        m_latency->setDecimals(2);
        m_latency->setValue(1);
        m_latency->setSuffix(tr(" µs"));
        auto *linkForm = new QFormLayout;
        linkForm->addRow(tr("Link &capacity:"), m_capacity);
        linkForm->addRow(tr("Link &latency:"), m_latency);
        layout->addWidget(new QLabel(tr("Connect to:"), this));
        layout->addWidget(m_filter);
        layout->addWidget(m_endpoints, 1);
        layout->addLayout(linkForm);
        connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
            for (int i = 0; i < m_endpoints->count(); ++i) {
                QListWidgetItem *item = m_endpoints->item(i);
                item->setHidden(!text.isEmpty() &&
                                !item->text().contains(text.trimmed(), Qt::CaseInsensitive));
            }
        });
        resize(380, 480);
    } else {
        const Switch &s = c.switches[std::size_t(switchIndex)];
        setWindowTitle(tr("Switch %1").arg(QString::fromStdString(s.id)));
        m_id->setText(QString::fromStdString(s.id));
        m_tier->setCurrentText(QString::fromStdString(s.tier));
        const int links = int(document->linksOf(s.id).size());
        auto *note = new QLabel(tr("%n link(s) name this switch; a new id renames them too.",
                                   nullptr, links),
                                this);
        note->setWordWrap(true);
        layout->addWidget(note);
    }
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SwitchDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_id, &QLineEdit::textChanged, this, &SwitchDialog::check);
    connect(m_tier, &QComboBox::currentTextChanged, this, &SwitchDialog::check);
    check();
}

void SwitchDialog::setId(const QString &id)
{
    m_id->setText(id);
}

void SwitchDialog::setTier(const QString &tier)
{
    m_tier->setCurrentText(tier);
}

void SwitchDialog::setConnected(const QString &endpoint, bool connected)
{
    if (!m_endpoints)
        return;
    for (int i = 0; i < m_endpoints->count(); ++i)
        if (m_endpoints->item(i)->text() == endpoint)
            m_endpoints->item(i)->setCheckState(connected ? Qt::Checked : Qt::Unchecked);
}

void SwitchDialog::setCapacity(double gbps)
{
    if (m_capacity)
        m_capacity->setValue(gbps);
}

Switch SwitchDialog::value() const
{
    return Switch{m_id->text().trimmed().toStdString(),
                  m_tier->currentText().trimmed().toStdString()};
}

std::vector<Link> SwitchDialog::links() const
{
    std::vector<Link> out;
    if (!m_endpoints)
        return out;
    const std::string id = value().id;
    for (int i = 0; i < m_endpoints->count(); ++i)
        if (m_endpoints->item(i)->checkState() == Qt::Checked)
            out.push_back(Link{id, m_endpoints->item(i)->text().toStdString(),
                               m_capacity->value(), m_latency->value()});
    return out;
}

QString SwitchDialog::problem() const
{
    return switchProblem(m_document->scenario().cluster, value(), m_index);
}

void SwitchDialog::check()
{
    const QString why = problem();
    m_problem->setText(why);
    m_problem->setVisible(!why.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

bool SwitchDialog::apply()
{
    if (!problem().isEmpty())
        return false;
    const Switch sw = value();
    if (isNew()) {
        m_document->undoStack()->push(new AddSwitchCommand(m_document, sw, links()));
        return true;
    }
    if (sw == m_document->scenario().cluster.switches[std::size_t(m_index)])
        return false;
    m_document->undoStack()->push(new EditSwitchCommand(m_document, m_index, sw));
    return true;
}

void SwitchDialog::accept()
{
    if (!problem().isEmpty()) {
        check();
        return;
    }
    apply();
    QDialog::accept();
}

} // namespace cb::views
