#pragma once
// Small hand-built traces for tests. Every number here is chosen by hand so tests can assert exact values.
#include "core/TraceData.h"

#include <string>
#include <vector>

namespace cnp::testing {

// One rank, one stream: kernels [0,100) gemm, [150,250) nccl, memcpy [240,300), runtime calls launching them.
inline TraceData tinyTrace(const std::string& runName = "tiny") {
    TraceData t;
    t.info.name = runName;
    t.info.config = "Base";
    t.info.sourceFormat = "synthetic";
    t.info.synthetic = true;
    t.info.gpuModels = {"Test GPU"};
    t.ranks.push_back(RankInfo{});
    auto k = [&](Ns s, Ns e, const char* name, std::int64_t corr) {
        KernelEvent ev;
        ev.start = s;
        ev.end = e;
        ev.name = t.strings.intern(name);
        ev.correlation = corr;
        ev.stream = 7;
        ev.grid[0] = 4;
        ev.block[0] = 128;
        ev.registers = 32;
        t.kernels.push_back(ev);
        ApiCall a;
        a.start = s - 20;
        a.end = s - 10;
        a.correlation = corr;
        a.tid = 11;
        a.name = t.strings.intern("cudaLaunchKernel");
        t.apiCalls.push_back(a);
        t.flows.push_back(Flow{corr, 0, a.start, 11, s, 7});
    };
    k(0, 100, "ampere_sgemm_128x64", 1);
    k(150, 250, "ncclDevKernel_AllReduce_Sum_f32", 2);
    MemcpyEvent m;
    m.start = 240;
    m.end = 300;
    m.bytes = 4096;
    m.kind = MemcpyKind::DtoH;
    m.srcKind = MemoryKind::Device;
    m.dstKind = MemoryKind::Pageable;
    m.name = t.strings.intern("Memcpy DtoH");
    t.memcpys.push_back(m);
    CpuRange step;
    step.start = -30;
    step.end = 260;
    step.tid = 11;
    step.kind = CpuRangeKind::UserAnnotation;
    step.name = t.strings.intern("ProfilerStep#1");
    t.cpuRanges.push_back(step);
    CpuRange op = step;
    op.start = -25;
    op.end = 0;
    op.kind = CpuRangeKind::CpuOp;
    op.name = t.strings.intern("aten::mm");
    t.cpuRanges.push_back(op);
    return t;
}

// Steps of the given GPU lengths (ns) on one rank: step i = ProfilerStep#i whose CPU range launches one
// gemm kernel (`gemmName`) covering 80% of the step and one NCCL kernel covering the last 30% (10%
// overlapped). Step windows follow METRICS.md: [gpu_start(i), gpu_start(i+1)), the last ends at its last
// kernel end.
inline TraceData steppedTrace(const std::string& name, const std::string& config,
                              const std::vector<Ns>& stepNs, double tokensPerStep = 8192,
                              const std::string& gemmName = "sm90_xmma_gemm_bf16") {
    TraceData t;
    t.info.name = name;
    t.info.config = config;
    t.info.sourceFormat = "synthetic";
    t.info.synthetic = true;
    t.info.tokensPerStep = tokensPerStep;
    t.info.gpuModels = {"Test GPU"};
    t.ranks.push_back(RankInfo{});
    Ns gpu = 1'000'000;
    std::int64_t corr = 1;
    for (std::size_t i = 0; i < stepNs.size(); ++i) {
        const Ns len = stepNs[i];
        CpuRange step;
        step.start = gpu - 50'000;
        step.end = gpu - 1'000;
        step.tid = 1;
        step.kind = CpuRangeKind::UserAnnotation;
        step.name = t.strings.intern("ProfilerStep#" + std::to_string(i + 1));
        t.cpuRanges.push_back(step);
        auto launch = [&](Ns start, Ns end, const char* kname) {
            ApiCall a;
            a.start = step.start + 100 * corr;
            a.end = a.start + 50;
            a.tid = 1;
            a.correlation = corr;
            a.name = t.strings.intern("cudaLaunchKernel");
            t.apiCalls.push_back(a);
            KernelEvent k;
            k.start = start;
            k.end = end;
            k.correlation = corr;
            k.stream = 7;
            k.name = t.strings.intern(kname);
            t.kernels.push_back(k);
            ++corr;
        };
        launch(gpu, gpu + len * 8 / 10, gemmName.c_str());
        launch(gpu + len * 7 / 10, gpu + len, "ncclDevKernel_AllReduce_Sum_bf16");
        gpu += len;
    }
    return t;
}

} // namespace cnp::testing
