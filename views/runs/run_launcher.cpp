#include "runs/run_launcher.h"

#include "store/workspace.h"
#include "runs/memory_release.h"

#include <QThread>

namespace cb::views {

RunLauncher::RunLauncher(QObject *parent)
    : QObject(parent)
    , m_workspacePath(QString::fromStdString(Workspace::defaultPath()))
{
}

RunLauncher::~RunLauncher()
{
    if (m_thread) {
        m_cancel->store(true);
        m_thread->wait();
    }
}

bool RunLauncher::start(const cb::Scenario &scenario, std::vector<PanelRequest> requests,
                        std::optional<ComparedRun> baseline)
{
    if (m_thread || requests.empty())
        return false;
    m_batch = std::move(requests);
    m_stored.clear();
    if (!m_compared.empty())
        m_previous = m_compared.back();
    if (scenario.name != m_scenarioName)
        m_previous.reset(); // only runs of the same scenario are compared with each other
    if (baseline)
        m_previous = std::move(baseline);
    m_scenarioName = scenario.name;
    m_compared.clear();
    m_cancel = std::make_shared<std::atomic<bool>>(false);

    // The worker gets copies of everything; results come back as queued calls.
    const std::string workspacePath = m_workspacePath.toStdString();
    const auto cancel = m_cancel;
    RunLauncher *launcher = this; // outlives the thread: the destructor waits for it
    m_thread = QThread::create([original = scenario, batch = m_batch, workspacePath, cancel,
                                launcher] {
        std::unique_ptr<Workspace> workspace;
        QString workspaceError;
        if (auto opened = Workspace::open(workspacePath); opened)
            workspace = std::move(opened).value();
        else
            workspaceError = QString::fromStdString(opened.error());
        std::string digest; // the batch's scenario version, computed once for its runs
        for (int i = 0; i < int(batch.size()); ++i) {
            if (cancel->load())
                break;
            const PanelRequest &req = batch[std::size_t(i)];
            // One pipeline for every policy: the run service, then the store, then the views.
            cb::RunRequest request = runRequestFor(requestPolicyName(req), req.seed, req.simulate,
                                                   cancel.get(), req.decisionLog);
            request.costModel = req.costModel;
            request.pins = req.pins;
            auto run = executeRun(scenarioForRequest(original, req), request);
            std::shared_ptr<const RunSession> shared;
            qint64 id = 0;
            QString error;
            std::optional<ComparedRun> compared;
            if (!run || cancel->load()) {
                error = run ? QStringLiteral("cancelled") : QString::fromStdString(run.error());
            } else {
                if (!workspace) {
                    error = tr("not stored: %1").arg(workspaceError);
                } else {
                    RunRecord record = recordForRun(run.value(), original, req);
                    // What the comparison shows of it, read before the record is stored.
                    ComparedRun c = comparedRun(record);
                    if (digest.empty())
                        digest = Workspace::digestOf(original);
                    c.scenarioDigest = digest;
                    if (auto saved = saveRecord(*workspace, original, std::move(record)); saved) {
                        id = saved.value();
                        c.id = id;
                        c.label = QStringLiteral("#%1%2").arg(id).arg(
                            c.label.mid(c.label.indexOf(QLatin1Char(' '))));
                        if (!req.pins.empty())
                            c.label += QStringLiteral(" +pin");
                        c.currency = QString::fromStdString(original.settings.currency);
                        compared = std::move(c);
                    } else {
                        error = tr("not stored: %1").arg(QString::fromStdString(saved.error()));
                    }
                }
                RunSession session = sessionFromRun(std::move(run.value()), original);
                session.basePolicy = req.weights.empty() ? std::string() : req.policy;
                session.weights = req.weights;
                session.id = id;
                if (id > 0)
                    session.label = QStringLiteral("#%1 %2").arg(id).arg(session.label);
                shared = std::make_shared<const RunSession>(std::move(session));
            }
            // Storing a large run builds and drops big temporary structures.
            releaseFreedMemory();
            QMetaObject::invokeMethod(
                launcher,
                [launcher, i, shared, id, error, compared] {
                    if (id > 0)
                        launcher->m_stored.push_back(id);
                    if (compared)
                        launcher->m_compared.push_back(*compared);
                    emit launcher->runFinished(i, shared, id, error);
                },
                Qt::QueuedConnection);
        }
    });
    connect(m_thread, &QThread::finished, this, [this] {
        m_thread->deleteLater();
        m_thread = nullptr;
        emit batchFinished();
    });
    m_thread->start();
    emit batchStarted();
    return true;
}

void RunLauncher::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

} // namespace cb::views
