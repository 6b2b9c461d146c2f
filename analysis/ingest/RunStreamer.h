#pragma once
// Streams one run into a workspace part by part (a part: the ranks of one trace file), so a run of any
// number of ranks is never held in memory whole. `jobs` reader threads each import a part, give it its
// final ranks (ingest/RankAssigner, in processing order) and prepare it (ingest/PreparedPart); this
// thread stores the prepared parts in processing order (store/RunAppender) and merges what spans parts
// (run information, all-rank kernel statistics, the timeline overview). Readers run at most `jobs + 1`
// parts and kInFlightInputBytes ahead of the store, so memory is bounded by that many parts (and by the
// largest part), whatever the run's size.
//
// The stored run is the one a whole-run ingest would store, because a pass whose parts decided alone
// what only the whole run can decide is redone (in a fresh transaction) with the run's decision imposed:
//  - rank order: event tables are stored sorted by rank, so parts must be stored in increasing rank
//    order. Files are taken in order of the ranks their headers state (Importer::peekRank), then by
//    name; when a part's ranks still come out of order, the pass only learns every part's ranks and a
//    second pass stores them in rank order, numbered as the first pass numbered them;
//  - steps: the first step pattern that matches any rank of the run, and one numbering scheme per run
//    (metrics/StepDetector.h); a pass where a part decided otherwise is redone with both imposed.
// On any exception (a bad file names itself; the first in processing order is reported) the workspace is
// unchanged.
#include "core/ProgressSink.h"
#include "core/TraceData.h"
#include "store/Workspace.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

struct RunSource {
    std::vector<std::string> names; // one per part: its file, named in errors and rank claims
    // Part i, called once per pass on a reader thread (concurrently for different i). Throws InputError
    // for a bad part.
    std::function<TraceData(std::size_t i, const ProgressSink&)> load;
    // Optional, one per part: the rank its file's header states (-1: none), so parts are read in rank
    // order; and its input size in bytes (decompressed; 0: unknown), so readers do not run ahead by more
    // than kInFlightInputBytes.
    std::vector<std::int32_t> rankHints;
    std::vector<std::uint64_t> inputBytes;
};

// Readers take a further part only while the input bytes of the parts taken and not yet stored stay
// within this (the part next in line always may be taken). Measured: a part peaks at about 200 bytes of
// memory per event while it is prepared (its events ~100, the timeline builder's and the summaries'
// working sets the rest), about 4x its .cnpt bytes; parts of 1M events (48 MB of .cnpt) are then at most
// two in memory.
inline constexpr std::uint64_t kInFlightInputBytes = std::uint64_t{64} << 20;

struct StreamedRun {
    RunId runId;
    RunInfo info; // merged over the parts, after `finishInfo`
    std::int64_t events = 0;
    std::int32_t ranks = 0;
    std::size_t truncatedNames = 0;     // distinct names cut at intake
    std::vector<std::string> rankNotes; // e.g. estimated clock skew per rank
    int passes = 0;
    std::vector<std::pair<std::string, double>> phases; // seconds per phase (reader phases: summed CPU)
};

// `finishInfo` sets what the request decides (name, config, overrides) on the merged run information
// before the run row is written; the run's name must be known at the start: `runName`.
//
// `shardRunId`, for a shard written alone (`cnp ingest-shard`, docs/schema.md "Studies of shards"): the run
// takes that id (the study's), and its shard_part row (store/ShardParts.h: the step decision, the all-rank
// kernel durations, the overview before the run-wide finish) is written in the same transaction.
StreamedRun streamRun(Workspace& ws, const RunSource& source, const std::string& runName, int jobs,
                      const std::function<void(RunInfo&)>& finishInfo, const ProgressSink& sink = {},
                      std::optional<RunId> shardRunId = std::nullopt);

} // namespace cnp
