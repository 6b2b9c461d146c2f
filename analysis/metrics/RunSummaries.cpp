#include "metrics/RunSummaries.h"

#include "core/TimeBounds.h"

#include "metrics/Breakdown.h"
#include "metrics/Categoriser.h"
#include "metrics/CategoryRules.h"
#include "metrics/KernelStat.h"
#include "metrics/KernelStatsPool.h"
#include "metrics/StreamQueueLength.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace cnp {

namespace {

// Gaps shorter than this are not stored (insight thresholds below it see none). Every longer gap is
// stored, so counts and totals over any threshold >= it are complete.
constexpr Ns kMinStoredGapNs = 10'000;

bool contains(std::string_view hay, std::string_view needle) {
    return hay.find(needle) != std::string_view::npos;
}

bool isLaunchApi(std::string_view n) {
    return contains(n, "LaunchKernel") || contains(n, "GraphLaunch") || contains(n, "cuLaunch") ||
           contains(n, "LaunchCooperative");
}
// cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch (and their _ptsz variants).
bool isGraphLaunchApi(std::string_view n) {
    return contains(n, "GraphLaunch");
}
bool isDeviceSync(std::string_view n) {
    return contains(n, "DeviceSynchronize") || contains(n, "cuCtxSynchronize");
}
// Calls that block the calling CPU thread until a stream or event completes (cudaStreamWaitEvent does
// not: it makes a stream wait on the GPU).
bool isBlockingStreamSync(std::string_view n) {
    return contains(n, "StreamSynchronize") || contains(n, "EventSynchronize");
}
bool isSyncMemcpyApi(std::string_view n) {
    return (contains(n, "cudaMemcpy") || contains(n, "cuMemcpy") || contains(n, "hipMemcpy")) &&
           !contains(n, "Async");
}
bool isDataLoading(std::string_view n) {
    // DataLoader iteration in PyTorch profiles, typical user annotations around batch fetching.
    static const std::string_view pats[] = {"DataLoader", "dataloader", "_next_data", "data_loader",
                                            "get_batch",  "load_batch", "enumerate("};
    for (auto p : pats)
        if (contains(n, p))
            return true;
    return false;
}

constexpr std::string_view kLaunchBound = "launch-bound";

// What the CPU was doing during an idle gap (docs/metrics.md, "Insights", idle-gaps). `nextLaunch`: start
// of the launch call of the GPU activity (kernel, copy or memset) that ended the gap, -1 unknown.
const char* cpuStateOf(Interval gap, Ns dataNs, Ns syncNs, Ns nextLaunch) {
    if (dataNs * 2 >= gap.length())
        return "waiting-on-data";
    if (syncNs * 2 >= gap.length())
        return "synchronising";
    if (nextLaunch >= gap.start)
        return kLaunchBound.data();
    if (nextLaunch >= 0)
        return "gpu-dependency";
    return "unknown";
}

// How much of an interval a rank's blocking calls (device and stream syncs, synchronous copies) cover,
// whether they began inside it or before it (the usual `.item()` case: the CPU blocked before the queue
// drained). Calls by start with the running maximum of their ends, so a query walks back from the last
// call starting before the interval's end only while some earlier call still ends inside it:
// O(log calls + calls overlapping). Overlaps of calls on different threads are counted once per call, the
// sum capped at the interval's length.
class BlockingCallCover {
public:
    BlockingCallCover(const std::vector<const ApiCall*>& apisByStart, const StringTable& strings) {
        for (const ApiCall* a : apisByStart) {
            const auto& n = strings.at(a->name);
            if (isDeviceSync(n) || isBlockingStreamSync(n) || isSyncMemcpyApi(n)) {
                calls_.push_back(a);
                maxEnd_.push_back(maxEnd_.empty() ? a->end : std::max(maxEnd_.back(), a->end));
            }
        }
    }
    Ns covered(Interval g) const {
        auto it = std::lower_bound(calls_.begin(), calls_.end(), g.end,
                                   [](const ApiCall* a, Ns t) { return a->start < t; });
        Ns sum = 0;
        for (auto k = static_cast<std::size_t>(it - calls_.begin()); k > 0 && maxEnd_[k - 1] > g.start; --k) {
            const ApiCall* c = calls_[k - 1];
            if (c->end > g.start)
                sum = saturatingAdd(sum, std::min(c->end, g.end) - std::max(c->start, g.start));
        }
        return std::min(sum, g.length());
    }

private:
    std::vector<const ApiCall*> calls_;
    std::vector<Ns> maxEnd_; // maxEnd_[k] = max end of calls_[0..k]
};

Ns percentile(const std::vector<Ns>& v, double p) { // nearest-rank, v sorted
    if (v.empty())
        return 0;
    auto idx = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    idx = std::clamp<std::size_t>(idx, 1, v.size());
    return v[idx - 1];
}

// Computes the summary rows of one trace into a SummaryRowSink; touches no database.
class SummaryWriter {
public:
    SummaryWriter(const TraceData& t, const CategoryRules& rules, SummaryRowSink& out,
                  KernelStatsPool& allRanks, const SummaryOptions& options)
        : t_(t), rules_(rules), out_(out), allRanks_(allRanks), options_(options) {}

