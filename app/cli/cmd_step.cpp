// `clusterbench step`: the terminal stepper. On a terminal it switches to raw mode (termios:
// no line buffering, no echo) and the alternate screen, and restores both on exit and on
// SIGINT, SIGTERM, SIGHUP and SIGQUIT. Without a terminal, or with --script KEYS, it prints
// the frames for a key sequence instead, which is what tests and pipes see.

#include "cli/command.h"
#include "cli/output_columns.h"
#include "cli/policy_input.h"
#include "cli/step_view.h"
#include "io/file_io.h"
#include "net/topology.h"
#include "runs/run_service.h"
#include "sched/placer.h"
#include "util/count_text.h"
#include "util/terminal_text.h"
#include "util/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <ostream>
#include <string>

#include <poll.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace cb::cli {

namespace {

struct StepState
{
    int cursor = 0;
    bool playing = false;
    int speed = 2; ///< decisions per second
    bool quit = false;
};

constexpr int kSpeeds[] = {1, 2, 4, 8, 16, 32};

void apply(StepKey key, StepState &st, int total)
{
    const int last = std::max(total - 1, 0);
    switch (key) {
    case StepKey::Next: st.cursor = std::min(st.cursor + 1, last); st.playing = false; break;
    case StepKey::Previous: st.cursor = std::max(st.cursor - 1, 0); st.playing = false; break;
    case StepKey::First: st.cursor = 0; st.playing = false; break;
    case StepKey::Last: st.cursor = last; st.playing = false; break;
    case StepKey::PlayPause:
        st.playing = !st.playing;
        if (st.playing && st.cursor == last)
            st.cursor = 0; // play again from the start
        break;
    case StepKey::Faster:
    case StepKey::Slower: {
        auto it = std::find(std::begin(kSpeeds), std::end(kSpeeds), st.speed);
        if (key == StepKey::Faster && it + 1 != std::end(kSpeeds))
            st.speed = *(it + 1);
        if (key == StepKey::Slower && it != std::begin(kSpeeds))
            st.speed = *(it - 1);
        break;
    }
    case StepKey::Quit: st.quit = true; break;
    case StepKey::None: break;
    }
}

// Terminal state, restorable from a signal handler (tcsetattr and write are
// async-signal-safe).
termios g_saved{};
volatile sig_atomic_t g_raw = 0;
volatile sig_atomic_t g_resized = 0;
constexpr char kEnter[] = "\x1b[?1049h\x1b[?25l";
constexpr char kLeave[] = "\x1b[0m\x1b[?25h\x1b[?1049l";

void restoreTerminal()
{
    if (!g_raw)
        return;
    g_raw = 0;
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &g_saved);
    ssize_t ignored = write(STDOUT_FILENO, kLeave, sizeof kLeave - 1);
    (void)ignored;
}

extern "C" void onFatalSignal(int sig)
{
    restoreTerminal();
    removeTemporaryFilesNow();
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

extern "C" void onResize(int)
{
    g_resized = 1;
}

class RawTerminal
{
public:
    bool enter()
    {
        if (tcgetattr(STDIN_FILENO, &g_saved) != 0)
            return false;
        termios raw = g_saved;
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO);
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        struct sigaction sa {};
        sa.sa_handler = onFatalSignal;
        sigemptyset(&sa.sa_mask);
        for (int i = 0; i < 4; ++i)
            sigaction(kSignals[i], &sa, &m_old[i]);
        struct sigaction winch {};
        winch.sa_handler = onResize;
        sigemptyset(&winch.sa_mask);
        sigaction(SIGWINCH, &winch, &m_oldWinch);
        if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) != 0)
            return false;
        g_raw = 1;
        ssize_t ignored = write(STDOUT_FILENO, kEnter, sizeof kEnter - 1);
        (void)ignored;
        m_entered = true;
        return true;
    }
    ~RawTerminal()
    {
        restoreTerminal();
        if (!m_entered)
            return;
        for (int i = 0; i < 4; ++i)
            sigaction(kSignals[i], &m_old[i], nullptr);
        sigaction(SIGWINCH, &m_oldWinch, nullptr);
    }

private:
    static constexpr int kSignals[4] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    struct sigaction m_old[4] {};
    struct sigaction m_oldWinch {};
    bool m_entered = false;
};

int envInt(const char *name, int fallback)
{
    const char *v = std::getenv(name);
    return v && std::atoi(v) > 0 ? std::atoi(v) : fallback;
}

} // namespace

