#pragma once
// UTF-8 checks for strings taken from traces: the workspace and the GUI assume valid UTF-8, but
// trace files are written by many tools, some of which pass arbitrary bytes through.
#include <string>
#include <string_view>

namespace cnp {

// True when `s` is well-formed UTF-8 (no overlongs, no surrogates, nothing above U+10FFFF). O(n),
// with an ASCII fast path that checks 8 bytes per step.
bool isValidUtf8(std::string_view s);

// `s` with every ill-formed sequence replaced by U+FFFD (one per maximal ill-formed subpart, as the
// Unicode standard recommends). Returns `s` unchanged when it is already valid. O(n).
std::string repairUtf8(std::string_view s);

} // namespace cnp