    void run();

private:
    // One rank's events, gathered once for every summary of the rank.
    struct RankEvents {
        std::vector<TimedActivity> acts; // kernels, copies, memsets
        std::vector<const KernelEvent*> kernels;
        std::vector<const MemcpyEvent*> copies;
        std::vector<const MemsetEvent*> memsets;
        std::vector<const ApiCall*> apis;                        // by start
        std::unordered_map<std::int64_t, const ApiCall*> byCorr; // correlation -> API call
        std::unordered_set<std::int64_t> flowCorr;               // correlations of launch flows
        IntervalSet dataLoading;
        std::int64_t memsetCount = 0, runtimeCount = 0, driverCount = 0, cpuRangeCount = 0, flowCount = 0,
                     annotationCount = 0, memcpyBytes = 0;
        Ns kernelTime = 0, memcpyTime = 0, memsetTime = 0;
        const ApiCall* launchOf(std::int64_t corr) const {
            auto it = corr != 0 ? byCorr.find(corr) : byCorr.end();
            return it == byCorr.end() ? nullptr : it->second;
        }
    };
    struct LaunchSummary {
        std::int64_t launched = 0; // kernels with their own launch call (graph replays excluded)
        double delayMean = 0, launchCallMean = 0;
        Ns delayMedian = 0, delayP95 = 0, delayMax = 0;
        std::int64_t shortKernels = 0;
        std::int64_t graphLaunches = 0, graphKernels = 0;
    };
    struct OrphanSummary {
        std::int64_t count = 0;
        Ns busyNs = 0;                           // sum of the orphans' durations
        std::vector<TimedActivity> launchedActs; // the other activities; empty when count == 0
    };

    // Copies touching pageable host memory, and copies issued by a blocking cudaMemcpy* call.
    struct CopyFlavours {
        std::int64_t pageable = 0, sync = 0;
        Ns pageableNs = 0, syncNs = 0;
    };
    // The rank's stored launch-bound gaps summed: over the whole window and per step index (-1 = none).
    struct LaunchBoundIdle {
        Ns whole = 0;
        std::map<std::int32_t, Ns> perStep;
        explicit LaunchBoundIdle(const std::vector<SummaryGapRow>& gaps) {
            for (const auto& g : gaps)
                if (g.cpuState == kLaunchBound) {
                    whole = saturatingAdd(whole, g.endNs - g.startNs);
                    perStep[g.stepIndex] = saturatingAdd(perStep[g.stepIndex], g.endNs - g.startNs);
                }
        }
        Ns ofStep(std::int32_t index) const {
            const auto it = perStep.find(index);
            return it == perStep.end() ? 0 : it->second;
        }
    };
    // Device-wide and CPU-blocking stream synchronisations starting inside a step (anywhere without steps).
    struct SyncCounts {
        std::int64_t device = 0, stream = 0;
        Ns deviceNs = 0, streamNs = 0;
        std::vector<std::int64_t> devicePerStep; // device syncs of each step, by position in `steps`
    };

    // One rank: collects its events once, then writes one row set per summary table.
    void writeRank(std::int32_t rank);
    RankEvents collectRank(std::int32_t rank);
    std::vector<const StepRange*> stepsOf(std::int32_t rank) const; // by index
    LaunchSummary launchSummary(const RankEvents& ev) const;
    OrphanSummary orphanSummary(const RankEvents& ev) const;
    CopyFlavours copyFlavours(const RankEvents& ev) const;
    SyncCounts syncCounts(const RankEvents& ev, const std::vector<const StepRange*>& steps);
    void writeRankRow(std::int32_t rank, const RankEvents& ev, const Interval& whole,
                      const WindowBreakdown& wb, const SyncCounts& syncs, bool hasGpu,
                      const LaunchBoundIdle& launchBound, const OrphanSummary& orphans); // summary_rank
    void writeExclusive(std::int32_t rank, int stepIndex, const WindowBreakdown& b);     // summary_exclusive
    void writeSteps(std::int32_t rank, const RankTimeline& timeline,
                    const std::vector<const StepRange*>& steps, const SyncCounts& syncs,
                    const LaunchBoundIdle& launchBound); // summary_step, with each GPU step's exclusive rows
    void writeBlockingSyncs(std::int32_t rank, const RankEvents& ev,
                            const std::vector<const StepRange*>& steps);
    void writeStreams(std::int32_t rank, const RankEvents& ev); // summary_stream
    // A GPU activity of any kind as a candidate for the one that ended an idle gap.
    struct NextActivity {
        Ns start = 0;
        StringId name = 0;
        std::int64_t correlation = 0;
    };
    static std::vector<NextActivity> activitiesByStart(const RankEvents& ev);
    std::vector<SummaryGapRow> gapRows(std::int32_t rank, const RankEvents& ev, const RankTimeline& timeline,
                                       const std::vector<const StepRange*>& steps);
    void writeKernelStats();
    // Indexed by string id: true for the categories of the range rules. O(strings x range rules).
    std::vector<bool> rangeCategoryIds() const {
        std::vector<bool> out(t_.strings.size(), false);
        for (StringId id = 0; id < t_.strings.size(); ++id)
            for (const auto& r : rules_.rangeRules())
                if (t_.strings.at(id) == r.category)
                    out[id] = true;
        return out;
    }
    template <class V, class F> void forRank(const V& v, std::int32_t rank, F&& f);

