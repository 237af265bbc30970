#pragma once
// "Run > Place and Simulate…": picks a policy (the scenario's own presets and the built-ins,
// then STS and its baselines), a seed and whether to simulate (stochastic policies always
// do). The run itself is MainWindow's business.

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
    /// The chosen policy is STS or one of its baselines.
    bool stochastic() const;

    void setPolicy(const std::string &name);
    void setSeed(std::uint64_t seed);
    void setSimulate(bool on);

private:
    void updateSimulate();

    QComboBox *m_policy;
    QSpinBox *m_seed;
    QCheckBox *m_simulate;
    bool m_placementSimulate = true; ///< the box for placement policies, kept across STS picks
};

} // namespace cb::views
