#include "runs/history_panel.h"

#include "model/scenario.h"
#include "runs/memory_release.h"
#include "runs/run_diff_dialog.h"
#include "runs/run_history_model.h"
#include "runs/run_service.h"
#include "runs/run_store.h"
#include "store/stored_run.h"
#include "store/workspace.h"

#include <nlohmann/json.hpp>

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <map>
#include <set>

namespace cb::views {

HistoryPanel::HistoryPanel(QWidget *parent)
    : QWidget(parent)
    , m_workspacePath(QString::fromStdString(Workspace::defaultPath()))
    , m_model(new RunHistoryModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_scenario(new QComboBox(this))
    , m_show(new QPushButton(tr("&Show"), this))
    , m_compare(new QPushButton(tr("&Compare"), this))
    , m_diff(new QPushButton(tr("Where They &Part"), this))
    , m_delete(new QPushButton(tr("&Delete…"), this))
    , m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("historyPanel"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunHistoryModel::SortRole);
    m_proxy->setFilterKeyColumn(RunHistoryModel::Scenario);
    m_table->setObjectName(QStringLiteral("historyTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RunHistoryModel::Id, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // The scenario's (long) name last: the filter above names it too, and in a laptop's dock
    // it pushed the policy, seed and metrics out of sight.
    m_table->horizontalHeader()->moveSection(
        m_table->horizontalHeader()->visualIndex(RunHistoryModel::Scenario),
        RunHistoryModel::ColumnCount - 1);
    m_scenario->setObjectName(QStringLiteral("historyScenarioFilter"));
    m_scenario->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_show->setToolTip(tr("Show the selected run in the stepper, heatmaps and timelines "
                          "(read from the workspace, not recomputed)"));
    m_compare->setToolTip(tr("Compare the selected runs: bars, JCT CDF and deltas"));
    m_diff->setObjectName(QStringLiteral("historyDiff"));
    m_diff->setToolTip(tr("Two runs of one scenario, decision by decision: the first decision "
                          "where their policies part, explained on both sides"));
    m_status->setWordWrap(true);
    auto *refresh = new QPushButton(tr("Refresh"), this);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Scenario:"), this));
    top->addWidget(m_scenario, 1);
    top->addWidget(refresh);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_show);
    buttons->addWidget(m_compare);
    buttons->addWidget(m_diff);
    buttons->addWidget(m_delete);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(refresh, &QPushButton::clicked, this, &HistoryPanel::reload);
    connect(m_scenario, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = m_scenario->currentData().toString();
        m_proxy->setFilterRegularExpression(
            name.isEmpty() ? QString()
                           : QStringLiteral("^%1$").arg(QRegularExpression::escape(name)));
        updateStatus();
        updateButtons();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &HistoryPanel::updateButtons);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        showRun(index.data(RunHistoryModel::RunIdRole).toLongLong());
    });
    connect(m_show, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (!ids.empty())
            showRun(ids.front());
    });
    connect(m_compare, &QPushButton::clicked, this, [this] { compareRuns(selectedRuns()); });
    connect(m_diff, &QPushButton::clicked, this, [this] {
        const auto ids = selectedRuns();
        if (ids.size() == 2)
            diffRuns(ids[0], ids[1]);
    });
    connect(m_delete, &QPushButton::clicked, this, [this] { deleteRuns(selectedRuns()); });
    updateButtons();
}

void HistoryPanel::setWorkspacePath(const QString &path)
{
    m_workspacePath = path;
    reload();
}

void HistoryPanel::setScenarioFilter(const QString &name)
{
    if (!name.isEmpty() && m_scenario->findData(name) < 0) {
        const QSignalBlocker block(m_scenario);
        m_scenario->addItem(name, name);
    }
    m_openScenario = name;
    const int i = m_scenario->findData(name);
    if (m_scenario->currentIndex() == i) // (the filter stays as it is)
        updateStatus();
    m_scenario->setCurrentIndex(i >= 0 ? i : 0);
}

void HistoryPanel::updateStatus()
{
    if (!m_listed)
        return;
    const int all = m_model->rowCount(), shown = m_proxy->rowCount();
    if (shown == all)
        m_status->setText(tr("%n run(s) in %1", nullptr, all).arg(m_workspacePath));
    else if (shown == 0)
        m_status->setText(tr("No runs of this scenario yet; %n run(s) of other scenarios "
                             "(choose All scenarios) in %1",
                             nullptr, all)
                              .arg(m_workspacePath));
    else
        m_status->setText(
            tr("%1 of %n run(s) in %2", nullptr, all).arg(shown).arg(m_workspacePath));
}

