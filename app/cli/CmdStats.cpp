// cnp stats WS --run NAME [--top N] [--json]: per-rank counts, GPU window, temporal breakdown,
// exclusive time per category, steps and top kernels, read from the run's precomputed summaries.
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/Units.h"
#include "metrics/MultiRankSteps.h"
#include "requests/WorkspaceCategories.h"
#include "store/Workspace.h"

#include <iostream>

namespace cnp::cli {
namespace {

void breakdownJson(JsonOutput& j, const BreakdownNs& b) {
    j.beginObject();
    j.key("compute").num(b.compute).key("communication").num(b.communication).key("overlap").num(b.overlap);
    j.key("memory").num(b.memory).key("idle").num(b.idle);
    j.endObject();
}

void exclusiveJson(JsonOutput& j, const ExclusiveNs& ex) {
    j.beginObject();
    for (const auto& [c, ns] : ex)
        j.key(c).num(ns);
    j.endObject();
}

void kernelJson(JsonOutput& j, const KernelStatRow& k) {
    j.beginObject();
    j.key("name").str(k.name).key("category").str(k.category).key("count").num(k.count);
    j.key("total_ns").num(k.totalNs).key("mean_ns").real(k.meanNs).key("median_ns").real(k.medianNs);
    j.key("min_ns").num(k.minNs).key("max_ns").num(k.maxNs).key("stddev_ns").real(k.stddevNs);
    j.key("percent").real(k.percent);
    j.endObject();
}

// What `cnp stats` prints, read once from the run's summaries.
struct StatsInput {
    RunRecord run;
    RunSummaryReader reader;
    std::vector<RankSummary> ranks;
    std::vector<StepSummary> steps;
    std::vector<MultiRankStep> multi;      // points into `steps`
    std::vector<SummaryStreamRow> streams; // by (rank, device, stream)
    std::size_t limit = 10;                // top kernels per scope
    bool excludeOrphans = false;
};

void rankJson(JsonOutput& j, const StatsInput& in, const RankSummary& r) {
    j.beginObject();
    j.key("rank").num(r.rank);
    j.key("counts").beginObject();
    j.key("kernel")
        .num(r.counts.kernel)
        .key("memcpy")
        .num(r.counts.memcpy)
        .key("memset")
        .num(r.counts.memset);
    j.key("runtime").num(r.counts.runtime).key("driver").num(r.counts.driver);
    j.key("cpu_range").num(r.counts.cpuRange).key("flow").num(r.counts.flow);
    j.key("gpu_annotation").num(r.counts.gpuAnnotation);
    j.endObject();
    j.key("kernel_time_ns").num(r.kernelTimeNs);
    j.key("gpu_window_ns");
    if (r.window)
        j.beginArray().num(r.window->start).num(r.window->end).endArray();
    else
        j.null();
    j.key("breakdown_ns");
    breakdownJson(j, r.breakdown);
    j.key("overlap_fraction").real(r.breakdown.overlapFraction());
    j.key("exclusive_ns");
    exclusiveJson(j, r.exclusive);
    j.key("launch").beginObject();
    j.key("launched_kernels").num(r.launch.launchedKernels).key("delay_mean_ns").real(r.launch.meanDelayNs);
    j.key("delay_median_ns").num(r.launch.medianDelayNs).key("delay_p95_ns").num(r.launch.p95DelayNs);
    j.key("delay_max_ns").num(r.launch.maxDelayNs);
    j.key("kernels_shorter_than_launch").num(r.launch.shorterThanLaunch);
    j.key("launch_call_mean_ns").real(r.launch.meanLaunchCallNs);
    j.key("graph_launches").num(r.launch.graphLaunches).key("graph_kernels").num(r.launch.graphKernels);
    j.endObject();
    j.key("orphans").beginObject().key("count").num(r.orphans.count).key("busy_ns").num(r.orphans.busyNs);
    j.endObject();
    j.key("steps").beginArray();
    for (const auto& s : in.steps) {
        if (s.rank != r.rank)
            continue;
        j.beginObject();
        j.key("name").str(s.name).key("index").num(s.index);
        j.key("cpu_start_ns").num(s.cpuStart).key("cpu_end_ns").num(s.cpuEnd);
        if (s.hasGpu()) {
            j.key("gpu_start_ns").num(s.gpuStart).key("gpu_end_ns").num(s.gpuEnd);
            j.key("breakdown_ns");
            breakdownJson(j, s.breakdown);
            j.key("exclusive_ns");
            exclusiveJson(j, s.exclusive);
        } else {
            j.key("gpu_start_ns").null().key("gpu_end_ns").null().key("breakdown_ns").null();
            j.key("exclusive_ns").null();
        }
        j.endObject();
    }
    j.endArray();
    j.key("streams").beginArray();
    for (const auto& s : in.streams) {
        if (s.rank != r.rank)
            continue;
        j.beginObject().key("device").num(s.device).key("stream").num(s.stream);
        j.key("kernels").num(s.kernelCount).key("compute_ns").num(s.computeNs);
        j.key("communication_ns").num(s.communicationNs).key("memory_ns").num(s.memoryNs);
        j.key("top_kernel");
        if (s.topKernel)
            j.str(*s.topKernel);
        else
            j.null();
        j.key("top_kernel_ns").num(s.topKernelNs);
        j.key("queue").beginObject().key("max").num(s.queueMax).key("mean").real(s.queueMean);
        j.key("operations").num(s.queuedOps).endObject();
        j.endObject();
    }
    j.endArray();
    j.key("top_kernels").beginArray();
    for (const auto& k : in.reader.kernelStats(r.rank, in.limit))
        kernelJson(j, k);
    j.endArray();
    j.endObject();
}

void printStatsJson(const StatsInput& in) {
    JsonOutput j;
    j.beginObject();
    j.key("run").str(in.run.info.name).key("config").str(in.run.info.config);
    j.key("window").str(in.excludeOrphans ? "launched" : "all");
    j.key("ranks").beginArray();
    for (const auto& r : in.ranks)
        rankJson(j, in, r);
    j.endArray();
    j.key("step_times").beginArray();
    for (const auto& m : in.multi) {
        j.beginObject();
        j.key("index").num(m.index).key("name").str(m.name).key("step_time_ns").num(m.stepTimeNs);
        j.key("slowest_rank").num(m.slowestRank).key("skew_ns").num(m.skewNs);
        j.key("last_to_finish_rank").num(m.lastToFinishRank).key("finish_spread_ns").num(m.finishSpreadNs);
        j.key("most_exposed_comm_rank").num(m.mostExposedCommRank);
        j.key("most_exposed_comm_ns").num(m.mostExposedCommNs);
        j.endObject();
    }
    j.endArray();
    j.key("top_kernels").beginArray();
    for (const auto& k : in.reader.kernelStats(-1, in.limit))
        kernelJson(j, k);
    j.endArray();
    j.endObject();
    std::cout << j.text();
}

void rankText(const StatsInput& in, const RankSummary& r) {
    using T = TableOutput;
    std::cout << "\nrank " << r.rank << ": " << r.counts.kernel << " kernels, " << r.counts.memcpy
              << " memcpy, " << r.counts.memset << " memset, " << r.counts.runtime << " runtime + "
              << r.counts.driver << " driver calls, " << r.counts.cpuRange << " CPU ranges, " << r.counts.flow
              << " flows\n";
    if (!r.window) {
        std::cout << "  no GPU activity\n";
        return;
    }
    const double w = static_cast<double>(r.window->length());
    auto frac = [&](Ns v) { return w > 0 ? units::percent(static_cast<double>(v) / w) : std::string("-"); };
    std::cout << "  GPU window " << units::duration(w) << (in.excludeOrphans ? " (orphan work excluded)" : "")
              << ", kernel time " << units::duration(static_cast<double>(r.kernelTimeNs)) << '\n';
    if (r.orphans.count > 0)
        std::cout << "  orphan GPU work (launched before the capture began): "
                  << units::count(r.orphans.count) << (r.orphans.count == 1 ? " activity, " : " activities, ")
                  << units::duration(static_cast<double>(r.orphans.busyNs)) << " busy"
                  << (in.excludeOrphans ? "" : " (--exclude-orphans leaves it out of the window)") << '\n';
    if (r.launch.graphKernels > 0)
        std::cout << "  CUDA graphs: " << units::count(r.launch.graphKernels) << " kernels replayed by "
                  << units::count(r.launch.graphLaunches) << " graph launch"
                  << (r.launch.graphLaunches == 1 ? "" : "es") << '\n';
    std::cout << '\n';
    T b({"part", ">time", ">share"});
    b.addRow(
        {"compute", units::duration(static_cast<double>(r.breakdown.compute)), frac(r.breakdown.compute)});
    b.addRow({"communication (exposed)", units::duration(static_cast<double>(r.breakdown.communication)),
              frac(r.breakdown.communication)});
    b.addRow({"memory (exposed)", units::duration(static_cast<double>(r.breakdown.memory)),
              frac(r.breakdown.memory)});
    b.addRow({"idle", units::duration(static_cast<double>(r.breakdown.idle)), frac(r.breakdown.idle)});
    const auto of = r.breakdown.overlapFraction();
    b.addRow({"overlap (comm under compute)", units::duration(static_cast<double>(r.breakdown.overlap)),
              of ? units::percent(*of) + " of comm" : std::string("n/a")});
    b.print(std::cout, "  ");
    std::cout << '\n';
    T ex({"category", ">exclusive", ">share"});
    for (const auto& [c, ns] : r.exclusive)
        ex.addRow({c, units::duration(static_cast<double>(ns)), frac(ns)});
    ex.print(std::cout, "  ");
    bool anyStep = false;
    T st({">#", "step", ">GPU window", ">compute", ">comm", ">memory", ">idle"});
    for (const auto& s : in.steps) {
        if (s.rank != r.rank)
            continue;
        anyStep = true;
        if (!s.hasGpu()) {
            st.addRow({std::to_string(s.index), s.name, "no GPU work", "", "", "", ""});
            continue;
        }
        st.addRow({std::to_string(s.index), s.name, units::duration(static_cast<double>(s.length())),
                   units::duration(static_cast<double>(s.breakdown.compute)),
                   units::duration(static_cast<double>(s.breakdown.communication)),
                   units::duration(static_cast<double>(s.breakdown.memory)),
                   units::duration(static_cast<double>(s.breakdown.idle))});
    }
    std::cout << '\n';
    if (anyStep)
        st.print(std::cout, "  ");
    else
        std::cout << "  no steps found (whole trace is one window)\n";
    std::cout << '\n';
    T kt({"kernel", "category", ">count", ">total", ">share", ">mean", ">median"});
    for (const auto& k : in.reader.kernelStats(r.rank, in.limit)) {
        std::string n = k.name.size() > 70 ? k.name.substr(0, 67) + "..." : k.name;
        kt.addRow({n, k.category, units::count(k.count), units::duration(static_cast<double>(k.totalNs)),
                   units::percent(k.percent / 100.0), units::duration(k.meanNs),
                   units::duration(k.medianNs)});
    }
    kt.print(std::cout, "  ");
}

void multiRankText(const StatsInput& in) {
    using T = TableOutput;
    std::cout << "\nmulti-rank step times (max over ranks)\n";
    T m({">#", ">step time", ">slowest rank", ">skew", ">last to finish", ">most exposed comm"});
    for (const auto& s : in.multi)
        m.addRow({std::to_string(s.index), units::duration(static_cast<double>(s.stepTimeNs)),
                  std::to_string(s.slowestRank), units::duration(static_cast<double>(s.skewNs)),
                  std::to_string(s.lastToFinishRank),
                  "rank " + std::to_string(s.mostExposedCommRank) + " " +
                      units::duration(static_cast<double>(s.mostExposedCommNs))});
    m.print(std::cout, "  ");
}

void printStatsText(const StatsInput& in) {
    std::cout << "run " << in.run.info.name << " (config " << in.run.info.config << ", " << in.ranks.size()
              << " rank" << (in.ranks.size() == 1 ? "" : "s") << ")\n";
    for (const auto& r : in.ranks)
        rankText(in, r);
    if (in.ranks.size() > 1 && !in.multi.empty())
        multiRankText(in);
}

int runStats(const std::vector<std::string>& args) {
    ArgParser p({"--run", "--top"}, {"--json", "--exclude-orphans"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto runName = p.value("--run");
    if (!runName)
        throw UsageFailure{"--run NAME is required"};
    const auto top = p.number("--top", 0, 1e9).value_or(10);
    if (top < 0)
        throw UsageFailure{"--top must be >= 0"};
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const auto run = ws.runOrThrow(*runName);
    StatsInput in{run,
                  summaryReaderOf(ws, run.id),
                  {},
                  {},
                  {},
                  {},
                  static_cast<std::size_t>(top),
                  p.has("--exclude-orphans")};
    in.ranks = in.reader.ranks();
    if (in.excludeOrphans)
        for (auto& r : in.ranks) {
            r.window = r.orphans.launchedWindow;
            r.breakdown = r.orphans.launchedBreakdown;
        }
    in.steps = in.reader.steps();
    in.multi = aggregateSteps(in.steps);
    in.streams = in.reader.streams();
    if (p.has("--json"))
        printStatsJson(in);
    else
        printStatsText(in);
    return Ok;
}

} // namespace

CNP_COMMAND(
    "stats", "per-rank breakdown, steps and top kernels of one run",
    "usage: cnp stats WS --run NAME [--top N] [--exclude-orphans] [--json]\n\n"
    "For each rank of run NAME: event counts, total kernel time, the whole-trace GPU window and its\n"
    "temporal breakdown (compute, exposed communication, exposed memory, idle: integer ns summing to\n"
    "the window; overlap = communication hidden under compute), exclusive time per kernel category,\n"
    "launch statistics, the steps found with their own breakdowns, and the top N kernels (default 10)\n"
    "with the columns of Nsight Systems' cuda_gpu_kern_sum. Multi-rank runs also get step times\n"
    "(max over ranks), skew and stragglers. GPU work whose launch is not in the trace (launched before\n"
    "the capture began) is counted as orphan work. Definitions: docs/metrics.md; JSON: docs/cli.md.\n\n"
    "  --run NAME         the run to describe (see cnp runs)\n"
    "  --top N            kernels listed per rank and for the run (default 10, 0 = all)\n"
    "  --exclude-orphans  whole-trace window and breakdown without orphan GPU work (the window of\n"
    "                     tools that start at the first launch)\n"
    "  --json             machine-readable output\n",
    runStats);

} // namespace cnp::cli
