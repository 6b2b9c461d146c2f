#pragma once
// The one text form of a CUDA version integer (cudaRuntimeGetVersion / cuDriverGetVersion: 1000 * major +
// 10 * minor): 12040 -> "12.4", 13000 -> "13.0". The Kineto importer gets it as a JSON number, the .cnpt
// importer as header text, the nsys importer as TARGET_INFO_SYSTEM_ENV text; all three store this form.
#include <cstdint>
#include <string>
#include <string_view>

namespace cnp {

class CudaVersionText {
public:
    // 12040 -> "12.4"; 0 or negative (unknown) -> "".
    static std::string fromInteger(std::int64_t version);
    // Integer text (NumberText's parseInteger: "12040", "12040.0") from 1000 up to 999999 -> fromInteger;
    // any other text (a version already dotted, "unknown", "") is returned unchanged.
    static std::string fromText(std::string_view text);
};

} // namespace cnp
