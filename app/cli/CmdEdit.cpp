// cnp edit WS --remove RUN | --rename RUN NEW | --relabel RUN CONFIG | --plan L1,L2,... |
//             --throughput VALUE --unit U --run RUN | --ablation-source trace|log | --expect CONFIG=TEXT
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "core/CommaList.h"
#include "core/InputError.h"
#include "core/PhysicalBounds.h"
#include "metrics/AblationStudies.h"
#include "metrics/Expectation.h"
#include "requests/AblationRequest.h"
#include "requests/PredictionRequest.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <cmath>
#include <iostream>

namespace cnp::cli {
namespace {

// `--expect CONFIG=TEXT`: what CONFIG is expected to change (metrics/Expectation.h), stored as the
// plan.expect attribute of each of its runs in one transaction; an empty TEXT removes it. A TEXT that
// does not parse is refused before anything is written.
void setExpectation(Workspace& ws, const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos || eq == 0)
        throw UsageFailure{"--expect: '" + arg + "' is not CONFIG=TRANSFORMATIONS (e.g. Base+ACCL=comm=0.5)"};
    const std::string config = arg.substr(0, eq), text = arg.substr(eq + 1);
    std::string canonical;
    if (!text.empty()) {
        const ExpectationParse parsed = parseExpectation(text);
        if (!parsed.ok())
            throw UsageFailure{"--expect: " + parsed.error};
        canonical = formatExpectation(parsed.scenario);
    }
    Transaction tx = writeTransaction(ws);
    int runs = 0;
    for (const RunRecord& r : ws.runs()) {
        if (r.info.config != config)
            continue;
        if (canonical.empty())
            ws.eraseRunAttribute(r.id, kExpectAttribute);
        else
            ws.setRunAttribute(r.id, kExpectAttribute, canonical);
        ++runs;
    }
    if (runs == 0)
        throw InputError(ws.path(), "no run has configuration '" + config + "'");
    tx.commit();
    std::cout << (canonical.empty() ? "removed the expectation of "
                                    : "expectation '" + canonical + "' set on ")
              << runs << " run(s) of configuration '" << config << "'\n";
}

// Records a throughput the user read off the workload's own log as run RUN's log figure (log.* run
// attributes, log.source = user), replacing any step time the log had reported.
void setUserThroughput(Workspace& ws, const ArgParser& p, double value) {
    const auto runName = p.value("--run");
    const auto unit = p.value("--unit");
    if (!runName || !unit)
        throw UsageFailure{"--throughput needs --run RUN and --unit tokens/s|samples/s|steps/s"};
    if (*unit != "tokens/s" && *unit != "samples/s" && *unit != "steps/s")
        throw UsageFailure{"--unit must be tokens/s, samples/s or steps/s"};
    if (!(value > 0) || !std::isfinite(value))
        throw UsageFailure{"--throughput must be a positive number"};
    if (!bounds::kLogThroughput.holds(value)) // 1e308 was stored, and the ablation's arithmetic overflowed
        throw UsageFailure{"option --throughput: " + outOfBoundText(bounds::kLogThroughput, value)};
    const auto run = ws.runOrThrow(*runName);
    Transaction tx = writeTransaction(ws);
    ws.setRunAttribute(run.id, "log.throughput", p.valueOr("--throughput", ""));
    ws.setRunAttribute(run.id, "log.throughput_unit", *unit);
    ws.setRunAttribute(run.id, "log.source", "user");
    ws.eraseRunAttribute(run.id, "log.step_time_s");
    tx.commit();
    std::cout << "run '" << *runName << "': log throughput " << value << ' ' << *unit
              << " (entered by user)\n";
}

// Puts run RUN in study NAME (run attribute `study`); an empty NAME takes the recorded study away, so
// the run is grouped by the rule of metrics/AblationStudies.h again.
void setStudy(Workspace& ws, const ArgParser& p, const std::string& study) {
    const auto runName = p.value("--run");
    if (!runName)
        throw UsageFailure{"--study without --plan needs --run RUN"};
    if (study.size() > kMaxStudyNameBytes)
        throw UsageFailure{"--study: a study name is at most " + std::to_string(kMaxStudyNameBytes) +
                           " bytes"};
    const auto run = ws.runOrThrow(*runName);
    Transaction tx = writeTransaction(ws);
    if (study.empty())
        ws.eraseRunAttribute(run.id, kStudyAttribute);
    else
        ws.setRunAttribute(run.id, kStudyAttribute, study);
    const auto now = studyOfRun(run, ws.runAttributes(run.id));
    tx.commit();
    std::cout << "run '" << *runName << "' is in study '" << now.name << "' (" << toString(now.origin)
              << ")\n";
}

// The configurations of study NAME in the workspace's order: those its runs have.
std::vector<std::string> studyConfigs(const Workspace& ws, const std::string& study) {
    std::vector<std::string> out;
    for (const auto& r : ws.runs())
        if (studyOfRun(r, ws.runAttributes(r.id)).name == study &&
            std::find(out.begin(), out.end(), r.info.config) == out.end())
            out.push_back(r.info.config);
    if (out.empty())
        throw InputError(ws.path(),
                         "no runs in study '" + study + "' (cnp ablation --json lists the studies)");
    return out;
}

int runEdit(const std::vector<std::string>& args) {
    ArgParser p({"--remove", "--rename", "--relabel", "--plan", "--throughput", "--unit", "--run",
                 "--ablation-source", "--expect", "--study"},
                {});
    p.parse(args);
    int actions = 0;
    for (const char* a :
         {"--remove", "--rename", "--relabel", "--plan", "--throughput", "--ablation-source", "--expect"})
        actions += int(p.value(a).has_value());
    if (actions == 0 && p.value("--study"))
        actions = 1; // --study NAME --run RUN
    if (actions != 1)
        throw UsageFailure{"give exactly one of --remove, --rename, --relabel, --plan, --throughput, "
                           "--ablation-source, --expect, --study"};
    const bool twoArgs = p.value("--rename") || p.value("--relabel");
    p.requirePositionals(twoArgs ? 2 : 1, twoArgs ? 2 : 1,
                         twoArgs ? "WORKSPACE and the new value" : "WORKSPACE");
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadWrite);
    if (p.value("--study") && !p.value("--plan")) {
        setStudy(ws, p, *p.value("--study"));
    } else if (auto run = p.value("--remove")) {
        ws.removeRun(*run);
        std::cout << "removed run '" << *run << "'\n";
    } else if (auto from = p.value("--rename")) {
        ws.renameRun(*from, p.positionals()[1]);
        std::cout << "renamed run '" << *from << "' to '" << p.positionals()[1] << "'\n";
    } else if (auto name = p.value("--relabel")) {
        ws.relabelRun(*name, p.positionals()[1]);
        std::cout << "run '" << *name << "' now has configuration '" << p.positionals()[1] << "'\n";
    } else if (auto t = p.number("--throughput")) {
        setUserThroughput(ws, p, *t);
    } else if (auto src = p.value("--ablation-source")) {
        if (!ablationSourceFrom(*src))
            throw UsageFailure{"--ablation-source must be trace or log"};
        ws.setMeta("ablation_source", *src);
        std::cout << "ablations compare " << (*src == "log" ? "the runs' log figures" : "traced step windows")
                  << " by default\n";
    } else if (auto expect = p.value("--expect")) {
        setExpectation(ws, *expect);
    } else if (auto plan = p.value("--plan")) {
        // One transaction (issue 33.6: the order was committed, then reading it back failed): the new order
        // is validated (setPlanOrder throws before writing) and read back before it commits.
        // With --study, the order of that study's configurations only: the others keep their places.
        Transaction tx = writeTransaction(ws);
        if (auto study = p.value("--study"))
            ws.setPlanOrder(mergeStudyOrder(ws.planOrder(), studyConfigs(ws, *study), splitCommaList(*plan)));
        else
            ws.setPlanOrder(splitCommaList(*plan));
        const std::vector<std::string> order = ws.planOrder();
        tx.commit();
        std::cout << "plan order:";
        for (const auto& c : order)
            std::cout << " [" << c << "]";
        std::cout << '\n';
    }
    return Ok;
}

