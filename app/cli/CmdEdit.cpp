// cnp edit WS --remove RUN | --rename RUN NEW | --relabel RUN CONFIG | --plan L1,L2,...
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "core/CommaList.h"
#include "store/Workspace.h"

#include <iostream>

namespace cnp::cli {
namespace {

int runEdit(const std::vector<std::string>& args) {
    ArgParser p({"--remove", "--rename", "--relabel", "--plan"}, {});
    p.parse(args);
    const int actions = int(p.value("--remove").has_value()) + int(p.value("--rename").has_value()) +
                        int(p.value("--relabel").has_value()) + int(p.value("--plan").has_value());
    if (actions != 1)
        throw UsageFailure{"give exactly one of --remove, --rename, --relabel, --plan"};
    const bool twoArgs = p.value("--rename") || p.value("--relabel");
    p.requirePositionals(twoArgs ? 2 : 1, twoArgs ? 2 : 1,
                         twoArgs ? "WORKSPACE and the new value" : "WORKSPACE");
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadWrite);
    if (auto run = p.value("--remove")) {
        ws.removeRun(*run);
        std::cout << "removed run '" << *run << "'\n";
    } else if (auto from = p.value("--rename")) {
        ws.renameRun(*from, p.positionals()[1]);
        std::cout << "renamed run '" << *from << "' to '" << p.positionals()[1] << "'\n";
    } else if (auto name = p.value("--relabel")) {
        ws.relabelRun(*name, p.positionals()[1]);
        std::cout << "run '" << *name << "' now has configuration '" << p.positionals()[1] << "'\n";
    } else if (auto plan = p.value("--plan")) {
        ws.setPlanOrder(splitCommaList(*plan));
        std::cout << "plan order:";
        for (const auto& c : ws.planOrder())
            std::cout << " [" << c << "]";
        std::cout << '\n';
    }
    return Ok;
}

CNP_COMMAND("edit", "remove, rename or relabel runs; set the configuration plan order",
            "usage: cnp edit WORKSPACE --remove RUN\n"
            "       cnp edit WORKSPACE --rename RUN NEW_NAME\n"
            "       cnp edit WORKSPACE --relabel RUN CONFIG\n"
            "       cnp edit WORKSPACE --plan CONFIG1,CONFIG2,...\n\n"
            "--plan sets the order of configurations used by ablations (the first is the default baseline);\n"
            "configurations not listed follow in order of first ingest.\n",
            runEdit);

} // namespace
} // namespace cnp::cli
