#include "metrics/Categoriser.h"

#include <limits>

namespace cnp {

void categoriseKernels(TraceData& trace, const CategoryRules& rules) {
    constexpr StringId kUnset = std::numeric_limits<StringId>::max();
    // Indexed by name id; the string table only grows while we intern categories, so size it first.
    std::vector<StringId> cache(trace.strings.size(), kUnset);
    for (auto& k : trace.kernels) {
        if (k.name >= cache.size())
            cache.resize(k.name + 1, kUnset);
        StringId& c = cache[k.name];
        if (c == kUnset)
            c = trace.strings.intern(rules.classify(trace.strings.at(k.name)));
        k.category = c;
    }
}

} // namespace cnp
