// cnp diff WS RUN_A RUN_B [--step N|median [--rank R]] [--normalize] [--top N] [--json]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "StepDiffOutput.h"
#include "TableOutput.h"

#include "core/Units.h"
#include "metrics/Bootstrap.h"
#include "requests/RunDiffRequest.h"
#include "requests/StepDiffRequest.h"
#include "store/Workspace.h"

#include <iostream>

namespace cnp::cli {
namespace {

void printJson(const RunDiffResult& d, bool normalized) {
    JsonOutput j;
    j.beginObject().key("run_a").str(d.runA).key("run_b").str(d.runB).key("normalized").boolean(normalized);
    j.key("summary").beginObject().key("added").num(d.added).key("removed").num(d.removed);
    j.key("faster").num(d.faster).key("slower").num(d.slower).key("unchanged").num(d.unchanged).endObject();
    j.key("total_kernel_time_ns").beginObject().key("a").num(d.totalA).key("b").num(d.totalB).endObject();
    j.key("kernels").beginArray();
    for (const auto& k : d.kernels) {
        j.beginObject().key("name").str(k.name).key("category").str(k.category);
        j.key("a").beginObject().key("count").num(k.countA).key("total_ns").num(k.totalA).endObject();
        j.key("b").beginObject().key("count").num(k.countB).key("total_ns").num(k.totalB).endObject();
        j.key("delta_ns").num(k.delta).key("class").str(k.cls);
        if (normalized)
            j.key("names_a").num(k.namesA).key("names_b").num(k.namesB);
        j.endObject();
    }
    j.endArray();
    j.key("categories").beginArray();
    for (const auto& c : d.categories)
        j.beginObject()
            .key("category")
            .str(c.category)
            .key("a_ns")
            .num(c.totalA)
            .key("b_ns")
            .num(c.totalB)
            .key("delta_ns")
            .num(c.delta)
            .endObject();
    j.endArray();
    j.key("step_times_ns").beginObject().key("a").beginArray();
    for (auto t : d.stepTimesA)
        j.num(t);
    j.endArray().key("b").beginArray();
    for (auto t : d.stepTimesB)
        j.num(t);
    j.endArray().endObject();
    j.endObject();
    std::cout << j.text();
}

// Summary lines, the category table and the first `top` kernels (0 = all).
void printText(const RunDiffResult& d, bool normalized, double top) {
    using T = TableOutput;
    auto dur = [](Ns v) { return units::duration(static_cast<double>(v)); };
    auto signedDur = [&](Ns v) { return (v > 0 ? "+" : "") + dur(v); };
    std::cout << "diff " << d.runA << " (A) -> " << d.runB << " (B)"
              << (normalized ? ", normalised names" : "") << "\nkernel time " << dur(d.totalA) << " -> "
              << dur(d.totalB) << "; kernels: " << d.added << " added, " << d.removed << " removed, "
              << d.faster << " faster, " << d.slower << " slower, " << d.unchanged << " unchanged\n";
    auto median = [](const std::vector<Ns>& v) {
        return Bootstrap::median(std::vector<double>(v.begin(), v.end()));
    };
    if (!d.stepTimesA.empty() || !d.stepTimesB.empty())
        std::cout << "median step " << units::duration(median(d.stepTimesA)) << " (" << d.stepTimesA.size()
                  << " steps) -> " << units::duration(median(d.stepTimesB)) << " (" << d.stepTimesB.size()
                  << " steps)\n";
    std::cout << '\n';
    T c({"category", ">A", ">B", ">delta"});
    for (const auto& x : d.categories)
        c.addRow({x.category, dur(x.totalA), dur(x.totalB), signedDur(x.delta)});
    c.print(std::cout);
    std::cout << '\n';
    T k({"kernel", "category", ">A count", ">A total", ">B count", ">B total", ">delta", "class"});
    std::size_t n = 0;
    for (const auto& x : d.kernels) {
        if (top > 0 && n++ >= static_cast<std::size_t>(top))
            break;
        const std::string name = x.name.size() > 60 ? x.name.substr(0, 57) + "..." : x.name;
        k.addRow({name, x.category, units::count(x.countA), dur(x.totalA), units::count(x.countB),
                  dur(x.totalB), signedDur(x.delta), x.cls});
    }
    k.print(std::cout);
    if (top > 0 && d.kernels.size() > static_cast<std::size_t>(top))
        std::cout << "(" << d.kernels.size() - static_cast<std::size_t>(top) << " more; --top 0 lists all)\n";
}

// --step N|median and --rank R as a step choice.
StepDiffChoice stepChoiceOf(const ArgParser& p, bool normalize) {
    StepDiffChoice c;
    c.alignment.normalize = normalize;
    const std::string step = *p.value("--step");
    if (step != "median") {
        const auto n = p.number("--step", 0, 2147483647.0);
        if (*n != static_cast<double>(static_cast<std::int32_t>(*n)))
            throw UsageFailure{"--step takes a step number or 'median', not '" + step + "'"};
        c.step = static_cast<std::int32_t>(*n);
    }
    if (const auto rank = p.number("--rank", 0, 2147483647.0)) {
        if (*rank != static_cast<double>(static_cast<std::int32_t>(*rank)))
            throw UsageFailure{"--rank takes a rank number"};
        c.rank = static_cast<std::int32_t>(*rank);
    }
    return c;
}

int runDiff(const std::vector<std::string>& args) {
    ArgParser p({"--top", "--step", "--rank"}, {"--normalize", "--json"});
    p.parse(args);
    p.requirePositionals(3, 3, "WORKSPACE RUN_A RUN_B");
    const auto top = p.number("--top", 0, 1e9).value_or(20);
    if (top < 0)
        throw UsageFailure{"--top must be >= 0"};
    if (p.value("--rank") && !p.value("--step"))
        throw UsageFailure{"--rank needs --step (a step diff)"};
    if (p.value("--step")) {
        const auto choice = stepChoiceOf(p, p.has("--normalize"));
        Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
        const auto r = diffSteps(ws, p.positionals()[1], p.positionals()[2], choice);
        if (p.has("--json"))
            printStepDiffJson(r, choice.alignment.normalize);
        else
            printStepDiffText(r, choice.alignment.normalize, static_cast<std::size_t>(top));
        return Ok;
    }
    RunDiffOptions o;
    o.normalize = p.has("--normalize");
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const auto d = diffRuns(ws, p.positionals()[1], p.positionals()[2], o);
    if (p.has("--json"))
        printJson(d, o.normalize);
    else
        printText(d, o.normalize, top);
    return Ok;
}

} // namespace

CNP_COMMAND(
    "diff", "kernel-level and category-level difference between two runs",
    "usage: cnp diff WS RUN_A RUN_B [--normalize] [--top N] [--json]\n"
    "       cnp diff WS RUN_A RUN_B --step N|median [--rank R] [--normalize] [--top N] [--json]\n\n"
    "Matches the kernels of RUN_A and RUN_B by name (with --normalize: template arguments, hashes\n"
    "and numeric suffixes stripped, so triton_poi_fused_add_3 ~ triton_poi_fused_add_7) and classes\n"
    "each as added, removed, faster, slower or unchanged (|delta| <= 2% of A's total and <= 1 us per\n"
    "instance), sorted by |delta total|; also category-level deltas and both step-time series.\n\n"
    "With --step: the timeline diff of step N of each run (median: each run's median step by CPU\n"
    "duration) on rank R (default: each run's first rank): per stream pair, the GPU activities aligned by\n"
    "name in order (longest common subsequence), matched / added / removed, the cumulative time shift\n"
    "and where the step's GPU span went (docs/metrics.md, \"Step diff\"); --top N shift jumps listed.\n\n"
    "  --step N     step number (as the timeline shows it), or 'median'\n"
    "  --rank R     the rank of both runs (with --step)\n"
    "  --normalize  match normalised kernel names\n"
    "  --top N      kernels shown in the table (default 20, 0 = all; --json lists all)\n"
    "  --json       machine-readable output (docs/cli.md)\n",
    runDiff);

} // namespace cnp::cli