    const TraceData& t_;
    const CategoryRules& rules_;
    SummaryRowSink& out_;
    KernelStatsPool& allRanks_; // takes every (rank, name) group for the all-rank rows
    SummaryOptions options_;
    CategoryOrder order_;
    std::vector<int> catIndex_;                          // trace category string id -> order index, -1 unset
    std::unordered_map<const void*, bool> sortedByRank_; // per event vector of t_
    std::vector<std::uint8_t> syncKind_; // API name id -> 0 unknown, 1 device sync, 2 stream sync, 3 neither

    std::uint8_t syncKind(StringId name) {
        if (syncKind_.size() <= name)
            syncKind_.resize(t_.strings.size(), 0);
        auto& k = syncKind_[name];
        if (k == 0) {
            const auto& n = t_.strings.at(name);
            k = isDeviceSync(n) ? 1 : isBlockingStreamSync(n) ? 2 : 3;
        }
        return k;
    }
};

void SummaryWriter::run() {
    order_ = CategoryOrder::fromComputePriority(rules_.computePriority());
    catIndex_.assign(t_.strings.size(), -1);
    // Resolve every kernel category first: indexOf() may insert unknown categories, shifting indexes.
    auto catName = [&](StringId id) {
        return t_.strings.at(id).empty() ? std::string("other") : t_.strings.at(id);
    };
    for (const auto& k : t_.kernels)
        if (catIndex_[k.category] < 0) {
            order_.indexOf(catName(k.category));
            catIndex_[k.category] = 0;
        }
    for (std::size_t id = 0; id < catIndex_.size(); ++id)
        if (catIndex_[id] == 0)
            catIndex_[id] = order_.indexOf(catName(static_cast<StringId>(id)));
    std::set<std::int32_t> ranks;
    for (const auto& r : t_.ranks)
        ranks.insert(r.rank);
    for (const auto& k : t_.kernels)
        ranks.insert(k.rank);
    for (const auto& m : t_.memcpys)
        ranks.insert(m.rank);
    for (const auto& m : t_.memsets)
        ranks.insert(m.rank);
    for (auto r : ranks)
        writeRank(r);
    writeKernelStats();
}

// Calls f for each event of `rank` in v. Events sorted by rank (a normalised trace) are one range,
// found by binary search: O(log n + range); otherwise a filter over all of v. Sortedness is checked once
// per vector (O(n)) and remembered.
template <class V, class F> void SummaryWriter::forRank(const V& v, std::int32_t rank, F&& f) {
    auto [it, fresh] = sortedByRank_.try_emplace(static_cast<const void*>(&v), false);
    if (fresh)
        it->second =
            std::is_sorted(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    if (!it->second) {
        for (const auto& e : v)
            if (e.rank == rank)
                f(e);
        return;
    }
    auto e = std::partition_point(v.begin(), v.end(), [&](const auto& x) { return x.rank < rank; });
    for (; e != v.end() && e->rank == rank; ++e)
        f(*e);
}

void SummaryWriter::writeRank(std::int32_t rank) {
    const RankEvents ev = collectRank(rank);
    const RankTimeline timeline(ev.acts, order_);
    const std::vector<const StepRange*> steps = stepsOf(rank);
    const SyncCounts syncs = syncCounts(ev, steps);
    const Interval whole = timeline.span();
    const WindowBreakdown wb = timeline.breakdown(whole);
    const bool hasGpu = whole.length() > 0 || !ev.acts.empty();
    const std::vector<SummaryGapRow> gaps =
        hasGpu ? gapRows(rank, ev, timeline, steps) : std::vector<SummaryGapRow>{};
    const LaunchBoundIdle launchBound(gaps);
    const OrphanSummary orphans = orphanSummary(ev);
    writeRankRow(rank, ev, whole, wb, syncs, hasGpu, launchBound, orphans);
    writeExclusive(rank, -1, wb);
    if (orphans.count > 0 && !options_.stepsIncludeOrphans)
        writeSteps(rank, RankTimeline(orphans.launchedActs, order_), steps, syncs, launchBound);
    else
        writeSteps(rank, timeline, steps, syncs, launchBound);
    writeBlockingSyncs(rank, ev, steps);
    writeStreams(rank, ev);
    for (const auto& g : gaps)
        out_.add(g);
}

std::vector<const StepRange*> SummaryWriter::stepsOf(std::int32_t rank) const {
    std::vector<const StepRange*> steps;
    for (const auto& s : t_.steps)
        if (s.rank == rank)
            steps.push_back(&s);
    std::sort(steps.begin(), steps.end(),
              [](const StepRange* a, const StepRange* b) { return a->index < b->index; });
    return steps;
}

SummaryWriter::CopyFlavours SummaryWriter::copyFlavours(const RankEvents& ev) const {
    CopyFlavours f;
    for (const auto* m : ev.copies) {
        const bool isPageable = m->srcKind == MemoryKind::Pageable || m->dstKind == MemoryKind::Pageable ||
                                contains(t_.strings.at(m->name), "Pageable");
        if (isPageable) {
            ++f.pageable;
            f.pageableNs = saturatingAdd(f.pageableNs, m->end - m->start);
        }
        const ApiCall* call = ev.launchOf(m->correlation);
        if (call && isSyncMemcpyApi(t_.strings.at(call->name))) {
            ++f.sync;
            f.syncNs = saturatingAdd(f.syncNs, m->end - m->start);
        }
    }
    return f;
}

// O(API calls x steps).
SummaryWriter::SyncCounts SummaryWriter::syncCounts(const RankEvents& ev,
                                                    const std::vector<const StepRange*>& steps) {
    SyncCounts c;
    c.devicePerStep.assign(steps.size(), 0);
    for (const auto* a : ev.apis) {
        const std::uint8_t f = syncKind(a->name);
        const bool dev = f == 1, str = f == 2;
        if (!dev && !str)
            continue;
        // Only calls inside a step count (outside steps, e.g. at the end of training, they are harmless).
        bool inside = steps.empty();
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (a->start >= steps[i]->cpuStart && a->start < steps[i]->cpuEnd) {
                inside = true;
                if (dev)
                    ++c.devicePerStep[i];
            }
        if (!inside)
            continue;
        if (dev) {
            ++c.device;
            c.deviceNs = saturatingAdd(c.deviceNs, a->end - a->start);
        } else {
            ++c.stream;
            c.streamNs = saturatingAdd(c.streamNs, a->end - a->start);
        }
    }
    return c;
}

// One summary_rank row: the whole window, the launch, copy and sync figures, and the window without
// orphan GPU work (the whole window when there is none).
void SummaryWriter::writeRankRow(std::int32_t rank, const RankEvents& ev, const Interval& whole,
                                 const WindowBreakdown& wb, const SyncCounts& syncs, bool hasGpu,
                                 const LaunchBoundIdle& launchBound, const OrphanSummary& orphans) {
    const LaunchSummary launch = launchSummary(ev);
    const CopyFlavours copies = copyFlavours(ev);

    SummaryRankRow r;
    r.rank = rank;
    r.kernelCount = static_cast<std::int64_t>(ev.kernels.size());
    r.memcpyCount = static_cast<std::int64_t>(ev.copies.size());
    r.memsetCount = ev.memsetCount;
    r.runtimeCount = ev.runtimeCount;
    r.driverCount = ev.driverCount;
    r.cpuRangeCount = ev.cpuRangeCount;
    r.flowCount = ev.flowCount;
    r.gpuAnnotationCount = ev.annotationCount;
    r.kernelTimeNs = ev.kernelTime;
    if (hasGpu) {
        r.windowStartNs = whole.start;
        r.windowEndNs = whole.end;
    }
    r.computeNs = wb.compute;
    r.communicationNs = wb.communication;
    r.overlapNs = wb.overlap;
    r.memoryNs = wb.memory;
    r.idleNs = wb.idle;
    r.communicationTotalNs = wb.communicationTotal;
    r.memcpyBytes = ev.memcpyBytes;
    r.memcpyTimeNs = ev.memcpyTime;
    r.memsetTimeNs = ev.memsetTime;
    r.pageableMemcpyCount = copies.pageable;
    r.pageableMemcpyNs = copies.pageableNs;
    r.syncMemcpyCount = copies.sync;
    r.syncMemcpyNs = copies.syncNs;
    r.launchedKernelCount = launch.launched;
    r.launchDelayMeanNs = launch.delayMean;
    r.launchDelayMedianNs = launch.delayMedian;
    r.launchDelayP95Ns = launch.delayP95;
    r.launchDelayMaxNs = launch.delayMax;
    r.shortKernelCount = launch.shortKernels;
    r.launchApiMeanNs = launch.launchCallMean;
    r.deviceSyncCount = syncs.device;
    r.deviceSyncNs = syncs.deviceNs;
    r.streamSyncCount = syncs.stream;
    r.streamSyncNs = syncs.streamNs;
    r.graphLaunchCount = launch.graphLaunches;
    r.graphKernelCount = launch.graphKernels;
    r.orphanCount = orphans.count;
    r.orphanNs = orphans.busyNs;
    r.launchBoundIdleNs = launchBound.whole;
    auto setLaunched = [&r](bool present, const Interval& w, const WindowBreakdown& b) {
        if (present) {
            r.launchedWindowStartNs = w.start;
            r.launchedWindowEndNs = w.end;
        }
        r.launchedComputeNs = b.compute;
        r.launchedCommunicationNs = b.communication;
        r.launchedOverlapNs = b.overlap;
        r.launchedMemoryNs = b.memory;
        r.launchedIdleNs = b.idle;
        r.launchedCommunicationTotalNs = b.communicationTotal;
    };
    if (orphans.count == 0) {
        setLaunched(hasGpu, whole, wb);
    } else {
        const RankTimeline launched(orphans.launchedActs, order_);
        setLaunched(!orphans.launchedActs.empty(), launched.span(), launched.breakdown(launched.span()));
    }
    out_.add(r);
}

// Zero rows are omitted, but the idle row is always written: a window's rows sum to its length.
void SummaryWriter::writeExclusive(std::int32_t rank, int stepIndex, const WindowBreakdown& b) {
    for (std::size_t i = 0; i < b.exclusive.size(); ++i)
        if (b.exclusive[i] > 0)
            out_.add(SummaryExclusiveRow{rank, stepIndex, order_.names[i], b.exclusive[i]});
    out_.add(SummaryExclusiveRow{rank, stepIndex, std::string(kIdleCategory), b.idle});
}

// `timeline`: the rank's launched GPU work (orphans left out, SummaryOptions), or all of it.
void SummaryWriter::writeSteps(std::int32_t rank, const RankTimeline& timeline,
                               const std::vector<const StepRange*>& steps, const SyncCounts& syncs,
                               const LaunchBoundIdle& launchBound) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto* s = steps[i];
        const bool gpu = s->gpuStart >= 0;
        const WindowBreakdown b = gpu ? timeline.breakdown({s->gpuStart, s->gpuEnd}) : WindowBreakdown{};
        SummaryStepRow row;
        row.rank = rank;
        row.stepIndex = s->index;
        row.name = t_.strings.at(s->name);
        row.cpuStartNs = s->cpuStart;
        row.cpuEndNs = s->cpuEnd;
        row.gpuStartNs = s->gpuStart;
        row.gpuEndNs = s->gpuEnd;
        row.computeNs = b.compute;
        row.communicationNs = b.communication;
        row.overlapNs = b.overlap;
        row.memoryNs = b.memory;
        row.idleNs = b.idle;
        row.communicationTotalNs = b.communicationTotal;
        row.deviceSyncCount = syncs.devicePerStep[i];
        row.launchBoundIdleNs = launchBound.ofStep(s->index);
        out_.add(row);
        if (gpu)
            writeExclusive(rank, s->index, b);
    }
}