CNP_COMMAND(
    "edit", "remove, rename or relabel runs; set the configuration plan order",
    "usage: cnp edit WORKSPACE --remove RUN\n"
    "       cnp edit WORKSPACE --rename RUN NEW_NAME\n"
    "       cnp edit WORKSPACE --relabel RUN CONFIG\n"
    "       cnp edit WORKSPACE --plan CONFIG1,CONFIG2,... [--study NAME]\n"
    "       cnp edit WORKSPACE --study NAME --run RUN\n"
    "       cnp edit WORKSPACE --throughput VALUE --unit tokens/s|samples/s|steps/s --run RUN\n"
    "       cnp edit WORKSPACE --ablation-source trace|log\n"
    "       cnp edit WORKSPACE --expect CONFIG=TRANSFORMATIONS\n\n"
    "--plan sets the configurations ablations compare, in order (the first is the default baseline);\n"
    "runs of configurations not listed are shown as not in the plan. With --study NAME it orders that\n"
    "study's configurations only, the other studies' keep their places.\n"
    "--study NAME --run RUN puts RUN in ablation study NAME (run attribute `study`); an empty NAME\n"
    "removes it, and the run is grouped by its GPU count and model again (docs/metrics.md \"Studies\").\n"
    "--throughput records the throughput RUN's own log reported (log.source = user), shown beside\n"
    "the traced figure. --ablation-source chooses which figure ablations compare by default.\n"
    "--expect states what CONFIG is expected to change against the configuration before it, in the\n"
    "vocabulary of cnp whatif (comm=0.5; scale.gemm=0.8; recompute=0.25; launch_overhead=remove;\n"
    "remove_sync=API), stored as plan.expect on its runs (empty: removed); cnp ablation then predicts\n"
    "it from the previous configuration's trace (docs/metrics.md, \"Predict, then measure\").\n",
    runEdit);

} // namespace
} // namespace cnp::cli
