#include "export/RankSubset.h"

#include "core/InputError.h"

#include <algorithm>

namespace cnp {

TraceData rankSubset(const TraceData& t, std::int32_t rank) {
    if (std::none_of(t.ranks.begin(), t.ranks.end(), [&](const RankInfo& r) { return r.rank == rank; }))
        throw InputError(t.info.name, "run has no rank " + std::to_string(rank));
    TraceData out;
    out.info = t.info;
    out.strings = t.strings;
    auto copy = [&](const auto& from, auto& to) {
        std::copy_if(from.begin(), from.end(), std::back_inserter(to),
                     [&](const auto& e) { return e.rank == rank; });
    };
    copy(t.ranks, out.ranks);
    copy(t.kernels, out.kernels);
    copy(t.memcpys, out.memcpys);
    copy(t.memsets, out.memsets);
    copy(t.apiCalls, out.apiCalls);
    copy(t.cpuRanges, out.cpuRanges);
    copy(t.gpuAnnotations, out.gpuAnnotations);
    copy(t.flows, out.flows);
    copy(t.counters, out.counters);
    copy(t.steps, out.steps);
    return out;
}

} // namespace cnp
