#include "analysis/run_chooser.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

#include <algorithm>

namespace cb::views {

RunChooser::RunChooser(QWidget *parent)
    : QWidget(parent), m_box(new QComboBox(this)), m_label(new QLabel(tr("Run:"), this))
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_box, 1);
    m_label->setBuddy(m_box);
    m_box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_box->setMinimumContentsLength(16);
    m_box->setToolTip(tr("The runs made or reopened in this window, newest first: choose one "
                         "to step through it"));
    connect(m_box, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && index < int(m_runs.size()))
            emit runChosen(m_runs[std::size_t(index)]);
    });
    refill();
}

void RunChooser::setCurrent(const std::shared_ptr<const RunSession> &session)
{
    if (session) {
        auto it = std::find(m_runs.begin(), m_runs.end(), session);
        if (it == m_runs.end()) {
            m_runs.insert(m_runs.begin(), session);
            if (m_runs.size() > std::size_t(kMaxRuns))
                m_runs.pop_back();
        }
    }
    refill();
    const auto it = std::find(m_runs.begin(), m_runs.end(), session);
    const QSignalBlocker block(m_box);
    m_box->setCurrentIndex(it == m_runs.end() ? -1 : int(it - m_runs.begin()));
}

void RunChooser::clear()
{
    m_runs.clear();
    refill();
}

int RunChooser::count() const { return int(m_runs.size()); }

std::shared_ptr<const RunSession> RunChooser::run(int index) const
{
    return index >= 0 && index < count() ? m_runs[std::size_t(index)] : nullptr;
}

int RunChooser::currentIndex() const { return m_box->currentIndex(); }

void RunChooser::refill()
{
    const QSignalBlocker block(m_box);
    const int current = m_box->currentIndex();
    m_box->clear();
    for (const auto &r : m_runs)
        m_box->addItem(r->label);
    m_box->setEnabled(!m_runs.empty());
    if (m_runs.empty())
        m_box->setPlaceholderText(tr("no run yet"));
    m_box->setCurrentIndex(std::min(current, m_box->count() - 1));
}

} // namespace cb::views
