#pragma once
// Every `cnp` subcommand registers itself from its own Cmd*.cpp with CNP_COMMAND(...).
// Exit codes (a contract, docs/cli.md): 0 success, 1 usage error, 2 bad input or failed ingest.
#include <functional>
#include <string>
#include <vector>

namespace cnp::cli {

enum ExitCode { Ok = 0, UsageError = 1, InputFailure = 2 };

struct Command {
    std::string name;
    std::string summary;                                          // one line for `cnp --help`
    std::string usage;                                            // full --help text
    std::function<int(const std::vector<std::string>& args)> run; // args exclude the command name
};

std::vector<Command>& commandRegistry();

struct CommandRegistrar {
    explicit CommandRegistrar(Command c) { commandRegistry().push_back(std::move(c)); }
};

// Thrown by argument parsing; main prints "cnp CMD: MESSAGE" and the usage hint, exits 1.
struct UsageFailure {
    std::string message;
};

} // namespace cnp::cli

#define CNP_CONCAT_INNER(a, b) a##b
#define CNP_CONCAT(a, b) CNP_CONCAT_INNER(a, b)
#define CNP_COMMAND(...)                                                                                     \
    static ::cnp::cli::CommandRegistrar CNP_CONCAT(cnpCommand_, __LINE__)(::cnp::cli::Command{__VA_ARGS__})
