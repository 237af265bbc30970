#include "analysis/decision_stepper.h"

#include "runs/decision_explanation.h"
#include "runs/run_diff.h"
#include "sched/decision_contrast.h"
#include "util/text.h"

#include <QTextDocument>

#include "analysis/decision_models.h"
#include "analysis/frozen_column_table.h"
#include "runs/decision_replay.h"
#include "analysis/stepper_widgets.h"
#include "topology/topology_scene.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QToolTip>
#include <QHelpEvent>
#include <QVBoxLayout>

#include <limits>

namespace cb::views {

namespace {

/// Rows past the visible ones that column widths are measured on.
constexpr int kResizeRows = 200;

QString signedScore(double v)
{
    return (v > 0 ? QStringLiteral("+") : QString()) + formatScore(v);
}

/// The contrast row of decision `c` with node `node` (-1: a hint and the smallest flip).
QString contrastHtml(const RunSession &session, int c, int node)
{
    const DecisionLog &log = session.log;
    const Decision &d = log.decisions[std::size_t(c)];
    const auto name = [&](int n) {
        return QString::fromStdString(log.nodeNames[std::size_t(n)]).toHtmlEscaped();
    };
    if (node < 0 || node == d.pick) {
        QString s = node >= 0 ? QObject::tr("%1 is the pick. ").arg(name(node))
                              : QObject::tr("Click a node in the topology to contrast it with "
                                            "the pick; drag the pick onto another node to try "
                                            "the task there (what if). ");
        const DecisionFlips flips = weightFlips(log, c); // smallest() points into it
        if (const WeightFlip *f = flips.smallest()) {
            QString flip = QString::fromStdString(describeFlip(log, *f)).toHtmlEscaped();
            flip[0] = flip[0].toUpper();
            s += flip + QLatin1Char('.');
        }
        return s;
    }
    auto contrast = contrastDecision(log, c, node);
    if (!contrast)
        return {};
    const Contrast &ct = contrast.value();
    if (!ct.otherHasRow)
        return QObject::tr("<b>vs %1</b>: this log kept no row for it (it scored below the "
                           "kept rows; place with --log-detail full to see it)")
            .arg(name(node));
    if (ct.otherFiltered)
        return QObject::tr("<b>vs %1</b>: ruled out: %2")
            .arg(name(node), QString::fromStdString(ct.filterReason).toHtmlEscaped());
    if (d.pick < 0)
        return QObject::tr("<b>vs %1</b>: total %2").arg(name(node), formatScore(ct.otherTotal));
    QStringList parts;
    for (const PluginDifference &p : ct.plugins)
        if (p.weightedDifference() != 0)
            parts << QStringLiteral("%1 %2").arg(QString::fromStdString(p.name).toHtmlEscaped(),
                                                 signedScore(p.weightedDifference()));
    QString s = ct.tied()
                    ? QObject::tr("<b>vs %1</b>: total %2, tied with the pick (the tie-break "
                                  "chose %3)")
                          .arg(name(node), formatScore(ct.otherTotal), name(d.pick))
                    : QObject::tr("<b>vs %1</b>: total %2, %3 behind")
                          .arg(name(node), formatScore(ct.otherTotal), formatScore(ct.margin()));
    if (!parts.isEmpty())
        s += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    if (ct.deciding >= 0) {
        const PluginDifference &p = ct.plugins[std::size_t(ct.deciding)];
        s += QObject::tr("; decided by <b>%1</b> (%2%3)")
                 .arg(QString::fromStdString(p.name).toHtmlEscaped(),
                      signedScore(p.weightedDifference()),
                      ct.decisive() ? QObject::tr(", decisive") : QString());
    }
    if (!ct.flips.empty()) {
        const WeightFlip &f = ct.flips.front();
        s += QObject::tr("; %1 would win if %2 weight %3 %4 (now %5)")
                 .arg(name(node), QString::fromStdString(f.name).toHtmlEscaped(),
                      f.raise ? QStringLiteral("&gt;") : QStringLiteral("&lt;"),
                      QString::fromStdString(numberText(f.threshold)),
                      QString::fromStdString(numberText(f.weight)));
    }
    return s;
}

int nodeIndexByName(const DecisionLog &log, const std::string &name)
{
    const auto it = std::find(log.nodeNames.begin(), log.nodeNames.end(), name);
    return it == log.nodeNames.end() ? -1 : int(it - log.nodeNames.begin());
}

std::string pickName(const DecisionLog &log, const Decision &d)
{
    return d.pick >= 0 && d.pick < int(log.nodeNames.size()) ? log.nodeNames[std::size_t(d.pick)]
                                                             : std::string();
}

QString taskHtml(const Decision &d)
{
    return QStringLiteral("%1 %2").arg(QString::fromStdString(d.jobId).toHtmlEscaped(),
                                       QString::fromStdString(d.task()).toHtmlEscaped());
}

QString pickHtml(const DecisionLog &log, const Decision &d)
{
    const std::string name = pickName(log, d);
    return name.empty() ? QObject::tr("no node") : QString::fromStdString(name).toHtmlEscaped();
}

/// The other run's decision at `c` beside this run's: what it did, where it decides this
/// run's task if not here, and each pick contrasted in the other run's scores.
QString partnerHtml(const RunSession &self, const RunSession &partner,
                    const DecisionAlignment &al, int c)
{
    const DecisionLog &a = self.log, &b = partner.log;
    const Decision &da = a.decisions[std::size_t(c)];
    const QString who = QObject::tr("Other run (%1)").arg(partner.label.toHtmlEscaped());
    QString s;
    const bool hasB = c < int(b.decisions.size());
    const Decision *db = hasB ? &b.decisions[std::size_t(c)] : nullptr;
    const bool sameTask = db && db->jobId == da.jobId && db->role == da.role &&
                          db->group == da.group && db->indexInRole == da.indexInRole;
    if (db)
        s = QObject::tr("<b>%1: %2 → %3</b>: %4")
                .arg(who, taskHtml(*db), pickHtml(b, *db),
                     QString::fromStdString(db->why).toHtmlEscaped());
    else
        s = QObject::tr("<b>%1</b> made only %2 decisions.").arg(who).arg(b.decisions.size());
    if (!sameTask) {
        const int m = al.partnerOf(c);
        s += m >= 0 ? QObject::tr(" It decides %1 at its decision %2: → %3.")
                          .arg(taskHtml(da))
                          .arg(m + 1)
                          .arg(pickHtml(b, b.decisions[std::size_t(m)]))
                    : QObject::tr(" It never decides %1.").arg(taskHtml(da));
    } else if (pickName(a, da) != pickName(b, *db)) {
        // Each pick in the other run's scores (the same state up to the first difference).
        const int bInA = nodeIndexByName(a, pickName(b, *db));
        const int aInB = nodeIndexByName(b, pickName(a, da));
        if (bInA >= 0)
            s += QStringLiteral("<br>") + QObject::tr("In this run's scores, %1")
                                              .arg(contrastHtml(self, c, bInA));
        if (aInB >= 0)
            s += QStringLiteral("<br>") + QObject::tr("In the other run's scores, %1")
                                              .arg(contrastHtml(partner, c, aInB));
    } else {
        s += QObject::tr(" The same as this run.");
    }
    if (c == al.commonPrefix() && al.nextDifference(-1) == c)
        s += QStringLiteral("<br><i>") +
             QObject::tr("The first difference: up to here both runs saw the same cluster.") +
             QStringLiteral("</i>");
    else if (c > al.commonPrefix())
        s += QStringLiteral("<br><i>") +
             QObject::tr("After decision %1 the clusters differ: each pick is scored in its own "
                         "run's state.")
                 .arg(al.commonPrefix() + 1) +
             QStringLiteral("</i>");
    return s;
}

} // namespace

namespace {

/// Sorts the candidate table by any column with the chosen node first and the summary of the
/// nodes not kept last, whichever way (DecisionTableModel::PinRole).
class CandidateSortProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        const int a = left.data(DecisionTableModel::PinRole).toInt();
        const int b = right.data(DecisionTableModel::PinRole).toInt();
        if (a != b) {
            // Ascending puts the smaller first, descending the larger: pinned rows go where
            // their pin says in both.
            const bool ascending = sortOrder() == Qt::AscendingOrder;
            return ascending ? a < b : a > b;
        }
        return QSortFilterProxyModel::lessThan(left, right);
    }
};

} // namespace

