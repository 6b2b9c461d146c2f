#pragma once
// Run attribute keys (table run_attributes, docs/schema.md) that more than one layer writes or reads.
namespace cnp {

// The ablation study a run belongs to (metrics/AblationStudies.h, docs/metrics.md "Studies").
inline constexpr const char* kStudyAttribute = "study";

} // namespace cnp
