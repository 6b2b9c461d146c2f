#pragma once
// The summary rows of one run, collected in memory without the database (so an ingest computes them on
// one thread while another inserts the events) and written by write(). Each row is bound column by
// column from its core/SummaryRows.h type through the table description (store/Tables.h), so a
// value cannot land in another column. Memory: RowBuffer's (16 bytes per column per row); gaps are kept as
// rows until written, then packed per rank into summary_gap_pack (store/GapPack.h).
#include "core/Ids.h"
#include "core/SummaryRows.h"
#include "store/GapPack.h"
#include "store/RowBuffer.h"

#include <cstdint>
#include <map>

namespace cnp {

class Workspace;

class SummaryRowBuffers final : public SummaryRowSink {
public:
    SummaryRowBuffers();

    void add(const SummaryRankRow& r) override;
    void add(const SummaryStepRow& r) override;
    void add(const SummaryExclusiveRow& r) override;
    void add(const SummaryKernelRow& r) override;
    void add(const SummaryGapRow& r) override;
    void add(const SummarySyncRow& r) override;
    void add(const SummaryStreamRow& r) override;

    // Replaces run `runId`'s summary rows with these (creating the tables when missing), inside the
    // caller's transaction. O(rows x columns).
    void write(Workspace& ws, RunId runId) const;
    // Adds these rows to run `runId`'s (a run written part by part: ingest/RunStreamer), inside the
    // caller's transaction; the tables must exist (ensureSummaryTables, or write()). O(rows x columns).
    void append(Workspace& ws, RunId runId) const;

private:
    void writeGapPacks(Workspace& ws, RunId runId) const;

    RowBuffer rank_, step_, exclusive_, kernel_, sync_, stream_;
    std::map<std::int32_t, GapPackWriter> gaps_; // by rank
};

} // namespace cnp
