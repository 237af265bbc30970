#pragma once
// Which run the analysis views show: the runs made or reopened in this window, newest
// first ("#12 STS seed 1", "#13 FIFO seed 1", "#11 dltap seed 1 (simulated)"), so that the
// several methods of one run request (STS and its baselines, or several policies and seeds)
// can each be stepped. Choosing one asks the window to show it.

#include "analysis/run_session.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;

namespace cb::views {

class RunChooser : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kMaxRuns = 30;

    explicit RunChooser(QWidget *parent = nullptr);

    /// Makes `session` the current entry, adding it first when it is new (the oldest entry
    /// goes beyond kMaxRuns). Null clears the selection.
    void setCurrent(const std::shared_ptr<const RunSession> &session);
    /// Forgets every run (a new scenario was opened).
    void clear();
    int count() const;
    std::shared_ptr<const RunSession> run(int index) const;
    int currentIndex() const;
    QComboBox *comboBox() const { return m_box; }

signals:
    void runChosen(std::shared_ptr<const RunSession> session);

private:
    void refill();

    std::vector<std::shared_ptr<const RunSession>> m_runs; ///< newest first
    QComboBox *m_box;
    QLabel *m_label;
};

} // namespace cb::views