SummaryWriter::RankEvents SummaryWriter::collectRank(std::int32_t rank) {
    RankEvents ev;
    forRank(t_.kernels, rank, [&](const KernelEvent& k) {
        ev.acts.push_back({k.start, k.end, catIndex_[k.category]});
        ev.kernelTime = saturatingAdd(ev.kernelTime, k.end - k.start);
        ev.kernels.push_back(&k);
    });
    forRank(t_.memcpys, rank, [&](const MemcpyEvent& m) {
        ev.memcpyTime = saturatingAdd(ev.memcpyTime, m.end - m.start);
        ev.memcpyBytes = saturatingAdd(ev.memcpyBytes, m.bytes);
        ev.copies.push_back(&m);
        ev.acts.push_back({m.start, m.end, order_.memory});
    });
    forRank(t_.memsets, rank, [&](const MemsetEvent& m) {
        ++ev.memsetCount;
        ev.memsetTime = saturatingAdd(ev.memsetTime, m.end - m.start);
        ev.memsets.push_back(&m);
        ev.acts.push_back({m.start, m.end, order_.memory});
    });
    forRank(t_.apiCalls, rank, [&](const ApiCall& a) {
        (a.kind == ApiKind::Driver ? ev.driverCount : ev.runtimeCount)++;
        ev.apis.push_back(&a);
        if (a.correlation != 0)
            ev.byCorr.emplace(a.correlation, &a);
    });
    std::sort(ev.apis.begin(), ev.apis.end(),
              [](const ApiCall* a, const ApiCall* b) { return a->start < b->start; });
    std::vector<Interval> dataRanges;
    forRank(t_.cpuRanges, rank, [&](const CpuRange& r) {
        ++ev.cpuRangeCount;
        if (isDataLoading(t_.strings.at(r.name)))
            dataRanges.push_back({r.start, r.end});
    });
    ev.dataLoading = unionOf(std::move(dataRanges));
    forRank(t_.flows, rank, [&](const Flow& f) {
        ++ev.flowCount;
        if (f.correlation != 0)
            ev.flowCorr.insert(f.correlation);
    });
    forRank(t_.gpuAnnotations, rank, [&](const GpuAnnotation&) { ++ev.annotationCount; });
    return ev;
}

