#pragma once
// Table summary_gap_pack (docs/schema.md): one row per (run, rank) holding the rank's GPU idle gaps packed
// (store/GapPack.h). Runs summarised before the table existed keep their gaps as summary_gap rows
// (store/SummaryRowReader reads either). Each read holds one rank's pack in memory at a time.
#include "core/Ids.h"
#include "core/SummaryRows.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cnp {

class Workspace;

struct GapPackRow {
    std::int32_t rank = 0;
    std::int64_t format = 0, gapCount = 0;
    std::string pack;
};

// Writes the rank's row (a second row of one rank fails: a rank is summarised once); the table must exist
// (ensureSummaryTables). Inside the caller's write transaction.
void writeGapPack(Workspace& ws, RunId runId, const GapPackRow& row);
// Whether run `runId` keeps its gaps packed (the table exists and holds a row of the run).
bool runHasGapPacks(const Workspace& ws, RunId runId);
// Calls `visit` with each of the run's rows in rank order (only rank `rank`'s when rank >= 0).
void forEachGapPack(const Workspace& ws, RunId runId, std::int32_t rank,
                    const std::function<void(const GapPackRow&)>& visit);

// The gaps of `row` (a row of run `runId` in `ws`), in start order, checked: the pack's bytes
// (store/GapPack.h), its gap_count and every value's range (store/StoredValueCheck.h); a problem throws
// InputError naming the workspace, the run and the rank. O(gaps).
std::vector<SummaryGapRow> unpackGapPackRow(const Workspace& ws, RunId runId, const GapPackRow& row);
// Checks `row` as unpackGapPackRow does, calling `visit` with each gap (one row reused: memory the pack's raw
// bytes, however many gaps it holds).
void forEachCheckedGap(const Workspace& ws, RunId runId, const GapPackRow& row,
                       const std::function<void(const SummaryGapRow&)>& visit);
// Checks `row` as unpackGapPackRow does, keeping nothing.
void checkGapPackRow(const Workspace& ws, RunId runId, const GapPackRow& row);

} // namespace cnp
