#pragma once
// The keys of table meta that hold the user's workspace-wide choices (docs/schema.md, "meta"); every
// reader and writer of these keys names them from here.
#include <string_view>

namespace cnp::metakeys {

inline constexpr std::string_view kPlanOrder = "plan_order";
inline constexpr std::string_view kAblationSource = "ablation_source";
inline constexpr std::string_view kCategoryRules = "category_rules";
inline constexpr std::string_view kMfuFlopsPerToken = "mfu_flops_per_token";
inline constexpr std::string_view kMfuPeakFlops = "mfu_peak_flops";
inline constexpr std::string_view kStepsIncludeOrphans = "steps_include_orphans"; // "1": SummaryOptions
// "content": strings are numbered by their text (store/StringInterner.h); absent: in order of first use.
inline constexpr std::string_view kStringIds = "string_ids";

} // namespace cnp::metakeys
