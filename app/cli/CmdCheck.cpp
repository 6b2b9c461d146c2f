// cnp check NEW --against HISTORY [--baseline-release R] [--metric M[,M...]] [--tolerance 2%]
//           [--skip-steps N] [--junit FILE] [--json]
// The regression gate for CI pipelines (docs/metrics.md, "Regression gate"). Exit codes (a contract,
// docs/cli.md): 0 no significant change beyond the tolerance, 1 a regression, 2 cannot judge (too few
// steps, missing configurations, mismatched plans, unreadable input, a usage error). A usage error exits
// 2 here, not 1, so that 1 always means a regression.
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/CommaList.h"
#include "core/InputError.h"
#include "core/Units.h"
#include "export/OutputFile.h"
#include "history/HistoryGate.h"
#include "history/HistoryManifest.h"
#include "history/JUnitReport.h"
#include "history/ReleaseSummaryJson.h"
#include "requests/ReleaseSummaryRequest.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>

namespace cnp::cli {
namespace {

// "2%", "2 %" or "0.02" -> 0.02; UsageFailure outside [0, 100 %).
double toleranceOf(const std::string& text) {
    std::string t = text;
    bool pct = false;
    while (!t.empty() && (t.back() == '%' || t.back() == ' ')) {
        pct = pct || t.back() == '%';
        t.pop_back();
    }
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v))
        throw UsageFailure{"--tolerance must be a number or a percentage, e.g. 2% or 0.02"};
    const double f = pct ? v / 100 : v;
    if (f < 0 || f >= 1)
        throw UsageFailure{"--tolerance must lie in [0%, 100%)"};
    return f;
}

std::vector<GateMetric> metricsOf(const std::string& list) {
    std::vector<GateMetric> out;
    for (const auto& name : splitCommaList(list)) {
        const auto m = gateMetricFrom(name);
        if (!m)
            throw UsageFailure{"--metric: '" + name + "' is not step_time, throughput, mfu or a category"};
        out.push_back(*m);
    }
    if (out.empty())
        throw UsageFailure{"--metric needs at least one metric"};
    return out;
}

std::string changeText(double ratio) {
    return (ratio >= 1 ? "+" : "") + units::percent(ratio - 1, 2);
}

// Below this many baseline releases `check` notes that the between-release spread is not (well) known.
constexpr std::size_t kMinWindowForSpread = 3;

// "kernels that moved most" per check (step time only, or the first metric: the kernels are the same for
// every metric of a configuration), one kernel a line: they are long names.
void printKernelMoves(const ReleaseCheck& check) {
    std::string shown; // configurations already listed
    for (const auto& c : check.checks) {
        if (c.kernelsMoved.empty() || shown.find("\n" + c.config + "\n") != std::string::npos)
            continue;
        shown += "\n" + c.config + "\n";
        std::cout << "kernels that moved most in " << c.config
                  << " (time per step, vs the reference release):\n";
        for (const auto& k : c.kernelsMoved) {
            std::cout << "  " << (k.deltaNs() >= 0 ? "+" : "-") << units::duration(std::abs(k.deltaNs()))
                      << "  " << units::duration(k.baselineNsPerStep) << " -> "
                      << units::duration(k.candidateNsPerStep);
            if (k.hasShare)
                std::cout << "  " << units::percent(k.share) << " of the step-time change";
            std::cout << "  " << k.kernel << "\n";
        }
    }
}

