#pragma once
// The range of event times intake accepts, and overflow-free arithmetic for computing them.
// Times are int64 ns (Unix epoch after alignment). A time outside [-kMaxTraceTimeNs, kMaxTraceTimeNs]
// (2^62 ns, about 146 years either side of the epoch) is refused as corrupt: the event carrying it is
// skipped and counted. Invariant: the difference of two accepted times (a duration, a window) never
// overflows int64.
#include <cstdint>
#include <limits>
#include <optional>

namespace cnp {

inline constexpr std::int64_t kMaxTraceTimeNs = (std::int64_t(1) << 62) - 1;

constexpr bool saneTime(std::int64_t t) {
    return t >= -kMaxTraceTimeNs && t <= kMaxTraceTimeNs;
}

// a + b when neither the sum overflows nor leaves the sane range; nullopt otherwise.
constexpr std::optional<std::int64_t> shiftedTime(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum) || !saneTime(sum))
        return std::nullopt;
    return sum;
}

// An unsigned raw timestamp (CUPTI ns) shifted by a signed offset; nullopt when out of range.
constexpr std::optional<std::int64_t> shiftedRawTime(std::uint64_t raw, std::int64_t offset) {
    if (raw > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return std::nullopt;
    return shiftedTime(static_cast<std::int64_t>(raw), offset);
}

// a + b clamped to [INT64_MIN, INT64_MAX] (counters fed by untrusted counts).
constexpr std::int64_t saturatingAdd(std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum))
        return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

} // namespace cnp
