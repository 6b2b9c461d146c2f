// cnp: the headless face of the workbench. Dispatches to the registered subcommands.
#include "CommandRegistry.h"

#include "core/InputError.h"
#include "core/Interrupt.h"
#include "core/TerminalText.h"
#include "store/Sqlite.h"

#include <signal.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>

using namespace cnp::cli;

// The first Ctrl-C (or SIGTERM) asks the command to stop: a running query is interrupted, an ingest rolls
// back, and the command exits 2 saying so. A second one ends the process at once (default action).
extern "C" void onInterrupt(int sig) {
    if (cnp::interruptFlag().exchange(true)) {
        std::signal(sig, SIG_DFL);
        std::raise(sig);
    }
}

// A signal that cnp was started with ignored (nohup, a background job of a non-interactive shell, a
// `trap '' INT`) stays ignored, as shells keep it: cnp then neither stops on it nor hands a command it
// runs (`cnp collect`, `cnp run --backend local`) a default disposition its caller had taken away.
static void installInterruptHandler() {
    struct sigaction sa {};
    sa.sa_handler = onInterrupt;
    sigemptyset(&sa.sa_mask);
    for (const int sig : {SIGINT, SIGTERM}) {
        struct sigaction inherited {};
        if (sigaction(sig, nullptr, &inherited) == 0 && inherited.sa_handler == SIG_IGN)
            continue;
        sigaction(sig, &sa, nullptr);
    }
}

static void printTopHelp() {
    auto cmds = commandRegistry();
    std::sort(cmds.begin(), cmds.end(), [](const Command& a, const Command& b) { return a.name < b.name; });
    std::cout << "usage: cnp COMMAND [ARGS...]   (cnp COMMAND --help for details)\n\n"
                 "CNP Workbench command line: ingest GPU traces into a workspace and analyse them.\n\n"
                 "commands:\n";
    std::size_t width = 12; // the summaries' column: the longest name and a space at least
    for (const auto& c : cmds)
        width = std::max(width, c.name.size() + 1);
    for (const auto& c : cmds) {
        std::cout << "  " << c.name;
        for (std::size_t i = c.name.size(); i < width; ++i)
            std::cout << ' ';
        std::cout << c.summary << '\n';
    }
    std::cout << "\nexit codes: 0 success, 1 usage error, 2 bad input or failed ingest\n";
}

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printTopHelp();
        return args.empty() ? UsageError : Ok;
    }
    if (args[0] == "--version") {
        std::cout << "cnp " CNP_VERSION "\n";
        return Ok;
    }
    const auto& reg = commandRegistry();
    auto it = std::find_if(reg.begin(), reg.end(), [&](const Command& c) { return c.name == args[0]; });
    if (it == reg.end()) {
        std::cerr << "cnp: unknown command '" << args[0] << "' (cnp --help lists them)\n";
        return UsageError;
    }
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (std::find(rest.begin(), rest.end(), "--help") != rest.end() ||
        std::find(rest.begin(), rest.end(), "-h") != rest.end()) {
        auto dd = std::find(rest.begin(), rest.end(), "--");
        auto h = std::find_if(rest.begin(), rest.end(),
                              [](const std::string& s) { return s == "--help" || s == "-h"; });
        if (h < dd) {
            std::cout << it->usage;
            return Ok;
        }
    }
    installInterruptHandler();
    // Names from traces and workspaces reach the terminal without their control characters (issue 33.7).
    cnp::TerminalTextBuffer safeOut(std::cout.rdbuf()), safeErr(std::cerr.rdbuf());
    struct Restore {
        std::streambuf *out, *err;
        ~Restore() {
            std::cout.rdbuf(out);
            std::cerr.rdbuf(err);
        }
    } restore{std::cout.rdbuf(&safeOut), std::cerr.rdbuf(&safeErr)};
    try {
        return it->run(rest);
    } catch (const UsageFailure& e) {
        std::cerr << "cnp " << it->name << ": " << e.message << " (cnp " << it->name << " --help)\n";
        return UsageError;
    } catch (const cnp::InputError& e) {
        std::cerr << "cnp " << it->name << ": " << e.what() << '\n';
        return InputFailure;
    } catch (const cnp::Cancelled&) {
        std::cerr << "cnp " << it->name << ": interrupted; nothing was written or changed\n";
        return InputFailure;
    } catch (const std::exception& e) {
        std::cerr << "cnp " << it->name << ": " << e.what() << '\n';
        return InputFailure;
    }
}
