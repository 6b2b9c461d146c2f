#pragma once
// Sequential reads of one run's stored events, table by table, as typed rows with workspace string ids
// (names are resolved by the caller, once per distinct id). Each event table is read over the run's id
// range in stored order (rank, sort key): O(rows) with no sort. For the timeline loader, which keeps
// only what it draws.
#include "core/EventKind.h"
#include "core/Ids.h"
#include "core/TraceData.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

class RunEventReader {
public:
    // A kernel, memcpy or memset: `extra` is the category string id (kernels), the MemcpyKind (memcpys),
    // 0 (memsets).
    struct GpuSpan {
        std::int32_t rank = 0, device = 0;
        std::int64_t stream = 0;
        Ns start = 0, end = 0;
        std::int64_t nameId = 0, extra = 0;
        std::int64_t correlation = 0; // 0 = unknown
    };
    struct Annotation {
        std::int32_t rank = 0, device = 0;
        Ns start = 0, end = 0;
        std::int64_t nameId = 0;
    };
    // An API call (kind = ApiKind) or a CPU range (kind = CpuRangeKind).
    struct CpuSpan {
        std::int32_t rank = 0;
        std::int64_t pid = 0, tid = 0;
        Ns start = 0, end = 0;
        std::int64_t nameId = 0;
        std::int32_t kind = 0;
        std::int64_t correlation = 0; // API calls; 0 for CPU ranges
    };
    struct Step {
        std::int32_t rank = 0, index = 0;
        std::int64_t nameId = 0;
        Ns cpuStart = 0, cpuEnd = 0, gpuStart = 0, gpuEnd = 0;
    };
    struct Sample {
        std::int32_t rank = 0, device = 0;
        Ns ts = 0;
        double value = 0;
        std::int64_t nameId = 0;
    };

    RunEventReader(const Workspace& ws, RunId runId) : ws_(ws), runId_(runId) {}

    // The run's name; nullopt when the run is not (or no longer) in the workspace.
    std::optional<std::string> runName() const;
    void forEachGpuSpan(EventKind kind, // Kernel, Memcpy or Memset
                        const std::function<void(const GpuSpan&)>& fn) const;
    void forEachAnnotation(const std::function<void(const Annotation&)>& fn) const;
    void forEachCpuSpan(EventKind kind, // ApiCall or CpuRange
                        const std::function<void(const CpuSpan&)>& fn) const;
    void forEachStep(const std::function<void(const Step&)>& fn) const; // by (rank, step index)
    void forEachSample(const std::function<void(const Sample&)>& fn) const;
    // The texts of workspace string ids `ids` (one prepared statement); ids not stored are skipped.
    void forEachString(const std::vector<std::int64_t>& ids,
                       const std::function<void(std::int64_t id, const std::string& text)>& fn) const;

private:
    const Workspace& ws_;
    RunId runId_;
};

} // namespace cnp
