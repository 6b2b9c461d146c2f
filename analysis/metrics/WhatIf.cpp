#include "metrics/WhatIf.h"

#include "metrics/CriticalPath.h"

#include <cmath>
#include <sstream>

namespace cnp {

namespace {

constexpr std::string_view kRecomputeCategory = "recompute";

// A weight times a factor, at most 9e18 whatever the factor (a hostile window spans up to 6e18 ns);
// longest paths saturate at the largest Ns.
Ns scaled(Ns w, double f) {
    if (f == 1.0)
        return w;
    const double x = static_cast<double>(w) * f;
    return x >= 9e18 ? Ns(9'000'000'000'000'000'000) : static_cast<Ns>(std::llround(x));
}

// The factor of one GPU activity's duration.
double factorOf(const StepGpuEvent& a, const WhatIfScenario& s) {
    double f = 1.0;
    for (const auto& [category, factor] : s.categoryFactors)
        if (a.category == category)
            f = factor;
    if (a.category == "communication")
        f *= s.exposedCommunicationFactor;
    for (const auto& [name, factor] : s.kernelFactors)
        if (a.kind == EventKind::Kernel && a.name.find(name) != std::string::npos)
            f = factor;
    if (s.dropRecomputation && a.category == kRecomputeCategory)
        f = 0;
    return f;
}

bool syncRemoved(const std::string& apiName, const WhatIfScenario& s) {
    for (const auto& r : s.removedSyncs)
        if (r == "all" || apiName.find(r) != std::string::npos)
            return true;
    return false;
}

} // namespace

bool WhatIfScenario::empty() const {
    return categoryFactors.empty() && kernelFactors.empty() && !removeLaunchOverhead &&
           exposedCommunicationFactor == 1.0 && !dropRecomputation && removedSyncs.empty();
}

std::string WhatIfScenario::describe() const {
    std::ostringstream o;
    const char* sep = "";
    for (const auto& [c, f] : categoryFactors)
        o << sep << c << " x" << f, sep = ", ";
    for (const auto& [k, f] : kernelFactors)
        o << sep << "kernels '" << k << "' x" << f, sep = ", ";
    if (removeLaunchOverhead)
        o << sep << "no launch overhead", sep = ", ";
    if (exposedCommunicationFactor != 1.0)
        o << sep << "communication x" << exposedCommunicationFactor, sep = ", ";
    if (dropRecomputation)
        o << sep << "no recomputation", sep = ", ";
    for (const auto& r : removedSyncs)
        o << sep << "without sync " << r, sep = ", ";
    return empty() ? std::string("as measured") : o.str();
}

std::vector<Ns> WhatIf::weightsOf(const DependencyGraph& graph, const WhatIfScenario& s) {
    const auto& ev = graph.events();
    // Launch calls whose only work is recomputation vanish with it.
    std::vector<std::uint8_t> recomputeLaunch(ev.cpu.size(), 0);
    if (s.dropRecomputation)
        for (const auto& e : graph.edges())
            if (e.kind == PathKind::Launch && e.cpuEvent >= 0 && e.gpuEvent >= 0 &&
                ev.gpu[static_cast<std::size_t>(e.gpuEvent)].category == kRecomputeCategory)
                recomputeLaunch[static_cast<std::size_t>(e.cpuEvent)] = 1;

    std::vector<Ns> w;
    w.reserve(graph.edges().size());
    for (const auto& e : graph.edges()) {
        Ns x = e.weight;
        const bool gpuDuration = e.gpuEvent >= 0 && graph.nodes()[static_cast<std::size_t>(e.from)].gpu &&
                                 graph.nodes()[static_cast<std::size_t>(e.from)].start &&
                                 !graph.nodes()[static_cast<std::size_t>(e.to)].start;
        if (gpuDuration)
            x = scaled(x, factorOf(ev.gpu[static_cast<std::size_t>(e.gpuEvent)], s));
        if (e.kind == PathKind::Launch &&
            (s.removeLaunchOverhead ||
             (e.cpuEvent >= 0 && recomputeLaunch[static_cast<std::size_t>(e.cpuEvent)])))
            x = 0;
        if (e.kind == PathKind::Sync && e.cpuEvent >= 0 &&
            !graph.nodes()[static_cast<std::size_t>(e.to)].gpu &&
            syncRemoved(ev.cpu[static_cast<std::size_t>(e.cpuEvent)].name, s))
            x = -1;
        w.push_back(x);
    }
    return w;
}

Ns WhatIf::predictedLength(const DependencyGraph& graph, const WhatIfScenario& scenario) {
    return CriticalPath::lengthOf(graph, weightsOf(graph, scenario));
}

} // namespace cnp
