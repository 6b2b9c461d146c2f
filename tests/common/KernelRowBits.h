#pragma once
// Exact comparison of summary_kernel rows for the tests that require equality to the last bit.
#include "core/SummaryRows.h"

#include <bit>
#include <cstdint>

namespace cnp::testing {

// Every field equal, the doubles bit for bit.
inline bool sameBits(const SummaryKernelRow& a, const SummaryKernelRow& b) {
    auto bits = [](double d) { return std::bit_cast<std::uint64_t>(d); };
    return a.rank == b.rank && a.name == b.name && a.category == b.category && a.count == b.count &&
           a.totalNs == b.totalNs && bits(a.meanNs) == bits(b.meanNs) &&
           bits(a.medianNs) == bits(b.medianNs) && a.minNs == b.minNs && a.maxNs == b.maxNs &&
           bits(a.stddevNs) == bits(b.stddevNs);
}

} // namespace cnp::testing