void printText(const ReleaseCheck& check, const std::string& baseline) {
    std::cout << "against release " << baseline << " (baseline window per configuration below):\n";
    TableOutput t(
        {"configuration", "metric", ">change", ">95% CI", ">steps", "verdict", "baseline", "moved most"});
    for (const auto& c : check.checks) {
        const auto& o = c.outcome;
        std::string moved;
        for (const auto& m : c.moved)
            moved += (moved.empty() ? "" : ", ") + m.category + " " + (m.deltaNs() >= 0 ? "+" : "-") +
                     units::duration(std::abs(m.deltaNs()));
        const bool judged = o.verdict != GateVerdict::CannotJudge;
        t.addRow({c.config, c.metric.name(), judged ? changeText(o.ratio) : "-",
                  judged ? changeText(o.ci.lo) + " .. " + changeText(o.ci.hi) : "-",
                  std::to_string(o.baselineSteps) + " / " + std::to_string(o.candidateSteps),
                  judged ? toString(o.verdict) : std::string("cannot judge: ") + o.reason,
                  c.baselineReleases.empty()
                      ? "-"
                      : c.baselineReleases.front() +
                            (c.baselineReleases.size() > 1 ? " .. " + c.baselineReleases.back() : ""),
                  moved});
    }
    t.print(std::cout, "  ");
    printKernelMoves(check);
    for (const auto& p : check.problems)
        std::cout << "cannot judge: " << p << "\n";
    std::size_t fewest = SIZE_MAX;
    for (const auto& c : check.checks)
        fewest = std::min(fewest, c.baselineReleases.size());
    if (fewest < kMinWindowForSpread)
        std::cout << "note: a baseline window holds " << fewest << " release(s): with fewer than "
                  << kMinWindowForSpread << " the spread between releases is unknown or rough, and the CI "
                  << "understates it (docs/metrics.md, \"Regression gate\")\n";
}

void printJson(const ReleaseCheck& check, const std::string& baseline, const std::string& candidate,
               const GateOptions& options) {
    JsonOutput j;
    j.beginObject().key("baseline_release").str(baseline).key("candidate").str(candidate);
    j.key("tolerance")
        .real(options.tolerance)
        .key("min_steps")
        .num(static_cast<std::int64_t>(kMinGateSamples));
    j.key("exit_code").num(check.exitCode()).key("problems").beginArray();
    for (const auto& p : check.problems)
        j.str(p);
    j.endArray().key("checks").beginArray();
    for (const auto& c : check.checks) {
        const auto& o = c.outcome;
        j.beginObject().key("config").str(c.config).key("metric").str(c.metric.name());
        j.key("verdict").str(toString(o.verdict)).key("reason").str(o.reason);
        j.key("baseline_releases").beginArray();
        for (const auto& r : c.baselineReleases)
            j.str(r);
        j.endArray().key("release_spread").real(o.releaseSd);
        j.key("baseline_steps").num(static_cast<std::int64_t>(o.baselineSteps));
        j.key("candidate_steps").num(static_cast<std::int64_t>(o.candidateSteps));
        if (o.verdict != GateVerdict::CannotJudge) {
            j.key("baseline_median").real(o.baselineMedian).key("candidate_median").real(o.candidateMedian);
            j.key("ratio").real(o.ratio).key("ci95").beginArray().real(o.ci.lo).real(o.ci.hi).endArray();
        } else {
            j.key("ratio").null().key("ci95").null();
        }
        j.key("moved").beginArray();
        for (const auto& m : c.moved)
            j.beginObject()
                .key("category")
                .str(m.category)
                .key("baseline_ns_per_step")
                .real(m.baselineMeanNs)
                .key("candidate_ns_per_step")
                .real(m.candidateMeanNs)
                .endObject();
        j.endArray().key("kernels_moved").beginArray();
        for (const auto& k : c.kernelsMoved) {
            j.beginObject().key("kernel").str(k.kernel);
            j.key("baseline_ns_per_step")
                .real(k.baselineNsPerStep)
                .key("candidate_ns_per_step")
                .real(k.candidateNsPerStep);
            j.key("delta_ns_per_step").real(k.deltaNs()).key("share");
            if (k.hasShare)
                j.real(k.share);
            else
                j.null();
            j.endObject();
        }
        j.endArray().endObject();
    }
    j.endArray().endObject();
    std::cout << j.text();
}

