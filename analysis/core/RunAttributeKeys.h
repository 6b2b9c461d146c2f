#pragma once
// Run attribute keys (table run_attributes, docs/schema.md) that more than one layer writes or reads.
namespace cnp {

// The ablation study a run belongs to (metrics/AblationStudies.h, docs/metrics.md "Studies").
inline constexpr const char* kStudyAttribute = "study";

// The hosts' clock alignment fitted from the run's collectives at the end of ingest
// (metrics/ClockAlignmentText.h, requests/ClockAlignmentRequest.h).
inline constexpr const char* kClockAlignmentAttribute = "clock.alignment";

} // namespace cnp