// A cudaGraphLaunch replays every kernel of the graph under the launch's one correlation id, so a graph
// kernel has no launch call of its own: graph kernels are counted apart and kept out of the per-kernel
// launch comparison (delay, shorter than the launch call).
SummaryWriter::LaunchSummary SummaryWriter::launchSummary(const RankEvents& ev) const {
    LaunchSummary s;
    std::vector<Ns> delays;
    double launchCallSum = 0;
    std::set<std::int64_t> graphLaunches;
    for (const auto* k : ev.kernels) {
        const ApiCall* a = ev.launchOf(k->correlation);
        if (!a)
            continue;
        if (isGraphLaunchApi(t_.strings.at(a->name))) {
            ++s.graphKernels;
            graphLaunches.insert(k->correlation);
            continue;
        }
        delays.push_back(k->start - a->start);
        launchCallSum += static_cast<double>(a->end - a->start);
        if (k->end - k->start < a->end - a->start)
            ++s.shortKernels;
    }
    s.graphLaunches = static_cast<std::int64_t>(graphLaunches.size());
    std::sort(delays.begin(), delays.end());
    s.launched = static_cast<std::int64_t>(delays.size());
    if (delays.empty())
        return s;
    double sum = 0;
    for (Ns d : delays)
        sum += static_cast<double>(d);
    s.delayMean = sum / static_cast<double>(delays.size());
    s.delayMedian = percentile(delays, 0.5);
    s.delayP95 = percentile(delays, 0.95);
    s.delayMax = delays.back();
    s.launchCallMean = launchCallSum / static_cast<double>(delays.size());
    return s;
}

