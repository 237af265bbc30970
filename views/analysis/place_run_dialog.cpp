#include "analysis/place_run_dialog.h"

#include "sched/policy.h"
#include "io/policy_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QFormLayout>
#include <QSpinBox>

#include <limits>

namespace cb::views {

PlaceRunDialog::PlaceRunDialog(const cb::Scenario &scenario, QWidget *parent)
    : QDialog(parent)
    , m_policy(new QComboBox(this))
    , m_seed(new QSpinBox(this))
    , m_simulate(new QCheckBox(tr("Also &simulate over time (timelines, traffic per bucket)"),
                               this))
{
    setWindowTitle(tr("Place and Simulate"));
    setObjectName(QStringLiteral("placeRunDialog"));
    // The scenario's own presets first (they may shadow built-ins), then the built-ins.
    QStringList names;
    if (auto presets = userPresets(scenario, {}); presets.ok())
        for (const Policy &p : presets.value())
            if (!names.contains(QString::fromStdString(p.name)))
                names << QString::fromStdString(p.name);
    for (const std::string &name : builtinPolicyNames())
        if (!names.contains(QString::fromStdString(name)))
            names << QString::fromStdString(name);
    m_policy->addItems(names);
    setPolicy("dltap");
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(int(std::min<std::uint64_t>(scenario.settings.seed,
                                                 std::uint64_t(m_seed->maximum()))));
    m_simulate->setChecked(true);

    auto *form = new QFormLayout(this);
    form->addRow(tr("&Policy:"), m_policy);
    form->addRow(tr("S&eed:"), m_seed);
    form->addRow(m_simulate);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

std::string PlaceRunDialog::policy() const
{
    return m_policy->currentText().toStdString();
}

std::uint64_t PlaceRunDialog::seed() const
{
    return std::uint64_t(m_seed->value());
}

bool PlaceRunDialog::simulate() const
{
    return m_simulate->isChecked();
}

void PlaceRunDialog::setPolicy(const std::string &name)
{
    const int i = m_policy->findText(QString::fromStdString(name));
    if (i >= 0)
        m_policy->setCurrentIndex(i);
}

void PlaceRunDialog::setSeed(std::uint64_t seed)
{
    m_seed->setValue(int(std::min<std::uint64_t>(seed, std::uint64_t(m_seed->maximum()))));
}

void PlaceRunDialog::setSimulate(bool on)
{
    m_simulate->setChecked(on);
}

} // namespace cb::views
