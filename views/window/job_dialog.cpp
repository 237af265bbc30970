#include "window/job_dialog.h"

#include "io/export/kubernetes_names.h"
#include "io/export/slurm_names.h"

#include "commands/add_job_command.h"
#include "commands/edit_job_command.h"
#include "document/document.h"
#include "model/job_defaults.h"
#include "model/model_catalog.h"
#include "model/validation.h"
#include "models/quantity_format.h"
#include "util/command_line.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cb::views {

namespace {

/// Samples per epoch offered for a new job: CIFAR-10's 50,000 training images.
constexpr long long kDefaultSamplesPerEpoch = 50'000;

const TaskGroup *firstOfRole(const Job &job, TaskRole role)
{
    for (const TaskGroup &g : job.tasks)
        if (g.role == role)
            return &g;
    return nullptr;
}

QString durationText(const std::optional<double> &seconds)
{
    return seconds ? formatDuration(*seconds) : QString();
}

} // namespace

JobDialog::JobDialog(Document *document, int jobIndex, int insertAt, QWidget *parent)
    : QDialog(parent)
    , m_document(document)
    , m_index(jobIndex)
    , m_insertAt(insertAt)
    , m_id(new QLineEdit(this))
    , m_name(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_ps(new QSpinBox(this))
    , m_workers(new QSpinBox(this))
    , m_minWorkers(new QSpinBox(this))
    , m_gpus(new QSpinBox(this))
    , m_gpuType(new QComboBox(this))
    , m_cpus(new QDoubleSpinBox(this))
    , m_memory(new QDoubleSpinBox(this))
    , m_model(new QComboBox(this))
    , m_modelMb(new QDoubleSpinBox(this))
    , m_stepSeconds(new QDoubleSpinBox(this))
    , m_trainFor(new QComboBox(this))
    , m_iterations(new QSpinBox(this))
    , m_epochs(new QDoubleSpinBox(this))
    , m_samples(new QSpinBox(this))
    , m_batch(new QSpinBox(this))
    , m_trainingNote(new QLabel(this))
    , m_submit(new QLineEdit(this))
    , m_due(new QLineEdit(this))
    , m_tardiness(new QDoubleSpinBox(this))
    , m_priority(new QSpinBox(this))
    , m_image(new QLineEdit(this))
    , m_command(new QLineEdit(this))
    , m_timeLimit(new QLineEdit(this))
    , m_account(new QLineEdit(this))
    , m_problem(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("jobDialog"));
    const Scenario &s = document->scenario();
    setWindowTitle(isNew() ? tr("New Job") : tr("Edit Job"));

    m_kind->addItem(tr("Parameter server (PS and workers)"), int(JobKind::ParameterServer));
    m_kind->addItem(tr("All-reduce (ring of workers)"), int(JobKind::AllReduce));
    m_kind->addItem(tr("Single task"), int(JobKind::Single));
    m_ps->setRange(1, 1024);
    m_workers->setRange(1, 65536);
    m_minWorkers->setRange(0, 65536);
    m_minWorkers->setSpecialValueText(tr("all workers"));
    m_minWorkers->setSuffix(tr(" workers"));
    m_minWorkers->setObjectName(QStringLiteral("jobMinWorkers"));
    m_workers->setObjectName(QStringLiteral("jobWorkers"));
    m_gpus->setObjectName(QStringLiteral("jobGpus"));
    m_minWorkers->setToolTip(
        tr("Gang admission with a minimum (Volcano's minAvailable): the job starts once its "
           "parameter servers and this many workers are placed, and runs with the workers it "
           "got. \"All workers\": all or nothing."));
    m_gpus->setRange(0, 64);
    m_gpuType->addItem(tr("any GPU type"), QString());
    for (const GpuType &t : s.cluster.gpuTypes)
        m_gpuType->addItem(QString::fromStdString(t.name), QString::fromStdString(t.name));
    m_cpus->setRange(0.1, 4096);
    m_cpus->setDecimals(1);
    m_memory->setRange(0.1, 1 << 20);
    m_memory->setDecimals(1);
    m_memory->setSuffix(tr(" GiB"));
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    for (const TrainingModel &m : trainingModels())
        m_model->addItem(QString::fromStdString(m.name));
    m_model->setToolTip(tr("A model of the catalogue fills in its size and step time"));
    m_modelMb->setRange(0, 1e7);
    m_modelMb->setDecimals(1);
    m_modelMb->setSuffix(tr(" MB"));
    m_modelMb->setToolTip(tr("Gradients exchanged per iteration (4 bytes per parameter)"));
    m_stepSeconds->setRange(0.0001, 1e5);
    m_stepSeconds->setDecimals(4);
    m_stepSeconds->setSuffix(tr(" s"));
    m_stepSeconds->setToolTip(tr("Compute time per iteration and worker on the reference GPU "
                                 "(relative speed 1)"));
    m_trainFor->addItem(tr("iterations"));
    m_trainFor->addItem(tr("epochs"));
    m_iterations->setRange(1, std::numeric_limits<int>::max());
    m_iterations->setGroupSeparatorShown(true);
    m_epochs->setRange(0.01, 1e6);
    m_epochs->setDecimals(2);
    m_samples->setRange(1, std::numeric_limits<int>::max());
    m_samples->setGroupSeparatorShown(true);
    m_samples->setSuffix(tr(" samples per epoch"));
    m_batch->setRange(1, 1 << 20);
    m_batch->setSuffix(tr(" per worker and step"));
    m_trainingNote->setWordWrap(true);
    m_trainingNote->setObjectName(QStringLiteral("trainingNote"));
    for (QLineEdit *e : {m_submit, m_due, m_timeLimit})
        e->setPlaceholderText(tr("h:mm:ss, or 1d 2:00:00, 90s, 1.5h"));
    m_due->setPlaceholderText(tr("none (h:mm:ss after the start of the run)"));
    m_timeLimit->setPlaceholderText(tr("none (Slurm --time, h:mm:ss)"));
    m_tardiness->setRange(0, 1e9);
    m_tardiness->setDecimals(4);
    m_tardiness->setToolTip(tr("Cost per second the job finishes after its due date"));
    m_priority->setRange(-1000000, 1000000);
    m_image->setPlaceholderText(tr("a default per job kind"));
    m_command->setPlaceholderText(tr("none: containers run the image's own, Slurm hostname"));
    m_command->setToolTip(
        tr("What each task runs, e.g. python train.py --epochs 90. Quotes group words as in a "
           "shell; a line with shell syntax (&&, |, >, $VAR) runs with /bin/sh -c as typed."));
    m_account->setPlaceholderText(tr("none (Slurm --account)"));
    m_problem->setObjectName(QStringLiteral("jobProblem"));
    m_id->setObjectName(QStringLiteral("jobId"));
    m_modelMb->setObjectName(QStringLiteral("jobModelSize"));
    m_model->setObjectName(QStringLiteral("jobModel"));
    m_command->setObjectName(QStringLiteral("jobCommand"));
    m_problem->setWordWrap(true);

    auto *tasks = new QGroupBox(tr("Tasks"), this);
    auto *taskForm = new QFormLayout(tasks);
    taskForm->addRow(tr("&Kind:"), m_kind);
    taskForm->addRow(tr("&Parameter servers:"), m_ps);
    taskForm->addRow(tr("&Workers:"), m_workers);
    taskForm->addRow(tr("Start &with at least:"), m_minWorkers);
    auto *gpuRow = new QHBoxLayout;
    gpuRow->addWidget(m_gpus);
    gpuRow->addWidget(m_gpuType, 1);
    auto *gpuLabel = new QLabel(tr("&GPUs per worker:"), this);
    gpuLabel->setBuddy(m_gpus);
    taskForm->addRow(gpuLabel, gpuRow);
    auto *resRow = new QHBoxLayout;
    resRow->addWidget(m_cpus);
    resRow->addWidget(new QLabel(tr("CPUs,"), this));
    resRow->addWidget(m_memory);
    taskForm->addRow(tr("Per task:"), resRow);

    auto *model = new QGroupBox(tr("Model and training"), this);
    auto *modelForm = new QFormLayout(model);
    modelForm->addRow(tr("&Model:"), m_model);
    modelForm->addRow(tr("Model size:"), m_modelMb);
    modelForm->addRow(tr("Step time:"), m_stepSeconds);
    auto *trainRow = new QHBoxLayout;
    trainRow->addWidget(m_iterations, 1);
    trainRow->addWidget(m_epochs, 1);
    trainRow->addWidget(m_trainFor);
    auto *trainLabel = new QLabel(tr("&Train for:"), this);
    trainLabel->setBuddy(m_iterations);
    modelForm->addRow(trainLabel, trainRow);
    modelForm->addRow(QString(), m_samples);
    modelForm->addRow(QString(), m_batch);
    modelForm->addRow(QString(), m_trainingNote);

    auto *when = new QGroupBox(tr("Queue and export"), this);
    auto *whenForm = new QFormLayout(when);
    whenForm->addRow(tr("&Submit:"), m_submit);
    whenForm->addRow(tr("&Due:"), m_due);
    whenForm->addRow(tr("Tardiness weight:"), m_tardiness);
    whenForm->addRow(tr("Priority:"), m_priority);
    whenForm->addRow(tr("Time limit:"), m_timeLimit);
    whenForm->addRow(tr("Account:"), m_account);
    whenForm->addRow(tr("Image:"), m_image);
    whenForm->addRow(tr("Command:"), m_command);

    auto *idForm = new QFormLayout;
    idForm->addRow(tr("&Id:"), m_id);
    idForm->addRow(tr("Name:"), m_name);

    auto *columns = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    left->addLayout(idForm);
    left->addWidget(tasks);
    left->addWidget(model);
    left->addStretch(1);
    columns->addLayout(left, 1);
    columns->addWidget(when, 1);
    auto *content = new QWidget(this);
    content->setLayout(columns);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &JobDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    if (isNew()) {
        Job job;
        job.kind = JobKind::ParameterServer;
        TaskGroup ps;
        ps.role = TaskRole::Ps;
        ps.cpus = 4;
        ps.memoryGiB = 16;
        TaskGroup worker = ps;
        worker.role = TaskRole::Worker;
        worker.replicas = 2;
        worker.gpus = s.cluster.totalGpus() > 0 ? 1 : 0;
        job.tasks = {ps, worker};
        const TrainingModel *resnet = findTrainingModel("resnet50");
        job.model.name = resnet->name;
        job.model.parameterBytes = resnet->parameterBytes();
        job.model.computeSecondsPerIteration = resnet->computeSecondsPerIteration;
        job.model.iterations = resnet->minIterations;
        // The next of the scenario's series (job-24 after job-23); else named after its model
        // (resnet50-1, resnet50-2, ...) until the user types an id or picks another model.
        std::vector<std::string> ids;
        for (const Job &other : s.jobs)
            ids.push_back(other.id);
        job.id = nextIdInSeries(ids);
        if (job.id.empty()) {
            job.id = document->uniqueJobId(job.model.name + "-1");
            m_autoId = QString::fromStdString(job.id);
        }
        // A due date and a weight like the other jobs' where each has one (STS needs them).
        if (const auto due = dueDefaults(s.jobs)) {
            job.dueSeconds = job.submitSeconds + due->dueAfterSeconds;
            job.tardinessWeight = due->tardinessWeight;
        }
        m_original = job;
    } else {
        m_original = s.jobs[std::size_t(jobIndex)];
    }
    load(m_original);

    for (QLineEdit *e : {m_id, m_name, m_submit, m_due, m_timeLimit, m_account, m_image,
                         m_command})
        connect(e, &QLineEdit::textChanged, this, &JobDialog::updateForm);
    for (QSpinBox *b : {m_ps, m_workers, m_minWorkers, m_gpus, m_iterations, m_samples, m_batch,
                        m_priority})
        connect(b, &QSpinBox::valueChanged, this, &JobDialog::updateForm);
    for (QDoubleSpinBox *b : {m_cpus, m_memory, m_modelMb, m_stepSeconds, m_epochs, m_tardiness})
        connect(b, &QDoubleSpinBox::valueChanged, this, &JobDialog::updateForm);
    for (QComboBox *b : {m_kind, m_gpuType, m_trainFor})
        connect(b, &QComboBox::currentIndexChanged, this, &JobDialog::updateForm);
    connect(m_model, &QComboBox::currentTextChanged, this, &JobDialog::modelChosen);
    updateForm();
    resize(860, 560);
}

