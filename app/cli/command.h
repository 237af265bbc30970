#pragma once
// The terminal interface: one `clusterbench SUBCOMMAND` per Command. Exit codes: 0 ok,
// 1 failure, 2 bad input or usage.

#include "util/result.h"

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace cb::cli {

enum ExitCode { ExitOk = 0, ExitFailure = 1, ExitBadInput = 2 };

struct Option
{
    std::string name;       ///< long name without dashes, e.g. "policy"
    std::string valueName;  ///< empty for a flag, else shown in help, e.g. "P"
    std::string help;
};

/// Parsed command line of one subcommand.
class Args
{
public:
    bool flag(const std::string &name) const { return m_values.count(name) > 0; }
    bool has(const std::string &name) const { return m_values.count(name) > 0; }
    std::string value(const std::string &name, const std::string &fallback = {}) const;
    /// Every value of an option given more than once (value() is the last one).
    std::vector<std::string> values(const std::string &name) const;
    /// The value as an integer, or a usage problem naming the option.
    Result<long long> integer(const std::string &name, long long fallback) const;
    const std::vector<std::string> &positional() const { return m_positional; }

    static Result<Args> parse(const std::vector<std::string> &argv,
                              const std::vector<Option> &options);

private:
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::vector<std::string>> m_repeated;
    std::vector<std::string> m_positional;
};

struct Io
{
    std::ostream &out;
    std::ostream &err;
    bool errIsTerminal = false; ///< progress bars only go to a terminal
    /// The streams beneath out and err while a command runs (runCommand shows control
    /// characters in out and err escaped): only for the control sequences of our own
    /// progress bars and the stepper's frames, never for text from files.
    std::ostream *rawOut = nullptr;
    std::ostream *rawErr = nullptr;

    std::ostream &terminalOut() { return rawOut ? *rawOut : out; }
    std::ostream &terminalErr() { return rawErr ? *rawErr : err; }
};

struct Command
{
    std::string name;
    std::string synopsis;    ///< "validate FILE..."
    std::string summary;     ///< one line for the command list
    std::string description; ///< paragraph for --help
    std::vector<Option> options;
    std::function<int(const Args &, Io &)> run;
};

/// Every subcommand, in the order `clusterbench --help` lists them.
const std::vector<Command> &commands();
const Command *findCommand(const std::string &name);
/// The command whose name is within two edits of `word` (the closest, first in the list on a
/// tie), or "" when none is: "sweeep" -> "sweep".
std::string nearestCommand(const std::string &word);

/// Runs `clusterbench ARGS...` for a subcommand (args[0] is the subcommand name). Everything
/// the command prints to io.out and io.err shows control characters escaped
/// (util/terminal_text.h), JSON included (the escapes are JSON's).
int runCommand(const std::vector<std::string> &args, Io &io);
/// The top-level help text.
std::string mainHelp();
/// Problems that name a parameter ("leaves", "nodes") as the command line names it: an
/// option ("--leaves"). Pointers and file names stay as they are.
Problems asOptions(const Problems &problems);

// Subcommand factories, one per file.
Command validateCommand();
Command infoCommand();
Command generateCommand();
Command importCommand();
Command placeCommand();
Command compareCommand();
Command exportCommand();
Command experimentCommand();
Command fidelityCommand();
Command simulateCommand();
Command historyCommand();
Command showCommand();
Command diffCommand();
Command stepCommand();
Command explainCommand();
Command whyCommand();
Command sweepCommand();
Command sweepPointCommand();
Command mergeCommand();

} // namespace cb::cli
