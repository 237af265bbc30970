#include "analysis/sts_stepper.h"

#include "analysis/stepper_widgets.h"
#include "analysis/sts_decision_models.h"
#include "analysis/sts_session.h"
#include "models/quantity_format.h"
#include "topology/topology_scene.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace cb::views {

namespace {

QLabel *caption(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont f = label->font();
    f.setBold(true);
    label->setFont(f);
    return label;
}

} // namespace

StsStepper::StsStepper(QWidget *parent)
    : QWidget(parent)
    , m_eventModel(new StsEventListModel(this))
    , m_jobModel(new StsJobListModel(this))
    , m_candidateModel(new StsCandidateModel(this))
    , m_eventView(makeStepperTable(this, QStringLiteral("stsEvents")))
    , m_jobView(makeStepperTable(this, QStringLiteral("stsJobs")))
    , m_candidateView(makeStepperTable(this, QStringLiteral("stsCandidates")))
    , m_first(makeStepperButton(this, QStyle::SP_MediaSkipBackward, tr("First event"),
                         QStringLiteral("stsFirst")))
    , m_back(makeStepperButton(this, QStyle::SP_MediaSeekBackward, tr("Back one event"),
                        QStringLiteral("stsBack")))
    , m_play(makeStepperButton(this, QStyle::SP_MediaPlay, tr("Play / pause (two events a second)"),
                        QStringLiteral("stsPlay")))
    , m_step(makeStepperButton(this, QStyle::SP_MediaSeekForward, tr("Step to the next event"),
                        QStringLiteral("stsStep")))
    , m_last(makeStepperButton(this, QStyle::SP_MediaSkipForward, tr("Last event"),
                        QStringLiteral("stsLast")))
    , m_summary(new QLabel(this))
    , m_position(new QLabel(this))
    , m_why(new QLabel(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("stsStepper"));
    m_back->setAutoRepeat(true);
    m_step->setAutoRepeat(true);
    m_summary->setObjectName(QStringLiteral("stsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_why->setObjectName(QStringLiteral("stsWhy"));
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_eventView->setObjectName(QStringLiteral("stsEvents"));
    m_jobView->setObjectName(QStringLiteral("stsJobs"));
    m_candidateView->setObjectName(QStringLiteral("stsCandidates"));
    m_eventView->setModel(m_eventModel);
    m_jobView->setModel(m_jobModel);
    m_candidateView->setModel(m_candidateModel);
    m_jobView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_jobView->horizontalHeader()->setStretchLastSection(true);
    m_candidateView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_candidateView->horizontalHeader()->setStretchLastSection(true);
    m_candidateView->setSelectionMode(QAbstractItemView::NoSelection);
    m_timer->setInterval(500);
    // However short the dock: two candidates (STS plans one per GPU type, usually two or
    // three) with the scroll bar the wide table shows, and the current event.
    const auto rowsHigh = [](QTableView *v, int rows, bool scrollBar) {
        return v->horizontalHeader()->sizeHint().height() +
               rows * v->verticalHeader()->defaultSectionSize() + 2 * v->frameWidth() +
               (scrollBar ? v->horizontalScrollBar()->sizeHint().height() : 0);
    };
    m_eventView->setMinimumHeight(rowsHigh(m_eventView, 1, false));
    m_candidateView->setMinimumHeight(rowsHigh(m_candidateView, 2, true));

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    for (QToolButton *b : {m_first, m_back, m_play, m_step, m_last})
        controls->addWidget(b);
    controls->addSpacing(8);
    controls->addWidget(m_position, 1);

    auto *events = new QWidget(this);
    auto *eventsLayout = new QVBoxLayout(events);
    eventsLayout->setContentsMargins(0, 0, 0, 0);
    eventsLayout->addWidget(caption(tr("Scheduling events"), events));
    eventsLayout->addWidget(m_eventView, 1);
    auto *jobs = new QWidget(this);
    auto *jobsLayout = new QVBoxLayout(jobs);
    jobsLayout->setContentsMargins(0, 0, 0, 0);
    jobsLayout->addWidget(caption(tr("Jobs in the order taken"), jobs));
    jobsLayout->addWidget(m_jobView, 1);
    auto *candidates = new QWidget(this);
    auto *candidatesLayout = new QVBoxLayout(candidates);
    candidatesLayout->setContentsMargins(0, 0, 0, 0);
    candidatesLayout->addWidget(caption(tr("Candidate configurations, cheapest first"),
                                        candidates));
    candidatesLayout->addWidget(m_why);
    candidatesLayout->addWidget(m_candidateView, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(events);
    split->addWidget(jobs);
    split->addWidget(candidates);
    // The events are the list a user steps through, the jobs what a step is read for; the
    // candidates are one per GPU type, two or three rows.
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    connect(m_first, &QToolButton::clicked, this, &StsStepper::first);
    connect(m_back, &QToolButton::clicked, this, &StsStepper::back);
    connect(m_step, &QToolButton::clicked, this, &StsStepper::step);
    connect(m_last, &QToolButton::clicked, this, &StsStepper::last);
    connect(m_play, &QToolButton::clicked, this, &StsStepper::togglePlay);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_cursor + 1 >= eventCount())
            pause();
        else
            step();
    });
    connect(m_eventView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid() && current.row() != m_cursor)
                    seek(current.row());
            });
    connect(m_jobView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid() && current.row() != m_job)
                    selectJob(current.row());
            });
    updateControls();
}

