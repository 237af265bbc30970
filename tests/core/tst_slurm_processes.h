#pragma once
// Running Slurm's commands and tests/slurm/slurmctl.sh from the Slurm export tests, one at a
// time or many at once (most of a Slurm command's time is spent waiting for the controller,
// so a batch of sbatch calls in parallel takes little longer than one).

#include <QDir>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace cbtest {

struct SlurmRun
{
    int exitCode = -1; ///< -1: crashed or timed out
    QString out;
    QString err;
};

struct SlurmCommand
{
    QString program;
    QStringList args;
    QString slurmConf; ///< SLURM_CONF for the command; empty: leave it unset
};

inline const QString &slurmScript()
{
    static const QString path = QStringLiteral(CB_SOURCE_DIR "/tests/slurm/slurmctl.sh");
    return path;
}

/// Empty when every tool is installed (in PATH or an sbin folder); else the first missing one.
inline QString missingSlurmTool(const QStringList &tools)
{
    const QStringList paths = {"/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"};
    for (const QString &tool : tools)
        if (QStandardPaths::findExecutable(tool).isEmpty() &&
            QStandardPaths::findExecutable(tool, paths).isEmpty())
            return tool;
    return {};
}

/// Runs the commands, at most `parallel` at a time, each with `timeoutMs`; results in order.
inline std::vector<SlurmRun> runSlurmCommands(const std::vector<SlurmCommand> &commands,
                                              const QString &workingDir, int parallel = 8,
                                              int timeoutMs = 120000)
{
    std::vector<SlurmRun> results(commands.size());
    std::vector<std::unique_ptr<QProcess>> running(commands.size());
    const QProcessEnvironment base = QProcessEnvironment::systemEnvironment();
    auto finish = [&](std::size_t i) {
        QProcess &p = *running[i];
        SlurmRun &r = results[i];
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            r.err = commands[i].program + " timed out";
        } else {
            r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        }
        r.out += QString::fromUtf8(p.readAllStandardOutput());
        r.err += QString::fromUtf8(p.readAllStandardError());
        running[i].reset();
    };
    std::size_t oldest = 0;
    for (std::size_t i = 0; i < commands.size(); ++i) {
        if (i >= oldest + std::size_t(parallel))
            finish(oldest++);
        QProcessEnvironment env = base;
        if (!commands[i].slurmConf.isEmpty())
            env.insert("SLURM_CONF", commands[i].slurmConf);
        env.insert("PATH", env.value("PATH") + ":/usr/sbin");
        running[i] = std::make_unique<QProcess>();
        running[i]->setProcessEnvironment(env);
        running[i]->setWorkingDirectory(workingDir);
        running[i]->start(commands[i].program, commands[i].args);
    }
    for (; oldest < commands.size(); ++oldest)
        finish(oldest);
    return results;
}

inline SlurmRun runSlurmCommand(const SlurmCommand &command, const QString &workingDir,
                                int timeoutMs = 120000)
{
    return runSlurmCommands({command}, workingDir, 1, timeoutMs).front();
}

/// The SLURM_CONF path slurmctl.sh start printed, or empty.
inline QString slurmConfFrom(const SlurmRun &start)
{
    for (const QString &line : start.out.split('\n'))
        if (line.startsWith("SLURM_CONF="))
            return line.mid(int(strlen("SLURM_CONF=")));
    return {};
}

} // namespace cbtest