// Orphan GPU work: an activity with a correlation id that no API call or launch flow of its rank carries,
// i.e. launched before the capture began. A rank without any API call or flow has no launches to match,
// so nothing on it is called an orphan; activities without a correlation id (0) are never orphans.
SummaryWriter::OrphanSummary SummaryWriter::orphanSummary(const RankEvents& ev) const {
    OrphanSummary s;
    if (ev.byCorr.empty() && ev.flowCorr.empty())
        return s;
    auto orphan = [&](std::int64_t corr) {
        return corr != 0 && !ev.byCorr.count(corr) && !ev.flowCorr.count(corr);
    };
    auto visit = [&](Ns start, Ns end, std::int64_t corr, int category) {
        if (orphan(corr)) {
            ++s.count;
            s.busyNs = saturatingAdd(s.busyNs, end - start);
        } else {
            s.launchedActs.push_back({start, end, category});
        }
    };
    for (const auto* k : ev.kernels)
        visit(k->start, k->end, k->correlation, catIndex_[k->category]);
    for (const auto* m : ev.copies)
        visit(m->start, m->end, m->correlation, order_.memory);
    for (const auto* m : ev.memsets)
        visit(m->start, m->end, m->correlation, order_.memory);
    if (s.count == 0)
        s.launchedActs.clear();
    return s;
}

// Every CPU-blocking stream/event synchronisation that starts inside a step, with the bytes of the
// device-to-host copy its thread issued just before it (the `.item()` / `.cpu()` pattern), 0 when none.
void SummaryWriter::writeBlockingSyncs(std::int32_t rank, const RankEvents& ev,
                                       const std::vector<const StepRange*>& steps) {
    std::unordered_map<std::int64_t, const MemcpyEvent*> copyByCorr;
    for (const auto* m : ev.copies)
        if (m->correlation != 0)
            copyByCorr.emplace(m->correlation, m);
    std::map<std::pair<std::int64_t, std::int64_t>, const ApiCall*> previousOnThread;
    for (const auto* a : ev.apis) { // ordered by start
        const std::pair<std::int64_t, std::int64_t> thread{a->pid, a->tid};
        const ApiCall* before = previousOnThread[thread];
        previousOnThread[thread] = a;
        if (!isBlockingStreamSync(t_.strings.at(a->name)))
            continue;
        const StepRange* step = nullptr;
        for (const auto* s : steps)
            if (a->start >= s->cpuStart && a->start < s->cpuEnd)
                step = s;
        if (!step)
            continue;
        std::int64_t dtohBytes = 0;
        if (before && before->correlation != 0) {
            auto it = copyByCorr.find(before->correlation);
            if (it != copyByCorr.end() && it->second->kind == MemcpyKind::DtoH)
                dtohBytes = it->second->bytes;
        }
        out_.add(SummarySyncRow{rank, step->index, t_.strings.at(a->name), a->start, a->end, dtohBytes});
    }
}

