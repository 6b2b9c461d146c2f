#pragma once
#include <string>

namespace cnp {

// The current time in UTC formatted by strftime's `format` (at most 63 characters of output).
std::string utcNow(const char* format);
// utcNow as ISO 8601 to the second ("2026-12-04T23:06:22Z").
std::string utcNowIso8601();

} // namespace cnp