Command stepCommand()
{
    Command c;
    c.name = "step";
    c.synopsis = "step SCENARIO --policy P [--seed S] [--script KEYS] [--width W] [--height H] "
                 "[--log-detail D]";
    c.summary = "Step through a placement's decisions or a stochastic run's scheduling events "
                "in the terminal";
    c.description =
        "Places the scenario's queue with the policy and shows one decision at a time: the "
        "job and task, the score table (a row per node: its total, then per plugin the raw "
        "-> weighted score, only the weighted one on a narrow terminal, where plugins are "
        "numbered; or why the node was filtered out; the winner marked '>', nodes tied with "
        "it '=') and a node x "
        "node heatmap of the per-iteration traffic of the placement so far. Keys: n or Right "
        "next, p or Left previous, f or Home first, l or End last, space play/pause, + and - "
        "speed, q quit. On a terminal the screen follows the window size and the terminal is "
        "restored on exit and on Ctrl-C. Without a terminal, or with --script, the frames for "
        "the keys in KEYS (one character per key, e.g. \"nnp\") are printed one after another "
        "(with --json: the decision the keys end on).\n"
        "A stochastic policy (sts, sts-net and the STS baselines) is simulated and stepped by "
        "scheduling event instead: its time and trigger, the jobs in the order the method "
        "took them (pressure, epochs done, the configuration chosen, its node, the planned "
        "phase, why) and under each its candidate plans per GPU type, cheapest first, the "
        "chosen one marked '*' (with --json: the event the keys end on). A plan's cost is its "
        "expected running cost (the phases at the configurations' catalogue prices) plus its "
        "expected tardiness cost; its kind is loose (the smallest configuration meets the due "
        "date), optimised (phases that just meet it) or tardy (even the fastest misses it if "
        "the job runs to its most epochs: its expected tardiness, over when the job stops, can "
        "be small or none).";
    c.options = policyInputOptions();
    c.options.insert(c.options.end(),
                     {{"script", "KEYS", "print the frames for these keys instead of reading keys"},
                      {"width", "W", "frame width without a terminal (default $COLUMNS, else 80)"},
                      {"height", "H", "frame height without a terminal (default $LINES or 40)"},
                      {"color", "", "ANSI colours even without a terminal"},
                      {"no-color", "", "no ANSI colours even on a terminal"},
                      {"json", "", "with --script: print the final decision as JSON"},
                      logDetailOption()});
    c.run = [](const Args &args, Io &io) {
        auto input = readPolicyInput(args, io, "step");
        if (!input)
            return int(ExitBadInput);
        auto width = args.integer("width", (long long)outputColumns());
        auto height = args.integer("height", envInt("LINES", 40));
        if (!width || !height || width.value() < 20 || height.value() < 10 ||
            width.value() > 10000 || height.value() > 10000) {
            io.err << "clusterbench step: --width must be >= 20 and --height >= 10\n";
            return int(ExitBadInput);
        }
        const Scenario &s = input->scenario;
        const Topology topo(s.cluster);
        auto detail = readLogDetail(args, io, "step");
        if (!detail)
            return int(ExitBadInput);
        // A placement policy's decisions, or a stochastic policy's scheduling events.
        std::unique_ptr<StepView> placementView;
        std::unique_ptr<StsStepView> stsView;
        if (input->stochastic) {
            RunRequest request;
            request.policy = input->policy.name;
            request.seed = input->seed;
            auto run = executeRun(s, request);
            if (!run) {
                io.err << "clusterbench step: " << run.error() << "\n";
                return int(run.problems().front().where == "policy" ? ExitBadInput
                                                                    : ExitFailure);
            }
            const RunResult &r = *run->result;
            // (in the scenario's currency, as simulate and the window say them)
            const std::string currency =
                s.settings.currency.empty() ? std::string() : " " + s.settings.currency;
            const std::string summary =
                "total cost " + groupedFixed(r.totalCost(), 2) + currency + " (resource " +
                groupedFixed(r.cost, 2) + ", tardiness " + groupedFixed(r.tardinessCost, 2) +
                "), " + std::to_string(r.violations()) + " due-date violation(s), " +
                std::to_string(r.finishedJobs()) + " of " + std::to_string(r.jobs.size()) +
                " jobs finished";
            stsView = std::make_unique<StsStepView>(s.name, input->policy.name, input->seed,
                                                    std::move(run->stsLog), summary);
        } else {
            DecisionLog log;
            log.detail = *detail;
            (void)placeScenario(s, topo, input->policy, input->seed, &log);
            placementView = std::make_unique<StepView>(s, topo, std::move(log));
        }
        const int total =
            stsView ? stsView->eventCount() : placementView->decisionCount();
        const auto render = [&](int cursor, const StepScreen &screen) {
            return stsView ? stsView->render(cursor, screen)
                           : placementView->render(cursor, screen);
        };
        StepState st;
        // Jobs that can never start: on stderr too (readPolicyInput), but the alternate screen
        // would hide that until the stepper quits.
        std::string notice;
        {
            // (the jobs, once each: a job can have a problem per task; "/jobs/N/...")
            std::vector<std::string> ids;
            for (const Problem &p : input->neverStart) {
                const std::string &id = s.jobs[std::stoul(p.where.substr(6))].id;
                if (ids.empty() || ids.back() != id)
                    ids.push_back(id);
            }
            if (!ids.empty()) {
                notice = "warning: " + std::to_string(ids.size()) +
                         (ids.size() == 1 ? " job" : " jobs") +
                         " can never start on this cluster (";
                for (std::size_t k = 0; k < ids.size() && k < 3; ++k)
                    notice += (k ? ", " : "") + ids[k];
                notice += std::string(ids.size() > 3 ? ", ..." : "") +
                          "): `clusterbench validate " + args.positional()[0] + "` says why";
            }
        }

        const bool terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
        if (args.has("script") || !terminal) {
            const std::string keys = args.value("script");
            // A key the stepper does not know would be skipped without a word: refused.
            for (std::size_t pos = 0; pos < keys.size();) {
                const std::size_t at = pos;
                if (decodeStepKey(keys, pos) == StepKey::None) {
                    io.err << "clusterbench step: --script: unknown key '"
                           << terminalText(keys.substr(at, pos - at))
                           << "' at position " << at + 1
                           << " (keys: n or j next, p or k previous, f first, l last, space "
                              "play/pause, + and - speed, q quit)\n";
                    return int(ExitBadInput);
                }
            }
            StepScreen screen;
            screen.notice = notice;
            screen.width = int(width.value());
            screen.height = int(height.value());
            screen.colour = args.flag("color");
            auto frame = [&](const std::string &title) {
                if (args.flag("json"))
                    return;
                io.out << "== " << title << " ==\n" << std::flush;
                screen.playing = st.playing;
                screen.speed = st.speed;
                // Rendered lines escape every name; only their styling reaches the terminal.
                // Printed frames end their lines at the last character (the padding a table
                // or heatmap cell leaves would make diffs of them noisy).
                for (std::string l : render(st.cursor, screen)) {
                    if (!screen.colour)
                        l.erase(l.find_last_not_of(' ') + 1);
                    io.terminalOut() << l << "\n";
                }
                io.terminalOut() << std::flush;
            };
            frame("start");
            for (std::size_t pos = 0; pos < keys.size() && !st.quit;) {
                const std::size_t at = pos;
                const StepKey key = decodeStepKey(keys, pos);
                apply(key, st, total);
                if (!st.quit)
                    frame("after key '" + keys.substr(at, pos - at) + "'");
            }
            if (args.flag("json")) {
                nlohmann::ordered_json j;
                j["scenario"] = s.name;
                if (stsView) {
                    // The event in the STS decision log's layout.
                    j["policy"] = input->policy.name;
                    j["seed"] = input->seed;
                    j["events"] = total;
                    j["cursor"] = total > 0 ? st.cursor + 1 : 0;
                    const nlohmann::json full = stsView->log().toJson();
                    j["event"] = total > 0 ? nlohmann::ordered_json(
                                                 full["events"][std::size_t(st.cursor)])
                                           : nlohmann::ordered_json();
                    io.out << j.dump(2) << "\n";
                    return int(ExitOk);
                }
                const StepView &view = *placementView;
                j["policy"] = view.log().policy;
                j["seed"] = view.log().seed;
                j["decisions"] = total;
                j["cursor"] = total > 0 ? st.cursor + 1 : 0;
                // The decision in the log's layout: its node and reason numbers index these.
                const auto full = view.log().toJson();
                j["detail"] = full["detail"];
                j["nodes"] = full["nodes"];
                j["plugins"] = full["plugins"];
                j["reasons"] = full["reasons"];
                j["decision"] =
                    total > 0 ? full["decisions"][std::size_t(st.cursor)] : nlohmann::ordered_json();
                io.out << j.dump(2) << "\n";
            }
            return int(ExitOk);
        }

        RawTerminal raw;
        if (!raw.enter()) {
            io.err << "clusterbench step: cannot switch the terminal to raw mode\n";
            return int(ExitFailure);
        }
        StepScreen screen;
        screen.notice = notice;
        screen.colour = !args.flag("no-color");
        auto draw = [&] {
            winsize ws{};
            if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) {
                screen.width = ws.ws_col;
                screen.height = ws.ws_row;
            }
            screen.playing = st.playing;
            screen.speed = st.speed;
            // No line break after the last line: on the terminal's last row it would scroll
            // the frame up by one, and the title line out of sight.
            std::string frame = "\x1b[H";
            const std::vector<std::string> lines = render(st.cursor, screen);
            const std::size_t shown = std::min(lines.size(), std::size_t(screen.height));
            for (std::size_t i = 0; i < shown; ++i)
                frame += lines[i] + "\x1b[K" + (i + 1 < shown ? "\r\n" : "");
            frame += "\x1b[J";
            io.terminalOut() << frame << std::flush;
        };
        draw();
        while (!st.quit) {
            pollfd p{STDIN_FILENO, POLLIN, 0};
            const int timeout = st.playing ? 1000 / st.speed : -1;
            const int ready = poll(&p, 1, timeout);
            if (ready < 0) {
                if (errno != EINTR)
                    break;
                g_resized = 0;
                draw();
                continue;
            }
            if (ready == 0) {
                if (st.cursor + 1 < total)
                    ++st.cursor;
                else
                    st.playing = false;
                draw();
                continue;
            }
            char buf[64];
            const ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
            if (n <= 0)
                break;
            const std::string in(buf, std::size_t(n));
            for (std::size_t pos = 0; pos < in.size() && !st.quit;)
                apply(decodeStepKey(in, pos), st, total);
            if (!st.quit)
                draw();
        }
        return int(ExitOk);
    };
    return c;
}

} // namespace cb::cli
