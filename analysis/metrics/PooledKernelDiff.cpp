#include "metrics/PooledKernelDiff.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace cnp {

PooledKernelDiff diffPooledKernels(const PooledKernels& a, const PooledKernels& b,
                                   const RunDiffOptions& opt) {
    std::map<std::string, PooledKernelChange> rows;
    for (const auto& k : a.rows) {
        auto& r = rows[k.name];
        r.name = k.name;
        r.category = k.category;
        r.callsPerStepA = k.callsPerStep;
        r.perStepA = k.perStepNs;
    }
    for (const auto& k : b.rows) {
        auto& r = rows[k.name];
        if (r.name.empty()) {
            r.name = k.name;
            r.category = k.category;
        }
        r.callsPerStepB = k.callsPerStep;
        r.perStepB = k.perStepNs;
    }
    PooledKernelDiff out;
    for (auto& [name, r] : rows) {
        r.cls = kernelChangeClass(r.callsPerStepA, r.callsPerStepB, r.perStepA, r.perStepB, opt);
        if (r.cls == "added")
            ++out.added;
        else if (r.cls == "removed")
            ++out.removed;
        else if (r.cls == "unchanged")
            ++out.unchanged;
        else if (r.cls == "faster")
            ++out.faster;
        else
            ++out.slower;
        out.kernels.push_back(std::move(r));
    }
    std::sort(out.kernels.begin(), out.kernels.end(),
              [](const PooledKernelChange& x, const PooledKernelChange& y) {
                  const double dx = std::fabs(x.delta()), dy = std::fabs(y.delta());
                  return dx != dy ? dx > dy : x.name < y.name;
              });
    return out;
}

} // namespace cnp
