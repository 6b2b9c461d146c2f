#include "import/cnpt/CnptClockModel.h"

#include "core/TimeBounds.h"

#include <algorithm>

namespace cnp {

namespace {

// A raw timestamp as a sane int64, or nullopt.
std::optional<std::int64_t> saneRaw(std::uint64_t t) {
    return shiftedRawTime(t, 0);
}

} // namespace

CnptClockModel::CnptClockModel(const std::vector<cnpt::ClockPairRecord>& pairs) {
    std::vector<std::int64_t> offsets;
    std::int64_t halfBracket = 0;
    for (const auto& p : pairs) {
        const auto before = saneRaw(p.cuptiBefore), after = saneRaw(p.cuptiAfter),
                   real = saneRaw(p.realtimeNs);
        if (!before || !after || !real || *after < *before || *real == 0)
            continue;
        // All three lie in [0, kMaxTraceTimeNs]: the midpoint, bracket and offset cannot overflow.
        const std::int64_t mid = *before + (*after - *before) / 2;
        const std::int64_t offset = *real - mid;
        if (!saneTime(offset))
            continue;
        offsets.push_back(offset);
        halfBracket = std::max<std::int64_t>(halfBracket, (*after - *before) / 2 + (*after - *before) % 2);
    }
    if (offsets.empty())
        return;
    std::vector<std::int64_t> sorted = offsets;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    offset_ = n % 2 ? sorted[n / 2] : sorted[n / 2 - 1] + (sorted[n / 2] - sorted[n / 2 - 1]) / 2;
    std::int64_t spread = 0;
    for (auto o : offsets)
        spread = std::max<std::int64_t>(spread, o > offset_ ? o - offset_ : offset_ - o);
    skew_ = saturatingAdd(spread, halfBracket);
    valid_ = true;
}

std::optional<std::int64_t> CnptClockModel::toRealtime(std::uint64_t cuptiNs) const {
    return shiftedRawTime(cuptiNs, offset_);
}

} // namespace cnp
