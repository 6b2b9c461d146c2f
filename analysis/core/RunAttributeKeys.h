#pragma once
// Run attribute keys (table run_attributes, docs/schema.md) that more than one layer writes or reads.
namespace cnp {

// The ablation study a run belongs to (metrics/AblationStudies.h, docs/metrics.md "Studies").
inline constexpr const char* kStudyAttribute = "study";

// The hosts' clock alignment fitted from the run's collectives at the end of ingest
// (metrics/ClockAlignmentText.h, requests/ClockAlignmentRequest.h).
inline constexpr const char* kClockAlignmentAttribute = "clock.alignment";

// Set on a run added from summary files (ingest/StudyAssembler.h addRunFromSummaries): its events were
// not copied and stay with its shards; the value names the files it was made from. Event readers refuse
// such a run (store/Workspace eventSegments), naming where the events are: `ingest.events` when the
// launcher recorded it (ingest on the cluster, docs/launcher.md), else this value.
inline constexpr const char* kEventsElsewhereAttribute = "events.elsewhere";
inline constexpr const char* kIngestEventsAttribute = "ingest.events";
// Of such a run: the ranks of each of its shards, in shard order (core/EventShardRanks.h), written by
// addRunFromSummaries; and the shards whose events were fetched and linked in (store/EventShardLink.h).
inline constexpr const char* kEventShardRanksAttribute = "events.shard_ranks";
inline constexpr const char* kEventsFetchedAttribute = "events.fetched";
// Of such a run: its time origin (store/RunTimeOrigin.h) in ns, from its merged overview, so that a rank's
// relative times need only that rank's shard.
inline constexpr const char* kEventsOriginAttribute = "events.origin_ns";

} // namespace cnp
