#pragma once
// The summary file of a shard written alone (`cnp ingest-shard --summary-out`, docs/schema.md "Summary
// files"): a copy of the shard without its event rows, so that the workstation fetches a few hundred KB per
// rank instead of the shard (docs/launcher.md, "Ingest on the cluster"). It keeps every other table as the
// shard has it but its finished timeline overview (assemble merges the shard_part's part instead): the run
// row, ranks, steps, summary rows, strings, attributes, meta and the shard_part row, so that `cnp study
// assemble` builds from it the same index as from the shard; of the event rows (schema::eventTables()) it
// keeps only what the run's clock fit reads (requests/ ClockAlignmentRequest.h): the kernels of the
// communication category on the lowest few ranks of each host, with their collective_args, renumbered so that
// run_rows holds their range. Meta `events` = `summary` marks it.
#include <string>

namespace cnp {

class Workspace;

// Writes `out` (a new file; InputError when it exists) from the shard open as `shard` (its committed
// state, one run; no transaction may be open on it), keeping the kernels of category `clockCategory` on
// the lowest `clockRanksPerHost` ranks of each host. On any error `out` is removed again. O(shard bytes)
// written twice (a copy, then compacted after the event rows are deleted).
void writeSummaryFile(const Workspace& shard, const std::string& out, const std::string& clockCategory,
                      int clockRanksPerHost);

// True when `ws`'s meta says its event rows were left out (a summary file, or a study's shard that is one).
bool holdsNoEvents(const Workspace& ws);

} // namespace cnp
