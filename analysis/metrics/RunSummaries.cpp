#include "metrics/RunSummaries.h"

#include "metrics/Breakdown.h"
#include "metrics/Categoriser.h"
#include "metrics/CategoryRules.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace cnp {

namespace {

constexpr std::string_view kSummarySchema = R"sql(
CREATE TABLE IF NOT EXISTS summary_rank(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL,
  kernel_count INTEGER, memcpy_count INTEGER, memset_count INTEGER, runtime_count INTEGER,
  driver_count INTEGER, cpu_range_count INTEGER, flow_count INTEGER, gpu_annotation_count INTEGER,
  kernel_time_ns INTEGER, window_start_ns INTEGER, window_end_ns INTEGER,
  compute_ns INTEGER, communication_ns INTEGER, overlap_ns INTEGER, memory_ns INTEGER, idle_ns INTEGER,
  communication_total_ns INTEGER,
  memcpy_bytes INTEGER, memcpy_time_ns INTEGER, memset_time_ns INTEGER,
  pageable_memcpy_count INTEGER, pageable_memcpy_ns INTEGER, sync_memcpy_count INTEGER, sync_memcpy_ns INTEGER,
  launched_kernel_count INTEGER, launch_delay_mean_ns REAL, launch_delay_median_ns INTEGER,
  launch_delay_p95_ns INTEGER, launch_delay_max_ns INTEGER, short_kernel_count INTEGER,
  launch_api_mean_ns REAL, device_sync_count INTEGER, device_sync_ns INTEGER,
  stream_sync_count INTEGER, stream_sync_ns INTEGER,
  PRIMARY KEY(run_id, rank));
CREATE TABLE IF NOT EXISTS summary_step(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER NOT NULL, name_id INTEGER,
  cpu_start_ns INTEGER, cpu_end_ns INTEGER, gpu_start_ns INTEGER, gpu_end_ns INTEGER,
  compute_ns INTEGER, communication_ns INTEGER, overlap_ns INTEGER, memory_ns INTEGER, idle_ns INTEGER,
  communication_total_ns INTEGER, device_sync_count INTEGER,
  PRIMARY KEY(run_id, rank, step_index));
CREATE TABLE IF NOT EXISTS summary_exclusive(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER NOT NULL, category_id INTEGER NOT NULL,
  exclusive_ns INTEGER NOT NULL,
  PRIMARY KEY(run_id, rank, step_index, category_id));
CREATE TABLE IF NOT EXISTS summary_kernel(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, name_id INTEGER NOT NULL, category_id INTEGER,
  count INTEGER, total_ns INTEGER, mean_ns REAL, median_ns REAL, min_ns INTEGER, max_ns INTEGER,
  stddev_ns REAL,
  PRIMARY KEY(run_id, rank, name_id));
CREATE TABLE IF NOT EXISTS summary_gap(
  run_id INTEGER NOT NULL, rank INTEGER NOT NULL, step_index INTEGER, start_ns INTEGER, end_ns INTEGER,
  cpu_state TEXT, launches INTEGER, sync_ns INTEGER, data_wait_ns INTEGER, next_name_id INTEGER,
  next_launch_ns INTEGER);
CREATE INDEX IF NOT EXISTS summary_gap_by_run ON summary_gap(run_id, rank, start_ns);
CREATE INDEX IF NOT EXISTS summary_kernel_by_run ON summary_kernel(run_id, rank, total_ns);
)sql";

constexpr const char* kSummaryTables[] = {"summary_rank", "summary_step", "summary_exclusive",
                                          "summary_kernel", "summary_gap"};

// Gaps shorter than this are not stored (insight thresholds below it see none); at most
// kMaxGapsPerRank of the longest gaps per rank are kept.
constexpr Ns kMinStoredGapNs = 10'000;
constexpr std::size_t kMaxGapsPerRank = 256;

bool contains(std::string_view hay, std::string_view needle) {
    return hay.find(needle) != std::string_view::npos;
}