DecisionStepper::DecisionStepper(QWidget *parent)
    : QWidget(parent), m_listModel(new DecisionListModel(this)),
      m_tableModel(new DecisionTableModel(this)), m_stateModel(new ClusterStateModel(this)),
      m_tableProxy(new CandidateSortProxy(this)),
      m_listView(makeStepperTable(this, QStringLiteral("decisionList"))),
      m_tableView(
          configureStepperTable(new FrozenColumnTableView(this), QStringLiteral("decisionTable"))),
      m_stateView(makeStepperTable(this, QStringLiteral("clusterState"))),
      m_first(makeStepperButton(this, QStyle::SP_MediaSkipBackward, tr("First decision (Home)"),
                                QStringLiteral("firstButton"))),
      m_back(makeStepperButton(this, QStyle::SP_MediaSeekBackward, tr("Back one decision"),
                               QStringLiteral("backButton"))),
      m_play(makeStepperButton(this, QStyle::SP_MediaPlay, tr("Play / pause"),
                               QStringLiteral("playButton"))),
      m_step(makeStepperButton(this, QStyle::SP_MediaSeekForward, tr("Step to the next decision"),
                               QStringLiteral("stepButton"))),
      m_last(makeStepperButton(this, QStyle::SP_MediaSkipForward, tr("Last decision (End)"),
                               QStringLiteral("lastButton"))),
      m_speed(new QSlider(Qt::Horizontal, this)), m_speedLabel(new QLabel(this)),
      m_position(new QLabel(this)), m_why(new QLabel(this)), m_contrast(new QLabel(this)),
      m_timer(new QTimer(this)), m_partnerBar(new QWidget(this)),
      m_partnerSummary(new QLabel(this)), m_previousDifference(new QToolButton(this)),
      m_nextDifference(new QToolButton(this)), m_closePartner(new QToolButton(this)),
      m_partnerWhy(new QLabel(this))
{
    setObjectName(QStringLiteral("decisionStepper"));
    m_back->setAutoRepeat(true);
    m_step->setAutoRepeat(true);
    m_speed->setRange(1, 200);
    m_speed->setValue(5);
    m_speed->setMaximumWidth(140);
    m_speed->setToolTip(tr("Playback speed (decisions per second)"));
    m_speedLabel->setMinimumWidth(m_speedLabel->fontMetrics().horizontalAdvance(
        QStringLiteral("200 / s ")));
    m_speed->setMinimumWidth(56); // (a narrow dock squeezed it to its handle)
    m_why->setWordWrap(true);
    m_why->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_why->setObjectName(QStringLiteral("decisionWhy"));
    m_why->installEventFilter(this); // its tooltip is narrated when asked for
    m_contrast->setWordWrap(true);
    // Always rich text: the hint has no tag, so Qt::AutoText showed its escaped "&gt;" as is.
    m_contrast->setTextFormat(Qt::RichText);
    m_contrast->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_contrast->setObjectName(QStringLiteral("decisionContrast"));

    m_partnerWhy->setWordWrap(true);
    m_partnerWhy->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_partnerWhy->setObjectName(QStringLiteral("partnerWhy"));
    m_partnerWhy->hide();

    // Two-run mode: which run is beside this one, and the jumps between differences.
    m_partnerBar->setObjectName(QStringLiteral("partnerBar"));
    m_partnerSummary->setObjectName(QStringLiteral("partnerSummary"));
    // One line beside the buttons, cut at the dock's edge (the whole text is its tooltip):
    // a narrow dock must not give the decision list's rows to a wrapped summary.
    m_partnerSummary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_previousDifference->setObjectName(QStringLiteral("previousDifferenceButton"));
    m_previousDifference->setText(tr("◀ Difference"));
    m_previousDifference->setToolTip(tr("The previous decision where the two runs differ"));
    m_nextDifference->setObjectName(QStringLiteral("nextDifferenceButton"));
    m_nextDifference->setText(tr("Difference ▶"));
    m_nextDifference->setToolTip(tr("The next decision where the two runs differ"));
    m_closePartner->setObjectName(QStringLiteral("closePartnerButton"));
    m_closePartner->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_closePartner->setAutoRaise(true);
    m_closePartner->setToolTip(tr("Step this run alone"));
    auto *partnerLayout = new QHBoxLayout(m_partnerBar);
    partnerLayout->setContentsMargins(0, 0, 0, 0);
    partnerLayout->addWidget(m_previousDifference);
    partnerLayout->addWidget(m_nextDifference);
    partnerLayout->addWidget(m_partnerSummary, 1);
    partnerLayout->addWidget(m_closePartner);
    m_partnerBar->hide();

    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    for (QToolButton *b : {m_first, m_back, m_play, m_step, m_last})
        controls->addWidget(b);
    controls->addSpacing(8);
    controls->addWidget(m_position);
    controls->addStretch(1);
    controls->addWidget(new QLabel(tr("Speed:"), this));
    controls->addWidget(m_speed);
    controls->addWidget(m_speedLabel);

    m_listView->setModel(m_listModel);
    m_listView->horizontalHeader()->setStretchLastSection(true);
    m_tableProxy->setSourceModel(m_tableModel);
    m_tableProxy->setSortRole(DecisionTableModel::SortRole);
    m_tableProxy->setDynamicSortFilter(true);
    m_tableView->setModel(m_tableProxy);
    // The node and its total stay in view while the plugin columns scroll sideways (stepping
    // scrolls to the deciding plugin, which hid the total on a laptop's dock).
    if (auto *frozen = qobject_cast<FrozenColumnTableView *>(m_tableView))
        frozen->setFrozenColumns(DecisionTableModel::kTotalColumn + 1);
    m_tableView->setSortingEnabled(true);
    m_tableView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Widths from the visible rows and the next kResizeRows (Qt's default, 1,000, made each
    // sort and step measure 1,000 rows of text on a large cluster).
    m_tableView->horizontalHeader()->setResizeContentsPrecision(kResizeRows);
    m_listView->horizontalHeader()->setResizeContentsPrecision(kResizeRows);
    // Long filter reasons must not push the plugin columns out of view: the column keeps a
    // readable width, the reason is in the cell's tooltip and the "why" line.
    // (Set when the columns exist: the header has no sections before the first decision.)
    auto fixFilterColumn = [this] {
        QHeaderView *header = m_tableView->horizontalHeader();
        if (header->count() <= DecisionTableModel::kFilterColumn ||
            header->sectionResizeMode(DecisionTableModel::kFilterColumn) ==
                QHeaderView::Interactive)
            return;
        header->setSectionResizeMode(DecisionTableModel::kFilterColumn, QHeaderView::Interactive);
        m_tableView->setColumnWidth(DecisionTableModel::kFilterColumn,
                                    m_tableView->fontMetrics().horizontalAdvance(
                                        QStringLiteral("needs 4 free GPUs, 0 of")));
    };
    connect(m_tableProxy, &QAbstractItemModel::modelReset, this, fixFilterColumn);
    connect(m_tableProxy, &QAbstractItemModel::columnsInserted, this, fixFilterColumn);
    m_stateView->setModel(m_stateModel);
    m_stateView->horizontalHeader()->setStretchLastSection(true);

    auto *tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("stepperTabs"));
    auto *candidates = new QWidget(tabs);
    auto *candLayout = new QVBoxLayout(candidates);
    candLayout->setContentsMargins(2, 4, 2, 2);
    candLayout->addWidget(m_why);
    candLayout->addWidget(m_contrast);
    candLayout->addWidget(m_partnerWhy);
    candLayout->addWidget(m_tableView, 1);
    tabs->addTab(candidates, tr("Candidates"));
    tabs->addTab(m_stateView, tr("Cluster state"));

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_listView);
    split->addWidget(tabs);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_partnerBar);
    layout->addWidget(split, 1);

    connect(m_previousDifference, &QToolButton::clicked, this,
            &DecisionStepper::previousDifference);
    connect(m_nextDifference, &QToolButton::clicked, this, &DecisionStepper::nextDifference);
    connect(m_closePartner, &QToolButton::clicked, this, &DecisionStepper::clearPartner);

    connect(m_first, &QToolButton::clicked, this, &DecisionStepper::first);
    connect(m_back, &QToolButton::clicked, this, &DecisionStepper::back);
    connect(m_step, &QToolButton::clicked, this, &DecisionStepper::step);
    connect(m_last, &QToolButton::clicked, this, &DecisionStepper::last);
    connect(m_play, &QToolButton::clicked, this, &DecisionStepper::togglePlay);
    connect(m_speed, &QSlider::valueChanged, this, [this](int v) {
        m_speedLabel->setText(tr("%1 / s").arg(v));
        m_timer->setInterval(1000 / std::max(1, v));
    });
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (cursor() + 1 >= decisionCount())
            pause();
        else
            step();
    });
    connect(m_listView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid() && current.row() != cursor())
                    seek(current.row());
            });
    m_speedLabel->setText(tr("%1 / s").arg(m_speed->value()));
    m_timer->setInterval(1000 / m_speed->value());
    updateControls();
}

