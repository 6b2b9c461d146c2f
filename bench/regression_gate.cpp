// bench_regression_gate: the evaluation of `cnp check` and of the change points (docs/metrics.md,
// "Regression gate: evaluation"). For each of SEEDS seeds it generates a history of RELEASES synthetic
// releases of the five-configuration study (acs-llama3-8b, each release its own seed: another cluster draw,
// as another month's run would be) and three candidates from one further seed: no change, an injected 2 %
// and an injected 5 % step-time regression (`cnp synth --regression`, every configuration). Each candidate
// is gated against the history exactly as `cnp check --window RELEASES` does (step_time, tolerance 2 %),
// and the history plus three regressed releases in a row is searched for change points (E-divisive).
// Prints the detection rate per injected size, the false-alarm rate on no-change candidates, the
// cannot-judge count, and the change-point figures. Deterministic: the same arguments, the same numbers.
// Usage: bench_regression_gate [--seeds N] [--releases R] [--steps S] [--gpus G] [--layers L] [--keep]
//        (defaults 20, 5, 40, 4, 2)
#include "ingest/IngestPipeline.h"
#include "metrics/ReleaseComparison.h"
#include "metrics/ReleaseTrend.h"
#include "requests/ReleaseSummaryRequest.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace cnp;
namespace fs = std::filesystem;

namespace {

struct BenchOptions {
    int seeds = 20, releases = 5, steps = 40, gpus = 4, layers = 2;
    bool keep = false;
};

BenchOptions parse(int argc, char** argv) {
    BenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() { return i + 1 < argc ? std::atoi(argv[++i]) : 0; };
        if (a == "--seeds")
            o.seeds = next();
        else if (a == "--releases")
            o.releases = next();
        else if (a == "--steps")
            o.steps = next();
        else if (a == "--gpus")
            o.gpus = next();
        else if (a == "--layers")
            o.layers = next();
        else if (a == "--keep")
            o.keep = true;
        else {
            std::fprintf(stderr,
                         "usage: bench_regression_gate [--seeds N] [--releases R] [--steps S] [--gpus G] "
                         "[--layers L] [--keep]\n");
            std::exit(1);
        }
    }
    if (o.seeds < 1 || o.releases < 1 || o.steps < 10 || o.gpus < 1 || o.layers < 1) {
        std::fprintf(stderr, "bench_regression_gate: every count must be positive, steps >= 10\n");
        std::exit(1);
    }
    return o;
}

// Generates, ingests and summarises one release; its files are removed unless `keep`.
ReleaseSummary release(const synth::SynthParams& params, const BenchOptions& o, const fs::path& dir,
                       std::uint64_t seed, double regression) {
    synth::StudyOptions so;
    so.outDir = (dir / "traces").string();
    so.nodes = 1;
    so.gpusPerNode = o.gpus;
    so.steps = o.steps;
    so.layers = o.layers;
    so.seed = seed;
    so.seedSet = true;
    so.regression = regression;
    const auto runs = synth::generateStudy(params, synth::resolveOptions(params, so));
    const std::string wsPath = (dir / "release.cnpdb").string();
    ReleaseSummary summary;
    {
        Workspace ws(wsPath, Workspace::Mode::CreateIfMissing);
        for (const auto& r : runs) {
            IngestRequest req;
            req.inputs = {r.folder};
            req.runName = r.name;
            req.config = r.config;
            ingest(ws, req);
        }
        std::vector<std::string> plan;
        for (const auto& r : runs)
            plan.push_back(r.config);
        ws.setPlanOrder(plan);
        summary = summarizeWorkspace(ws);
    }
    if (!o.keep) {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    return summary;
}

std::uint64_t seedOf(int series, int release) {
    return 1000003ULL * static_cast<std::uint64_t>(series + 1) + static_cast<std::uint64_t>(release);
}

} // namespace