bool isLaunchApi(std::string_view n) {
    return contains(n, "LaunchKernel") || contains(n, "GraphLaunch") || contains(n, "cuLaunch") ||
           contains(n, "LaunchCooperative");
}
bool isDeviceSync(std::string_view n) {
    return contains(n, "cudaDeviceSynchronize") || contains(n, "cuCtxSynchronize");
}
bool isStreamSync(std::string_view n) {
    return contains(n, "StreamSynchronize") || contains(n, "EventSynchronize") ||
           contains(n, "StreamWaitEvent");
}
bool isSyncMemcpyApi(std::string_view n) {
    return (contains(n, "cudaMemcpy") || contains(n, "cuMemcpy")) && !contains(n, "Async");
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

Ns percentile(std::vector<Ns>& v, double p) { // nearest-rank, v sorted
    if (v.empty())
        return 0;
    auto idx = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
    idx = std::clamp<std::size_t>(idx, 1, v.size());
    return v[idx - 1];
}

struct KernelStat {
    std::int64_t count = 0;
    Ns total = 0, min = 0, max = 0;
    double mean = 0, median = 0, stddev = 0;
};

// durations sorted ascending.
KernelStat statsOf(const std::vector<Ns>& d) {
    KernelStat s;
    s.count = static_cast<std::int64_t>(d.size());
    if (d.empty())
        return s;
    for (Ns x : d)
        s.total += x;
    s.min = d.front();
    s.max = d.back();
    s.mean = static_cast<double>(s.total) / static_cast<double>(s.count);
    const std::size_t n = d.size();
    s.median = n % 2 ? static_cast<double>(d[n / 2])
                     : (static_cast<double>(d[n / 2 - 1]) + static_cast<double>(d[n / 2])) / 2.0;
    if (n > 1) {
        double acc = 0;
        for (Ns x : d)
            acc += (static_cast<double>(x) - s.mean) * (static_cast<double>(x) - s.mean);
        s.stddev = std::sqrt(acc / static_cast<double>(n - 1));
    }
    return s;
}

// Computes the summary rows of one trace into RowBuffers; touches no database.
class SummaryWriter {
public:
    SummaryWriter(const TraceData& t, const CategoryRules& rules, RunSummaryRows& out)
        : t_(t), rules_(rules), out_(out) {}

    void run();

private:
    void writeRank(std::int32_t rank);
    void writeKernelStats();
    template <class V, class F> void forRank(const V& v, std::int32_t rank, F&& f);

    const TraceData& t_;
    const CategoryRules& rules_;
    RunSummaryRows& out_;
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
            k = isDeviceSync(n) ? 1 : isStreamSync(n) ? 2 : 3;
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
    std::vector<TimedActivity> acts;
    std::int64_t kernelCount = 0, memcpyCount = 0, memsetCount = 0;
    Ns kernelTime = 0, memcpyTime = 0, memsetTime = 0;
    std::int64_t memcpyBytes = 0;
    std::vector<const KernelEvent*> kernels;
    forRank(t_.kernels, rank, [&](const KernelEvent& k) {
        acts.push_back({k.start, k.end, catIndex_[k.category]});
        ++kernelCount;
        kernelTime += k.end - k.start;
        kernels.push_back(&k);
    });
    std::vector<const MemcpyEvent*> copies;
    forRank(t_.memcpys, rank, [&](const MemcpyEvent& m) {
        ++memcpyCount;
        memcpyTime += m.end - m.start;
        memcpyBytes += m.bytes;
        copies.push_back(&m);
    });
    forRank(t_.memsets, rank, [&](const MemsetEvent& m) {
        ++memsetCount;
        memsetTime += m.end - m.start;
        acts.push_back({m.start, m.end, -1});
    });
    for (const auto* m : copies)
        acts.push_back({m->start, m->end, -1});
    for (auto& a : acts)
        if (a.category < 0)
            a.category = order_.memory;
    const RankTimeline timeline(acts, order_);

    // API calls of this rank, by correlation.
    std::int64_t runtimeCount = 0, driverCount = 0;
    std::vector<const ApiCall*> apis;
    std::unordered_map<std::int64_t, const ApiCall*> byCorr;
    forRank(t_.apiCalls, rank, [&](const ApiCall& a) {
        (a.kind == ApiKind::Driver ? driverCount : runtimeCount)++;
        apis.push_back(&a);
        if (a.correlation != 0)
            byCorr.emplace(a.correlation, &a);
    });
    std::sort(apis.begin(), apis.end(),
              [](const ApiCall* a, const ApiCall* b) { return a->start < b->start; });
    std::int64_t cpuRangeCount = 0, flowCount = 0, annotationCount = 0;
    std::vector<Interval> dataRanges;
    forRank(t_.cpuRanges, rank, [&](const CpuRange& r) {
        ++cpuRangeCount;
        if (isDataLoading(t_.strings.at(r.name)))
            dataRanges.push_back({r.start, r.end});
    });
    const IntervalSet dataLoading = unionOf(std::move(dataRanges));
    forRank(t_.flows, rank, [&](const Flow&) { ++flowCount; });
    forRank(t_.gpuAnnotations, rank, [&](const GpuAnnotation&) { ++annotationCount; });

    // Launch statistics.
    std::vector<Ns> delays;
    std::int64_t shortKernels = 0;
    double launchApiSum = 0;
    for (const auto* k : kernels) {
        auto it = byCorr.find(k->correlation);
        if (k->correlation == 0 || it == byCorr.end())
            continue;
        const ApiCall* a = it->second;
        delays.push_back(k->start - a->start);
        launchApiSum += static_cast<double>(a->end - a->start);
        if (k->end - k->start < a->end - a->start)
            ++shortKernels;
    }
    std::sort(delays.begin(), delays.end());
    double delayMean = 0;
    for (Ns d : delays)
        delayMean += static_cast<double>(d);
    if (!delays.empty())
        delayMean /= static_cast<double>(delays.size());

    // Memcpy flavours.
    std::int64_t pageable = 0, syncCopies = 0;
    Ns pageableNs = 0, syncCopyNs = 0;
    for (const auto* m : copies) {
        const bool isPageable = m->srcKind == MemoryKind::Pageable || m->dstKind == MemoryKind::Pageable ||
                                contains(t_.strings.at(m->name), "Pageable");
        if (isPageable) {
            ++pageable;
            pageableNs += m->end - m->start;
        }
        auto it = m->correlation ? byCorr.find(m->correlation) : byCorr.end();
        if (it != byCorr.end() && isSyncMemcpyApi(t_.strings.at(it->second->name))) {
            ++syncCopies;
            syncCopyNs += m->end - m->start;
        }
    }

    // Steps of this rank and device-wide syncs inside them.
    std::vector<const StepRange*> steps;
    for (const auto& s : t_.steps)
        if (s.rank == rank)
            steps.push_back(&s);
    std::sort(steps.begin(), steps.end(),
              [](const StepRange* a, const StepRange* b) { return a->index < b->index; });
    std::int64_t devSync = 0, streamSync = 0;
    Ns devSyncNs = 0, streamSyncNs = 0;
    std::vector<std::int64_t> stepDevSync(steps.size(), 0);
    for (const auto* a : apis) {
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
                    ++stepDevSync[i];
            }
        if (!inside)
            continue;
        if (dev) {
            ++devSync;
            devSyncNs += a->end - a->start;
        } else {
            ++streamSync;
            streamSyncNs += a->end - a->start;
        }
    }

    const Interval whole = timeline.span();
    const WindowBreakdown wb = timeline.breakdown(whole);
    const bool hasGpu = whole.length() > 0 || !acts.empty();

    RowBuffer& rs = out_.rank;
    int c = 0;
    auto put = [&](auto v) { rs.bind(++c, v); };
    auto putNull = [&] { rs.bindNull(++c); };
    rs.bindRunId(++c), put(rank), put(kernelCount), put(memcpyCount), put(memsetCount);
    put(runtimeCount), put(driverCount), put(cpuRangeCount), put(flowCount), put(annotationCount),
        put(kernelTime);
    if (hasGpu)
        put(whole.start), put(whole.end);
    else
        putNull(), putNull();
    put(wb.compute), put(wb.communication), put(wb.overlap), put(wb.memory), put(wb.idle),
        put(wb.communicationTotal);
    put(memcpyBytes), put(memcpyTime), put(memsetTime);
    put(pageable), put(pageableNs), put(syncCopies), put(syncCopyNs);
    put(static_cast<std::int64_t>(delays.size())), put(delayMean);
    put(percentile(delays, 0.5)), put(percentile(delays, 0.95));
    put(delays.empty() ? Ns{0} : delays.back()), put(shortKernels);
    put(delays.empty() ? 0.0 : launchApiSum / static_cast<double>(delays.size()));
    put(devSync), put(devSyncNs), put(streamSync), put(streamSyncNs);
    rs.exec();

    RowBuffer& ex = out_.exclusive;
    auto writeExclusive = [&](int stepIndex, const WindowBreakdown& b) {
        for (std::size_t i = 0; i < b.exclusive.size(); ++i)
            if (b.exclusive[i] > 0)
                ex.bindRunId(1)
                    .bind(2, rank)
                    .bind(3, stepIndex)
                    .bindStringId(4, order_.names[i])
                    .bind(5, b.exclusive[i])
                    .exec();
        ex.bindRunId(1)
            .bind(2, rank)
            .bind(3, stepIndex)
            .bindStringId(4, kIdleCategory)
            .bind(5, b.idle)
            .exec();
    };
    writeExclusive(-1, wb);

    RowBuffer& ss = out_.step;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const auto* s = steps[i];
        const bool gpu = s->gpuStart >= 0;
        const WindowBreakdown b = gpu ? timeline.breakdown({s->gpuStart, s->gpuEnd}) : WindowBreakdown{};
        ss.bindRunId(1).bind(2, rank).bind(3, s->index).bindStringId(4, t_.strings.at(s->name));
        ss.bind(5, s->cpuStart);
        ss.bind(6, s->cpuEnd)
            .bind(7, s->gpuStart)
            .bind(8, s->gpuEnd)
            .bind(9, b.compute)
            .bind(10, b.communication);
        ss.bind(11, b.overlap).bind(12, b.memory).bind(13, b.idle).bind(14, b.communicationTotal);
        ss.bind(15, stepDevSync[i]).exec();
        if (gpu)
            writeExclusive(s->index, b);
    }

    // Idle gaps: the longest ones, with what the CPU was doing meanwhile.
    if (!hasGpu)
        return;
    IntervalSet gaps = timeline.idleGaps(whole);
    std::erase_if(gaps, [](const Interval& g) { return g.length() < kMinStoredGapNs; });
    if (gaps.size() > kMaxGapsPerRank) {
        std::nth_element(gaps.begin(), gaps.begin() + kMaxGapsPerRank, gaps.end(),
                         [](const Interval& a, const Interval& b) { return a.length() > b.length(); });
        gaps.resize(kMaxGapsPerRank);
        std::sort(gaps.begin(), gaps.end(),
                  [](const Interval& a, const Interval& b) { return a.start < b.start; });
    }
    std::vector<const KernelEvent*> byStart = kernels;
    std::sort(byStart.begin(), byStart.end(),
              [](const KernelEvent* a, const KernelEvent* b) { return a->start < b->start; });
    RowBuffer& gs = out_.gap;
    for (const auto& g : gaps) {
        int stepIndex = -1;
        for (const auto* s : steps)
            if (s->gpuStart >= 0 && g.start >= s->gpuStart && g.start < s->gpuEnd)
                stepIndex = s->index;
        std::int64_t launches = 0;
        Ns syncNs = 0;
        auto lo = std::lower_bound(apis.begin(), apis.end(), g.start,
                                   [](const ApiCall* a, Ns t) { return a->start < t; });
        for (auto it = lo; it != apis.end() && (*it)->start < g.end; ++it) {
            const auto& n = t_.strings.at((*it)->name);
            if (isLaunchApi(n))
                ++launches;
            if (isDeviceSync(n) || isStreamSync(n) || isSyncMemcpyApi(n))
                syncNs += std::min((*it)->end, g.end) - (*it)->start;
        }
        const Ns dataNs = totalLength(clip(dataLoading, g));
        // Next activity: the first kernel starting at or after the gap end.
        auto nk = std::lower_bound(byStart.begin(), byStart.end(), g.end,
                                   [](const KernelEvent* k, Ns t) { return k->start < t; });
        const std::string* nextName = nullptr; // none: string id 0
        Ns nextLaunch = -1;
        if (nk != byStart.end()) {
            nextName = &t_.strings.at((*nk)->name);
            auto it = (*nk)->correlation ? byCorr.find((*nk)->correlation) : byCorr.end();
            if (it != byCorr.end())
                nextLaunch = it->second->start;
        }
        std::string state;
        if (dataNs * 2 >= g.length())
            state = "waiting-on-data";
        else if (syncNs * 2 >= g.length())
            state = "synchronising";
        else if (nextLaunch >= g.start)
            state = "launch-bound";
        else if (nextLaunch >= 0)
            state = "gpu-dependency";
        else
            state = "unknown";
        gs.bindRunId(1).bind(2, rank).bind(3, stepIndex).bind(4, g.start).bind(5, g.end).bind(6, state);
        gs.bind(7, launches).bind(8, syncNs).bind(9, dataNs);
        if (nextName)
            gs.bindStringId(10, *nextName);
        else
            gs.bind(10, std::int64_t{0});
        gs.bind(11, nextLaunch).exec();
    }
}

