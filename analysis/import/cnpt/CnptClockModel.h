#pragma once
// Maps one process's CUPTI timestamps onto CLOCK_REALTIME (Unix epoch ns) from the clock pairs the
// collector wrote (at start, at every periodic flush, at exit). Each pair brackets one realtime reading
// between two CUPTI readings: its offset is realtime - midpoint(cuptiBefore, cuptiAfter), uncertain by
// half the bracket. The model's offset is the median of the pairs' offsets; the skew estimate is the
// largest distance of any pair's offset from that median plus the largest half-bracket, i.e. how far the
// aligned time of any event may be from the true realtime instant (drift included). O(p log p).
// Pairs from a crafted file are untrusted: a pair whose times, bracket or offset lie outside the sane
// time range (core/TimeBounds.h) is ignored, so no arithmetic here can overflow.
#include "CnptRecords.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cnp {

class CnptClockModel {
public:
    explicit CnptClockModel(const std::vector<cnpt::ClockPairRecord>& pairs);
    bool valid() const { return valid_; } // false without any usable pair: offset 0
    std::int64_t offsetNs() const { return offset_; }
    std::int64_t skewEstimateNs() const { return skew_; }
    // The realtime instant of a CUPTI timestamp; nullopt when it falls outside the sane time range.
    std::optional<std::int64_t> toRealtime(std::uint64_t cuptiNs) const;

private:
    bool valid_ = false;
    std::int64_t offset_ = 0, skew_ = 0;
};

} // namespace cnp
