#include "import/common/SkipCounter.h"

#include "core/TimeBounds.h"

#include <algorithm>
#include <limits>

namespace cnp {

std::string SkipCounter::reason(SpanFault fault, std::string_view subject) {
    std::string s(subject);
    s += fault == SpanFault::OutOfRange ? " time out of range" : " ends before it starts";
    return s;
}

void SkipCounter::refuseMany(std::uint64_t n, std::int64_t offset, const std::string& why) {
    if (n == 0)
        return;
    report_.add(offset, why);
    const std::uint64_t more = std::min<std::uint64_t>(n - 1, std::numeric_limits<std::int64_t>::max());
    report_.count = saturatingAdd(report_.count, static_cast<std::int64_t>(more));
}

} // namespace cnp
