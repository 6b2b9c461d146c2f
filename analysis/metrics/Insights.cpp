#include "metrics/Insights.h"

#include "metrics/RunSummaryReader.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

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
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", 100.0 * f);
    return b;
}

std::string ms(Ns ns) {
    char b[32];
    if (std::llabs(ns) < 1'000'000)
        std::snprintf(b, sizeof b, "%.1f us", static_cast<double>(ns) / 1e3);
    else
        std::snprintf(b, sizeof b, "%.2f ms", static_cast<double>(ns) / 1e6);
    return b;
}

// "13.0.2" -> {13,0,2}; "13000"/"12080" (CUDA_VERSION style) -> {13,0,0}/{12,8,0}; "580.159" -> {580,159}.
std::vector<int> parseVersion(const std::string& s) {
    std::vector<int> v;
    int cur = -1;
    for (char c : s) {
        if (c >= '0' && c <= '9') {
            cur = (cur < 0 ? 0 : cur) * 10 + (c - '0');
            if (cur > 100000000)
                return {};
        } else if (c == '.') {
            v.push_back(cur < 0 ? 0 : cur);
            cur = -1;
        } else if (cur >= 0 || !v.empty()) {
            break;
        }
    }
    if (cur >= 0)
        v.push_back(cur);
    return v;
}

std::optional<std::pair<int, int>> cudaMajorMinor(const std::string& s) {
    auto v = parseVersion(s);
    if (v.empty())
        return std::nullopt;
    if (v.size() == 1 && v[0] >= 1000) // CUDA_VERSION encoding 1000*major + 10*minor
        return std::make_pair(v[0] / 1000, (v[0] % 1000) / 10);
    return std::make_pair(v[0], v.size() > 1 ? v[1] : 0);
}

std::string envValue(const RunInfo& info, const std::string& key, bool* found) {
    for (const auto& [k, v] : info.env)
        if (k == key) {
            *found = true;
            return v;
        }
    *found = false;
    return {};
}

int gpusPerPod(const Workspace& ws, const RunRecord& run) {
    bool f = false;
    const std::string lws = envValue(run.info, "LOCAL_WORLD_SIZE", &f);
    if (f) {
        auto v = parseVersion(lws);
        if (!v.empty() && v[0] > 0)
            return v[0];
    }
    const std::string cvd = envValue(run.info, "CUDA_VISIBLE_DEVICES", &f);
    if (f && !cvd.empty())
        return static_cast<int>(std::count(cvd.begin(), cvd.end(), ',')) + 1;
    Statement st(ws.db(),
                 "SELECT COUNT(*) FROM ranks WHERE run_id = ? GROUP BY host ORDER BY COUNT(*) DESC LIMIT 1");
    st.bind(1, run.id);
    if (st.step())
        return st.i32(0);
    return run.info.worldSize;
}

void sortBySeverity(std::vector<Insight>& v) {
    std::stable_sort(v.begin(), v.end(), [](const Insight& a, const Insight& b) {
        if (a.severity != b.severity)
            return a.severity > b.severity;
        return a.value > b.value;
    });
}

} // namespace