int StsStepper::eventCount() const
{
    return m_eventModel->rowCount();
}

bool StsStepper::isPlaying() const
{
    return m_timer->isActive();
}

void StsStepper::setSession(std::shared_ptr<const RunSession> session)
{
    pause();
    m_session = session && session->sts ? std::move(session) : nullptr;
    const std::shared_ptr<const StsRun> run = m_session ? m_session->sts : nullptr;
    m_cursor = -1;
    m_job = -1;
    m_eventModel->setRun(run);
    m_jobModel->setEvent(nullptr, -1);
    m_candidateModel->setJob(nullptr, -1, -1);
    m_eventView->resizeColumnsToContents();
    if (!run) {
        m_summary->clear();
        m_summary->setToolTip(QString());
    } else {
        static const cb::RunResult none;
        const cb::RunResult &r = m_session->result ? *m_session->result : none;
        const QString currency = QString::fromStdString(m_session->scenario.settings.currency);
        // Two lines in a laptop's dock: the run, its cost and counts; the scenario and where
        // the prices came from in the tooltip. The sums in the window's money format, as
        // in the timeline and the status bar.
        // The running cost under the run's cost model: STS prices configurations from a
        // catalogue, which is not the energy the cluster drew (the run's energy_cost).
        const QString prices = runningCostBasis(r);
        m_summary->setText(
            tr("<b>%1</b>: total cost <b>%2</b> (running %3 at %7, tardiness %4), %n due-date "
               "violation(s), %5 events, %6 jobs.",
               nullptr, r.violations())
                .arg(m_session->label.toHtmlEscaped(), formatMoney(r.totalCost(), currency),
                     formatMoney(r.cost, currency), formatMoney(r.tardinessCost, currency))
                .arg(run->log.events().size())
                .arg(r.jobs.size())
                .arg(prices));
        m_summary->setToolTip(
            tr("On %1. Prices: %2")
                .arg(QString::fromStdString(m_session->scenario.name.empty()
                                                ? std::string("the scenario")
                                                : m_session->scenario.name),
                     QString::fromStdString(run->pricesFrom)));
    }
    if (eventCount() > 0) {
        seek(0);
    } else {
        updateWhy();
        updateControls();
        emit cursorChanged(-1);
    }
}

