#include "metrics/KernelMoves.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace cnp {

std::vector<KernelMove> kernelMoves(const std::vector<ReleaseKernel>& baseline,
                                    const std::vector<ReleaseKernel>& candidate, double baselineStepNs,
                                    double stepDeltaNs, std::size_t top) {
    if (baseline.empty() || candidate.empty())
        return {};
    std::map<std::string, KernelMove> byName; // name order: deterministic ties
    for (const ReleaseKernel& k : baseline)
        byName[k.name].baselineNsPerStep = k.nsPerStep;
    for (const ReleaseKernel& k : candidate)
        byName[k.name].candidateNsPerStep = k.nsPerStep;
    const bool share = baselineStepNs > 0 && std::abs(stepDeltaNs) >= kMinStepChangeForShare * baselineStepNs;
    std::vector<KernelMove> moves;
    for (auto& [name, m] : byName) {
        if (m.deltaNs() == 0)
            continue;
        m.kernel = name;
        m.hasShare = share;
        m.share = share ? m.deltaNs() / stepDeltaNs : 0;
        moves.push_back(std::move(m));
    }
    std::stable_sort(moves.begin(), moves.end(), [](const KernelMove& x, const KernelMove& y) {
        return std::abs(x.deltaNs()) > std::abs(y.deltaNs());
    });
    if (moves.size() > top)
        moves.resize(top);
    return moves;
}

std::vector<ReleaseKernel> kernelsPerStep(const std::vector<RunKernelTimes>& runs, std::size_t top) {
    std::map<std::string, double> totals;
    double rankSteps = 0;
    for (const RunKernelTimes& r : runs) {
        rankSteps += static_cast<double>(std::max<std::int64_t>(1, r.rankSteps));
        if (r.kernels)
            for (const KernelStatRow& k : *r.kernels)
                totals[k.name] += static_cast<double>(k.totalNs);
    }
    std::vector<ReleaseKernel> out;
    if (rankSteps <= 0)
        return out;
    out.reserve(totals.size());
    for (const auto& [name, total] : totals)
        out.push_back({name, total / rankSteps});
    std::stable_sort(out.begin(), out.end(), [](const ReleaseKernel& x, const ReleaseKernel& y) {
        return x.nsPerStep > y.nsPerStep;
    });
    if (out.size() > top)
        out.resize(top);
    return out;
}

} // namespace cnp
