#pragma once
// Names are bounded at intake (issue 14: a 64 MB kernel name took 38 s to categorise). StringTable::intern
// stores a string longer than kMaxNameBytes as its first bytes, cut at a UTF-8 character boundary, plus
// the marker "...[N bytes]" (N = its full length), at most kMaxNameBytes in all. Two long names that
// share that prefix and their length become one name. O(kMaxNameBytes) per long name.
#include "core/StringTable.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace cnp {

inline constexpr std::size_t kMaxNameBytes = 4096;

// The stored form of a name longer than kMaxNameBytes.
std::string truncatedName(std::string_view name);
// True for a name truncatedName() made (it ends with the marker).
bool isTruncatedName(std::string_view name);
// How many of the table's strings were truncated at intake. O(strings).
std::size_t countTruncatedNames(const StringTable& strings);

} // namespace cnp