DecisionStepper::~DecisionStepper()
{
    // The models point into the replay and the session: detach them first.
    m_stateModel->setReplay(nullptr, nullptr);
}

void DecisionStepper::setSession(std::shared_ptr<const RunSession> session)
{
    pause();
    if (m_partner) { // a new run is stepped alone
        m_listModel->setPartner(nullptr, nullptr);
        m_partner.reset();
        m_alignment.reset();
        updatePartner();
        emit partnerChanged();
    }
    m_stateModel->setReplay(nullptr, nullptr);
    m_replay.reset();
    // A node clicked to contrast stays contrasted in another run of the same cluster, not in
    // a run of another (its index names some other node there) or when no run is shown.
    if (!m_session || !session || m_session->log.nodeNames != session->log.nodeNames)
        m_contrastNode = -1;
    m_session = std::move(session);
    if (m_session)
        m_replay = std::make_unique<DecisionReplay>(m_session->scenario, m_session->log);
    m_listModel->setSession(m_session);
    const bool anyDecision = m_replay && m_replay->decisionCount() > 0;
    m_tableModel->setSession(m_session, anyDecision ? 0 : -1); // seek(0) below shows the rest
    m_stateModel->setReplay(m_session, m_replay.get());
    m_tableView->sortByColumn(m_tableModel->totalColumn(), Qt::DescendingOrder);
    m_listView->setColumnHidden(DecisionListModel::Other, true);
    m_listView->resizeColumnsToContents();
    if (anyDecision)
        seek(0);
    else {
        updateControls();
        emit cursorChanged(-1);
    }
}

