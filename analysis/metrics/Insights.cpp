#include "metrics/Insights.h"

#include "core/BoundedJson.h"
#include "core/Units.h"
#include "metrics/EnvironmentChecks.h"
#include "metrics/MultiRankSteps.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

namespace cnp {

const char* toString(InsightSeverity s) {
    switch (s) {
    case InsightSeverity::Info:
        return "info";
    case InsightSeverity::Warning:
        return "warning";
    case InsightSeverity::Critical:
        return "critical";
    }
    return "info";
}

namespace {

std::string pct(double f) {
    return units::percent(f);
}

std::string ms(Ns ns) {
    return units::duration(static_cast<double>(ns));
}

// "1 launch", "3 launches".
std::string countOf(std::int64_t n, const std::string& singular, const std::string& plural) {
    return units::count(n) + " " + (n == 1 ? singular : plural);
}

// Severity by the share of time at stake: below `warning` info, from it warning, from 3x it critical.
InsightSeverity severityForShare(double share, double warning) {
    return share >= 3 * warning ? InsightSeverity::Critical
           : share >= warning   ? InsightSeverity::Warning
                                : InsightSeverity::Info;
}

// What a check may assume about the program: a PyTorch training loop (advice may name torch.compile,
// .item(), DataLoader) with steps, or any CUDA program.
struct RunContext {
    bool pytorch = false;
    bool hasSteps = false;
    Ns totalWindow = 0;   // sum over ranks of the whole-trace GPU window
    Ns totalStepTime = 0; // sum over ranks of the step windows (0 without steps)
};

// PyTorch when the profiler was torch.profiler (Kineto), the steps are ProfilerStep#N, or the kernels are
// ATen's: nsys and .cnpt captures of other CUDA programs get framework-neutral advice.
bool looksLikePyTorch(const RunRecord& run, const std::vector<StepSummary>& steps,
                      const std::vector<KernelStatRow>& kernels) {
    if (run.info.sourceFormat == "kineto")
        return true;
    for (const auto& s : steps)
        if (s.name.rfind("ProfilerStep", 0) == 0)
            return true;
    for (const auto& k : kernels)
        if (k.name.find("at::native") != std::string::npos || k.name.rfind("triton_", 0) == 0)
            return true;
    return false;
}

void sortBySeverity(std::vector<Insight>& v) {
    for (auto& in : v)
        in.evidenceTotal = std::max(in.evidenceTotal, in.evidence.size());
    std::stable_sort(v.begin(), v.end(), [](const Insight& a, const Insight& b) {
        if (a.severity != b.severity)
            return a.severity > b.severity;
        return a.value > b.value;
    });
}

// 1. GPU idle gaps and what the CPU was doing. Counts, total and share cover every gap at or above the
// threshold; only the evidence list is cut to the longest ones (evidenceTotal says how many there were).
void idleGapInsight(const GapTotals& gaps, const RunContext& ctx, const InsightOptions& o,
                    std::vector<Insight>& out) {
    if (ctx.totalWindow <= 0 || gaps.longCount() == 0)
        return;
    const Ns gapTotal = gaps.longTotalNs();
    const std::map<std::string, Ns>& byState = gaps.longByState();
    const double share = static_cast<double>(gapTotal) / static_cast<double>(ctx.totalWindow);
    Insight in;
    in.id = "idle-gaps";
    in.value = share;
    in.severity = severityForShare(share, o.idleShareWarning);
    std::string dominant;
    Ns best = -1;
    for (const auto& [st, ns] : byState)
        if (ns > best)
            best = ns, dominant = st;
    in.title = countOf(gaps.longCount(), "GPU idle gap", "GPU idle gaps") + " ≥ " + ms(o.idleGapNs) +
               " cost " + ms(gapTotal) + " (" + pct(share) + " of the GPU window), mostly " + dominant;
    std::string parts;
    for (const auto& [st, ns] : byState)
        parts += (parts.empty() ? "" : ", ") + st + " " + ms(ns);
    const std::string remedies =
        ctx.pytorch ? "fewer, larger kernels (torch.compile, CUDA graphs) or a faster host loop help. "
                      "'waiting-on-data' means a DataLoader range covered the gap: add workers, pin memory "
                      "or prefetch. "
                    : "fewer, larger kernels (fusion, CUDA graphs) or a faster host loop help. "
                      "'waiting-on-data' means a data-loading range covered the gap. ";
    in.explanation =
        "The GPU had nothing to run for " + ms(gapTotal) + " in gaps of at least " + ms(o.idleGapNs) + " (" +
        parts +
        "). 'launch-bound' means the work that ended the gap was launched only after the GPU "
        "went idle: the CPU (host code, framework overhead, launch latency) could not keep the GPU "
        "fed; " +
        remedies +
        "'synchronising' means a blocking synchronisation call covered it; 'gpu-dependency' means "
        "the next work was already queued and waited on another stream, event or peer.";
    in.evidenceTotal = static_cast<std::size_t>(gaps.longCount());
    const std::vector<IdleGap> longest = gaps.longest();
    for (std::size_t i = 0; i < longest.size() && i < o.maxEvidence; ++i) {
        const auto& g = longest[i];
        InsightEvidence e;
        e.rank = g.rank;
        e.stepIndex = g.stepIndex;
        e.start = g.start;
        e.end = g.end;
        if (!g.nextKernel.empty())
            e.kernels.push_back(g.nextKernel);
        e.detail = g.cpuState + ", " + ms(g.length()) + ", " + countOf(g.launches, "launch", "launches") +
                   " during the gap";
        in.evidence.push_back(std::move(e));
    }
    out.push_back(std::move(in));
}

// CPU-blocking stream/event synchronisation inside steps (cudaStreamSynchronize after a device-to-host
// copy is what `.item()` / `.cpu()` do). What a sync costs is the GPU time it leaves idle: the CPU queued
// nothing while it was blocked, so once the queue drains the GPU idles until the CPU, released, launches
// again. Value and severity: the stored GPU idle gaps inside steps that a blocking sync overlaps (the gap
// began or lay within the call: IdleGap::syncNs > 0), whole, over the step time; a gap the data loader
// covers ("waiting-on-data") is the loader's, not the sync's. The CPU's blocked time is
// stated; a CPU that waits while the GPU stays busy (a loop running ahead, waiting on an event) costs
// nothing: info. O(syncs + gaps).
void blockingSyncInsight(const std::vector<BlockingSync>& syncs, const GapTotals& gaps, const RunContext& ctx,
                         const InsightOptions& o, std::vector<Insight>& out) {
    if (syncs.empty() || ctx.totalStepTime <= 0)
        return;
    Ns blocked = 0;
    std::int64_t afterCopy = 0;
    for (const auto& y : syncs) {
        blocked += y.length();
        afterCopy += y.dtohBytes > 0;
    }
    const Ns idle = gaps.behindSyncNs();
    const std::int64_t idleGaps = gaps.behindSyncCount();
    const double share = static_cast<double>(idle) / static_cast<double>(ctx.totalStepTime);
    Insight in;
    in.id = "stream-sync";
    in.value = share;
    in.severity = severityForShare(share, o.blockingSyncShare);
    in.title = countOf(static_cast<std::int64_t>(syncs.size()), "stream/event synchronisation",
                       "stream/event synchronisations") +
               " blocked the CPU for " + ms(blocked) + " inside steps; " +
               (idle > 0 ? "the GPU idled " + ms(idle) + " behind them (" + pct(share) + " of the step time)"
                         : "the GPU stayed busy meanwhile (no idle time behind them)");
    in.explanation =
        "cudaStreamSynchronize / cudaEventSynchronize stop the CPU thread until the GPU has finished the "
        "stream's queued work (or reached the event), so no new work is queued meanwhile: when the queue "
        "drains before the call returns, the GPU idles until the CPU launches again. That idle time is the "
        "cost: " +
        countOf(idleGaps, "GPU idle gap", "GPU idle gaps") +
        " inside steps began or lay within such a call; the CPU's blocked time alone costs nothing while "
        "the GPU stays busy. " +
        std::to_string(afterCopy) + " of the calls directly follow a device-to-host copy on the same thread" +
        (ctx.pytorch ? ", the pattern of .item(), .cpu() or .tolist() on a GPU tensor (a loss logged every "
                       "step, a Python condition on a GPU value). Log every N steps, keep the value on the "
                       "GPU, or copy it with non_blocking=True into pinned memory and read it a step later."
                     : ": the host reads back a result it needs before it can continue. Copy into pinned "
                       "memory with cudaMemcpyAsync and read it later, or overlap the wait with other "
                       "work.");
    in.evidenceTotal = syncs.size();
    for (std::size_t i = 0; i < syncs.size() && i < o.maxEvidence; ++i) {
        const auto& y = syncs[i];
        std::string detail = y.api + " blocked " + ms(y.length());
        if (y.dtohBytes > 0)
            detail += " after a " + units::bytes(static_cast<double>(y.dtohBytes)) + " device-to-host copy";
        in.evidence.push_back({y.rank, y.stepIndex, y.start, y.end, {}, detail});
    }
    out.push_back(std::move(in));
}

// 2. Exposed communication per step (per rank window without steps): the worst share and the steps at or
// above the threshold.
void exposedCommunicationInsight(const std::vector<RankSummary>& ranks, const std::vector<StepSummary>& steps,
                                 const RunContext& ctx, const InsightOptions& o, std::vector<Insight>& out) {
    std::vector<const StepSummary*> bad;
    double worst = 0;
    for (const auto& s : steps) {
        if (!s.hasGpu() || s.length() <= 0)
            continue;
        const double share = static_cast<double>(s.breakdown.communication) / static_cast<double>(s.length());
        if (share >= o.exposedCommShare)
            bad.push_back(&s);
        worst = std::max(worst, share);
    }
    if (steps.empty())
        for (const auto& r : ranks)
            if (r.window && r.window->length() > 0)
                worst = std::max(worst, static_cast<double>(r.breakdown.communication) /
                                            static_cast<double>(r.window->length()));
    if (!bad.empty() || (steps.empty() && worst >= o.exposedCommShare)) {
        Insight in;
        in.id = "exposed-communication";
        in.value = worst;
        in.severity = worst >= 2 * o.exposedCommShare ? InsightSeverity::Critical : InsightSeverity::Warning;
        const std::string scope = ctx.hasSteps ? "a step" : "the GPU window";
        in.title = "Exposed communication up to " + pct(worst) + " of " + scope;
        in.explanation =
            "Communication kernels (NCCL and friends) ran with no compute kernel beside them for up "
            "to " +
            pct(worst) + " of " + scope +
            ". That time is pure waiting on the network or "
            "on peers. Overlap collectives with compute (bucketed gradient all-reduce, prefetching "
            "FSDP/ZeRO parameters, separate communication streams), reduce the volume (gradient "
            "compression, larger buckets) or check for a straggler rank that others wait for.";
        std::sort(bad.begin(), bad.end(), [](const StepSummary* a, const StepSummary* b) {
            return a->breakdown.communication > b->breakdown.communication;
        });
        in.evidenceTotal = bad.size();
        for (std::size_t i = 0; i < bad.size() && i < o.maxEvidence; ++i)
            in.evidence.push_back({bad[i]->rank,
                                   bad[i]->index,
                                   bad[i]->gpuStart,
                                   bad[i]->gpuEnd,
                                   {},
                                   "exposed communication " + ms(bad[i]->breakdown.communication)});
        out.push_back(std::move(in));
    }
}

// 3. Low comm/compute overlap, one finding per rank whose communication is a noticeable share.
void lowOverlapInsights(const std::vector<RankSummary>& ranks, const InsightOptions& o,
                        std::vector<Insight>& out) {
    for (const auto& r : ranks) {
        if (!r.window || r.window->length() <= 0)
            continue;
        const auto of = r.breakdown.overlapFraction();
        const double commShare =
            static_cast<double>(r.breakdown.communicationTotal) / static_cast<double>(r.window->length());
        if (!of || commShare < o.minCommShareForOverlap || *of >= o.lowOverlap)
            continue;
        Insight in;
        in.id = "low-overlap";
        in.value = *of;
        in.severity = InsightSeverity::Warning;
        in.title =
            "Rank " + std::to_string(r.rank) + ": only " + pct(*of) + " of communication overlaps compute";
        in.explanation =
            "Communication takes " + pct(commShare) + " of rank " + std::to_string(r.rank) +
            "'s GPU window but only " + pct(*of) +
            " of it runs concurrently with compute kernels. "
            "Collectives that could hide behind the backward pass are serialised with it: check that "
            "gradient buckets are launched as soon as they are ready (DDP bucket_cap_mb, FSDP "
            "backward prefetch) and that communication uses its own stream.";
        in.evidence.push_back(
            {r.rank,
             -1,
             r.window->start,
             r.window->end,
             {},
             "overlap " + ms(r.breakdown.overlap) + " of " + ms(r.breakdown.communicationTotal)});
        out.push_back(std::move(in));
    }
}

// 4. Kernels shorter than their launch cost (graph replays have no launch call of their own and are
// not counted: RunSummaries).
double shortKernelShare(const RankSummary& r) {
    return static_cast<double>(r.launch.shorterThanLaunch) / static_cast<double>(r.launch.launchedKernels);
}

bool hasShortKernels(const RankSummary& r, const InsightOptions& o) {
    return !(r.launch.launchedKernels < o.minKernelsForLaunchCheck) &&
           !(shortKernelShare(r) < o.shortKernelShare);
}

void shortKernelInsights(const RunSnapshot& run, const RunContext& ctx, const InsightOptions& o,
                         std::vector<Insight>& out) {
    static const std::vector<KernelStatRow> kNone;
    for (const auto& r : run.ranks) {
        if (!hasShortKernels(r, o))
            continue;
        const double share = shortKernelShare(r);
        const auto kernels = run.rankKernels.find(r.rank);
        Insight in;
        in.id = "short-kernels";
        in.value = share;
        in.severity = InsightSeverity::Warning;
        in.title = "Rank " + std::to_string(r.rank) + ": " + pct(share) +
                   " of kernels are shorter than their launch call";
        const bool usesGraphs = r.launch.graphLaunches > 0;
        std::string remedy =
            ctx.pytorch ? "fuse the small kernels with torch.compile" : "fuse the small kernels";
        if (usesGraphs)
            remedy += ", or move the kernels still launched one by one into the CUDA graphs the run already "
                      "replays (" +
                      countOf(r.launch.graphKernels, "graph kernel", "graph kernels") + " in " +
                      countOf(r.launch.graphLaunches, "graph launch", "graph launches") + ")";
        else
            remedy += ", or capture the " + std::string(ctx.hasSteps ? "step" : "work") +
                      " in CUDA graphs so one launch replays many kernels";
        in.explanation = units::count(r.launch.shorterThanLaunch) + " of " +
                         countOf(r.launch.launchedKernels, "kernel", "kernels") +
                         " launched one by one ran for less time than the CPU spent launching them (mean "
                         "launch call " +
                         ms(static_cast<Ns>(r.launch.meanLaunchCallNs)) +
                         "). Such a workload is bound by launch overhead, not by the GPU: " + remedy + ".";
        InsightEvidence e;
        e.rank = r.rank;
        if (r.window)
            e.start = r.window->start, e.end = r.window->end;
        for (const auto& k : kernels == run.rankKernels.end() ? kNone : kernels->second)
            if (k.medianNs < r.launch.meanLaunchCallNs && e.kernels.size() < o.maxEvidence)
                e.kernels.push_back(k.name);
        e.detail = "median launch-to-start delay " + ms(r.launch.medianDelayNs);
        in.evidence.push_back(std::move(e));
        out.push_back(std::move(in));
    }
}

// 5. Synchronous or pageable memcpy on one rank. Severity by the share of its GPU window at stake.
void syncMemcpyInsight(const RankSummary& r, const RunContext& ctx, const InsightOptions& o,
                       std::vector<Insight>& out) {
    const Ns window = r.window ? r.window->length() : 0;
    if (!(r.syncMemcpyCount > 0 || r.pageableMemcpyCount > 0) || window <= 0)
        return;
    Insight in;
    in.id = "sync-memcpy";
    in.value = static_cast<double>(r.syncMemcpyCount + r.pageableMemcpyCount);
    const Ns atStake = std::min(window, r.syncMemcpyNs + r.pageableMemcpyNs);
    const double share = static_cast<double>(atStake) / static_cast<double>(window);
    in.severity = severityForShare(share, o.copyShareWarning);
    in.title = "Rank " + std::to_string(r.rank) + ": " + units::count(r.syncMemcpyCount) +
               " synchronous and " +
               countOf(r.pageableMemcpyCount, "pageable memory copy", "pageable memory copies") + " (" +
               pct(share) + " of the GPU window)";
    in.explanation =
        "Synchronous copies (cudaMemcpy without Async) block the CPU until the GPU has drained "
        "its queue, and copies from pageable host memory are staged through a driver buffer and "
        "cannot overlap with compute. " +
        std::string(ctx.pytorch ? "Use pinned memory (pin_memory=True, tensor.pin_memory()) and "
                                  "non_blocking=True, and avoid .item()/.cpu() inside the step."
                                : "Use pinned host memory (cudaMallocHost / cudaHostRegister) and "
                                  "cudaMemcpyAsync on a non-default stream.");
    in.evidence.push_back({r.rank,
                           -1,
                           -1,
                           -1,
                           {},
                           "synchronous " + ms(r.syncMemcpyNs) + ", pageable " + ms(r.pageableMemcpyNs)});
    out.push_back(std::move(in));
}

// 6. Device-wide synchronisation on one rank (inside steps when there are steps). Severity by the share of
// the rank's step time (else GPU window) at stake.
void deviceSyncInsight(const RankSummary& r, const std::vector<StepSummary>& steps, const RunContext& ctx,
                       const InsightOptions& o, std::vector<Insight>& out) {
    if (r.deviceSyncCount <= 0)
        return;
    const Ns window = r.window ? r.window->length() : 0;
    Ns rankSteps = 0;
    for (const auto& s : steps)
        if (s.rank == r.rank)
            rankSteps += s.length();
    const Ns scope = ctx.hasSteps ? rankSteps : window;
    Insight in;
    in.id = "device-sync";
    in.value = static_cast<double>(r.deviceSyncCount);
    const double share =
        scope > 0 ? static_cast<double>(std::min(scope, r.deviceSyncNs)) / static_cast<double>(scope) : 1.0;
    in.severity = severityForShare(share, o.blockingSyncShare);
    in.title = "Rank " + std::to_string(r.rank) + ": " +
               countOf(r.deviceSyncCount, "device-wide synchronisation", "device-wide synchronisations") +
               (ctx.hasSteps ? " inside steps (" : " (") + ms(r.deviceSyncNs) + ")";
    in.explanation =
        ctx.pytorch ? "cudaDeviceSynchronize inside a training step stops the CPU until every stream is "
                      "idle, "
                      "so the GPU runs dry while the CPU prepares the next work. Typical sources: "
                      "torch.cuda.synchronize() for timing, .item() on a loss for logging, or a library "
                      "barrier. Remove it from the hot loop or log asynchronously."
                    : "cudaDeviceSynchronize stops the CPU until every stream is idle, so the GPU runs dry "
                      "while the CPU prepares the next work. Synchronise on the one stream or event the host "
                      "needs, or later.";
    for (const auto& s : steps)
        if (s.rank == r.rank && s.deviceSyncCount > 0) {
            if (in.evidence.size() < o.maxEvidence)
                in.evidence.push_back(
                    {s.rank,
                     s.index,
                     s.cpuStart,
                     s.cpuEnd,
                     {},
                     countOf(s.deviceSyncCount, "device synchronisation", "device synchronisations")});
            ++in.evidenceTotal;
        }
    out.push_back(std::move(in));
}

// 7. Stragglers and rank imbalance.
void stragglerInsight(const std::vector<RankSummary>& ranks, const std::vector<StepSummary>& steps,
                      const InsightOptions& o, std::vector<Insight>& out) {
    if (ranks.size() > 1) {
        const auto multi = aggregateSteps(steps);
        std::map<std::int32_t, int> lastCount;
        std::vector<const MultiRankStep*> skewed;
        double worst = 0;
        for (const auto& m : multi) {
            if (m.stepTimeNs <= 0)
                continue;
            const double skew =
                static_cast<double>(std::max(m.skewNs, m.finishSpreadNs)) / static_cast<double>(m.stepTimeNs);
            worst = std::max(worst, skew);
            if (skew >= o.stragglerSkew) {
                skewed.push_back(&m);
                ++lastCount[m.lastToFinishRank];
            }
        }
        if (!skewed.empty()) {
            std::int32_t straggler = lastCount.begin()->first;
            for (const auto& [r, c] : lastCount)
                if (c > lastCount[straggler])
                    straggler = r;
            Insight in;
            in.id = "straggler";
            in.value = worst;
            in.severity = worst >= 3 * o.stragglerSkew ? InsightSeverity::Critical : InsightSeverity::Warning;
            in.title = "Rank imbalance up to " + pct(worst) + " of a step; rank " +
                       std::to_string(straggler) + " finishes last most often";
            in.explanation =
                "In " + std::to_string(skewed.size()) + " of " + std::to_string(multi.size()) +
                " steps the ranks' step windows differ by at least " + pct(o.stragglerSkew) +
                " of the step time. The step time of the job is the slowest rank's, so every other rank "
                "waits (it shows up as exposed communication on them). Look at the straggler's host "
                "(thermal throttling, a noisy neighbour, a slower link), its data loading, and uneven "
                "sequence lengths or pipeline stages.";
            in.evidenceTotal = skewed.size();
            for (std::size_t i = 0; i < skewed.size() && i < o.maxEvidence; ++i) {
                const auto* m = skewed[i];
                in.evidence.push_back({m->lastToFinishRank,
                                       m->index,
                                       m->slowest->gpuStart,
                                       m->slowest->gpuEnd,
                                       {},
                                       "skew " + ms(m->skewNs) + ", finish spread " + ms(m->finishSpreadNs) +
                                           ", most exposed comm on rank " +
                                           std::to_string(m->mostExposedCommRank)});
            }
            out.push_back(std::move(in));
        }
    }
}

// 8. Compute on a side stream: a stream other than the one with most of the rank's compute. Each such stream
// whose compute is at least o.sideStreamComputeShare of the rank's GPU window is evidence; value = the
// largest such share. Info from the threshold (side-stream work may be deliberate overlap), warning from
// 3x it. O(streams log streams).
void sideStreamInsight(const std::vector<SummaryStreamRow>& streams, const std::vector<RankSummary>& ranks,
                       const InsightOptions& o, std::vector<Insight>& out) {
    std::map<std::int32_t, Ns> windowOf;
    for (const auto& r : ranks)
        if (r.window && r.window->length() > 0)
            windowOf[r.rank] = r.window->length();
    std::map<std::int32_t, const SummaryStreamRow*> mainOf; // the stream with the most compute per rank
    for (const auto& s : streams) {
        const SummaryStreamRow*& m = mainOf[s.rank];
        if (!m || s.computeNs > m->computeNs)
            m = &s;
    }
    struct Side {
        const SummaryStreamRow* stream;
        double share;
    };
    std::vector<Side> sides;
    for (const auto& s : streams) {
        const auto w = windowOf.find(s.rank);
        if (w == windowOf.end() || &s == mainOf[s.rank] || s.computeNs <= 0)
            continue;
        const double share = static_cast<double>(s.computeNs) / static_cast<double>(w->second);
        if (share >= o.sideStreamComputeShare)
            sides.push_back({&s, share});
    }
    if (sides.empty())
        return;
    std::stable_sort(sides.begin(), sides.end(),
                     [](const Side& a, const Side& b) { return a.share > b.share; });
    const SummaryStreamRow& top = *sides.front().stream;
    Insight in;
    in.id = "side-stream";
    in.value = sides.front().share;
    in.severity = in.value >= 3 * o.sideStreamComputeShare ? InsightSeverity::Warning : InsightSeverity::Info;
    in.title = "Compute on a side stream: " + ms(top.computeNs) + " on stream " + std::to_string(top.stream) +
               " of rank " + std::to_string(top.rank) + " (" + pct(in.value) + " of its GPU window)";
    in.explanation =
        countOf(static_cast<std::int64_t>(sides.size()), "stream", "streams") +
        " other than a rank's main compute stream (the one with most of its compute) ran compute kernels "
        "for at least " +
        pct(o.sideStreamComputeShare) +
        " of the rank's GPU window. Work on a side "
        "stream is either deliberate overlap — check on the timeline that it runs beside the main stream's "
        "work rather than between it — or was put there by a library, a hook or a stream context, in which "
        "case it synchronises with the main stream through events and can serialise the step. Its launch "
        "queue (`cnp stats`, the timeline's queue lanes) shows whether the CPU kept it fed.";
    in.evidenceTotal = sides.size();
    for (std::size_t i = 0; i < sides.size() && i < o.maxEvidence; ++i) {
        const SummaryStreamRow& s = *sides[i].stream;
        InsightEvidence e;
        e.rank = s.rank;
        if (s.topKernel)
            e.kernels.push_back(*s.topKernel);
        e.detail = "stream " + std::to_string(s.stream) + ": " + ms(s.computeNs) + " compute in " +
                   countOf(s.kernelCount, "kernel", "kernels") + " (" + pct(sides[i].share) +
                   " of the GPU window; main stream " + std::to_string(mainOf[s.rank]->stream) + ")";
        in.evidence.push_back(std::move(e));
    }
    out.push_back(std::move(in));
}

// 9. Checks from the training image's release notes, on run metadata: the failed ones
// (metrics/EnvironmentChecks holds every check with its verdict).
void releaseNoteInsights(const RunSnapshot& run, std::vector<Insight>& out) {
    for (auto& check : checkEnvironment(run))
        if (check.failure)
            out.push_back(std::move(*check.failure));
}

} // namespace

std::vector<std::int32_t> shortKernelRanks(const std::vector<RankSummary>& ranks, const InsightOptions& o) {
    std::vector<std::int32_t> out;
    for (const auto& r : ranks)
        if (hasShortKernels(r, o))
            out.push_back(r.rank);
    return out;
}

std::vector<Insight> computeInsights(const RunSnapshot& run, const InsightOptions& o) {
    if (run.gapTotals.longGapNs() != o.idleGapNs || run.gapTotals.keptLongest() < o.maxEvidence)
        throw std::invalid_argument("computeInsights: the snapshot's gap totals were read for other options");
    const auto& ranks = run.ranks;
    const auto& steps = run.steps;
    std::vector<Insight> out;
    RunContext ctx;
    ctx.pytorch = looksLikePyTorch(run.run, steps, run.kernels);
    ctx.hasSteps = !steps.empty();
    for (const auto& r : ranks)
        if (r.window)
            ctx.totalWindow += r.window->length();
    for (const auto& s : steps)
        ctx.totalStepTime += s.length();

    idleGapInsight(run.gapTotals, ctx, o, out);
    blockingSyncInsight(run.syncs, run.gapTotals, ctx, o, out);

    exposedCommunicationInsight(ranks, steps, ctx, o, out);
    lowOverlapInsights(ranks, o, out);
    shortKernelInsights(run, ctx, o, out);
    for (const auto& r : ranks) { // per rank: its copy finding, then its sync finding
        syncMemcpyInsight(r, ctx, o, out);
        deviceSyncInsight(r, steps, ctx, o, out);
    }
    stragglerInsight(ranks, steps, o, out);
    sideStreamInsight(run.streams, ranks, o, out);
    releaseNoteInsights(run, out);
    sortBySeverity(out);
    return out;
}

} // namespace cnp
