#pragma once
// Ingest = the run's files streamed to the workspace part by part (ingest/RunStreamer.h): --jobs readers
// each import a file, number its ranks, normalise (sort, nesting depth), categorise kernels, detect steps,
// compute its summaries and timeline overview; one writer stores the parts in rank order and what spans
// them, all in one transaction.
#include "core/TraceData.h"
#include "store/Workspace.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

struct IngestRequest {
    std::vector<std::string> inputs; // files or folders; a folder contributes every trace file in it
    std::string runName;             // empty: derived from the first input's file name
    std::string config;              // empty: the run name
    int repeat = 0;
    double tokensPerStep = 0; // > 0 overrides what the sources say
    double flopsPerStep = 0;  // model FLOPs per step (whole job); > 0 overrides
    double peakFlops = 0;     // peak FLOP/s of one GPU; > 0 overrides
    int jobs = 0;             // files read in parallel; 0 = defaultIngestJobs()
    // The ablation study the run belongs to (run attribute `study`, metrics/AblationStudies.h); empty:
    // none recorded. Written right after the run's transaction; should that fail, the run is removed.
    std::string study;
    // A shard written alone (`cnp ingest-shard`): the run's id in the study it will be assembled into
    // (ingest/RunStreamer.h streamRun's `shardRunId`). Unset: the workspace numbers the run.
    std::optional<RunId> shardRunId;
    // The configuration when neither `config` nor the traces give one; empty: the run name.
    std::string configFallback;
};

// One reader per hardware thread.
int defaultIngestJobs();

struct IngestResult {
    RunId runId;
    std::string runName;
    std::int64_t events = 0;
    std::int32_t ranks = 0;
    SkipReport skipped;
    std::vector<std::string> files;
    std::vector<std::string> notes;    // e.g. estimated clock skew per rank
    std::vector<std::string> warnings; // what the importers found and skipped (RunInfo::importWarnings)
    std::vector<std::pair<std::string, double>> phaseSeconds; // wall time per pipeline phase
};

// Expands folders into their trace files (sorted by name). Throws InputError on a missing path.
std::vector<std::string> expandInputs(const std::vector<std::string>& inputs);

// The rank a trace file's first bytes say it holds (Importer::rankHint), -1 when they say none or the file
// cannot be read (its import reports why).
std::int32_t rankHintOf(const std::string& path);

// Reads one file with whichever importer recognises it. Throws InputError when none does.
TraceData importFile(const std::string& path, const ProgressSink& sink = {});

// Sorts events by (rank, start), computes CPU nesting depth where unset. O(n log n).
void normaliseTrace(TraceData& trace);

// Adds an already imported (or generated) trace as a new run named trace.info.name: the same preparation
// and store as ingest(), as one part; consumes `trace`. On any exception the workspace is unchanged.
// `phases`, when given, receives the seconds of each phase (for `cnp ingest --timing` and benchmarks).
RunId addTrace(Workspace& ws, TraceData&& trace, const ProgressSink& sink = {},
               std::vector<std::pair<std::string, double>>* phases = nullptr);

// The whole ingest. On any exception the workspace is unchanged.
IngestResult ingest(Workspace& ws, const IngestRequest& request, const ProgressSink& sink = {});

} // namespace cnp
