#pragma once
// The authors' first-principle baselines: FIFO (by submission), EDF (by due date) and
// priority scheduling PS (by tardiness weight, highest first). Each waiting job takes the
// best configuration of the authors' ranking that fits (cheapest meeting the due date in the
// worst case, else fastest); running jobs keep their GPUs until they end (no preemption).

#include "stochastic/sts_scheduler.h"

namespace cb {

class FirstPrincipleScheduler : public StsScheduler
{
public:
    enum class Order { Fifo, Edf, Priority };
    explicit FirstPrincipleScheduler(Order order) : m_order(order) {}

    std::string name() const override;
    bool replansRunningJobs() const override { return false; }
    std::vector<StsAssignment> schedule(StsPass &pass) override;

private:
    Order m_order;
};

} // namespace cb