void JobDialog::load(const Job &job)
{
    m_id->setText(QString::fromStdString(job.id));
    m_name->setText(QString::fromStdString(job.name));
    m_kind->setCurrentIndex(m_kind->findData(int(job.kind)));
    const TaskGroup *ps = firstOfRole(job, TaskRole::Ps);
    const TaskGroup *worker = firstOfRole(job, job.kind == JobKind::Single ? TaskRole::Single
                                                                         : TaskRole::Worker);
    if (!worker && !job.tasks.empty())
        worker = &job.tasks.front();
    m_ps->setValue(ps ? ps->replicas : 1);
    m_workers->setValue(worker ? worker->replicas : 1);
    m_minWorkers->setValue(job.minAvailable.value_or(0));
    m_gpus->setValue(worker ? worker->gpus : 0);
    const int type = m_gpuType->findData(worker ? QString::fromStdString(worker->gpuType) : QString());
    m_gpuType->setCurrentIndex(std::max(0, type));
    m_cpus->setValue(worker ? worker->cpus : 1);
    m_memory->setValue(worker ? worker->memoryGiB : 1);
    {
        const QSignalBlocker block(m_model); // keep the job's own size and step time
        showModelName(QString::fromStdString(job.model.name));
    }
    showModel(job.model.parameterBytes, job.model.computeSecondsPerIteration);
    m_trainFor->setCurrentIndex(0);
    m_iterations->setValue(int(std::min<std::int64_t>(job.model.iterations,
                                                      std::numeric_limits<int>::max())));
    const TrainingModel *known = findTrainingModel(job.model.name);
    m_batch->setValue(job.model.localBatch > 0 ? job.model.localBatch
                      : known                  ? known->batchSize
                                               : 32);
    m_samples->setValue(int(kDefaultSamplesPerEpoch));
    const double perEpoch = double(kDefaultSamplesPerEpoch) /
                            (double(m_batch->value()) * std::max(1, m_workers->value()));
    m_epochs->setValue(std::max(0.01, double(job.model.iterations) / perEpoch));
    m_submit->setText(formatDuration(job.submitSeconds));
    m_due->setText(durationText(job.dueSeconds));
    m_tardiness->setValue(job.tardinessWeight);
    m_priority->setValue(job.priority);
    m_timeLimit->setText(durationText(job.timeLimitSeconds));
    m_account->setText(QString::fromStdString(job.account));
    m_image->setText(QString::fromStdString(job.image));
    m_command->setText(QString::fromStdString(lineFromCommand(job.command)));
}

