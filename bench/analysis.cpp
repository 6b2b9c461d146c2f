// bench_analysis: every analysis command's engine (stats, ablation, diff, insights) on a synthetic
// workspace of 1 M kernels over 8 ranks per run (two runs, two configurations), each timed as the median
// of 5 calls and printed next to two figures measured in the same run:
//   floor   = opening the workspace and looking up one run (the least any command does),
//   rescan  = one pass over the run's raw kernel rows in SQLite (what a command would pay at least if it
//             re-read events instead of the precomputed summaries).
// Target (issue 3): <= 1 s per command. Also reports the ingest-time cost of building the summaries.
// Usage: bench_analysis [KERNELS_PER_RUN] (default 1000000).
#include "ingest/IngestPipeline.h"
#include "metrics/Categoriser.h"
#include "metrics/CategoryRules.h"
#include "metrics/MultiRankSteps.h"
#include "metrics/StepDetector.h"
#include "requests/AblationRequest.h"
#include "requests/InsightsRequest.h"
#include "requests/RunDiffRequest.h"
#include "requests/SummaryRequests.h"
#include "requests/WorkspaceCategories.h"
#include "store/Workspace.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

using namespace cnp;
namespace fs = std::filesystem;

namespace {

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median5(const std::function<void()>& f) {
    std::vector<double> v;
    for (int i = 0; i < 5; ++i)
        v.push_back(seconds(f));
    std::sort(v.begin(), v.end());
    return v[2];
}

// 8 ranks; per rank 50 ProfilerSteps; kernels back to back with small gaps, 1 in 20 an NCCL kernel that
// overlaps the next compute kernel; one launch call per kernel; 1 memcpy per 100 kernels.
TraceData synth(const std::string& name, const std::string& config, long kernels, Ns kernelNs) {
    TraceData t;
    t.info.name = name;
    t.info.config = config;
    t.info.sourceFormat = "synthetic";
    t.info.synthetic = true;
    t.info.worldSize = 8;
    t.info.tokensPerStep = 8192;
    std::vector<StringId> names;
    for (int i = 0; i < 200; ++i) {
        const char* base[] = {"sm90_xmma_gemm_bf16_", "triton_poi_fused_add_",
                              "void at::native::vectorized_elementwise_kernel_", "flash_fwd_kernel_",
                              "multi_tensor_apply_kernel_"};
        names.push_back(t.strings.intern(std::string(base[i % 5]) + std::to_string(i)));
    }
    const StringId nccl = t.strings.intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    const StringId launch = t.strings.intern("cudaLaunchKernel");
    const long perRank = kernels / 8;
    const long perStep = perRank / 50;
    std::int64_t corr = 1;
    for (int r = 0; r < 8; ++r) {
        RankInfo ri;
        ri.rank = r;
        ri.host = "node" + std::to_string(r / 4);
        t.ranks.push_back(ri);
        Ns gpu = 1'000'000 + r * 1000, cpu = 0;
        for (long i = 0; i < perRank; ++i) {
            if (i % perStep == 0) {
                CpuRange s;
                s.rank = r;
                s.start = cpu;
                s.end = cpu + perStep * 2000;
                s.kind = CpuRangeKind::UserAnnotation;
                s.name = t.strings.intern("ProfilerStep#" + std::to_string(i / perStep));
                t.cpuRanges.push_back(s);
            }
            KernelEvent k;
            k.rank = r;
            k.correlation = corr;
            const bool comm = i % 20 == 19;
            k.name = comm ? nccl : names[static_cast<std::size_t>(i * 7 % 200)];
            k.start = gpu;
            k.end = gpu + (comm ? 3 * kernelNs : kernelNs + (i % 13) * 100 + r * 10);
            t.kernels.push_back(k);
            ApiCall a;
            a.rank = r;
            a.correlation = corr++;
            a.start = cpu;
            a.end = cpu + 1500;
            a.tid = 1;
            a.name = launch;
            t.apiCalls.push_back(a);
            if (i % 100 == 0) {
                MemcpyEvent m;
                m.rank = r;
                m.start = gpu + 10;
                m.end = gpu + 2000;
                m.kind = MemcpyKind::HtoD;
                m.bytes = 1 << 20;
                m.name = t.strings.intern("Memcpy HtoD");
                t.memcpys.push_back(m);
            }
            gpu = (comm ? k.start + kernelNs : k.end) + 200 + (i % 500 == 0 ? 200'000 : 0);
            cpu += 2000;
        }
    }
    return t;
}

} // namespace

int main(int argc, char** argv) {
    const long kernels = argc > 1 ? std::atol(argv[1]) : 1'000'000;
    const fs::path dir = fs::temp_directory_path() / ("cnp_bench_analysis_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = (dir / "bench.cnpdb").string();
    std::printf("bench_analysis: %ld kernels x 2 runs, 8 ranks each, workspace %s\n", kernels, path.c_str());
    double insertS = 0, summaryS = 0;
    {
        Workspace ws(path, Workspace::Mode::CreateIfMissing);
        for (int run = 0; run < 2; ++run) {
            TraceData t = synth(run == 0 ? "base" : "fast", run == 0 ? "Base" : "Fast", kernels,
                                run == 0 ? 5000 : 4000);
            normaliseTrace(t);
            categoriseKernels(t, categoryRulesOf(ws));
            detectSteps(t);
            Transaction tx(ws.db());
            RunId id;
            insertS += seconds([&] { id = ws.insertRun(t); });
            summaryS += seconds([&] { buildRunSummaries(ws, id, t); });
            tx.commit();
        }
    }
    std::printf(
        "ingest (2 runs): insert events %.2f s, build summaries %.2f s (%.0f%% on top of the insert)\n",
        insertS, summaryS, 100.0 * summaryS / insertS);

    Workspace ws(path, Workspace::Mode::ReadOnly);
    const auto base = ws.runOrThrow("base");
    const double floorS = median5([&] {
        Workspace w(path, Workspace::Mode::ReadOnly);
        (void)w.runOrThrow("base");
    });
    const double rescanS = median5([&] {
        Statement st(ws.db(), "SELECT SUM(end_ns - start_ns), COUNT(*) FROM kernels WHERE run_id = ?");
        st.bind(1, base.id);
        st.step();
    });
    std::printf("floor (open + find run): %.4f s   rescan floor (one pass over 1 run's kernels): %.4f s\n",
                floorS, rescanS);
    struct Item {
        const char* name;
        std::function<void()> f;
    };
    std::vector<Item> items = {
        {"stats",
         [&] {
             Workspace w(path, Workspace::Mode::ReadOnly);
             const RunSummaryReader r = summaryReaderOf(w, w.runOrThrow("base").id);
             (void)r.ranks();
             (void)aggregateSteps(r.steps());
             for (int k = -1; k < 8; ++k)
                 (void)r.kernelStats(k, 10);
         }},
        {"ablation",
         [&] {
             Workspace w(path, Workspace::Mode::ReadOnly);
             (void)computeAblation(w);
         }},
        {"diff",
         [&] {
             Workspace w(path, Workspace::Mode::ReadOnly);
             (void)diffRuns(w, "base", "fast");
         }},
        {"diff --normalize",
         [&] {
             Workspace w(path, Workspace::Mode::ReadOnly);
             RunDiffOptions o;
             o.normalize = true;
             (void)diffRuns(w, "base", "fast", o);
         }},
        {"insights",
         [&] {
             Workspace w(path, Workspace::Mode::ReadOnly);
             (void)computeInsights(w, "base");
         }},
    };
    bool ok = true;
    for (const auto& it : items) {
        const double s = median5(it.f);
        ok = ok && s <= 1.0;
        std::printf("%-18s median %.4f s  (target <= 1 s: %s; %.1fx the floor, %.2fx one raw rescan)\n",
                    it.name, s, s <= 1.0 ? "ok" : "MISSED", s / floorS, s / rescanS);
    }
    fs::remove_all(dir);
    return ok ? 0 : 1;
}
