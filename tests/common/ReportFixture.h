#pragma once
// The small deterministic workspace of the report golden tests (tests/data/golden/report_fixture.*).
// Qt-free: tests/common/make_report_fixture.cpp writes the same workspace for the documented command
// that (re)writes the golden files (docs/reports.md, "Golden files").
//
//   run "base",  configuration "基线": 2 ranks on host node-a; rank 0 steps of 10 ms, rank 1 of 9 ms, so
//                every multi-rank step lasts 10 ms and rank 0 is the slowest in all 4; measured (not
//                synthetic); image train:1.0, NCCL_SOCKET_IFNAME=eth0 for a 2-GPU pod (check passes),
//                driver 580.65 with CUDA 13.0 (passes).
//   run "fused", configuration "+Fused→Opt": 1 rank, steps of 8 ms, synthetic; its gemm kernel's name
//                holds < > & " and '; image train:1.1, NCCL_SOCKET_IFNAME=eth1 for a 1-GPU pod (fails),
//                driver 575.10 with CUDA 13.0 (fails).
// Both runs are one ablation study, "fixture" (run attribute `study`): a 2-rank measured run and a 1-rank
// synthetic one would otherwise be grouped apart (docs/metrics.md, "Studies"). No report shows the key.
// Hand-computed: median steps 10.00 / 8.00 ms; speedup 10 / 8 = 1.25×; throughput 8192 tokens / 10 ms =
// 819.2k tokens/s and / 8 ms = 1.02M tokens/s; waterfall delta +204.8k tokens/s; attribution -2.00 ms.
#include "TestTraces.h"

#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

namespace cnp::testing {

inline constexpr const char* kFixtureBase = "基线";
inline constexpr const char* kFixtureFused = "+Fused→Opt";
inline constexpr const char* kFixtureHostileKernel = "gemm<float, 4>(Args&) \"tuned\" & 'fast'";

// Moves every event and the rank record of a one-rank trace to rank `r`.
inline void moveToRank(TraceData& t, std::int32_t r) {
    for (auto& e : t.kernels)
        e.rank = r;
    for (auto& e : t.apiCalls)
        e.rank = r;
    for (auto& e : t.cpuRanges)
        e.rank = r;
    for (auto& e : t.flows)
        e.rank = r;
    for (auto& rk : t.ranks)
        rk.rank = r;
}

inline void buildReportFixture(Workspace& ws) {
    auto base = steppedTrace("base", kFixtureBase, {10'000'000, 10'000'000, 10'000'000, 10'000'000});
    auto rank1 = steppedTrace("base", kFixtureBase, {9'000'000, 9'000'000, 9'000'000, 9'000'000});
    moveToRank(rank1, 1);
    base.ranks[0].host = rank1.ranks[0].host = "node-a";
    base.merge(std::move(rank1));
    base.info.synthetic = false;
    base.info.sourceFormat = "kineto";
    base.info.containerImage = "registry.example/train:1.0";
    base.info.driverVersion = "580.65";
    base.info.cudaVersion = "13.0";
    base.info.env = {{"NCCL_SOCKET_IFNAME", "eth0"}, {"CUDA_VISIBLE_DEVICES", "0,1"}};
    const RunId baseId = addTrace(ws, std::move(base));

    auto fused = steppedTrace("fused", kFixtureFused, {8'000'000, 8'000'000, 8'000'000, 8'000'000}, 8192,
                              kFixtureHostileKernel);
    fused.ranks[0].host = "node-a";
    fused.info.containerImage = "registry.example/train:1.1";
    fused.info.driverVersion = "575.10";
    fused.info.cudaVersion = "13.0";
    fused.info.env = {{"NCCL_SOCKET_IFNAME", "eth1"}, {"CUDA_VISIBLE_DEVICES", "0"}};
    const RunId fusedId = addTrace(ws, std::move(fused));
    Transaction tx = writeTransaction(ws);
    for (RunId id : {baseId, fusedId})
        ws.setRunAttribute(id, "study", "fixture");
    tx.commit();
}

} // namespace cnp::testing
