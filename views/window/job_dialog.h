#pragma once
// The job editor: everything a training job is, in one form. Kind (parameter server,
// all-reduce, single), parameter-server and worker counts, GPUs, CPUs and memory per task
// and a GPU type; the model from the catalogue (its size and step time filled in, both
// editable); iterations, or epochs of a dataset at a per-worker batch; submit time, due date
// and time limit in the h:mm:ss the queue shows; tardiness weight, priority, container image
// and command, and the Slurm account. Accepting pushes one undo command (AddJobCommand for a
// new job, EditJobCommand for an edit). Fields the form does not show (node selectors, GPU
// shares, measured step times, STS tables) are kept as they were.

#include "model/job.h"
#include "model/scenario.h"

#include <QDialog>

#include <cstdint>
#include <optional>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cb::views {

class Document;

class JobDialog : public QDialog
{
    Q_OBJECT

public:
    /// Edits job `jobIndex` of the document, or makes a new one (inserted at `insertAt`,
    /// -1: at the end) when `jobIndex` is -1.
    JobDialog(Document *document, int jobIndex, int insertAt = -1, QWidget *parent = nullptr);

    bool isNew() const { return m_index < 0; }

    void setKind(JobKind kind);
    void setParameterServers(int count);
    void setWorkers(int count);
    void setGpusPerWorker(int gpus);
    /// A catalogue model name fills in its size and step time; another name keeps them.
    void setModel(const QString &name);
    void setIterations(long long iterations);
    /// Trains for `epochs` passes over `samples` at `batch` samples per worker and step.
    void setEpochs(double epochs, long long samples, int batch);
    void setSubmit(const QString &text);
    void setDue(const QString &text);
    void setTimeLimit(const QString &text);
    void setAccount(const QString &account);
    void setImage(const QString &image);
    void setCommand(const QString &command);

    /// The job as the form describes it, or the first problem.
    std::optional<Job> job(QString *problem = nullptr) const;
    /// Why the form cannot be applied, or empty (warnings such as "no node has 9 GPUs" are
    /// shown but do not block).
    QString problem() const;
    QString warning() const;
    /// Pushes the command; false (nothing pushed) on a problem or when nothing changed.
    bool apply();

    void accept() override;

private:
    void load(const Job &job);
    void modelChosen();
    /// Shows `name` in the model box: the catalogue's item when it is one.
    void showModelName(const QString &name);
    /// Shows the model's size and step time and remembers them exactly: the spin boxes round
    /// (0.1 MB, 0.1 ms), and a value the user did not touch must not change the job.
    void showModel(std::int64_t parameterBytes, double stepSeconds);
    void updateForm();
    /// The job's model as the form describes it, for `workers` workers (an epoch's steps
    /// depend on them): the training estimate shows it whatever else in the form is wrong.
    ModelProfile modelFromForm(int workers) const;

    Document *m_document;
    int m_index;
    int m_insertAt;
    Job m_original;

    QLineEdit *m_id;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QSpinBox *m_ps;
    QSpinBox *m_workers;
    QSpinBox *m_minWorkers; ///< min_available; 0 shows "all workers"
    QSpinBox *m_gpus;
    QComboBox *m_gpuType;
    QDoubleSpinBox *m_cpus;
    QDoubleSpinBox *m_memory;
    QComboBox *m_model;
    QDoubleSpinBox *m_modelMb;
    QDoubleSpinBox *m_stepSeconds;
    QString m_autoId;               ///< the id proposed for a new job; follows the model
    std::int64_t m_exactBytes = 0;  ///< what m_modelMb shows, to the byte
    double m_shownMb = 0;           ///< m_modelMb's value when m_exactBytes was set
    double m_exactStep = 0;         ///< what m_stepSeconds shows, unrounded
    double m_shownStep = 0;
    QComboBox *m_trainFor;
    QSpinBox *m_iterations;
    QDoubleSpinBox *m_epochs;
    QSpinBox *m_samples;
    QSpinBox *m_batch;
    QLabel *m_trainingNote;
    QLineEdit *m_submit;
    QLineEdit *m_due;
    QDoubleSpinBox *m_tardiness;
    QSpinBox *m_priority;
    QLineEdit *m_image;
    QLineEdit *m_command;
    QLineEdit *m_timeLimit;
    QLineEdit *m_account;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};

} // namespace cb::views
