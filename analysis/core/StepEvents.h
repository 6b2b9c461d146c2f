#pragma once
// One rank's events inside one analysis window (a step, an annotation, or the whole trace), as the
// dependency graph (metrics/DependencyGraph.h) reads them: plain values, names resolved to text once per
// distinct string. Read by store/StepEventReader; built by hand in tests. All times int64 ns.
#include "core/EventKind.h"
#include "core/TraceData.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

// A CPU-side span: a CUDA runtime/driver API call or a CPU range (cpu_op, annotation, NVTX).
struct StepCpuEvent {
    Ns start = 0, end = 0;
    std::int64_t tid = 0;
    std::int64_t correlation = 0; // API calls: joins the GPU activity it launched; ranges: 0
    bool isApiCall = false;
    bool isAnnotation = false; // a user annotation, NVTX or other range (not a cpu_op): no work of its own
    std::string name;
};

// A GPU activity: a kernel, memcpy or memset. `category` is the kernel's stored category ("memory" for
// copies and fills).
struct StepGpuEvent {
    Ns start = 0, end = 0;
    std::int32_t device = 0;
    std::int64_t stream = 0;
    std::int64_t correlation = 0; // 0 = unknown
    EventKind kind = EventKind::Kernel;
    std::string name;
    std::string category;
};

struct StepEvents {
    std::int32_t rank = 0;
    std::int32_t stepIndex = -1;       // -1: not a detected step (an annotation or the whole trace)
    std::string label;                 // what the window is: "step 3", an annotation's name, "whole trace"
    Ns windowStart = 0, windowEnd = 0; // CPU events starting in [windowStart, windowEnd) belong to it
    std::int64_t mainTid = -1;         // the thread that ran the window's range; -1 = the busiest thread
    std::vector<StepCpuEvent> cpu;
    std::vector<StepGpuEvent> gpu; // activities launched by an API call of `cpu` (joined by correlation)
};

} // namespace cnp