// The rank's kernels, copies and memsets by start (ties: kernels, then copies, then memsets, each in
// collection order): the candidates for the activity that ends an idle gap. O(n log n).
std::vector<SummaryWriter::NextActivity> SummaryWriter::activitiesByStart(const RankEvents& ev) {
    std::vector<NextActivity> out;
    out.reserve(ev.kernels.size() + ev.copies.size() + ev.memsets.size());
    for (const auto* k : ev.kernels)
        out.push_back({k->start, k->name, k->correlation});
    for (const auto* m : ev.copies)
        out.push_back({m->start, m->name, m->correlation});
    for (const auto* m : ev.memsets)
        out.push_back({m->start, m->name, m->correlation});
    std::stable_sort(out.begin(), out.end(),
                     [](const NextActivity& a, const NextActivity& b) { return a.start < b.start; });
    return out;
}

// One summary_stream row per (device, stream) of the rank: kernel, copy and memset time by kind, the
// compute kernel with the most time, and the launch queue (metrics/StreamQueueLength.h) of the operations
// whose launch call is in the trace. O(n log n).
void SummaryWriter::writeStreams(std::int32_t rank, const RankEvents& ev) {
    struct Stream {
        SummaryStreamRow row;
        std::map<StringId, Ns> computeByName;
        std::vector<StreamQueueLength::Operation> queued;
    };
    std::map<std::pair<std::int32_t, std::int64_t>, Stream> streams; // (device, stream)
    auto streamOf = [&](std::int32_t device, std::int64_t stream, Ns start,
                        std::int64_t correlation) -> Stream& {
        Stream& s = streams[{device, stream}];
        if (const ApiCall* call = ev.launchOf(correlation))
            s.queued.push_back({call->start, start});
        return s;
    };
    for (const auto* k : ev.kernels) {
        Stream& s = streamOf(k->device, k->stream, k->start, k->correlation);
        const Ns d = k->end - k->start;
        ++s.row.kernelCount;
        if (order_.isCompute(catIndex_[k->category])) {
            s.row.computeNs = saturatingAdd(s.row.computeNs, d);
            s.computeByName[k->name] = saturatingAdd(s.computeByName[k->name], d);
        } else {
            s.row.communicationNs = saturatingAdd(s.row.communicationNs, d);
        }
    }
    for (const auto* m : ev.copies) {
        Stream& s = streamOf(m->device, m->stream, m->start, m->correlation);
        s.row.memoryNs = saturatingAdd(s.row.memoryNs, m->end - m->start);
    }
    for (const auto* m : ev.memsets) {
        Stream& s = streamOf(m->device, m->stream, m->start, m->correlation);
        s.row.memoryNs = saturatingAdd(s.row.memoryNs, m->end - m->start);
    }
    for (auto& [key, s] : streams) {
        s.row.rank = rank;
        s.row.device = key.first;
        s.row.stream = key.second;
        const StringId* top = nullptr; // most time; a tie goes to the name that sorts first
        for (const auto& [name, ns] : s.computeByName)
            if (!top || ns > s.row.topKernelNs ||
                (ns == s.row.topKernelNs && t_.strings.at(name) < t_.strings.at(*top))) {
                top = &name;
                s.row.topKernelNs = ns;
            }
        if (top)
            s.row.topKernel = t_.strings.at(*top);
        const StreamQueueLength queue(s.queued);
        s.row.queueMax = queue.stats().max;
        s.row.queueMean = queue.stats().mean;
        s.row.queuedOps = queue.stats().operations;
        out_.add(s.row);
    }
}

