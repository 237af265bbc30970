#pragma once
// A job's command as a user types it and as it is deployed: an argv (what Kubernetes'
// `command:` and `srun --` run, without a shell). A line with only words and quotes is split
// the way a POSIX shell splits it; a line with shell syntax (&&, |, ;, redirections, $VAR,
// globs, a leading VAR=value) runs under /bin/sh -c as written, so that it means in the
// container what it meant when typed.

#include "util/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace cb {

/// The argv `line` runs as: its words (quotes and backslashes as a POSIX shell reads them),
/// or {"/bin/sh", "-c", line} when it has shell syntax. Fails on a quote left open or a
/// trailing backslash. An empty line (or only blanks) is an empty argv.
Result<std::vector<std::string>> commandFromLine(std::string_view line);
/// The line commandFromLine reads back as `argv`: the shell's own line for a /bin/sh -c
/// command, else the words, each quoted only where a shell would read it otherwise.
std::string lineFromCommand(const std::vector<std::string> &argv);
/// Whether `line` has syntax outside quotes that only a shell gives a meaning to.
bool needsShell(std::string_view line);
/// The file name of `argv`'s program, without its folder ("python" for /usr/bin/python);
/// empty for an empty argv.
std::string programName(const std::vector<std::string> &argv);
/// The first word of `argv` that a shell would read as an operator (&&, ||, |, ;, &, a
/// redirection such as > or 2>&1), when `argv` is not run by a shell (its first word is not
/// sh, bash, ...): run without a shell, the program gets it as an argument. Empty when none.
std::string shellOperatorArgument(const std::vector<std::string> &argv);

} // namespace cb
