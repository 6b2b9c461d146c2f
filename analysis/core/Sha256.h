#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits. Used to identify inputs (a plan's
// bytes identify its runs for resume); O(n), no allocation beyond the result.
#include <string>
#include <string_view>

namespace cnp {

std::string sha256Hex(std::string_view bytes);

} // namespace cnp