void JobDialog::modelChosen()
{
    const TrainingModel *m = findTrainingModel(m_model->currentText().trimmed().toStdString());
    if (m && isNew() && m_id->text() == m_autoId) {
        m_autoId = QString::fromStdString(m_document->uniqueJobId(m->name + "-1"));
        m_id->setText(m_autoId);
    }
    if (m) {
        showModel(m->parameterBytes(), m->computeSecondsPerIteration);
        m_batch->setValue(m->batchSize);
    }
    updateForm();
}

void JobDialog::showModel(std::int64_t parameterBytes, double stepSeconds)
{
    m_modelMb->setValue(double(parameterBytes) / 1e6);
    m_stepSeconds->setValue(stepSeconds);
    m_exactBytes = parameterBytes;
    m_shownMb = m_modelMb->value();
    m_exactStep = stepSeconds;
    m_shownStep = m_stepSeconds->value();
}

void JobDialog::setKind(JobKind kind)
{
    m_kind->setCurrentIndex(m_kind->findData(int(kind)));
}

void JobDialog::setParameterServers(int count)
{
    m_ps->setValue(count);
}

void JobDialog::setWorkers(int count)
{
    m_workers->setValue(count);
}

void JobDialog::setGpusPerWorker(int gpus)
{
    m_gpus->setValue(gpus);
}

