#pragma once
// JSON from untrusted storage (a workspace's metadata columns, rule files) parsed without recursion and
// with bounded nesting: RapidJSON's iterative parser (no stack use proportional to the input) behind a
// handler that stops at kMaxJsonDepth, so "[[[[...]]]]" a million levels deep is an error, not a crash.
#include "core/RapidJson.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace cnp {

inline constexpr int kMaxJsonDepth = 64;

struct JsonParseOutcome {
    bool ok = false;
    std::string error;      // empty when ok
    std::size_t offset = 0; // byte offset of the error
};

// Parses `json` into `doc` (null on failure). O(size of json).
JsonParseOutcome parseBoundedJson(std::string_view json, rapidjson::Document& doc,
                                  int maxDepth = kMaxJsonDepth);

} // namespace cnp