std::vector<std::int64_t> HistoryPanel::selectedRuns() const
{
    std::vector<std::int64_t> ids;
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    for (const QModelIndex &i : rows)
        ids.push_back(i.data(RunHistoryModel::RunIdRole).toLongLong());
    return ids;
}

void HistoryPanel::selectRuns(const std::vector<std::int64_t> &ids)
{
    QItemSelection selection;
    for (std::int64_t id : ids) {
        const int row = m_model->rowOf(id);
        if (row < 0)
            continue;
        const QModelIndex p = m_proxy->mapFromSource(m_model->index(row, 0));
        if (p.isValid())
            selection.select(p, p.siblingAtColumn(RunHistoryModel::ColumnCount - 1));
    }
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                     QItemSelectionModel::Rows);
    if (!selection.isEmpty())
        m_table->scrollTo(selection.indexes().first());
}

void HistoryPanel::reload()
{
    const auto keep = selectedRuns();
    const QString filter = m_scenario->currentData().toString();
    // Listing never creates a workspace file: the first stored run does.
    bool read = false;
    auto ws = QFileInfo::exists(m_workspacePath)
                  ? Workspace::open(m_workspacePath.toStdString())
                  : Result<std::unique_ptr<Workspace>>::failure({}, {});
    if (!QFileInfo::exists(m_workspacePath)) {
        m_model->setRuns({});
        m_status->setText(tr("No runs yet; runs will be stored in %1").arg(m_workspacePath));
    } else if (!ws) {
        m_model->setRuns({});
        m_status->setText(tr("Cannot open the workspace: %1")
                              .arg(QString::fromStdString(ws.error())));
    } else if (auto runs = ws.value()->runs(); !runs) {
        m_model->setRuns({});
        m_status->setText(QString::fromStdString(runs.error()));
    } else {
        m_model->setRuns(std::move(runs).value());
        read = true;
    }
    m_listed = read;
    {
        const QSignalBlocker block(m_scenario);
        m_scenario->clear();
        m_scenario->addItem(tr("All scenarios"), QString());
        QStringList names = m_model->scenarioNames();
        if (!m_openScenario.isEmpty() && !names.contains(m_openScenario))
            names << m_openScenario;
        for (const QString &name : names)
            m_scenario->addItem(name, name);
    }
    {
        const int i = m_scenario->findData(filter);
        const QSignalBlocker block(m_scenario);
        m_scenario->setCurrentIndex(i >= 0 ? i : 0);
    }
    m_proxy->setFilterRegularExpression(
        filter.isEmpty() || m_scenario->currentData().toString().isEmpty()
            ? QString()
            : QStringLiteral("^%1$").arg(QRegularExpression::escape(filter)));
    selectRuns(keep);
    updateStatus();
    updateButtons();
}

void HistoryPanel::runStored(qint64 id)
{
    reload();
    selectRuns({id});
}

bool HistoryPanel::showRun(std::int64_t id)
{
    auto ws = Workspace::open(m_workspacePath.toStdString());
    if (!ws) {
        m_status->setText(QString::fromStdString(ws.error()));
        return false;
    }
    auto session = loadStoredSession(*ws.value(), id);
    if (!session) {
        m_status->setText(tr("Cannot show run %1: %2")
                              .arg(id)
                              .arg(QString::fromStdString(session.error())));
        return false;
    }
    m_status->setText(tr("Showing run %1 (from the workspace)").arg(id));
    emit sessionRequested(session.value());
    return true;
}