void JobDialog::setModel(const QString &name)
{
    showModelName(name);
}

void JobDialog::showModelName(const QString &name)
{
    // A catalogue model is made the current item, so that the list opens on it (setting the
    // editable box's text left the first item, alexnet, current); another name is typed in.
    if (const int i = m_model->findText(name); i >= 0)
        m_model->setCurrentIndex(i);
    else
        m_model->setCurrentText(name);
}

void JobDialog::setIterations(long long iterations)
{
    m_trainFor->setCurrentIndex(0);
    m_iterations->setValue(int(std::min<long long>(iterations, std::numeric_limits<int>::max())));
}

void JobDialog::setEpochs(double epochs, long long samples, int batch)
{
    m_trainFor->setCurrentIndex(1);
    m_samples->setValue(int(std::min<long long>(samples, std::numeric_limits<int>::max())));
    m_batch->setValue(batch);
    m_epochs->setValue(epochs);
}

void JobDialog::setSubmit(const QString &text)
{
    m_submit->setText(text);
}

void JobDialog::setDue(const QString &text)
{
    m_due->setText(text);
}

void JobDialog::setTimeLimit(const QString &text)
{
    m_timeLimit->setText(text);
}

void JobDialog::setAccount(const QString &account)
{
    m_account->setText(account);
}

