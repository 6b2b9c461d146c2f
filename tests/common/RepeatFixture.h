#pragma once
// Two configurations with two runs (repeats) each, for the tests of kernels pooled over repeats
// (tst_pooledkernels, tst_reportmodel). steppedTrace(): per step of length L one gemm of 0.8 L and one
// all-reduce of 0.3 L.
//
//   "A": a-r1, 1 rank, 2 steps of 10 ms;  a-r2, 1 rank, 3 steps of 12 ms.
//        gemm 2 x 8 + 3 x 9.6 = 44.8 ms, all-reduce 2 x 3 + 3 x 3.6 = 16.8 ms over 5 calls each and
//        2 + 3 = 5 GPU-steps: 8.96 ms and 3.36 ms per GPU-step, 1 call per GPU-step each.
//   "B": b-r1, 1 rank, 4 steps of 8 ms;   b-r2, 2 ranks, 2 steps of 6 ms each.
//        gemm 4 x 6.4 + 4 x 4.8 = 44.8 ms, all-reduce 4 x 2.4 + 4 x 1.8 = 16.8 ms over 8 calls each and
//        4 + 2 x 2 = 8 GPU-steps: 5.6 ms and 2.1 ms per GPU-step.
//   A -> B per GPU-step: gemm -3.36 ms, all-reduce -1.26 ms, both "faster".
// The first runs alone would give A 8 ms / 3 ms and B 6.4 ms / 2.4 ms per step.
// All four runs are one ablation study, "repeats" (run attribute `study`): the 2-rank b-r2 would otherwise
// be grouped apart from the 1-rank runs (docs/metrics.md, "Studies").
#include "ReportFixture.h"

namespace cnp::testing {

inline void buildRepeatFixture(Workspace& ws) {
    auto a1 = steppedTrace("a-r1", "A", {10'000'000, 10'000'000});
    auto a2 = steppedTrace("a-r2", "A", {12'000'000, 12'000'000, 12'000'000});
    auto b1 = steppedTrace("b-r1", "B", {8'000'000, 8'000'000, 8'000'000, 8'000'000});
    auto b2 = steppedTrace("b-r2", "B", {6'000'000, 6'000'000});
    auto b2rank1 = steppedTrace("b-r2", "B", {6'000'000, 6'000'000});
    moveToRank(b2rank1, 1);
    b2.merge(std::move(b2rank1));
    std::vector<RunId> ids;
    for (auto* t : {&a1, &a2, &b1, &b2})
        ids.push_back(addTrace(ws, std::move(*t)));
    Transaction tx = writeTransaction(ws);
    for (RunId id : ids)
        ws.setRunAttribute(id, "study", "repeats");
    tx.commit();
}

} // namespace cnp::testing
