#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/terminal_stream.h"
#include "util/sample_folder.h"
#include "util/text.h"

#include <algorithm>
#include <iostream>
#include <sstream>

namespace cb::cli {

std::string Args::value(const std::string &name, const std::string &fallback) const
{
    auto it = m_values.find(name);
    return it == m_values.end() ? fallback : it->second;
}

std::vector<std::string> Args::values(const std::string &name) const
{
    auto it = m_repeated.find(name);
    return it == m_repeated.end() ? std::vector<std::string>{} : it->second;
}

Result<long long> Args::integer(const std::string &name, long long fallback) const
{
    auto it = m_values.find(name);
    if (it == m_values.end())
        return fallback;
    try {
        std::size_t used = 0;
        const long long v = std::stoll(it->second, &used);
        if (used == it->second.size())
            return v;
    } catch (const std::exception &) {
    }
    return Result<long long>::failure("--" + name,
                                      "expected an integer, found \"" + it->second + "\"");
}

Result<Args> Args::parse(const std::vector<std::string> &argv, const std::vector<Option> &options)
{
    Args args;
    bool onlyPositional = false;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string &a = argv[i];
        if (onlyPositional || a.size() < 2 || a[0] != '-' || a == "-") {
            args.m_positional.push_back(a);
            continue;
        }
        if (a == "--") {
            onlyPositional = true;
            continue;
        }
        std::string name = a.substr(a[1] == '-' ? 2 : 1);
        std::string inlineValue;
        bool hasInline = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
            hasInline = true;
        }
        if (name == "h")
            name = "help";
        const Option *opt = nullptr;
        for (const Option &o : options)
            if (o.name == name)
                opt = &o;
        if (name == "help") {
            args.m_values["help"] = "";
            continue;
        }
        if (!opt)
            return Result<Args>::failure(a, "unknown option (see --help)");
        if (opt->valueName.empty()) {
            if (hasInline)
                return Result<Args>::failure(a, "this option takes no value");
            args.m_values[name] = "";
        } else if (hasInline) {
            args.m_values[name] = inlineValue;
            args.m_repeated[name].push_back(inlineValue);
        } else {
            if (i + 1 >= argv.size())
                return Result<Args>::failure(a, "missing value " + opt->valueName);
            args.m_values[name] = argv[++i];
            args.m_repeated[name].push_back(args.m_values[name]);
        }
    }
    return args;
}

const std::vector<Command> &commands()
{
    static const std::vector<Command> all = {
        validateCommand(),
        infoCommand(),
        generateCommand(),
        importCommand(),
        placeCommand(),
        compareCommand(),
        exportCommand(),
        experimentCommand(),
        fidelityCommand(),
        simulateCommand(),
        historyCommand(),
        showCommand(),
        diffCommand(),
        stepCommand(),
        explainCommand(),
        whyCommand(),
        sweepCommand(),
        sweepPointCommand(),
        mergeCommand(),
    };
    return all;
}

const Command *findCommand(const std::string &name)
{
    for (const Command &c : commands())
        if (c.name == name)
            return &c;
    return nullptr;
}

std::string nearestCommand(const std::string &word)
{
    std::vector<std::string> names;
    for (const Command &c : commands())
        names.push_back(c.name);
    return nearestName(word, names);
}