bool HistoryPanel::diffRuns(std::int64_t a, std::int64_t b)
{
    auto ws = Workspace::open(m_workspacePath.toStdString(), Workspace::Access::ReadOnly);
    if (!ws) {
        m_status->setText(QString::fromStdString(ws.error()));
        return false;
    }
    // The older run first: "B - A" reads as what the newer run changed.
    if (a > b)
        std::swap(a, b);
    auto runA = readRunDetail(*ws.value(), a);
    auto runB = runA ? readRunDetail(*ws.value(), b) : Result<StoredRunDetail>(runA.problems());
    if (!runA || !runB) {
        m_status->setText(tr("Cannot compare runs %1 and %2: %3")
                              .arg(a)
                              .arg(b)
                              .arg(QString::fromStdString(!runA ? runA.error() : runB.error())));
        return false;
    }
    auto diff = cb::diffRuns(runA.value(), runB.value());
    if (!diff) {
        m_status->setText(QString::fromStdString(diff.error()));
        return false;
    }
    auto *dialog = new RunDiffDialog(std::move(runA.value()), std::move(runB.value()),
                                     std::move(diff.value()), window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &RunDiffDialog::stepRequested, this, [this](qint64 run, int decision) {
        if (showRun(run))
            emit seekRequested(decision);
    });
    connect(dialog, &RunDiffDialog::stepBothRequested, this,
            [this](qint64 a, qint64 b, int decision) {
                auto ws = Workspace::open(m_workspacePath.toStdString(),
                                          Workspace::Access::ReadOnly);
                auto sa = ws ? loadStoredSession(*ws.value(), a)
                             : Result<std::shared_ptr<const RunSession>>(ws.problems());
                auto sb = sa ? loadStoredSession(*ws.value(), b)
                             : Result<std::shared_ptr<const RunSession>>(sa.problems());
                if (!sb) {
                    m_status->setText(tr("Cannot step runs %1 and %2: %3")
                                          .arg(a)
                                          .arg(b)
                                          .arg(QString::fromStdString(sb.error())));
                    return;
                }
                m_status->setText(tr("Stepping run %1 with run %2 beside it").arg(a).arg(b));
                emit pairRequested(sa.value(), sb.value(), decision);
            });
    m_status->setText(tr("Where runs %1 and %2 part: see the dialog").arg(a).arg(b));
    dialog->show();
    return true;
}

bool HistoryPanel::compareRuns(const std::vector<std::int64_t> &ids)
{
    if (ids.empty())
        return false;
    auto ws = Workspace::open(m_workspacePath.toStdString());
    if (!ws) {
        m_status->setText(QString::fromStdString(ws.error()));
        return false;
    }
    std::vector<ComparedRun> runs;
    std::map<std::string, QString> currencies; // by scenario digest
    for (std::int64_t id : ids) {
        auto record = ws.value()->run(id);
        if (!record) {
            m_status->setText(QString::fromStdString(record.error()));
            return false;
        }
        ComparedRun run = comparedRun(record.value());
        // Costs are in the currency of the scenario the run was made on.
        auto known = currencies.find(record->scenarioDigest);
        if (known == currencies.end()) {
            QString currency;
            if (auto text = ws.value()->scenarioText(record->scenarioDigest); text) {
                const auto doc = nlohmann::json::parse(text.value(), nullptr, false);
                const auto settings = doc.is_object() ? doc.find("settings") : doc.end();
                if (doc.is_object() && settings != doc.end() && settings->is_object() &&
                    settings->contains("currency") && (*settings)["currency"].is_string())
                    currency = QString::fromStdString((*settings)["currency"].get<std::string>());
                else
                    currency = QString::fromStdString(Settings{}.currency);
            }
            known = currencies.emplace(record->scenarioDigest, currency).first;
        }
        run.currency = known->second;
        runs.push_back(std::move(run));
    }
    releaseFreedMemory();
    emit compareRequested(std::move(runs));
    return true;
}

bool HistoryPanel::deleteRuns(const std::vector<std::int64_t> &ids, bool confirm)
{
    if (ids.empty())
        return false;
    QStringList names;
    for (std::int64_t id : ids)
        names << QStringLiteral("#%1").arg(id);
    if (confirm &&
        QMessageBox::question(this, tr("Delete runs"),
                              tr("Delete %n run(s) (%1) from the workspace? This cannot be "
                                 "undone.", nullptr, int(ids.size()))
                                  .arg(names.join(QStringLiteral(", "))),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::No) !=
            QMessageBox::Yes)
        return false;
    auto ws = Workspace::open(m_workspacePath.toStdString());
    if (!ws) {
        m_status->setText(QString::fromStdString(ws.error()));
        return false;
    }
    for (std::int64_t id : ids)
        if (auto st = ws.value()->deleteRun(id); !st) {
            reload();
            m_status->setText(QString::fromStdString(st.error()));
            return false;
        }
    reload();
    m_status->setText(tr("Deleted %1").arg(names.join(QStringLiteral(", "))));
    return true;
}

QString HistoryPanel::statusText() const
{
    return m_status->text();
}

void HistoryPanel::setStatusText(const QString &text)
{
    m_status->setText(text);
}

void HistoryPanel::updateButtons()
{
    const auto n = m_table->selectionModel()->selectedRows().size();
    m_show->setEnabled(n == 1);
    m_compare->setEnabled(n >= 1);
    m_diff->setEnabled(n == 2);
    m_delete->setEnabled(n >= 1);
}

} // namespace cb::views
