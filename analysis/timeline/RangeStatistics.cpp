#include "timeline/RangeStatistics.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace cnp::timeline {

RangeStatistics computeRangeStatistics(const TimelineModel& m, std::int32_t rank, Interval window,
                                       const std::vector<std::string>& computePriority, std::size_t topN) {
    RangeStatistics r;
    r.rank = rank;
    r.window = window;
    r.order = CategoryOrder::fromComputePriority(computePriority);
    std::vector<int> styleCategory(m.styles.size(), -1);
    std::vector<TimedActivity> acts;
    std::unordered_map<std::uint32_t, RangeKernel> perName;
    for (const TimelineRow& row : m.rows) {
        if (row.rank != rank || row.kind != RowKind::GpuStream)
            continue;
        for (const EventTrack& tr : row.lanes) {
            const std::size_t hi = tr.firstStartingAtOrAfter(window.end);
            for (std::size_t i = tr.firstEndingAfter(window.start); i < hi; ++i) {
                const EventKind k = tr.kind(i);
                const std::uint8_t st = tr.style(i);
                int c = r.order.memory; // memcpy and memset
                if (k == EventKind::Kernel) {
                    int& cat = styleCategory[st];
                    if (cat < 0)
                        cat = r.order.indexOf(m.styles[st].empty() ? "other" : m.styles[st]);
                    c = cat;
                }
                acts.push_back({tr.start(i), tr.end(i), c});
                if (k == EventKind::Kernel) {
                    RangeKernel& rk = perName[tr.name(i)];
                    ++rk.count;
                    rk.timeInRange += std::max<Ns>(0, std::min(tr.end(i), window.end) -
                                                          std::max(tr.start(i), window.start));
                    if (rk.category.empty())
                        rk.category = m.styles[st];
                }
            }
        }
    }
    r.activities = static_cast<std::int64_t>(acts.size());
    r.breakdown = computeBreakdown(acts, r.order, window);
    for (auto& [name, rk] : perName) {
        rk.name = m.names[name];
        r.topKernels.push_back(std::move(rk));
    }
    std::sort(r.topKernels.begin(), r.topKernels.end(), [](const RangeKernel& a, const RangeKernel& b) {
        return std::tie(b.timeInRange, a.name) < std::tie(a.timeInRange, b.name);
    });
    if (r.topKernels.size() > topN)
        r.topKernels.resize(topN);
    return r;
}

} // namespace cnp::timeline