void SummaryWriter::writeKernelStats() {
    // Durations grouped by (rank, name) in one sequential pass (hash lookups), each group sorted on its
    // own: O(n log g) for groups of size g and cache-friendly, where one indirect sort of all kernels by
    // (rank, name, duration) took most of the summaries' time at 10 M kernels. Rows come out in
    // (rank, name id) order, then the all-rank rows (rank -1) in name id order.
    struct Group {
        std::int32_t rank;
        StringId name, category; // the category of the group's first kernel (categories are per name)
        std::vector<Ns> durations;
    };
    std::vector<Group> groups;
    std::unordered_map<std::uint64_t, std::size_t> index;
    for (const auto& k : t_.kernels) {
        const std::uint64_t key =
            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.rank)) << 32) | k.name;
        auto [it, fresh] = index.try_emplace(key, groups.size());
        if (fresh)
            groups.push_back({k.rank, k.name, k.category, {}});
        groups[it->second].durations.push_back(k.end - k.start);
    }
    std::sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.name < b.name;
    });
    RowBuffer& ks = out_.kernel;
    auto write = [&](std::int32_t rank, StringId name, StringId cat, const std::vector<Ns>& d) {
        const KernelStat s = statsOf(d);
        ks.bindRunId(1).bind(2, rank).bindStringId(3, t_.strings.at(name));
        ks.bindStringId(4, t_.strings.at(cat).empty() ? std::string_view("other") : t_.strings.at(cat));
        ks.bind(5, s.count).bind(6, s.total).bind(7, s.mean).bind(8, s.median).bind(9, s.min).bind(10, s.max);
        ks.bind(11, s.stddev).exec();
    };
    std::map<StringId, std::vector<Ns>> all; // name -> durations over every rank
    std::map<StringId, StringId> allCat;
    for (auto& g : groups) {
        std::sort(g.durations.begin(), g.durations.end());
        write(g.rank, g.name, g.category, g.durations);
        auto& a = all[g.name];
        a.insert(a.end(), g.durations.begin(), g.durations.end());
        allCat.emplace(g.name, g.category);
        std::vector<Ns>().swap(g.durations);
    }
    for (auto& [name, v] : all) {
        std::sort(v.begin(), v.end());
        write(-1, name, allCat[name], v);
    }
}

} // namespace

