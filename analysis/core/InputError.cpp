#include "core/InputError.h"

namespace cnp {

static std::string formatInputError(const std::string& file, const std::string& message,
                                    std::int64_t offset) {
    std::string s = file + ": ";
    if (offset >= 0)
        s += "at byte " + std::to_string(offset) + ": ";
    return s + message;
}

InputError::InputError(std::string file, std::string message, std::int64_t byteOffset)
    : std::runtime_error(formatInputError(file, message, byteOffset)), file_(std::move(file)),
      message_(std::move(message)), byteOffset_(byteOffset) {}

} // namespace cnp
