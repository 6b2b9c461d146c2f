// bench_criticalpath: the dependency graph of one rank's window, its critical path and one what-if, on a
// synthetic window of N kernels (default 200,000: about 1.2 M nodes, 280 MiB): one thread of cpu_ops each
// launching a kernel (1 in 20 a collective on a second stream that the next compute kernel waits for after a
// cudaStreamWaitEvent), a device sync at the end. Each phase timed as the median of 3 calls; graph size and
// the peak resident memory printed beside. Usage: bench_criticalpath [KERNELS] (docs/performance.md,
// "Critical path").
#include "metrics/CriticalPath.h"
#include "common/MedianOfThree.h"
#include "core/StepEvents.h"
#include "metrics/DependencyGraph.h"
#include "metrics/WhatIf.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include <sys/resource.h>

using namespace cnp;

namespace {

using bench::median3;

StepEvents window(long kernels) {
    StepEvents ev;
    ev.mainTid = 1;
    Ns cpu = 0, gpu = 5'000, comm = 0;
    for (long i = 0; i < kernels; ++i) {
        const bool collective = i % 20 == 0;
        ev.cpu.push_back(StepCpuEvent{cpu, cpu + 12'000, 1, 0, false, false, "aten::mm"});
        if (!collective && comm > gpu) {
            ev.cpu.push_back(StepCpuEvent{cpu + 500, cpu + 1'000, 1, 0, true, false, "cudaStreamWaitEvent"});
            gpu = comm;
        }
        ev.cpu.push_back(StepCpuEvent{cpu + 2'000, cpu + 8'000, 1, i + 1, true, false, "cudaLaunchKernel"});
        StepGpuEvent g;
        g.correlation = i + 1;
        g.stream = collective ? 13 : 7;
        g.category = collective ? "communication" : "gemm";
        g.name = collective ? "ncclDevKernel_AllReduce" : "sm90_xmma_gemm";
        const Ns launch = cpu + 2'000 + 4'000;
        if (collective) {
            g.start = std::max(launch, comm);
            g.end = g.start + 40'000;
            comm = g.end;
        } else {
            g.start = std::max(launch, gpu + 1'000);
            g.end = g.start + 10'000;
            gpu = g.end;
        }
        ev.gpu.push_back(std::move(g));
        cpu += 13'000;
    }
    ev.cpu.push_back(
        StepCpuEvent{cpu, std::max({cpu, gpu, comm}) + 5'000, 1, 0, true, false, "cudaDeviceSynchronize"});
    ev.windowEnd = cpu + 1;
    return ev;
}

} // namespace

int main(int argc, char** argv) {
    const long kernels = argc > 1 ? std::max(1L, std::atol(argv[1])) : 200'000L;
    const StepEvents ev = window(kernels);
    std::size_t nodes = 0, edges = 0;
    Ns length = 0, predicted = 0;
    const double build = median3([&] {
        const auto g = DependencyGraph::build(ev);
        nodes = g.nodes().size();
        edges = g.edges().size();
    });
    const auto g = DependencyGraph::build(ev);
    const double path = median3([&] { length = CriticalPath::of(g).length; });
    WhatIfScenario s;
    s.categoryFactors = {{"gemm", 0.8}};
    const double whatIf = median3([&] { predicted = WhatIf::predictedLength(g, s); });
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("window: %ld kernels, %zu CPU events, %zu nodes, %zu edges\n", kernels, ev.cpu.size(), nodes,
                edges);
    std::printf("build            %8.3f s  (%.0f ns per edge)\n", build,
                build * 1e9 / static_cast<double>(edges));
    std::printf("critical path    %8.3f s  (length %lld ns)\n", path, static_cast<long long>(length));
    std::printf("what-if gemm x0.8 %7.3f s  (predicted %lld ns)\n", whatIf,
                static_cast<long long>(predicted));
    std::printf("peak RSS         %8.1f MiB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
    return 0;
}