std::vector<Insight> computeInsights(const Workspace& ws, const std::string& runName,
                                     const InsightOptions& o) {
    const auto run = ws.runOrThrow(runName);
    const RunSummaryReader reader(ws, run.id);
    const auto ranks = reader.ranks();
    const auto steps = reader.steps();
    std::vector<Insight> out;
    Ns totalWindow = 0;
    for (const auto& r : ranks)
        if (r.window)
            totalWindow += r.window->length();

    // 1. GPU idle gaps and what the CPU was doing.
    if (totalWindow > 0) {
        const auto gaps = reader.idleGaps(o.idleGapNs);
        Ns gapTotal = 0;
        std::map<std::string, Ns> byState;
        for (const auto& g : gaps) {
            gapTotal += g.length();
            byState[g.cpuState] += g.length();
        }
        const double share = static_cast<double>(gapTotal) / static_cast<double>(totalWindow);
        if (!gaps.empty()) {
            Insight in;
            in.id = "idle-gaps";
            in.value = share;
            in.severity = share >= 3 * o.idleShareWarning ? InsightSeverity::Critical
                          : share >= o.idleShareWarning   ? InsightSeverity::Warning
                                                          : InsightSeverity::Info;
            std::string dominant;
            Ns best = -1;
            for (const auto& [s, ns] : byState)
                if (ns > best)
                    best = ns, dominant = s;
            in.title = std::to_string(gaps.size()) + " GPU idle gaps >= " + ms(o.idleGapNs) + " cost " +
                       ms(gapTotal) + " (" + pct(share) + " of the GPU window), mostly " + dominant;
            std::string parts;
            for (const auto& [s, ns] : byState)
                parts += (parts.empty() ? "" : ", ") + s + " " + ms(ns);
            in.explanation =
                "The GPU had nothing to run for " + ms(gapTotal) + " in gaps of at least " + ms(o.idleGapNs) +
                " (" + parts +
                "). 'launch-bound' means the work that ended the gap was launched only after the GPU "
                "went idle: the CPU (Python, framework overhead, launch latency) could not keep the GPU fed; "
                "fewer, "
                "larger kernels (torch.compile, CUDA graphs) or a faster host loop help. 'waiting-on-data' "
                "means a "
                "DataLoader range covered the gap: add workers, pin memory or prefetch. 'synchronising' "
                "means a "
                "blocking synchronisation call covered it; 'gpu-dependency' means the next work was already "
                "queued "
                "and waited on another stream, event or peer.";
            for (std::size_t i = 0; i < gaps.size() && i < o.maxEvidence; ++i) {
                const auto& g = gaps[i];
                InsightEvidence e;
                e.rank = g.rank;
                e.stepIndex = g.stepIndex;
                e.start = g.start;
                e.end = g.end;
                if (!g.nextKernel.empty())
                    e.kernels.push_back(g.nextKernel);
                e.detail = g.cpuState + ", " + ms(g.length()) + ", " + std::to_string(g.launches) +
                           " launches during the gap";
                in.evidence.push_back(std::move(e));
            }
            out.push_back(std::move(in));
        }
    }

    // 2. Exposed communication per step; 3. low comm/compute overlap.
    {
        std::vector<const StepSummary*> bad;
        double worst = 0;
        for (const auto& s : steps) {
            if (!s.hasGpu() || s.length() <= 0)
                continue;
            const double share =
                static_cast<double>(s.breakdown.communication) / static_cast<double>(s.length());
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
            in.severity =
                worst >= 2 * o.exposedCommShare ? InsightSeverity::Critical : InsightSeverity::Warning;
            in.title = "Exposed communication up to " + pct(worst) + " of a step";
            in.explanation =
                "Communication kernels (NCCL and friends) ran with no compute kernel beside them for up "
                "to " +
                pct(worst) +
                " of a step window. That time is pure waiting on the network or "
                "on peers. Overlap collectives with compute (bucketed gradient all-reduce, prefetching "
                "FSDP/ZeRO parameters, separate communication streams), reduce the volume (gradient "
                "compression, larger buckets) or check for a straggler rank that others wait for.";
            std::sort(bad.begin(), bad.end(), [](const StepSummary* a, const StepSummary* b) {
                return a->breakdown.communication > b->breakdown.communication;
            });
            for (std::size_t i = 0; i < bad.size() && i < o.maxEvidence; ++i)
                in.evidence.push_back({bad[i]->rank,
                                       bad[i]->index,
                                       bad[i]->gpuStart,
                                       bad[i]->gpuEnd,
                                       {},
                                       "exposed communication " + ms(bad[i]->breakdown.communication)});
            out.push_back(std::move(in));
        }
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
            in.title = "Rank " + std::to_string(r.rank) + ": only " + pct(*of) +
                       " of communication overlaps compute";
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

    // 4. Kernels shorter than their launch cost.
    for (const auto& r : ranks) {
        if (r.launch.launchedKernels < o.minKernelsForLaunchCheck)
            continue;
        const double share =
            static_cast<double>(r.launch.shorterThanLaunch) / static_cast<double>(r.launch.launchedKernels);
        if (share < o.shortKernelShare)
            continue;
        Insight in;
        in.id = "short-kernels";
        in.value = share;
        in.severity = InsightSeverity::Warning;
        in.title = "Rank " + std::to_string(r.rank) + ": " + pct(share) +
                   " of kernels are shorter than their launch call";
        in.explanation =
            std::to_string(r.launch.shorterThanLaunch) + " of " + std::to_string(r.launch.launchedKernels) +
            " kernels ran for less time than the CPU spent launching them (mean launch call " +
            ms(static_cast<Ns>(r.launch.meanLaunchCallNs)) +
            "). Such a workload is bound by launch "
            "overhead, not by the GPU: fuse the small kernels with torch.compile, or capture the step "
            "in CUDA graphs so one launch replays many kernels.";
        InsightEvidence e;
        e.rank = r.rank;
        if (r.window)
            e.start = r.window->start, e.end = r.window->end;
        for (const auto& k : reader.kernelStats(r.rank))
            if (k.medianNs < r.launch.meanLaunchCallNs && e.kernels.size() < o.maxEvidence)
                e.kernels.push_back(k.name);
        e.detail = "median launch-to-start delay " + ms(r.launch.medianDelayNs);
        in.evidence.push_back(std::move(e));
        out.push_back(std::move(in));
    }

    // 5. Synchronous or pageable memcpy; 6. device-wide synchronisation inside steps.
    for (const auto& r : ranks) {
        if (r.syncMemcpyCount > 0 || r.pageableMemcpyCount > 0) {
            Insight in;
            in.id = "sync-memcpy";
            in.value = static_cast<double>(r.syncMemcpyCount + r.pageableMemcpyCount);
            in.severity = InsightSeverity::Warning;
            in.title = "Rank " + std::to_string(r.rank) + ": " + std::to_string(r.syncMemcpyCount) +
                       " synchronous and " + std::to_string(r.pageableMemcpyCount) +
                       " pageable memory copies";
            in.explanation =
                "Synchronous copies (cudaMemcpy without Async) block the CPU until the GPU has drained "
                "its queue, and copies from pageable host memory are staged through a driver buffer and "
                "cannot overlap with compute. Use pinned memory (pin_memory=True, tensor.pin_memory()) "
                "and non_blocking=True / cudaMemcpyAsync, and avoid .item()/.cpu() inside the step.";
            in.evidence.push_back(
                {r.rank,
                 -1,
                 -1,
                 -1,
                 {},
                 "synchronous " + ms(r.syncMemcpyNs) + ", pageable " + ms(r.pageableMemcpyNs)});
            out.push_back(std::move(in));
        }
        if (r.deviceSyncCount > 0) {
            Insight in;
            in.id = "device-sync";
            in.value = static_cast<double>(r.deviceSyncCount);
            in.severity = InsightSeverity::Warning;
            in.title = "Rank " + std::to_string(r.rank) + ": " + std::to_string(r.deviceSyncCount) +
                       " device-wide synchronisations inside steps (" + ms(r.deviceSyncNs) + ")";
            in.explanation =
                "cudaDeviceSynchronize inside a training step stops the CPU until every stream is idle, "
                "so the GPU runs dry while the CPU prepares the next work. Typical sources: "
                "torch.cuda.synchronize() for timing, .item() on a loss for logging, or a library "
                "barrier. Remove it from the hot loop or log asynchronously.";
            for (const auto& s : steps)
                if (s.rank == r.rank && s.deviceSyncCount > 0 && in.evidence.size() < o.maxEvidence)
                    in.evidence.push_back({s.rank,
                                           s.index,
                                           s.cpuStart,
                                           s.cpuEnd,
                                           {},
                                           std::to_string(s.deviceSyncCount) + " device synchronisations"});
            out.push_back(std::move(in));
        }
    }

    // 7. Stragglers and rank imbalance.
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

    // 8. Checks from the training image's release notes, on run metadata.
    {
        bool found = false;
        const std::string ifname = envValue(run.info, "NCCL_SOCKET_IFNAME", &found);
        if (found) {
            const int gpus = gpusPerPod(ws, run);
            std::string expected;
            if (gpus == 1 || gpus == 2 || gpus == 4 || gpus == 8)
                expected = "eth0";
            else if (gpus == 16)
                expected = "hpn0";
            if (!expected.empty() && ifname != expected) {
                Insight in;
                in.id = "release-notes.nccl-socket-ifname";
                in.severity = InsightSeverity::Critical;
                in.value = gpus;
                in.title = "NCCL_SOCKET_IFNAME is '" + ifname + "' but must be '" + expected +
                           "' for a pod with " + std::to_string(gpus) + " GPUs";
                in.explanation =
                    "The training image's release notes require NCCL_SOCKET_IFNAME=eth0 when a pod uses "
                    "1, 2, 4 or 8 GPUs and hpn0 when it uses all 16 GPUs of a node. With another "
                    "interface NCCL bootstraps over the wrong network: collectives are slow or hang.";
                in.evidence.push_back({-1, -1, -1, -1, {}, "NCCL_SOCKET_IFNAME=" + ifname});
                out.push_back(std::move(in));
            }
        }
        const auto cuda = cudaMajorMinor(run.info.cudaVersion);
        const auto driver = parseVersion(run.info.driverVersion);
        // NVIDIA driver branches are 3-digit (470, 535, 580...). Sources such as Kineto report the driver's
        // CUDA API version instead ("13.0" / 13000): that says nothing about the branch, so it is not
        // checked.
        if (cuda && !driver.empty() && driver[0] >= 100 && driver[0] < 1000) {
            int need = 0;
            if (cuda->first >= 13)
                need = 580;
            else if (cuda->first == 12 && cuda->second >= 8)
                need = 575;
            if (need > 0 && driver[0] < need) {
                Insight in;
                in.id = "release-notes.driver-version";
                in.severity = InsightSeverity::Critical;
                in.value = driver[0];
                in.title = "CUDA " + run.info.cudaVersion + " needs driver >= " + std::to_string(need) +
                           ", run has " + run.info.driverVersion;
                in.explanation =
                    "The training image's release notes: CUDA 13.0.2 needs NVIDIA driver 580 or newer and "
                    "CUDA 12.8 needs 575 or newer. An older driver runs only through forward "
                    "compatibility, if at all: expect initialisation failures or missing features. Use "
                    "an image built for the node's driver, or upgrade the driver.";
                in.evidence.push_back(
                    {-1,
                     -1,
                     -1,
                     -1,
                     {},
                     "driver " + run.info.driverVersion + ", CUDA " + run.info.cudaVersion});
                out.push_back(std::move(in));
            }
        }
        std::string bucket = envValue(run.info, "zero_optimization.stage3_prefetch_bucket_size", &found);
        if (!found) {
            const std::string cfg = envValue(run.info, "DEEPSPEED_CONFIG", &found);
            if (found) {
                rapidjson::Document d;
                d.Parse(cfg.c_str());
                found = false;
                if (!d.HasParseError() && d.IsObject() && d.HasMember("zero_optimization") &&
                    d["zero_optimization"].IsObject() &&
                    d["zero_optimization"].HasMember("stage3_prefetch_bucket_size")) {
                    const auto& v = d["zero_optimization"]["stage3_prefetch_bucket_size"];
                    found = true;
                    bucket = v.IsString()   ? v.GetString()
                             : v.IsNumber() ? std::to_string(v.GetDouble())
                                            : "?";
                    if (v.IsNull())
                        bucket.clear();
                }
            }
        }
        if (found && !bucket.empty() && bucket != "auto") {
            Insight in;
            in.id = "release-notes.deepspeed-prefetch-bucket";
            in.severity = InsightSeverity::Warning;
            in.title = "DeepSpeed zero_optimization.stage3_prefetch_bucket_size is '" + bucket +
                       "'; must be empty or 'auto'";
            in.explanation =
                "The training image's release notes require stage3_prefetch_bucket_size to be left empty "
                "or set to 'auto' so DeepSpeed sizes the ZeRO-3 prefetch bucket from the model. A fixed "
                "value from another model either starves the prefetch (exposed all-gathers) or wastes "
                "memory.";
            in.evidence.push_back({-1, -1, -1, -1, {}, "stage3_prefetch_bucket_size=" + bucket});
            out.push_back(std::move(in));
        }
    }
    sortBySeverity(out);
    return out;
}

} // namespace cnp
