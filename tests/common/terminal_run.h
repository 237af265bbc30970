#pragma once
// Runs a shell command on a pseudo-terminal made by script(1), as a user at a terminal would,
// so that what a command lays out for a terminal (wrapping, progress) can be tested.

#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QString>

#include <optional>

namespace cbtest {

struct TerminalRun
{
    int exitCode = -1;
    QString output; ///< standard output and error as the terminal showed them, without '\r'
};

/// `command` run by script(1) with COLUMNS set to `columns` (and HOME to `home` unless it is
/// empty); nothing when script(1) is not installed. A command that does not finish in a
/// minute is stopped, with exit code -1.
inline std::optional<TerminalRun> runOnTerminal(const QString &command, int columns,
                                                const QString &home = {})
{
    const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
    if (script.isEmpty())
        return std::nullopt;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("COLUMNS"), QString::number(columns));
    if (!home.isEmpty())
        env.insert(QStringLiteral("HOME"), home);
    p.setProcessEnvironment(env);
    p.start(script, {QStringLiteral("-qec"), command, QStringLiteral("/dev/null")});
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return TerminalRun{-1, QStringLiteral("(stopped after a minute)")};
    }
    return TerminalRun{p.exitCode(),
                       QString::fromUtf8(p.readAllStandardOutput()).remove(QLatin1Char('\r'))};
}

} // namespace cbtest
