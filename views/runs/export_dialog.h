#pragma once
// The export dialog for the Kubernetes and Slurm exporters (core/io/export registry): choose
// the placement (the shown run, or a policy and seed placed now; for a stochastic run its
// schedule at a chosen time), the format and its options and an output folder; every file is
// previewed before anything is written, the exporter's warnings (what it relaxed) are listed,
// and writing is atomic per file. The run on screen is the default placement; the format and
// the folder of the last export come back.

#include "io/export/exporter.h"
#include "model/scenario.h"
#include "model/placement.h"

#include <QDialog>

#include <functional>
#include <optional>
#include <utility>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace cb::views {

class ExportDialog : public QDialog
{
    Q_OBJECT

public:
    /// `shown` is the placement of the run on screen (offered first, labelled `shownLabel`).
    ExportDialog(const Scenario &scenario, std::optional<Placement> shown = {},
                 const QString &shownLabel = {}, QWidget *parent = nullptr);

    /// The jobs as a simulated run has them at a time (seconds; kFirstRuns: every job as it
    /// first runs): the scenario shaped as they run then and their placement.
    using ScheduleAt = std::function<std::pair<Scenario, Placement>(double)>;
    /// The schedule time that stands for every job as it first runs (the time field's
    /// lowest value, shown in words).
    static constexpr double kFirstRuns = -1;
    /// Offers a simulated run first: its schedule at `atSeconds` (a stochastic run's: the
    /// scrubber's time; a placement policy's: kFirstRuns), editable between kFirstRuns and
    /// `endSeconds`. Selects it.
    void setShownSchedule(const QString &label, ScheduleAt scheduleAt, double endSeconds,
                          double atSeconds);
    /// The time of the shown stochastic schedule (seconds).
    double scheduleTime() const;
    void setScheduleTime(double seconds);
    /// The shown run ran on another version of the scenario (edited since): export it as it ran.
    void setShownScenario(const Scenario &scenario);
    /// What the shown run did that a deployed job would not (jobs past their time limit:
    /// timeLimitOverruns), listed with the warnings of every job format (each writes the
    /// limit) when the shown run is exported.
    void setShownRunWarnings(const std::vector<std::string> &warnings);
    void setFormat(const QString &name);
    QString format() const;
    QString outputFolder() const;
    /// Whether the placement source is the shown run (or its schedule at a time).
    bool exportsShownRun() const;
    void setOutputFolder(const QString &dir);
    /// Chooses "place with this policy" as the placement source.
    void setPolicy(const QString &policy, int seed);
    /// The seed shown (and used when a policy is placed again): the shown run's.
    void setSeed(int seed);

    /// What the preview currently shows (empty when the export failed).
    const ExportResult &preview() const { return m_result; }
    QStringList fileNames() const;
    /// The preview text of file i, as shown in the text view.
    QString previewText(int i) const;
    QStringList warnings() const;
    /// The problem that stopped the export, or empty.
    QString error() const { return m_error; }
    /// Writes the previewed files below the output folder. No confirmation is asked when
    /// `confirmOverwrite` is false (tests). Returns whether everything was written.
    bool writeFiles(bool confirmOverwrite = true);
    /// The line under the preview: what was written, or why not (tests read it).
    QString statusText() const;
    /// The placement chosen, as the list says it ("Shown run: …", "Place now with …").
    QString sourceText() const;
    /// Remembered choices (format, and the folder per scenario) are read from and written to
    /// QSettings; a scenario not yet exported gets ~/clusterbench-export/<its name as a word>.
    static QString defaultFolder(const Scenario &scenario);

signals:
    /// Files were written: how many, their bytes, where.
    void written(int files, qint64 bytes, const QString &folder);

private:
    void refresh();
    void showFile(int row);
    std::optional<Placement> currentPlacement(QString *problem);

    Scenario m_scenario;
    std::optional<Scenario> m_shownScenario;
    bool m_folderChosen = false; ///< the user typed or browsed a folder
    std::optional<Placement> m_shown;
    std::vector<std::string> m_shownRunWarnings;
    ScheduleAt m_scheduleAt;
    QString m_shownLabel, m_scheduleLabel; ///< the shown run's, as the sources name it
    std::string m_scheduleOverloads; ///< why every job at once does not fit (firstRunsOverloadNote)
    /// The scenario the preview exports (the open one, or a stochastic run's reshaped jobs).
    Scenario m_exported;
    ExportResult m_result;
    QString m_error;

    QComboBox *m_source;
    QSpinBox *m_seed;
    QLabel *m_atLabel;
    QDoubleSpinBox *m_at;
    QComboBox *m_format;
    QLabel *m_formatInfo;
    QComboBox *m_pinning;
    QLineEdit *m_namespace;
    QLineEdit *m_image;
    QCheckBox *m_blocks;
    QLineEdit *m_folder;
    QListWidget *m_files;
    QPlainTextEdit *m_text;
    QListWidget *m_warnings;
    QLabel *m_status;
    QPushButton *m_write;
};

} // namespace cb::views