void ensureSummaryTables(Workspace& ws) {
    execSql(ws.db(), kSummarySchema);
}

void deleteRunSummaries(Workspace& ws, std::int64_t runId) {
    ensureSummaryTables(ws);
    for (const char* t : kSummaryTables) {
        Statement del(ws.db(), std::string("DELETE FROM ") + t + " WHERE run_id = ?");
        del.bind(1, runId).exec();
    }
}

RunSummaryRows computeRunSummaries(const TraceData& trace, const CategoryRules& rules) {
    RunSummaryRows rows;
    SummaryWriter(trace, rules, rows).run();
    return rows;
}

void writeRunSummaries(Workspace& ws, std::int64_t runId, const RunSummaryRows& rows) {
    ensureSummaryTables(ws);
    deleteRunSummaries(ws, runId);
    for (const RowBuffer* b : {&rows.rank, &rows.step, &rows.exclusive, &rows.kernel, &rows.gap})
        b->flush(ws, runId);
}

void buildRunSummaries(Workspace& ws, std::int64_t runId, const TraceData& trace) {
    writeRunSummaries(ws, runId, computeRunSummaries(trace, CategoryRules::forWorkspace(ws)));
}

void rebuildRunSummaries(Workspace& ws, std::int64_t runId) {
    TraceData trace = ws.loadRun(runId);
    categoriseKernels(trace, CategoryRules::forWorkspace(ws));
    // Store the new categories: one UPDATE per distinct kernel name.
    std::map<StringId, StringId> nameToCat;
    for (const auto& k : trace.kernels)
        nameToCat.emplace(k.name, k.category);
    const IdRange rows = ws.eventRows(runId, "kernels");
    Statement up(ws.db(), "UPDATE kernels SET category_id = ? WHERE id BETWEEN ? AND ? AND name_id = ?");
    for (const auto& [name, cat] : nameToCat)
        up.bind(1, ws.internString(trace.strings.at(cat)))
            .bind(2, rows.first)
            .bind(3, rows.last)
            .bind(4, ws.internString(trace.strings.at(name)))
            .exec();
    buildRunSummaries(ws, runId, trace);
}

} // namespace cnp
