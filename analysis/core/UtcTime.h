#pragma once
#include <string>

namespace cnp {

// The current time in UTC as ISO 8601 to the second ("2026-12-04T23:06:22Z").
std::string utcNowIso8601();

} // namespace cnp
