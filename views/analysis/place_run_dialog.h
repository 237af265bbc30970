#pragma once
// "Run > Place and Simulate…": picks a policy (the scenario's own presets and the built-ins),
// a seed and whether to simulate. The run itself is MainWindow's business.

#include "model/scenario.h"

#include <QDialog>

#include <cstdint>
#include <string>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace cb::views {

class PlaceRunDialog : public QDialog
{
    Q_OBJECT

public:
    explicit PlaceRunDialog(const cb::Scenario &scenario, QWidget *parent = nullptr);

    std::string policy() const;
    std::uint64_t seed() const;
    bool simulate() const;

    void setPolicy(const std::string &name);
    void setSeed(std::uint64_t seed);
    void setSimulate(bool on);

private:
    QComboBox *m_policy;
    QSpinBox *m_seed;
    QCheckBox *m_simulate;
};

} // namespace cb::views
