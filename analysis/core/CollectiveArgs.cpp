#include "core/CollectiveArgs.h"

#include <algorithm>
#include <utility>

namespace cnp {

std::int64_t CollectiveArgs::bytes() const {
    const std::int64_t n = std::max(inNelems, outNelems);
    if (n < 0 || n > kMaxCollectiveNelems || dtypeBytes <= 0 || dtypeBytes > 16)
        return 0;
    return n * dtypeBytes; // <= 2^50 x 16 = 2^54: no overflow
}

std::int64_t collectiveNelems(std::int64_t v) {
    return v >= 0 && v <= kMaxCollectiveNelems ? v : -1;
}

std::int32_t collectiveGroupSize(std::int64_t v) {
    return v >= 1 && v <= kMaxCollectiveGroupSize ? static_cast<std::int32_t>(v) : 0;
}

std::int32_t collectiveDtypeBytes(std::string_view dtype) {
    // c10::ScalarType names (c10/core/ScalarType.h), as the profiler's "dtype" arg spells them.
    static constexpr std::pair<std::string_view, std::int32_t> kSizes[] = {{"Byte", 1},
                                                                           {"Char", 1},
                                                                           {"Bool", 1},
                                                                           {"Short", 2},
                                                                           {"Int", 4},
                                                                           {"Long", 8},
                                                                           {"Half", 2},
                                                                           {"Float", 4},
                                                                           {"Double", 8},
                                                                           {"ComplexHalf", 4},
                                                                           {"ComplexFloat", 8},
                                                                           {"ComplexDouble", 16},
                                                                           {"BFloat16", 2},
                                                                           {"QInt8", 1},
                                                                           {"QUInt8", 1},
                                                                           {"QInt32", 4},
                                                                           {"Float8_e5m2", 1},
                                                                           {"Float8_e4m3fn", 1},
                                                                           {"Float8_e5m2fnuz", 1},
                                                                           {"Float8_e4m3fnuz", 1},
                                                                           {"UInt16", 2},
                                                                           {"UInt32", 4},
                                                                           {"UInt64", 8}};
    for (const auto& [name, size] : kSizes)
        if (name == dtype)
            return size;
    return 0;
}

} // namespace cnp