void StsStepper::seek(int event)
{
    if (eventCount() == 0)
        return;
    event = std::clamp(event, 0, eventCount() - 1);
    m_cursor = event;
    m_jobModel->setEvent(m_session->sts, event);
    m_jobView->resizeColumnsToContents();
    // Signals not blocked, so the view repaints (the handler sees row == cursor).
    m_eventView->selectionModel()->setCurrentIndex(
        m_eventModel->index(event, 0),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_eventView->scrollTo(m_eventModel->index(event, 0));
    m_job = -1;
    selectJob(m_jobModel->rowCount() > 0 ? 0 : -1);
    updateControls();
    emit cursorChanged(m_cursor);
}

void StsStepper::selectJob(int row)
{
    if (row >= m_jobModel->rowCount())
        row = -1;
    m_job = row;
    m_candidateModel->setJob(m_session ? m_session->sts : nullptr, m_cursor, row);
    m_candidateView->resizeColumnsToContents();
    if (row >= 0)
        m_jobView->selectionModel()->setCurrentIndex(
            m_jobModel->index(row, 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    updateWhy();
    emit jobChanged(row);
}

QString StsStepper::summaryText() const
{
    return m_summary->text();
}

QString StsStepper::whyText() const
{
    return m_why->text();
}

void StsStepper::updateWhy()
{
    const StsJobDecision *d = m_candidateModel->decision();
    if (!d) {
        m_why->setText(m_session ? tr("No job at this event.") : QString());
        return;
    }
    QString text;
    if (d->chosen.empty())
        text = tr("<b>%1</b> waits: %2.").arg(QString::fromStdString(d->job).toHtmlEscaped(),
                                              QString::fromStdString(d->reason).toHtmlEscaped());
    else
        text = tr("<b>%1</b> runs on <b>%2</b> at %3: %4.")
                   .arg(QString::fromStdString(d->job).toHtmlEscaped(),
                        QString::fromStdString(d->chosen).toHtmlEscaped(),
                        QString::fromStdString(d->node).toHtmlEscaped(),
                        QString::fromStdString(d->reason).toHtmlEscaped());
    if (d->candidates.empty())
        text += QLatin1Char(' ') +
                tr("%1 plans no phases, so it logs no candidates.")
                    .arg(QString::fromStdString(m_session->sts->method).toHtmlEscaped());
    else if (m_candidateModel->chosenRow() < 0 && !d->chosen.empty())
        text += QLatin1Char(' ') + tr("No planned first phase fitted: it fell back.");
    m_why->setText(text);
}

void StsStepper::first()
{
    seek(0);
}

void StsStepper::back()
{
    if (m_cursor > 0)
        seek(m_cursor - 1);
}

void StsStepper::step()
{
    if (m_cursor + 1 < eventCount())
        seek(m_cursor + 1);
}

void StsStepper::last()
{
    seek(eventCount() - 1);
}

void StsStepper::togglePlay()
{
    if (isPlaying()) {
        pause();
        return;
    }
    if (eventCount() == 0)
        return;
    if (m_cursor + 1 >= eventCount())
        seek(0);
    m_timer->start();
    updateControls();
}

void StsStepper::pause()
{
    m_timer->stop();
    updateControls();
}

void StsStepper::updateControls()
{
    const int n = eventCount();
    m_first->setEnabled(n > 0 && m_cursor > 0);
    m_back->setEnabled(n > 0 && m_cursor > 0);
    m_step->setEnabled(n > 0 && m_cursor + 1 < n);
    m_last->setEnabled(n > 0 && m_cursor + 1 < n);
    m_play->setEnabled(n > 1);
    m_play->setIcon(style()->standardIcon(isPlaying() ? QStyle::SP_MediaPause
                                                      : QStyle::SP_MediaPlay));
    if (n == 0) {
        m_position->setText(m_session ? tr("No scheduling events") : tr("No STS run"));
        return;
    }
    const StsEventRecord &e = m_session->sts->log.events()[std::size_t(m_cursor)];
    m_position->setText(tr("Event %1 of %2 · %3 · %4")
                            .arg(m_cursor + 1)
                            .arg(n)
                            .arg(formatDuration(e.time), QString::fromStdString(e.trigger)));
}

NodeOverlay scheduleOverlay(const StsStepper &stepper)
{
    NodeOverlay overlay;
    const auto session = stepper.session();
    const int c = stepper.cursor();
    if (!session || !session->sts || !session->result || c < 0 ||
        c >= int(session->sts->log.events().size()))
        return overlay;
    const StsEventRecord &event = session->sts->log.events()[std::size_t(c)];
    const auto &nodes = session->scenario.cluster.nodes;
    std::unordered_map<std::string, int> index;
    for (std::size_t n = 0; n < nodes.size(); ++n)
        index.emplace(nodes[n].id, int(n));
    overlay.values.assign(nodes.size(), std::numeric_limits<float>::quiet_NaN());
    overlay.gpusUsed.assign(nodes.size(), 0.0f);
    const StsJobDecision *selected = stepper.currentJob() >= 0 &&
                                             stepper.currentJob() < int(event.jobs.size())
                                         ? &event.jobs[std::size_t(stepper.currentJob())]
                                         : nullptr;
    for (const JobRun &r : session->result->jobs) {
        const JobSegment *segment = r.segmentAt(event.time);
        if (!segment)
            continue;
        const double share = segment->config ? segment->config->fraction : 1.0;
        for (const TaskAssignment &t : segment->placement.tasks)
            if (const auto it = index.find(t.node); it != index.end())
                overlay.gpusUsed[std::size_t(it->second)] += float(t.gpuIndices.size() * share);
        if (selected && r.id == selected->job && !segment->placement.tasks.empty())
            if (const auto it = index.find(segment->placement.tasks.front().node); it != index.end())
                overlay.marked = it->second;
    }
    if (selected && overlay.marked < 0 && !selected->node.empty()) {
        // "node-3", or a split "node-3:4+node-4:4": its first node.
        const std::string first = selected->node.substr(0, selected->node.find_first_of(":+"));
        if (const auto it = index.find(first); it != index.end())
            overlay.marked = it->second;
    }
    return overlay;
}

} // namespace cb::views
