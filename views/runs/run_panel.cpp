#include "runs/run_panel.h"

#include "analysis/sts_session.h"
#include "runs/run_launcher.h"
#include "document/document.h"
#include "io/policy_json.h"
#include "store/workspace.h"

#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPalette>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace cb::views {

namespace {
constexpr int kPolicyRole = Qt::UserRole + 1;
} // namespace

RunPanel::RunPanel(Document *document, RunLauncher *launcher, QWidget *parent)
    : QWidget(parent), m_document(document),
      m_launcher(launcher ? launcher : new RunLauncher(this)), m_policies(new QListWidget(this)),
      m_weights(new QTableWidget(0, 2, this)), m_seeds(new QLineEdit(this)),
      m_simulate(new QCheckBox(tr("Simulate over time"), this)),
      m_keepLog(new QCheckBox(tr("Keep every decision"), this)), m_costModel(new QComboBox(this)),
      m_run(new QPushButton(tr("&Run"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_progress(new QProgressBar(this)), m_status(new QLabel(this)), m_stsNote(new QLabel(this)),
      m_costNote(new QLabel(this))
{
    setObjectName(QStringLiteral("runPanel"));
    m_policies->setObjectName(QStringLiteral("runPolicies"));
    m_policies->setMinimumHeight(60);
    m_policies->setToolTip(tr("Tick the policies to run; select one to edit its weights"));
    m_weights->setObjectName(QStringLiteral("runWeights"));
    m_weights->setMinimumHeight(60);
    m_weights->setHorizontalHeaderLabels({tr("Plugin"), tr("Weight")});
    m_weights->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_weights->verticalHeader()->hide();
    m_weights->setToolTip(tr("Weights of the selected policy's scoring plugins; 0 removes one"));
    // The scenario's own seed, as the terminal and Run > Place and Simulate take it.
    m_defaultSeeds = QString::number(m_document->scenario().settings.seed);
    m_seeds->setText(m_defaultSeeds);
    m_seeds->setObjectName(QStringLiteral("runSeeds"));
    m_seeds->setToolTip(tr("The seeds to run, not how many: 3, or 1-5, or 1,4,9 — one run per "
                           "policy and seed (at first the scenario's own seed, settings.seed)"));
    m_simulate->setToolTip(tr("Run the queue through time on the simulated network (job "
                              "completion times, energy, cost); unchecked, only place it"));
    m_simulate->setChecked(true);
    m_keepLog->setChecked(true);
    m_keepLog->setObjectName(QStringLiteral("runKeepLog"));
    m_keepLog->setToolTip(tr("Keep every decision for the stepper. The decision log scores "
                             "every node for every task: on large clusters, leave it out "
                             "when only the metrics matter"));
    m_progress->setTextVisible(true);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_cancel->setEnabled(false);

    m_costModel->setObjectName(QStringLiteral("runCostModel"));
    m_costModel->addItem(tr("energy drawn × price"), int(CostModel::Energy));
    m_costModel->addItem(tr("GPU-hours at list price"), int(CostModel::GpuHours));
    m_costModel->addItem(tr("price list per busy GPUs (what STS pays)"),
                         int(CostModel::Catalogue));
    // The dock is narrow on a laptop: the combo shows the start of a long choice, not wider.
    m_costModel->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_costModel->setMinimumContentsLength(12);
    m_costModel->setToolTip(tr("How placement policies' simulated runs are charged. STS and "
                               "its baselines always pay the STS authors' price list per GPU "
                               "type and GPUs busy on the node; choose it here to compare "
                               "a placement policy with them on one cost."));

    auto *resetWeights = new QPushButton(tr("Reset Weights"), this);
    auto *form = new QFormLayout;
    // "Seed list", not "Seeds": a user read the scenario's seed 3 as a count of seeds and
    // wrote 1, which ran every policy with seed 1 from then on.
    form->addRow(tr("Seed list:"), m_seeds);
    form->addRow(tr("Cost:"), m_costModel);
    // (the choice looked as if it applied to checked STS runs, which always pay the price list)
    m_costNote->setObjectName(QStringLiteral("runCostNote"));
    m_costNote->setWordWrap(true);
    m_costNote->hide();
    form->addRow(QString(), m_costNote);
    connect(m_costModel, &QComboBox::currentIndexChanged, this, &RunPanel::updateButtons);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    // The policies and their weights scroll in a short dock; the seeds, the cost, what to
    // run, Run, the progress and the status stay in view below them (at 1366 x 768 the seeds
    // were below the fold, where nothing said they were). Only down: a form scrolled sideways
    // hides the start of every line.
    auto *settings = new QWidget(this);
    auto *settingsLayout = new QVBoxLayout(settings);
    settingsLayout->setContentsMargins(0, 0, 0, 0);
    auto *policiesLabel = new QLabel(tr("&Policies (space checks, Ctrl+Shift+R runs):"), this);
    policiesLabel->setBuddy(m_policies);
    policiesLabel->setWordWrap(true);
    settingsLayout->addWidget(policiesLabel);
    settingsLayout->addWidget(m_policies, 3);
    // Why the stochastic entries are greyed out, where it is seen (a user looked for it; it
    // was only in their tooltips).
    m_stsNote->setObjectName(QStringLiteral("runStsNote"));
    m_stsNote->setWordWrap(true);
    m_stsNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_stsNote->hide();
    settingsLayout->addWidget(m_stsNote);
    auto *weightsLabel = new QLabel(tr("Plugin weights of the selected policy:"), this);
    weightsLabel->setWordWrap(true);
    settingsLayout->addWidget(weightsLabel);
    settingsLayout->addWidget(m_weights, 2);
    settingsLayout->addWidget(resetWeights, 0, Qt::AlignRight);
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("runPanelScroll"));
    scroll->setWidget(settings);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_run->setObjectName(QStringLiteral("runButton"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 1);
    layout->addLayout(form);
    auto *what = new QHBoxLayout;
    what->addWidget(m_simulate);
    what->addWidget(m_keepLog);
    what->addStretch(1);
    layout->addLayout(what);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);

    connect(m_run, &QPushButton::clicked, this, &RunPanel::start);
    connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancel);
    connect(m_policies, &QListWidget::currentRowChanged, this, &RunPanel::showWeights);
    connect(m_policies, &QListWidget::itemChanged, this, &RunPanel::updateButtons);
    connect(m_weights, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        if (m_loadingWeights || item->column() != 1 || !m_policies->currentItem())
            return;
        bool ok = false;
        const double w = item->text().toDouble(&ok);
        const QString policy = m_policies->currentItem()->data(kPolicyRole).toString();
        const QString plugin = m_weights->item(item->row(), 0)->text();
        if (!ok || w < 0) {
            m_status->setText(tr("Weight of %1: expected a number ≥ 0, found \"%2\"")
                                  .arg(plugin, item->text()));
            QTimer::singleShot(0, this, &RunPanel::showWeights); // not while it is edited
            return;
        }
        m_overrides[policy.toStdString()][plugin.toStdString()] = w;
        QFont f = item->font();
        f.setBold(true);
        const QSignalBlocker block(m_weights);
        item->setFont(f);
    });
    connect(resetWeights, &QPushButton::clicked, this, [this] {
        if (auto *item = m_policies->currentItem()) {
            m_overrides.erase(item->data(kPolicyRole).toString().toStdString());
            showWeights();
        }
    });
    connect(m_document, &Document::scenarioReplaced, this, &RunPanel::reloadPolicies);
    connect(m_document, &Document::scenarioReplaced, this, &RunPanel::updateButtons);
    // An edit (a job added, a due date set, a node's GPU type changed) can make STS and its
    // baselines runnable or not: the list is written again when what they need changes.
    for (auto signal : {&Document::rowInserted, &Document::rowRemoved, &Document::rowChanged})
        connect(m_document, signal, this, [this](Document::Part, int) {
            const StochasticUnavailable now = stochasticUnavailable(m_document->scenario());
            if (now.why != m_stochasticWhy)
                reloadPolicies();
            else
                updateButtons();
        });
    // Another scenario: the last batch's progress and "Done" were of the one before; the
    // seeds become its own, unless the user wrote others.
    connect(m_document, &Document::scenarioReplaced, this, [this] {
        const QString seed = QString::number(m_document->scenario().settings.seed);
        if (m_seeds->text().trimmed() == m_defaultSeeds)
            m_seeds->setText(seed);
        m_defaultSeeds = seed;
        if (isRunning())
            return;
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->resetFormat();
        m_progress->setPalette(QPalette());
        m_status->clear();
        m_status->setToolTip({});
    });
    connect(m_launcher, &RunLauncher::batchStarted, this, &RunPanel::onBatchStarted);
    connect(m_launcher, &RunLauncher::runFinished, this, &RunPanel::onRunDone);
    connect(m_launcher, &RunLauncher::batchFinished, this, &RunPanel::onBatchDone);
    reloadPolicies();
}