void JobDialog::setImage(const QString &image)
{
    m_image->setText(image);
}

void JobDialog::setCommand(const QString &command)
{
    m_command->setText(command);
}

std::optional<Job> JobDialog::job(QString *problem) const
{
    auto fail = [problem](const QString &why) -> std::optional<Job> {
        if (problem)
            *problem = why;
        return std::nullopt;
    };
    const Scenario &s = m_document->scenario();
    Job job = m_original;
    job.id = m_id->text().trimmed().toStdString();
    if (job.id.empty())
        return fail(tr("The job needs an id."));
    for (std::size_t i = 0; i < s.jobs.size(); ++i)
        if (int(i) != m_index && s.jobs[i].id == job.id)
            return fail(tr("Another job is called \"%1\".").arg(m_id->text().trimmed()));
    job.name = m_name->text().trimmed().toStdString();
    job.kind = JobKind(m_kind->currentData().toInt());

    // Tasks: the groups the form describes; node selectors and GPU shares of the groups they
    // replace, and any chief or evaluator group, stay as they were.
    TaskGroup worker;
    if (const TaskGroup *w = firstOfRole(m_original, TaskRole::Worker))
        worker = *w;
    else if (const TaskGroup *single = firstOfRole(m_original, TaskRole::Single))
        worker = *single;
    worker.role = job.kind == JobKind::Single ? TaskRole::Single : TaskRole::Worker;
    worker.replicas = job.kind == JobKind::Single ? 1 : m_workers->value();
    worker.gpus = m_gpus->value();
    worker.gpuType = m_gpuType->currentData().toString().toStdString();
    worker.cpus = m_cpus->value();
    worker.memoryGiB = m_memory->value();
    if (worker.gpus != 1)
        worker.gpuFraction = 1;
    std::vector<TaskGroup> tasks;
    if (job.kind == JobKind::ParameterServer) {
        TaskGroup ps;
        if (const TaskGroup *p = firstOfRole(m_original, TaskRole::Ps))
            ps = *p;
        ps.role = TaskRole::Ps;
        ps.replicas = m_ps->value();
        ps.cpus = m_cpus->value();
        ps.memoryGiB = m_memory->value();
        ps.gpus = 0;
        ps.gpuType.clear();
        ps.gpuFraction = 1;
        tasks.push_back(ps);
    }
    tasks.push_back(worker);
    for (const TaskGroup &g : m_original.tasks)
        if (g.role == TaskRole::Chief || g.role == TaskRole::Evaluator)
            tasks.push_back(g);
    job.tasks = std::move(tasks);

    job.model = modelFromForm(worker.replicas);

    const auto submit = parseDuration(m_submit->text());
    if (!submit)
        return fail(tr("Submit: expected a time such as 0:05:00 or 300, found \"%1\".")
                        .arg(m_submit->text()));
    job.submitSeconds = *submit;
    job.dueSeconds.reset();
    if (!m_due->text().trimmed().isEmpty()) {
        const auto due = parseDuration(m_due->text());
        if (!due)
            return fail(tr("Due: expected a time such as 2:00:00, found \"%1\".").arg(m_due->text()));
        if (*due < job.submitSeconds)
            return fail(tr("Due (%1) is before the submit time (%2).")
                            .arg(formatDuration(*due), formatDuration(job.submitSeconds)));
        job.dueSeconds = *due;
    }
    job.timeLimitSeconds.reset();
    if (!m_timeLimit->text().trimmed().isEmpty()) {
        const auto limit = parseDuration(m_timeLimit->text());
        if (!limit || *limit < 1)
            return fail(tr("Time limit: expected at least a second, such as 4:00:00, found \"%1\".")
                            .arg(m_timeLimit->text()));
        job.timeLimitSeconds = *limit;
    }
    job.tardinessWeight = m_tardiness->value();
    job.priority = m_priority->value();
    // As many as the job has: all or nothing, the same as no minimum.
    job.minAvailable.reset();
    if (job.kind != JobKind::Single && m_minWorkers->value() > 0 &&
        m_minWorkers->value() < m_workers->value())
        job.minAvailable = m_minWorkers->value();
    job.account = m_account->text().trimmed().toStdString();
    if (job.account.find_first_of(" \t\"'#") != std::string::npos)
        return fail(tr("Account: no spaces, quotes or '#'."));
    job.image = m_image->text().trimmed().toStdString();
    auto command = commandFromLine(m_command->text().toStdString());
    if (!command)
        return fail(
            tr("Command: %1.").arg(QString::fromStdString(command.problems().front().message)));
    job.command = std::move(command.value());
    return job;
}

