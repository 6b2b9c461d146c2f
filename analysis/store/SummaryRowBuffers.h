#pragma once
// The summary rows of one run, collected in memory without the database (so an ingest computes them on
// one thread while another inserts the events) and written by write(). Each row is bound column by
// column from its store/SummaryRows.h type through the table description (store/Tables.h), so a
// value cannot land in another column. Memory: RowBuffer's (16 bytes per column per row).
#include "store/RowBuffer.h"
#include "store/SummaryRows.h"

#include <cstdint>

namespace cnp {

class Workspace;

class SummaryRowBuffers {
public:
    SummaryRowBuffers();

    void add(const SummaryRankRow& r);
    void add(const SummaryStepRow& r);
    void add(const SummaryExclusiveRow& r);
    void add(const SummaryKernelRow& r);
    void add(const SummaryGapRow& r);
    void add(const SummarySyncRow& r);

    // Replaces run `runId`'s summary rows with these (creating the tables when missing), inside the
    // caller's transaction. O(rows x columns).
    void write(Workspace& ws, std::int64_t runId) const;

private:
    RowBuffer rank_, step_, exclusive_, kernel_, gap_, sync_;
};

} // namespace cnp
