#include "metrics/StreamQueueLength.h"

#include <algorithm>

namespace cnp {

StreamQueueLength::StreamQueueLength(const std::vector<Operation>& ops) {
    // (time, +1 launch / -1 start); sorted by time, then -1 before +1.
    std::vector<std::pair<Ns, int>> changes;
    changes.reserve(ops.size() * 2);
    for (const auto& o : ops) {
        changes.emplace_back(std::min(o.launch, o.start), +1);
        changes.emplace_back(o.start, -1);
    }
    std::sort(changes.begin(), changes.end());
    stats_.operations = static_cast<std::int64_t>(ops.size());
    std::int64_t length = 0;
    double weighted = 0; // sum of length x duration, ns
    Ns previous = 0;
    for (std::size_t i = 0; i < changes.size();) {
        const Ns t = changes[i].first;
        if (i > 0)
            weighted += static_cast<double>(length) * static_cast<double>(t - previous);
        for (; i < changes.size() && changes[i].first == t; ++i)
            length += changes[i].second;
        stats_.max = std::max(stats_.max, length);
        if (series_.empty() || series_.back().second != length)
            series_.emplace_back(t, length);
        previous = t;
    }
    if (!changes.empty()) {
        const Ns span = changes.back().first - changes.front().first;
        stats_.mean = span > 0 ? weighted / static_cast<double>(span) : 0;
    }
}

} // namespace cnp
