#include "metrics/OrphanTotals.h"

namespace cnp {

OrphanTotals orphanTotals(const std::vector<RankSummary>& ranks) {
    OrphanTotals t;
    for (const RankSummary& r : ranks) {
        t.count += r.orphans.count;
        t.busyNs += r.orphans.busyNs;
        t.ranksWithAny += r.orphans.count > 0 ? 1 : 0;
        ++t.ranks;
    }
    return t;
}

} // namespace cnp