// Every idle gap >= kMinStoredGapNs of the rank's whole window, with what the CPU was doing meanwhile.
// O(gaps log n + API calls inside gaps).
std::vector<SummaryGapRow> SummaryWriter::gapRows(std::int32_t rank, const RankEvents& ev,
                                                  const RankTimeline& timeline,
                                                  const std::vector<const StepRange*>& steps) {
    std::vector<SummaryGapRow> out;
    IntervalSet gaps = timeline.idleGaps(timeline.span());
    std::erase_if(gaps, [](const Interval& g) { return g.length() < kMinStoredGapNs; });
    std::vector<const StepRange*> gpuSteps; // steps with GPU work, by GPU start
    for (const auto* s : steps)
        if (s->gpuStart >= 0)
            gpuSteps.push_back(s);
    std::sort(gpuSteps.begin(), gpuSteps.end(),
              [](const StepRange* a, const StepRange* b) { return a->gpuStart < b->gpuStart; });
    const std::vector<NextActivity> byStart = activitiesByStart(ev);
    const BlockingCallCover blocking(ev.apis, t_.strings);
    for (const auto& g : gaps) {
        int stepIndex = -1;
        auto st = std::upper_bound(gpuSteps.begin(), gpuSteps.end(), g.start,
                                   [](Ns t, const StepRange* s) { return t < s->gpuStart; });
        if (st != gpuSteps.begin() && g.start < (*std::prev(st))->gpuEnd)
            stepIndex = (*std::prev(st))->index;
        std::int64_t launches = 0;
        auto lo = std::lower_bound(ev.apis.begin(), ev.apis.end(), g.start,
                                   [](const ApiCall* a, Ns t) { return a->start < t; });
        for (auto it = lo; it != ev.apis.end() && (*it)->start < g.end; ++it)
            launches += isLaunchApi(t_.strings.at((*it)->name)) ? 1 : 0;
        const Ns syncNs = blocking.covered(g);
        const Ns dataNs = totalLength(clip(ev.dataLoading, g));
        // Next activity: the first GPU activity of any kind (kernel, copy, memset) starting at or after the
        // gap end; the one that ended the gap (an idle gap ends where some activity starts).
        auto nk = std::lower_bound(byStart.begin(), byStart.end(), g.end,
                                   [](const NextActivity& a, Ns t) { return a.start < t; });
        SummaryGapRow row;
        Ns nextLaunch = -1;
        if (nk != byStart.end()) {
            row.nextName = t_.strings.at(nk->name);
            if (const ApiCall* call = ev.launchOf(nk->correlation))
                nextLaunch = call->start;
        }
        row.rank = rank;
        row.stepIndex = stepIndex;
        row.startNs = g.start;
        row.endNs = g.end;
        row.cpuState = cpuStateOf(g, dataNs, syncNs, nextLaunch);
        row.launches = launches;
        row.syncNs = syncNs;
        row.dataWaitNs = dataNs;
        row.nextLaunchNs = nextLaunch; // row.nextName: nullopt (stored as id 0) when no activity follows
        out.push_back(std::move(row));
    }
    return out;
}

void SummaryWriter::writeKernelStats() {
    // Durations grouped by (rank, name) in one sequential pass (hash lookups), each group sorted on its
    // own: O(n log g) for groups of size g and cache-friendly, where one indirect sort of all kernels by
    // (rank, name, duration) took most of the summaries' time at 10 M kernels. Rows come out in
    // (rank, name id) order; each group then goes to allRanks_, which makes the all-rank rows (rank -1).
    // The group's category is its name's: the first kernel's, unless that one took a range rule's category
    // (a recomputed launch) and a later one did not.
    struct Group {
        std::int32_t rank;
        StringId name, category;
        std::vector<Ns> durations;
    };
    std::vector<Group> groups;
    std::unordered_map<std::uint64_t, std::size_t> index;
    const std::vector<bool> rangeCategory = rangeCategoryIds();
    auto isRange = [&](StringId c) { return c < rangeCategory.size() && rangeCategory[c]; };
    for (const auto& k : t_.kernels) {
        const std::uint64_t key =
            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.rank)) << 32) | k.name;
        auto [it, fresh] = index.try_emplace(key, groups.size());
        if (fresh)
            groups.push_back({k.rank, k.name, k.category, {}});
        Group& g = groups[it->second];
        if (isRange(g.category) && !isRange(k.category))
            g.category = k.category;
        g.durations.push_back(k.end - k.start);
    }
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.name < b.name;
    });
    for (auto& g : groups) {
        std::sort(g.durations.begin(), g.durations.end());
        const KernelStat s = statsOf(g.durations);
        const std::string& stored = t_.strings.at(g.category);
        const std::string category = stored.empty() ? std::string("other") : stored;
        const std::string& name = t_.strings.at(g.name);
        out_.add(SummaryKernelRow{g.rank, name, category, s.count, s.total, s.mean, s.median, s.min, s.max,
                                  s.stddev});
        allRanks_.add(g.rank, name, category, isRange(g.category), std::move(g.durations));
    }
}

} // namespace

void computeRunSummaries(const TraceData& trace, const CategoryRules& rules, SummaryRowSink& out,
                         const SummaryOptions& options) {
    computeRunSummaries(trace, rules, out, nullptr, options);
}

void computeRunSummaries(const TraceData& trace, const CategoryRules& rules, SummaryRowSink& out,
                         KernelStatsPool* allRanks, const SummaryOptions& options) {
    if (allRanks) {
        SummaryWriter(trace, rules, out, *allRanks, options).run();
        return;
    }
    KernelStatsPool pool;
    SummaryWriter(trace, rules, out, pool, options).run();
    pool.write(out);
}

} // namespace cnp