int main(int argc, char** argv) {
    const BenchOptions o = parse(argc, argv);
    const auto params = synth::SynthParams::fromFile(synth::SynthParams::studyPath("acs-llama3-8b"));
    const fs::path root = fs::temp_directory_path() / ("cnp-bench-gate-" + std::to_string(::getpid()));
    const double sizes[] = {0.0, 0.02, 0.05};
    int flagged[3] = {0, 0, 0}, unjudged[3] = {0, 0, 0};
    int cpFound = 0, cpAtOnset = 0, cpNoChangeSeries = 0;
    double widthSum = 0;
    int widthCount = 0;
    const GateOptions gateOptions; // 2 % tolerance, 2000 resamples, the CLI's seed
    const std::vector<GateMetric> metrics{GateMetric{}};
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < o.seeds; ++s) {
        std::vector<ReleaseSummary> history;
        for (int r = 0; r < o.releases; ++r)
            history.push_back(release(params, o, root / ("h" + std::to_string(r)), seedOf(s, r), 0));
        BaselineWindow w;
        for (int r = 0; r < o.releases; ++r) {
            w.releases.push_back(&history[static_cast<std::size_t>(r)]);
            w.names.push_back(std::to_string(r));
        }
        for (int k = 0; k < 3; ++k) {
            const ReleaseSummary cand = release(params, o, root / "cand", seedOf(s, o.releases), sizes[k]);
            const ReleaseCheck check = checkRelease(w, cand, metrics, gateOptions);
            flagged[k] += check.exitCode() == 1;
            unjudged[k] += check.exitCode() == 2;
            for (const auto& c : check.checks)
                if (k == 0 && c.outcome.verdict != GateVerdict::CannotJudge) {
                    widthSum += c.outcome.ci.hi - c.outcome.ci.lo;
                    ++widthCount;
                }
        }
        // Change points: the history, then three releases in a row with the 5 % regression.
        ReleaseTrend trend, flat;
        for (int r = 0; r < o.releases; ++r) {
            trend.addRelease(std::to_string(r), history[static_cast<std::size_t>(r)]);
            flat.addRelease(std::to_string(r), history[static_cast<std::size_t>(r)]);
        }
        for (int r = 0; r < 3; ++r)
            trend.addRelease("x" + std::to_string(r),
                             release(params, o, root / "x", seedOf(s, o.releases + 1 + r), 0.05));
        for (const auto& series : trend.series())
            if (series.metric == "step_time") {
                cpFound += !series.changes.empty();
                for (const auto& c : series.changes)
                    cpAtOnset += c.index == static_cast<std::size_t>(o.releases);
            }
        for (const auto& series : flat.series())
            if (series.metric == "step_time")
                cpNoChangeSeries += !series.changes.empty();
        std::fprintf(stderr, "seed %d/%d done\n", s + 1, o.seeds);
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double n = o.seeds;
    std::printf(
        "regression gate: %d seeds, history of %d releases, 1 node x %d GPUs, %d layers, %d steps per run, "
        "5 configurations, step_time, tolerance 2%%\n",
        o.seeds, o.releases, o.gpus, o.layers, o.steps);
    std::printf("  no change:     false alarms %d/%d = %.1f%%   cannot judge %d\n", flagged[0], o.seeds,
                100 * flagged[0] / n, unjudged[0]);
    std::printf("  2%% regression: detected %d/%d = %.1f%%   cannot judge %d\n", flagged[1], o.seeds,
                100 * flagged[1] / n, unjudged[1]);
    std::printf("  5%% regression: detected %d/%d = %.1f%%   cannot judge %d\n", flagged[2], o.seeds,
                100 * flagged[2] / n, unjudged[2]);
    std::printf("  mean 95%% CI width of the step-time ratio (no change): %.4f\n",
                widthCount ? widthSum / widthCount : 0.0);
    std::printf("change points (E-divisive, step_time, per configuration series):\n");
    std::printf("  history + 3 releases at +5%%: series with a change point %d/%d, at the onset %d\n",
                cpFound, 5 * o.seeds, cpAtOnset);
    std::printf("  history alone (no change): series with a change point %d/%d\n", cpNoChangeSeries,
                5 * o.seeds);
    std::printf("  %.0f s\n", secs);
    return 0;
}
