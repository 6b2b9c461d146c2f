// cnp reclassify WS [--rules FILE | --reset]: re-categorise every kernel of every run with the current
// (or new) rules and rebuild the summaries, without re-reading any trace file.
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "requests/WorkspaceCategories.h"
#include "store/MetaKeys.h"

#include "metrics/CategoryRules.h"
#include "requests/SummaryRequests.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <iostream>

namespace cnp::cli {
namespace {

int runReclassify(const std::vector<std::string>& args) {
    ArgParser p({"--rules", "--step-orphans"}, {"--reset", "--show"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    if (p.value("--rules") && p.has("--reset"))
        throw UsageFailure{"--rules and --reset exclude each other"};
    const auto stepOrphans = p.value("--step-orphans");
    if (stepOrphans && *stepOrphans != "include" && *stepOrphans != "exclude")
        throw UsageFailure{"--step-orphans takes include or exclude, not '" + *stepOrphans + "'"};
    if (p.has("--show")) {
        Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
        std::cout << categoryRulesOf(ws).toJson() << '\n';
        return Ok;
    }
    std::optional<CategoryRules> rules;
    if (auto f = p.value("--rules"))
        rules = CategoryRules::fromFile(*f); // validated before the workspace is touched
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadWrite);
    const auto runs = ws.runs();
    Transaction tx = writeTransaction(ws);
    if (rules)
        ws.setMeta(std::string(metakeys::kCategoryRules), rules->toJson());
    else if (p.has("--reset"))
        ws.setMeta(std::string(metakeys::kCategoryRules), "");
    if (stepOrphans)
        setStepsIncludeOrphans(ws, *stepOrphans == "include");
    for (const auto& r : runs)
        rebuildRunSummaries(ws, r.id);
    tx.commit();
    std::cout << "re-classified " << runs.size() << " run" << (runs.size() == 1 ? "" : "s") << " with "
              << (rules              ? "the rules of " + *p.value("--rules")
                  : p.has("--reset") ? std::string("the default rules")
                                     : std::string("the workspace's rules"))
              << "; summaries rebuilt\n";
    return Ok;
}

} // namespace

CNP_COMMAND("reclassify", "re-categorise kernels with new rules; rebuild summaries",
            "usage: cnp reclassify WS [--rules FILE | --reset | --show] [--step-orphans include|exclude]\n\n"
            "Applies the kernel category rules to every run of the workspace and rebuilds the precomputed\n"
            "summaries (breakdowns, exclusive time, kernel statistics). No trace file is read again.\n"
            "Rule file format: resources/rules/categories.json (ordered regexes, case-insensitive, first\n"
            "match wins; docs/metrics.md). The rules are stored in the workspace (meta category_rules) and\n"
            "used by later ingests too. One transaction: on any error the workspace is unchanged.\n\n"
            "  --rules FILE  validate FILE and make it the workspace's rules\n"
            "  --reset       drop the workspace's rules (back to resources/rules/categories.json)\n"
            "  --show        print the rules in effect and change nothing\n"
            "  --step-orphans include|exclude\n"
            "                count GPU work launched before the capture (orphans) in step windows, or\n"
            "                leave it out (the default); stored in the workspace (meta\n"
            "                steps_include_orphans) and used by later ingests too\n",
            runReclassify);

} // namespace cnp::cli