QString JobDialog::problem() const
{
    QString why;
    return job(&why) ? QString() : why;
}

QString JobDialog::warning() const
{
    const auto j = job();
    if (!j)
        return {};
    const Cluster &c = m_document->scenario().cluster;
    for (const TaskGroup &g : j->tasks) {
        bool fits = false;
        int mostGpus = 0;
        for (const Node &n : c.nodes) {
            if (!g.gpuType.empty() && n.gpuType != g.gpuType && g.gpus > 0)
                continue;
            mostGpus = std::max(mostGpus, n.gpus);
            fits = fits || (n.gpus >= g.gpus && n.cpus >= g.cpus && n.memoryGiB >= g.memoryGiB);
        }
        if (!fits && !c.nodes.empty())
            return tr("No node can hold a %1 task (%2 GPU%3%4, %5 CPUs, %6 GiB; the largest "
                      "node has %7 GPUs): the job would never start.")
                .arg(QLatin1String(toString(g.role)))
                .arg(g.gpus)
                .arg(g.gpus == 1 ? QString() : QStringLiteral("s"),
                     g.gpuType.empty() ? QString() : QStringLiteral(" ") + QString::fromStdString(g.gpuType),
                     formatNumber(g.cpus), formatNumber(g.memoryGiB))
                .arg(mostGpus);
    }
    // Each task fits a node, but the whole job may still want more GPUs than there are.
    if (const Problems never = jobNeverStarts(c, *j, {}); !never.empty()) {
        QString text = QString::fromStdString(never.front().message);
        text[0] = text[0].toUpper();
        return tr("%1: fewer workers, a lower \"Start with at least\", or more nodes would "
                  "let it start.")
            .arg(text);
    }
    // STS and its baselines plan every job against its due date and refuse a scenario with
    // a job without one: where every other job has one, the new one without it is said.
    if (!j->dueSeconds) {
        const auto &jobs = m_document->scenario().jobs;
        const bool othersDue =
            std::any_of(jobs.begin(), jobs.end(), [&](const Job &o) { return o.id != j->id; }) &&
            std::all_of(jobs.begin(), jobs.end(),
                        [&](const Job &o) { return o.id == j->id || o.dueSeconds.has_value(); });
        if (othersDue)
            return tr("Every other job has a due date and this one has none: STS and its "
                      "baselines need one for every job (they will refuse to run).");
    }
    // Kubernetes names objects with DNS-1123 labels: an id that is not one is renamed in its
    // exports (Slurm's keep an id that is a Slurm name), which is said here rather than there
    // only.
    if (!KubernetesNames::isDns1123Label(j->id)) {
        const std::string exported = KubernetesNames::jobNames({j->id}).front();
        const std::string slurm = SlurmNames::jobNames({j->id}).front();
        return (slurm == j->id
                    ? tr("Kubernetes exports name this job \"%1\" (their names take lowercase "
                         "letters, digits and '-'); Slurm's keep its id.")
                    : tr("Exports name this job \"%1\" (Kubernetes names take lowercase "
                         "letters, digits and '-')."))
            .arg(QString::fromStdString(exported));
    }
    // What it runs in the container: a line with shell syntax runs under a shell, as typed.
    if (needsShell(m_command->text().toStdString()))
        return tr("The command has shell syntax (such as &&, a pipe, a redirection or $): its "
                  "tasks run it with /bin/sh -c, so the image needs /bin/sh.");
    return {};
}