RunPanel::~RunPanel() = default;

void RunPanel::setWorkspacePath(const QString &path)
{
    m_launcher->setWorkspacePath(path);
}

QString RunPanel::workspacePath() const
{
    return m_launcher->workspacePath();
}

bool RunPanel::isRunning() const
{
    return m_launcher->isRunning();
}

const std::vector<std::int64_t> &RunPanel::storedRuns() const
{
    return m_launcher->storedRuns();
}

void RunPanel::reloadPolicies()
{
    QStringList checked = checkedPolicies();
    if (checked.isEmpty())
        checked << QStringLiteral("k8s-default") << QStringLiteral("dltap");
    const QString current = m_policies->currentItem()
                                ? m_policies->currentItem()->data(kPolicyRole).toString()
                                : QString();
    const QSignalBlocker block(m_policies);
    m_policies->clear();
    std::vector<std::string> own;
    std::map<std::string, std::string> descriptions;
    auto presets = userPresets(m_document->scenario(), {});
    if (presets)
        for (const Policy &p : presets.value()) {
            own.push_back(p.name);
            descriptions[p.name] = p.description;
        }
    for (const std::string &n : builtinPolicyNames())
        if (const auto p = builtinPolicy(n); p && !descriptions.count(n))
            descriptions[n] = p->description;
    // Short notes, so that a laptop's dock shows whole lines; what a policy does is in its
    // tooltip.
    auto add = [&](const std::string &name, const QString &note) {
        auto *item = new QListWidgetItem(QString::fromStdString(name) + note, m_policies);
        if (const auto d = descriptions.find(name); d != descriptions.end() && !d->second.empty())
            item->setToolTip(QString::fromStdString(d->second));
        item->setData(kPolicyRole, QString::fromStdString(name));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(QString::fromStdString(name)) ? Qt::Checked
                                                                           : Qt::Unchecked);
    };
    for (const std::string &n : own)
        add(n, tr("  (this scenario)"));
    for (const std::string &n : builtinPolicyNames())
        if (std::find(own.begin(), own.end(), n) == own.end())
            add(n, {});
    // STS and its baselines: job-level schedulers that choose every job's GPUs over time.
    // Offered where the scenario carries what they need; otherwise listed, disabled, with
    // the reason.
    const StochasticUnavailable missing = stochasticUnavailable(m_document->scenario());
    m_stochasticWhy = missing.why;
    const QString unavailable = QString::fromStdString(missing.why),
                  need = QString::fromStdString(missing.need);
    for (const std::string &n : stochasticPolicyNames()) {
        const std::string method = stochasticMethod(n);
        const bool sts = method.rfind("STS", 0) == 0;
        // (greyed out, the entry says what it needs: a user looked for why)
        add(n, !need.isEmpty() ? QStringLiteral("  (%1)").arg(need)
               // (with the method's name, which the runs and the stepper show: "FIFO")
               : sts ? tr("  (%1, stochastic)").arg(QString::fromStdString(method))
                     : tr("  (%1, STS baseline)").arg(QString::fromStdString(method)));
        QListWidgetItem *item = m_policies->item(m_policies->count() - 1);
        item->setToolTip(stochasticPolicyToolTip(n, unavailable));
        if (!unavailable.isEmpty()) {
            item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable));
            item->setCheckState(Qt::Unchecked);
        }
    }
    m_stsNote->setText(tr("Greyed out: %1.").arg(unavailable));
    m_stsNote->setVisible(!unavailable.isEmpty());
    if (!presets) {
        auto *item = new QListWidgetItem(tr("Scenario presets unusable: %1")
                                             .arg(QString::fromStdString(presets.error())),
                                         m_policies);
        item->setFlags(Qt::NoItemFlags);
    }
    // Checks that are all of policies this scenario cannot run (STS, checked in the last
    // scenario) give way to the defaults, so that Run is not left greyed out unexplained.
    if (checkedPolicies().isEmpty())
        for (int i = 0; i < m_policies->count(); ++i) {
            QListWidgetItem *item = m_policies->item(i);
            const QString name = item->data(kPolicyRole).toString();
            if ((item->flags() & Qt::ItemIsEnabled) &&
                (name == QStringLiteral("k8s-default") || name == QStringLiteral("dltap")))
                item->setCheckState(Qt::Checked);
        }
    int row = 0;
    for (int i = 0; i < m_policies->count(); ++i)
        if (m_policies->item(i)->data(kPolicyRole).toString() == current)
            row = i;
    m_policies->setCurrentRow(row);
    showWeights();
    updateButtons();
}

