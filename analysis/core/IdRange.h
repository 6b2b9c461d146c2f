#pragma once

#include <cstdint>

namespace cnp {

// An inclusive range of event-table ids: [first, last]; empty when last < first.
struct IdRange {
    std::int64_t first = 1;
    std::int64_t last = 0;
    bool empty() const { return last < first; }
    std::int64_t size() const { return empty() ? 0 : last - first + 1; }
};

} // namespace cnp
