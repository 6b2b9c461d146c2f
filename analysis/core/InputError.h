#pragma once
// The one error type for bad input: names the file, the problem and, when known, the byte offset.
// what() is the single line shown to users: "FILE: [at byte N: ]MESSAGE".
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cnp {

class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string message, std::int64_t byteOffset = -1);
    const std::string& file() const { return file_; }
    const std::string& message() const { return message_; }
    std::int64_t byteOffset() const { return byteOffset_; }

private:
    std::string file_;
    std::string message_;
    std::int64_t byteOffset_;
};

// Thrown when a caller's cancel flag was raised; the operation left no trace of itself.
class Cancelled : public std::runtime_error {
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

} // namespace cnp
