#pragma once

#include <cstdint>

namespace cnp {

// An inclusive range of event-table ids: [first, last]; empty when last < first.
struct IdRange {
    std::int64_t first = 1;
    std::int64_t last = 0;
    bool empty() const { return last < first; }
    // The number of ids, saturated at INT64_MAX ([INT64_MIN, INT64_MAX] read from a crafted workspace
    // holds 2^64 of them; the subtraction is unsigned, so it never overflows).
    std::int64_t size() const {
        if (empty())
            return 0;
        const std::uint64_t n = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first);
        return n >= static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(n + 1);
    }
};

} // namespace cnp
