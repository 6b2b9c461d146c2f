#include "import/common/CudaVersionText.h"

#include "import/common/NumberText.h"

namespace cnp {

std::string CudaVersionText::fromInteger(std::int64_t v) {
    if (v <= 0)
        return {};
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string CudaVersionText::fromText(std::string_view text) {
    std::int64_t v = 0;
    if (parseInteger(text, v) && v >= 1000 && v < 1000000)
        return fromInteger(v);
    return std::string(text);
}

} // namespace cnp
