#pragma once
// A study assembled from shards written alone (docs/schema.md "Studies of shards"): ingest pods next to the
// traces each write one shard with `cnp ingest-shard` (a workspace holding part of one run: its ranks'
// events, summaries and shard_part row, strings numbered by content, the run under the id it will have in
// the study), and the workstation builds the study's index from what they wrote, reading summaries only:
// per run its ranks and steps, the summary rows, the all-rank kernel statistics merged exactly from the
// parts' duration digests (ingest/KernelDigest.h, KernelStatsPool), the timeline overview merged from the
// parts (timeline/OverviewMerge.h) and the run row merged from the parts' (mergeRunInfo). The shards become
// the study's shard files as they are (hard-linked where the file system allows, else copied), so the
// event rows are never read or rewritten: their string ids are the content ids the index gives too, their
// run id the index's.
//
// Refused, naming the shard files and the cause, before anything is written: a file that is no shard
// written alone (no shard_part row, more or less than one run, ids not numbered by content, unreadable or
// truncated), two shards of one run id with different names or configurations, two run ids with one name,
// two shards claiming a rank of a run, ranks of two shards interleaving, different step decisions (the
// whole run would have imposed one: ingest those ranks into one shard, or all into one file), different
// category rules or step settings. On any error the study is not created (nothing else is written).
#include "core/Ids.h"
#include "core/ProgressSink.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

struct AssembledStudy {
    int shards = 0;
    int runs = 0;
    std::int64_t ranks = 0;
    std::int64_t events = 0;       // in the shards, as their run rows count them
    std::uint64_t shardBytes = 0;  // the shard files' sizes (linked or copied, never read whole)
    std::uint64_t copiedBytes = 0; // of those, the bytes copied because a link was not possible
    std::vector<std::pair<std::string, double>> phases; // seconds per phase
};

// Creates study `studyPath` (a path ending in .cnpstudy that does not exist) from `shardFiles` (1 to
// StudyFolder::kMaxShards). Throws InputError (naming the file) as above.
AssembledStudy assembleStudy(const std::string& studyPath, const std::vector<std::string>& shardFiles,
                             const ProgressSink& sink = {});

// Adds to `ws` (a workspace file or a study) one run from `files`: summary files (store/SummaryFile.h) or
// shards written alone, all of one run id, read as assembleStudy reads shards (the same checks, naming the
// file) and written as it writes a run of its index — ranks, steps, summary rows, the all-rank kernel
// statistics, the overview, the run row and the first file's attributes — under the files' run id, which
// must be free in `ws`, and named `runName`; then the run's clock fit (`clock.alignment`) as assemble
// fits it from the kernels the files keep (a study of the files is made beside the first for that, and
// removed). No event row is copied: the run's events stay in the shards (on the cluster, docs/launcher.md
// "Ingest on the cluster"). Refused as well when `ws` has other category rules or step settings than the
// files were summarised with. The run is added in one write transaction (on an error before it commits
// `ws` is unchanged), its clock fit in a second. Returns the run's id.
RunId addRunFromSummaries(Workspace& ws, const std::vector<std::string>& files, const std::string& runName,
                          const ProgressSink& sink = {});

} // namespace cnp
