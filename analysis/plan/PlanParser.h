#pragma once
// Reads an ablation plan (YAML, docs/plans.md) into plan::Plan and resolves `extends:`. Never throws on
// bad input: every problem (syntax, encoding, unknown key, wrong type, bad `extends`) is a Finding with
// the file's line and column; the plan is usable only when ok() (no finding is an error).
//
// Hostile input is bounded before and while parsing: at most kMaxPlanBytes, valid UTF-8, nesting at most
// yaml-cpp's depth guard, and at most kMaxPlanNodes nodes visited (aliases share nodes, so an alias bomb
// is small in memory but huge to walk: the walk stops at the budget).
#include "plan/Plan.h"
#include "plan/PlanFinding.h"

#include <cstddef>
#include <string>
#include <vector>

namespace cnp::plan {

inline constexpr std::size_t kMaxPlanBytes = std::size_t(1) << 20;
inline constexpr int kMaxPlanNodes = 100000;

struct ParseResult {
    Plan plan;
    std::vector<Finding> findings; // sorted by line and column
    bool ok() const { return !hasErrors(findings); }
};

// `text` is the file's content; `path` names it in findings (and in Plan::path). Plan::hash is the
// SHA-256 of `text`.
ParseResult parsePlanText(const std::string& text, const std::string& path);
// Reads `path` (a "read" finding when it cannot be read or exceeds kMaxPlanBytes) and parses it.
ParseResult parsePlanFile(const std::string& path);

} // namespace cnp::plan