int DecisionStepper::cursor() const
{
    return m_replay ? m_replay->cursor() : -1;
}

int DecisionStepper::decisionCount() const
{
    return m_replay ? m_replay->decisionCount() : 0;
}

bool DecisionStepper::isPlaying() const
{
    return m_timer->isActive();
}

int DecisionStepper::speed() const
{
    return m_speed->value();
}

void DecisionStepper::setSpeed(int decisionsPerSecond)
{
    m_speed->setValue(decisionsPerSecond);
}

void DecisionStepper::seek(int decision)
{
    if (!m_replay || m_replay->decisionCount() == 0)
        return;
    decision = std::clamp(decision, 0, m_replay->decisionCount() - 1);
    if (decision == m_replay->cursor())
        return;
    m_replay->seek(decision);
    m_tableModel->setDecision(decision);
    m_stateModel->replayMoved();
    // Not with the selection model's signals blocked: the view repaints the rows from them
    // (blocked, every visited row stayed highlighted). The list's handler sees row == cursor.
    const QModelIndex row = m_listModel->index(decision, 0);
    m_listView->selectionModel()->setCurrentIndex(
        row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_listView->scrollTo(row);
    showDecidingColumn();
    updateControls();
    emit cursorChanged(decision);
}

void DecisionStepper::showDecidingColumn()
{
    if (m_tableProxy->rowCount() == 0)
        return;
    // The chosen node leads the table however it is sorted (PinRole): each decision shows it,
    // even where the table was scrolled down for the last one (its pick was then out of view).
    const int column = m_tableModel->decidingColumn();
    if (column < 0) {
        m_tableView->scrollTo(m_tableProxy->index(0, DecisionTableModel::kNodeColumn));
        return;
    }
    // The plugin's raw column (its name) first, then its weighted one ("×2"): both in view
    // where they fit, not a lone "×2" header beside the frozen columns.
    m_tableView->scrollTo(m_tableProxy->index(0, column - 1), QAbstractItemView::EnsureVisible);
    m_tableView->scrollTo(m_tableProxy->index(0, column), QAbstractItemView::EnsureVisible);
}

void DecisionStepper::first() { seek(0); }
void DecisionStepper::back() { seek(cursor() - 1); }
void DecisionStepper::step() { seek(cursor() + 1); }
void DecisionStepper::last() { seek(decisionCount() - 1); }

void DecisionStepper::play()
{
    if (decisionCount() == 0)
        return;
    if (cursor() + 1 >= decisionCount())
        first();
    m_timer->start();
    updateControls();
}

void DecisionStepper::pause()
{
    m_timer->stop();
    updateControls();
}

void DecisionStepper::togglePlay()
{
    if (isPlaying())
        pause();
    else
        play();
}

void DecisionStepper::setPartner(std::shared_ptr<const RunSession> partner)
{
    if (partner && (!m_session || partner->log.decisions.empty()))
        partner.reset(); // nothing to step beside
    m_listModel->setPartner(nullptr, nullptr);
    m_partner = std::move(partner);
    m_alignment = m_partner ? std::make_unique<DecisionAlignment>(m_session->log, m_partner->log)
                            : nullptr;
    m_listModel->setPartner(m_partner, m_alignment.get());
    m_listView->setColumnHidden(DecisionListModel::Other, !m_partner);
    if (m_partner)
        m_listView->resizeColumnToContents(DecisionListModel::Other);
    updatePartner();
    updateControls();
    emit partnerChanged();
}

void DecisionStepper::updatePartner()
{
    m_partnerBar->setVisible(bool(m_partner));
    m_partnerWhy->setVisible(bool(m_partner));
    if (!m_partner) {
        m_partnerWhy->clear();
        return;
    }
    const int differing = int(m_alignment->differing().size());
    const int n = std::max(m_alignment->decisionsA(), m_alignment->decisionsB());
    QString text = tr("<b>Beside %1</b>: ").arg(m_partner->label.toHtmlEscaped());
    QString tip = tr("Stepping beside %1, decision by decision.").arg(m_partner->label);
    if (differing == 0) {
        text += tr("all %1 decisions the same").arg(n);
    } else {
        text += tr("%1 of %2 differ, the first at %3")
                    .arg(differing)
                    .arg(n)
                    .arg(m_alignment->commonPrefix() + 1);
        const int same = m_alignment->commonPrefix();
        tip += QLatin1Char(' ') + tr("%1 of %2 decisions differ (tinted in the list). ")
                                      .arg(differing)
                                      .arg(n);
        tip += same == 0   ? tr("They part at the first decision. ")
               : same == 1 ? tr("Decision 1 is the same in both; at decision 2 they part, on "
                                "the same cluster. ")
                           : tr("Decisions 1 to %1 are the same in both; at decision %2 they "
                                "part, on the same cluster. ")
                                 .arg(same)
                                 .arg(same + 1);
        tip += tr("The other run's pick is outlined with a violet dashed frame in the topology.");
    }
    m_partnerSummary->setText(text);
    m_partnerSummary->setToolTip(tip);
}

void DecisionStepper::nextDifference()
{
    if (!m_alignment)
        return;
    const int next = m_alignment->nextDifference(cursor());
    if (next >= 0)
        seek(std::min(next, decisionCount() - 1));
}

void DecisionStepper::previousDifference()
{
    if (!m_alignment)
        return;
    const int previous = m_alignment->previousDifference(cursor());
    if (previous >= 0)
        seek(previous);
}

QString DecisionStepper::partnerText() const
{
    QTextDocument doc;
    doc.setHtml(m_partnerWhy->text());
    return doc.toPlainText();
}

int DecisionStepper::partnerPick() const
{
    const int c = cursor();
    if (!m_partner || c < 0 || c >= int(m_partner->log.decisions.size()))
        return -1;
    const std::string name =
        pickName(m_partner->log, m_partner->log.decisions[std::size_t(c)]);
    return name.empty() ? -1 : nodeIndexByName(m_session->log, name);
}

void DecisionStepper::updateControls()
{
    const int n = decisionCount(), c = cursor();
    if (m_alignment) {
        const int next = m_alignment->nextDifference(c);
        m_nextDifference->setEnabled(next >= 0 && next < n && next != c);
        m_previousDifference->setEnabled(m_alignment->previousDifference(c) >= 0);
    }
    m_first->setEnabled(c > 0);
    m_back->setEnabled(c > 0);
    m_step->setEnabled(c >= 0 && c + 1 < n);
    m_last->setEnabled(c >= 0 && c + 1 < n);
    m_play->setEnabled(n > 0);
    m_play->setIcon(style()->standardIcon(isPlaying() ? QStyle::SP_MediaPause
                                                      : QStyle::SP_MediaPlay));
    if (n == 0) {
        // Short beside the controls; the hint wraps in the line below them.
        m_position->setText(m_session ? tr("No decisions") : tr("No run yet"));
        m_why->setText(m_session ? QString()
                                 : tr("Run > Place and Simulate, or the Run panel, makes a run "
                                      "to step through."));
        m_contrast->clear();
        return;
    }
    // As wide as the run's widest position, so that the label does not move as it steps
    // (a fixed five digits took a narrow dock's room from the speed slider).
    const QString widest =
        tr("Decision %1 of %2").arg(QString(QString::number(n).size(), QLatin1Char('0'))).arg(n);
    m_position->setMinimumWidth(m_position->fontMetrics().horizontalAdvance(widest));
    m_position->setText(tr("Decision %1 of %2").arg(c + 1).arg(n));
    const Decision &d = m_session->log.decisions[std::size_t(c)];
    const QString node = d.pick >= 0 ? QString::fromStdString(m_session->log.nodeNames[std::size_t(d.pick)])
                                     : tr("no node");
    m_why->setText(tr("<b>%1 %2 → %3</b>: %4")
                       .arg(QString::fromStdString(d.jobId).toHtmlEscaped(),
                            QString::fromStdString(d.task()).toHtmlEscaped(), node.toHtmlEscaped(),
                            QString::fromStdString(d.why).toHtmlEscaped()));
    m_contrast->setText(contrastHtml(*m_session, c, m_contrastNode));
    if (m_partner)
        m_partnerWhy->setText(partnerHtml(*m_session, *m_partner, *m_alignment, c));
}

QString DecisionStepper::narration() const
{
    const int c = cursor();
    if (!m_session || !m_replay || c < 0)
        return {};
    // The decision in words (runs/decision_explanation.h).
    return QString::fromStdString(
        narrateDecision(m_session->scenario, m_replay->topology(), m_session->log, c));
}

bool DecisionStepper::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_why && event->type() == QEvent::ToolTip) {
        const QString text = narration();
        const auto *help = static_cast<QHelpEvent *>(event);
        if (text.isEmpty())
            QToolTip::hideText();
        else // rich text, so that a long narration wraps instead of crossing the window
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped()), m_why);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void DecisionStepper::setContrastNode(int node)
{
    if (!m_session || node < -1 || node >= int(m_session->log.nodeNames.size()))
        node = -1;
    m_contrastNode = node;
    updateControls();
}