namespace {

/// Help is wrapped to the terminal, but no wider than this: long lines are hard to read.
std::size_t helpColumns()
{
    return std::min<std::size_t>(outputColumns(), 100);
}

/// "Usage: clusterbench FORM", a line per form of the synopsis (forms are given one per
/// line), each wrapped between its parts: an optional "[...]" group is never split.
std::string usageText(const std::string &synopsis, std::size_t width)
{
    std::string out;
    std::istringstream forms(synopsis);
    for (std::string form; std::getline(forms, form);) {
        form.erase(0, form.find_first_not_of(' '));
        int depth = 0;
        for (char &ch : form) {
            depth += ch == '[' ? 1 : ch == ']' ? -1 : 0;
            if (ch == ' ' && depth > 0)
                ch = '\x1f'; // a unit separator stands for the space while wrapping
        }
        const std::string lead = out.empty() ? "Usage: clusterbench " : "       clusterbench ";
        std::string wrapped = wrapText(form, width, 8, lead.size());
        std::replace(wrapped.begin(), wrapped.end(), '\x1f', ' ');
        out += (out.empty() ? "" : "\n") + lead + wrapped;
    }
    return out;
}

std::string commandHelp(const Command &c)
{
    const std::size_t width = helpColumns();
    std::ostringstream s;
    s << usageText(c.synopsis, width) << "\n\n" << wrapText(c.summary, width) << "\n";
    if (!c.description.empty())
        s << "\n" << wrapText(c.description, width) << "\n";
    s << "\nOptions:\n";
    for (const Option &o : c.options) {
        std::string left = "  --" + o.name + (o.valueName.empty() ? "" : " " + o.valueName);
        if (left.size() < 24)
            left.resize(24, ' ');
        else
            left += "  ";
        s << left << wrapText(o.help, width, 24, left.size()) << "\n";
    }
    s << "  --help                show this help\n";
    s << "\nExit codes: 0 ok, 1 failure, 2 bad input or usage.\n";
    return s.str();
}

} // namespace

Problems asOptions(const Problems &problems)
{
    Problems out;
    for (const Problem &p : problems) {
        const bool isParam = !p.where.empty() &&
                             p.where.find_first_of(":/ ") == std::string::npos &&
                             p.where.rfind("--", 0) != 0;
        out.push_back({isParam ? "--" + p.where : p.where, p.message});
    }
    return out;
}

std::string mainHelp()
{
    std::ostringstream s;
    std::string title = "ClusterBench ";
    title += CB_VERSION;
    title += ": schedule distributed deep-learning training on GPU clusters.";
    // (the installed ones beside the program, else the source tree it was built from)
    const std::string folder = sampleFolder(programFolder(), CB_SAMPLES_DIR);
    const std::string samples =
        "Sample scenarios: " + (folder.empty() ? std::string("none installed") : folder);
    s << wrapText(title, helpColumns())
      << "\n\n"
         "Usage: clusterbench [SCENARIO.json]       open the workbench window\n"
         "       clusterbench COMMAND [OPTIONS]     run a terminal command\n\n"
         "Commands:\n";
    for (const Command &c : commands()) {
        std::string left = "  " + c.name;
        left.resize(14, ' ');
        s << left << wrapText(c.summary, helpColumns(), 14, left.size()) << "\n";
    }
    s << "\nRun 'clusterbench COMMAND --help' for a command's options.\n"
      << wrapText(samples, helpColumns(), 2) << "\n";
    return s.str();
}

int runCommand(const std::vector<std::string> &args, Io &io)
{
    const Command *c = args.empty() ? nullptr : findCommand(args[0]);
    if (!c) {
        const std::string word = args.empty() ? "" : args[0];
        io.err << "clusterbench: unknown command \"" << terminalText(word) << "\"";
        // A likely typo gets the command it resembles, not a screen of help above it.
        if (const std::string near = nearestCommand(word); !near.empty())
            io.err << " (did you mean \"" << near
                   << "\"?)\nRun 'clusterbench --help' for "
                      "every command.\n";
        else
            io.err << "\n\n" << mainHelp();
        return ExitBadInput;
    }
    auto parsed = Args::parse(std::vector<std::string>(args.begin() + 1, args.end()), c->options);
    if (!parsed) {
        io.err << "clusterbench " << c->name << ": " << terminalText(parsed.error()) << "\n";
        return ExitBadInput;
    }
    if (parsed->flag("help")) {
        io.out << commandHelp(*c);
        return ExitOk;
    }
    TerminalSafeStream out(io.out), err(io.err);
    // At a terminal, messages on stderr are broken at its width (a redirected stderr keeps
    // each message on one line, for grep).
    LineWrapStream wrappedErr(err, outputColumns());
    Io safe{out, io.errIsTerminal ? static_cast<std::ostream &>(wrappedErr) : err, io.errIsTerminal,
            &io.out, &io.err};
    try {
        return c->run(parsed.value(), safe);
    } catch (const std::exception &e) {
        safe.err << "clusterbench " << c->name << ": internal error: " << e.what() << "\n";
        return ExitFailure;
    }
}

} // namespace cb::cli
