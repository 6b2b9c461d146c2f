#include "import/cnpt/CnptClockModel.h"

#include <algorithm>

namespace cnp {

CnptClockModel::CnptClockModel(const std::vector<cnpt::ClockPairRecord>& pairs) {
    std::vector<std::int64_t> offsets;
    std::int64_t halfBracket = 0;
    for (const auto& p : pairs) {
        if (p.cuptiAfter < p.cuptiBefore || p.realtimeNs == 0)
            continue;
        const std::uint64_t mid = p.cuptiBefore + (p.cuptiAfter - p.cuptiBefore) / 2;
        offsets.push_back(static_cast<std::int64_t>(p.realtimeNs) - static_cast<std::int64_t>(mid));
        halfBracket = std::max<std::int64_t>(
            halfBracket, static_cast<std::int64_t>((p.cuptiAfter - p.cuptiBefore + 1) / 2));
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
    skew_ = spread + halfBracket;
    valid_ = true;
}

} // namespace cnp
