#include "metrics/PooledKernels.h"

#include <algorithm>
#include <map>

namespace cnp {

namespace {

// GPU-steps of one run: per rank, its steps with GPU work, or 1 when it has GPU work but no step.
std::int64_t gpuStepsOf(const RunSnapshot& run) {
    std::map<std::int32_t, std::int64_t> perRank;
    for (const auto& st : run.steps)
        if (st.hasGpu())
            ++perRank[st.rank];
    std::int64_t n = 0;
    for (const auto& r : run.ranks)
        if (r.window)
            n += std::max<std::int64_t>(1, perRank[r.rank]);
    return n;
}

} // namespace

PooledKernels poolKernels(const std::vector<RunSnapshot>& runs) {
    PooledKernels out;
    std::map<std::string, PooledKernelRow> rows;
    for (const auto& run : runs) {
        ++out.runs;
        out.gpuSteps += gpuStepsOf(run);
        for (const auto& k : run.kernels) {
            auto& r = rows[k.name];
            if (r.name.empty()) {
                r.name = k.name;
                r.category = k.category; // the workspace's rules: the same for every run
            }
            r.count += k.count;
            r.totalNs += k.totalNs;
            out.totalNs += k.totalNs;
        }
    }
    const double steps = static_cast<double>(std::max<std::int64_t>(1, out.gpuSteps));
    for (auto& [name, r] : rows) {
        r.perCallNs = r.count > 0 ? static_cast<double>(r.totalNs) / static_cast<double>(r.count) : 0.0;
        r.perStepNs = static_cast<double>(r.totalNs) / steps;
        r.callsPerStep = static_cast<double>(r.count) / steps;
        r.percent =
            out.totalNs > 0 ? 100.0 * static_cast<double>(r.totalNs) / static_cast<double>(out.totalNs) : 0.0;
        out.rows.push_back(std::move(r));
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const PooledKernelRow& a, const PooledKernelRow& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return out;
}

} // namespace cnp