QString DecisionStepper::contrastText() const
{
    QTextDocument doc;
    doc.setHtml(m_contrast->text());
    return doc.toPlainText();
}

} // namespace cb::views

namespace cb::views {

NodeOverlay decisionOverlay(const DecisionStepper &stepper)
{
    NodeOverlay overlay;
    const auto session = stepper.session();
    const DecisionReplay *replay = stepper.replay();
    const int c = stepper.cursor();
    if (!session || !replay || c < 0)
        return overlay;
    const Decision &d = session->log.decisions[std::size_t(c)];
    const std::size_t nodes = session->scenario.cluster.nodes.size();
    overlay.values.assign(nodes, std::numeric_limits<float>::quiet_NaN());
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const CandidateRow &r : d.rows)
        if (r.feasible()) {
            lo = std::min(lo, r.total);
            hi = std::max(hi, r.total);
        }
    // Nodes the log kept no row for (detail top:K) are drawn as "no row".
    if (d.omitted.nodes() > 0)
        std::fill(overlay.values.begin(), overlay.values.end(), NodeOverlay::kNoRow);
    for (const CandidateRow &r : d.rows) {
        if (r.node < 0 || std::size_t(r.node) >= nodes)
            continue;
        overlay.values[std::size_t(r.node)] =
            !r.feasible() ? NodeOverlay::kFiltered
                          : hi > lo ? float((r.total - lo) / (hi - lo)) : 1.0f;
    }
    overlay.marked = d.pick;
    overlay.otherMarked = stepper.partnerPick();
    overlay.gpusUsed.resize(nodes);
    for (std::size_t n = 0; n < nodes; ++n)
        overlay.gpusUsed[n] = float(replay->allocatedGpus(int(n)));
    return overlay;
}

} // namespace cb::views