QStringList RunPanel::policyNames() const
{
    QStringList out;
    for (int i = 0; i < m_policies->count(); ++i)
        if (const QVariant v = m_policies->item(i)->data(kPolicyRole); v.isValid())
            out << v.toString();
    return out;
}

void RunPanel::focusPolicies()
{
    // Scrolled into view: a short dock may have the settings below it shown instead.
    if (auto *scroll = findChild<QScrollArea *>(QStringLiteral("runPanelScroll")))
        scroll->ensureWidgetVisible(m_policies, 0, 0);
    m_policies->setFocus(Qt::ShortcutFocusReason);
    if (!m_policies->currentItem() && m_policies->count() > 0)
        m_policies->setCurrentRow(0);
}

void RunPanel::setPolicyChecked(const QString &policy, bool checked)
{
    for (int i = 0; i < m_policies->count(); ++i)
        if (m_policies->item(i)->data(kPolicyRole).toString() == policy)
            m_policies->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

QStringList RunPanel::checkedPolicies() const
{
    QStringList out;
    for (int i = 0; i < m_policies->count(); ++i)
        if (m_policies->item(i)->checkState() == Qt::Checked)
            out << m_policies->item(i)->data(kPolicyRole).toString();
    return out;
}

void RunPanel::setWeight(const QString &policy, const QString &plugin, double weight)
{
    m_overrides[policy.toStdString()][plugin.toStdString()] = weight;
    if (m_policies->currentItem() &&
        m_policies->currentItem()->data(kPolicyRole).toString() == policy)
        showWeights();
}

void RunPanel::setSeeds(const QString &text)
{
    m_seeds->setText(text);
}

void RunPanel::setSimulate(bool simulate)
{
    m_simulate->setChecked(simulate);
}

void RunPanel::setKeepDecisionLog(bool keep)
{
    m_keepLog->setChecked(keep);
}

void RunPanel::showWeights()
{
    m_loadingWeights = true;
    m_weights->setRowCount(0);
    QListWidgetItem *item = m_policies->currentItem();
    if (item && item->data(kPolicyRole).isValid()) {
        const std::string name = item->data(kPolicyRole).toString().toStdString();
        auto presets = userPresets(m_document->scenario(), {});
        auto policy = resolvePolicy(name, presets ? presets.value() : std::vector<Policy>{});
        if (policy) {
            const auto overrides = m_overrides.find(name);
            for (const PluginConfig &p : policy->plugins) {
                const int row = m_weights->rowCount();
                m_weights->insertRow(row);
                const QString plugin = QString::fromLatin1(toString(p.kind));
                auto *nameItem = new QTableWidgetItem(plugin);
                nameItem->setFlags(Qt::ItemIsEnabled);
                double w = p.weight;
                bool changed = false;
                if (overrides != m_overrides.end())
                    if (auto it = overrides->second.find(plugin.toStdString());
                        it != overrides->second.end()) {
                        w = it->second;
                        changed = w != p.weight;
                    }
                auto *weightItem = new QTableWidgetItem(QString::number(w));
                if (changed) {
                    QFont f = weightItem->font();
                    f.setBold(true);
                    weightItem->setFont(f);
                    weightItem->setToolTip(tr("Preset weight: %1").arg(p.weight));
                }
                m_weights->setItem(row, 0, nameItem);
                m_weights->setItem(row, 1, weightItem);
            }
        }
    }
    m_loadingWeights = false;
}

Result<std::vector<PanelRequest>> RunPanel::requests() const
{
    using R = Result<std::vector<PanelRequest>>;
    const QStringList policies = checkedPolicies();
    if (policies.isEmpty())
        return R::failure({}, "tick at least one policy");
    auto seeds = parseSeedList(m_seeds->text().toStdString());
    if (!seeds)
        return R(seeds.problems());
    auto presets = userPresets(m_document->scenario(), {});
    std::vector<PanelRequest> out;
    for (const QString &p : policies) {
        PanelRequest base;
        base.policy = p.toStdString();
        base.simulate = m_simulate->isChecked();
        base.decisionLog = m_keepLog->isChecked();
        base.costModel = CostModel(m_costModel->currentData().toInt());
        auto policy = resolvePolicy(base.policy, presets ? presets.value() : std::vector<Policy>{});
        if (const auto it = m_overrides.find(base.policy); it != m_overrides.end() && policy)
            for (const auto &[plugin, weight] : it->second) {
                const auto kind = pluginKindFromString(plugin);
                const PluginConfig *cfg = kind ? policy->plugin(*kind) : nullptr;
                if (!cfg || cfg->weight != weight) // only real changes make a new preset
                    base.weights[plugin] = weight;
            }
        for (std::uint64_t seed : seeds.value()) {
            PanelRequest r = base;
            r.seed = seed;
            out.push_back(std::move(r));
        }
    }
    return out;
}

bool RunPanel::start()
{
    if (m_launcher->isRunning())
        return false;
    if (m_document->scenario().jobs.empty()) {
        m_status->setText(tr("Cannot run: the scenario has no jobs"));
        return false;
    }
    auto batch = requests();
    if (!batch) {
        m_status->setText(tr("Cannot run: %1").arg(QString::fromStdString(batch.error())));
        return false;
    }
    return m_launcher->start(m_document->scenario(), std::move(batch).value());
}

void RunPanel::onBatchStarted()
{
    const auto &batch = m_launcher->batch();
    m_errors.clear();
    m_progress->setRange(0, int(batch.size()));
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m runs"));
    m_progress->setPalette(QPalette()); // (the last batch's failure colour)
    m_status->setText(
        tr("Running %1 …").arg(QString::fromStdString(requestPolicyName(batch.front()))));
    updateButtons();
}

void RunPanel::cancel()
{
    if (!m_launcher->isRunning())
        return;
    m_launcher->cancel();
    m_status->setText(tr("Cancelling…"));
}

QString RunPanel::statusText() const
{
    return m_status->text();
}

void RunPanel::onRunDone(int index, std::shared_ptr<const RunSession> session, qint64 id,
                         const QString &error)
{
    const auto &batch = m_launcher->batch();
    const QString name = QString::fromStdString(requestPolicyName(batch[std::size_t(index)]));
    m_progress->setValue(index + 1);
    if (!error.isEmpty() && !(m_launcher->isCancelled() && error == QStringLiteral("cancelled")))
        m_errors << QStringLiteral("%1 seed %2: %3")
                        .arg(name)
                        .arg(batch[std::size_t(index)].seed)
                        .arg(error);
    if (id > 0)
        emit runStored(id);
    if (session)
        emit sessionReady(session);
    if (index + 1 < int(batch.size()) && !m_launcher->isCancelled())
        m_status->setText(tr("Running %1 …").arg(
            QString::fromStdString(requestPolicyName(batch[std::size_t(index) + 1]))));
}

void RunPanel::onBatchDone()
{
    const int stored = int(m_launcher->storedRuns().size());
    const int failed = int(m_errors.size());
    QString text =
        m_launcher->isCancelled()   ? tr("Cancelled after %n stored run(s).", nullptr, stored)
        : failed > 0 && stored == 0 ? tr("Failed: no run stored.")
        : failed > 0
            ? tr("Done: %n run(s) stored in the workspace, %1 failed.", nullptr, stored).arg(failed)
            : tr("Done: %n run(s) stored in the workspace.", nullptr, stored);
    // A batch with failures does not end on a bar that reads as done: it says how many failed,
    // in the error colour.
    if (failed > 0) {
        m_progress->setFormat(tr("%1 of %2 runs failed").arg(failed).arg(m_progress->maximum()));
        QPalette p = m_progress->palette();
        p.setColor(QPalette::Highlight, QColor(0xc6, 0x28, 0x28));
        m_progress->setPalette(p);
    }
    if (!m_errors.isEmpty())
        text += QLatin1Char('\n') + tr("Problems:") + QLatin1Char('\n') +
                m_errors.join(QLatin1Char('\n'));
    m_status->setText(text);
    m_status->setToolTip(m_launcher->workspacePath());
    updateButtons();
    emit batchFinished();
}

void RunPanel::updateButtons()
{
    const bool running = m_launcher->isRunning();
    // A scenario without jobs has nothing to place: a run of it would store empty figures.
    const bool jobs = !m_document->scenario().jobs.empty();
    const bool anyChecked = !checkedPolicies().isEmpty();
    m_run->setEnabled(!running && jobs && anyChecked);
    m_run->setToolTip(!jobs         ? tr("The scenario has no jobs: add one in the job queue, or "
                                                 "import one (File > Import Job Trace)")
                      : !anyChecked ? tr("Check at least one policy in the list to run it")
                                    : QString());
    m_cancel->setEnabled(running);
    m_policies->setEnabled(!running);
    m_weights->setEnabled(!running);
    m_seeds->setEnabled(!running);
    m_simulate->setEnabled(!running);
    m_keepLog->setEnabled(!running);
    m_costModel->setEnabled(!running);
    const QStringList checked = checkedPolicies();
    const auto stochastic = std::count_if(checked.begin(), checked.end(), [](const QString &p) {
        return !stochasticMethod(p.toStdString()).empty();
    });
    const bool catalogue = CostModel(m_costModel->currentData().toInt()) == CostModel::Catalogue;
    m_costNote->setText(stochastic == checked.size()
                            ? tr("STS and its baselines always pay the price list: the choice "
                                 "is for placement policies.")
                            : tr("The STS runs checked pay the price list whatever is chosen "
                                 "here."));
    m_costNote->setVisible(stochastic > 0 && !catalogue);
}

} // namespace cb::views
