#pragma once
// Maps one process's CUPTI timestamps onto CLOCK_REALTIME (Unix epoch ns) from the clock pairs the
// collector wrote (at start, at every periodic flush, at exit). Each pair brackets one realtime reading
// between two CUPTI readings: its offset is realtime - midpoint(cuptiBefore, cuptiAfter), uncertain by
// half the bracket. The model's offset is the median of the pairs' offsets; the skew estimate is the
// largest distance of any pair's offset from that median plus the largest half-bracket, i.e. how far the
// aligned time of any event may be from the true realtime instant (drift included). O(p log p).
#include "CnptRecords.h"

#include <cstdint>
#include <vector>

namespace cnp {

class CnptClockModel {
public:
    explicit CnptClockModel(const std::vector<cnpt::ClockPairRecord>& pairs);
    bool valid() const { return valid_; } // false without any usable pair: offset 0
    std::int64_t offsetNs() const { return offset_; }
    std::int64_t skewEstimateNs() const { return skew_; }
    std::int64_t toRealtime(std::uint64_t cuptiNs) const {
        return static_cast<std::int64_t>(cuptiNs) + offset_;
    }

private:
    bool valid_ = false;
    std::int64_t offset_ = 0, skew_ = 0;
};

} // namespace cnp