ModelProfile JobDialog::modelFromForm(int workers) const
{
    ModelProfile model = m_original.model;
    model.name = m_model->currentText().trimmed().toStdString();
    model.parameterBytes =
        m_modelMb->value() == m_shownMb ? m_exactBytes : std::llround(m_modelMb->value() * 1e6);
    model.computeSecondsPerIteration =
        m_stepSeconds->value() == m_shownStep ? m_exactStep : m_stepSeconds->value();
    if (m_trainFor->currentIndex() == 0) {
        model.iterations = m_iterations->value();
    } else {
        const double stepsPerEpoch =
            double(m_samples->value()) / (double(m_batch->value()) * std::max(1, workers));
        model.iterations = std::max<std::int64_t>(
            1, std::int64_t(std::ceil(m_epochs->value() * stepsPerEpoch - 1e-9)));
        model.localBatch = m_batch->value();
    }
    return model;
}

void JobDialog::updateForm()
{
    const auto kind = JobKind(m_kind->currentData().toInt());
    m_ps->setEnabled(kind == JobKind::ParameterServer);
    m_workers->setEnabled(kind != JobKind::Single);
    m_minWorkers->setEnabled(kind != JobKind::Single);
    m_minWorkers->setMaximum(m_workers->value());
    const bool epochs = m_trainFor->currentIndex() == 1;
    m_iterations->setVisible(!epochs);
    m_epochs->setVisible(epochs);
    m_samples->setVisible(epochs);
    m_batch->setVisible(epochs);
    QString why;
    job(&why); // (its first problem, if any)
    // (from the model's fields alone: a due date being typed does not hide it)
    const ModelProfile model = modelFromForm(kind == JobKind::Single ? 1 : m_workers->value());
    const double reference = double(model.iterations) * model.computeSecondsPerIteration;
    m_trainingNote->setText(
        tr("%1 iterations of %2 each: about %3 of compute on the reference GPU, without "
           "communication")
            .arg(formatNumber(double(model.iterations)),
                 // A step is seconds ("0.18 s"), not a clock ("0:00:00.18").
                 model.computeSecondsPerIteration < 60
                     ? tr("%1 s").arg(formatNumber(model.computeSecondsPerIteration))
                     : formatDuration(model.computeSecondsPerIteration),
                 formatDuration(reference)));
    const QString warn = warning();
    m_problem->setText(!why.isEmpty() ? why : warn);
    m_problem->setStyleSheet(!why.isEmpty() ? QStringLiteral("color: #b3261e")
                                            : QStringLiteral("color: #8a5300"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(why.isEmpty());
}

bool JobDialog::apply()
{
    const auto j = job();
    if (!j)
        return false;
    if (isNew()) {
        m_document->undoStack()->push(new AddJobCommand(m_document, *j, m_insertAt));
        return true;
    }
    if (*j == m_document->scenario().jobs[std::size_t(m_index)])
        return false;
    m_document->undoStack()->push(new EditJobCommand(m_document, m_index, *j));
    return true;
}

void JobDialog::accept()
{
    if (!problem().isEmpty())
        return;
    apply();
    QDialog::accept();
}

} // namespace cb::views
