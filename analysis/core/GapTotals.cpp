#include "core/GapTotals.h"

#include <algorithm>

namespace cnp {

namespace {

constexpr const char* kWaitingOnData = "waiting-on-data";

// Longest first, then by (rank, start): a before b.
bool before(const IdleGap& a, const IdleGap& b) {
    if (a.length() != b.length())
        return a.length() > b.length();
    return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
}

} // namespace

void GapTotals::add(const IdleGap& g) {
    if (g.length() >= longGapNs_) {
        ++longCount_;
        longTotal_ += g.length();
        longByState_[g.cpuState] += g.length();
        keep(g);
    }
    const bool loader = g.cpuState == kWaitingOnData;
    if (g.stepIndex >= 0 && g.syncNs > 0 && !loader) {
        ++behindSyncCount_;
        behindSyncNs_ += g.length();
    }
    if (loader)
        dataWaitByRank_[g.rank] += g.length();
}

void GapTotals::keep(const IdleGap& g) {
    if (keepLongest_ == 0)
        return;
    if (longest_.size() == keepLongest_) {
        if (!before(g, longest_.front()))
            return;
        std::pop_heap(longest_.begin(), longest_.end(), before);
        longest_.pop_back();
    }
    longest_.push_back(g);
    std::push_heap(longest_.begin(), longest_.end(), before);
}

std::vector<IdleGap> GapTotals::longest() const {
    std::vector<IdleGap> out = longest_;
    std::sort(out.begin(), out.end(), before);
    return out;
}

} // namespace cnp