int check(const std::vector<std::string>& args) {
    ArgParser p({"--against", "--baseline-release", "--metric", "--tolerance", "--skip-steps", "--junit",
                 "--seed", "--window"},
                {"--json"});
    p.parse(args);
    p.requirePositionals(1, 1, "NEW (a workspace or study folder)");
    if (!p.value("--against"))
        throw UsageFailure{"--against HISTORY is required"};
    GateOptions options;
    options.tolerance = toleranceOf(p.valueOr("--tolerance", "2%"));
    if (p.value("--seed"))
        options.seed = static_cast<std::uint64_t>(*p.number("--seed", 0, 9e15));
    const auto metrics = metricsOf(p.valueOr("--metric", "step_time"));
    const HistoryManifest history = HistoryManifest::open(*p.value("--against"));
    if (history.entries().empty())
        throw InputError(history.manifestPath().string(), "the history has no release to compare against");
    const HistoryEntry* base = &history.entries().back();
    if (auto r = p.value("--baseline-release")) {
        base = history.entry(*r);
        if (!base)
            throw InputError(history.manifestPath().string(), "no release " + *r + " in the history");
    }
    const auto windowSize =
        static_cast<std::size_t>(p.number("--window", 1, 100).value_or(double(kDefaultGateWindow)));
    std::vector<ReleaseSummary> summaries;
    const BaselineWindow window = historyBaselineWindow(
        history, static_cast<std::size_t>(base - history.entries().data()), windowSize, summaries);
    AblationOptions ablation;
    ablation.skipFirstSteps = static_cast<int>(p.number("--skip-steps", 0, 1e6).value_or(0));
    ReleaseSummary candidate;
    {
        const Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
        candidate = summarizeWorkspace(ws, ablation);
    }
    const ReleaseCheck result = checkRelease(window, candidate, metrics, options);
    if (auto junit = p.value("--junit")) {
        OutputFile out(*junit);
        out.write(junitReport(result, base->release, p.positionals()[0]));
        out.commit();
    }
    if (p.has("--json"))
        printJson(result, base->release, p.positionals()[0], options);
    else
        printText(result, base->release);
    const int code = result.exitCode();
    std::cerr << "check: "
              << (code == 0   ? "no significant change beyond the tolerance"
                  : code == 1 ? "REGRESSION"
                              : "cannot judge")
              << " (exit " << code << ")\n";
    return code;
}

int runCheck(const std::vector<std::string>& args) {
    try {
        return check(args);
    } catch (const UsageFailure& e) {
        std::cerr << "cnp check: " << e.message << " (cnp check --help)\n";
        return 2; // 1 is reserved for a regression
    } catch (const InputError& e) {
        std::cerr << "cnp check: " << e.what() << '\n';
        return 2;
    }
}

CNP_COMMAND("check", "regression gate: a new study against a release history (exit 0 / 1 regression / 2)",
            "usage: cnp check NEW --against HISTORY [--baseline-release R] [--metric M[,M...]]\n"
            "                 [--tolerance 2%] [--window K] [--skip-steps N] [--junit FILE] [--json]\n"
            "                 [--seed K]\n\n"
            "Compares every configuration of NEW (a workspace or study folder) with the same\n"
            "configuration of the history's last K releases up to the latest (or R), after the last\n"
            "change point of its step time: the ratio of median per-step values with a 95% CI from a\n"
            "block bootstrap over each run's steps, widened by the spread between the baseline releases\n"
            "(docs/metrics.md, \"Regression gate\"). A regression is a ratio worse than the tolerance\n"
            "whose CI lies wholly on the worse side of 1. At least 10 steps per configuration each side.\n\n"
            "  --metric M       step_time (default), throughput, mfu, or an exclusive category (gemm,\n"
            "                   nccl, idle, ...); comma-separated for several\n"
            "  --tolerance T    relative change allowed (default 2%; 0.02 is the same)\n"
            "  --window K       baseline releases pooled, 1 .. 100 (default 5)\n"
            "  --skip-steps N   warm-up steps dropped from every run of NEW (as at history add)\n"
            "  --junit FILE     a JUnit XML report: one testcase per configuration x metric\n"
            "  --json           the checks as JSON (docs/cli.md)\n"
            "  --seed K         the bootstrap's seed (default fixed: the same inputs, the same verdict)\n\n"
            "exit codes: 0 no significant change beyond the tolerance, 1 a regression (which configuration,\n"
            "metric, by how much with its CI, the categories that moved most), 2 cannot judge (too few\n"
            "steps, missing configurations, different plans or world sizes, unreadable input, usage error)\n",
            runCheck);

} // namespace
} // namespace cnp::cli
