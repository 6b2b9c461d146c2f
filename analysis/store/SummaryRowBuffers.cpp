#include "store/SummaryRowBuffers.h"

#include "store/GapPackRows.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"

namespace cnp {

namespace {

struct NoStrings {}; // the summary rows hold no trace string ids

// run_id (parameter 1, bound at flush), then every value column of `table` from `row`.
template <class Table, class Row> void addRow(RowBuffer& b, const Table& table, const Row& row) {
    b.bindRunId(1);
    table.bindRow(b, 1, row, NoStrings{});
    b.exec();
}

} // namespace

SummaryRowBuffers::SummaryRowBuffers()
    : rank_(schema::insertSql(schema::kSummaryRank)), step_(schema::insertSql(schema::kSummaryStep)),
      exclusive_(schema::insertSql(schema::kSummaryExclusive)),
      kernel_(schema::insertSql(schema::kSummaryKernel)), sync_(schema::insertSql(schema::kSummarySync)),
      stream_(schema::insertSql(schema::kSummaryStream)) {}

void SummaryRowBuffers::add(const SummaryRankRow& r) {
    addRow(rank_, schema::kSummaryRankRows, r);
}
void SummaryRowBuffers::add(const SummaryStepRow& r) {
    addRow(step_, schema::kSummaryStepRows, r);
}
void SummaryRowBuffers::add(const SummaryExclusiveRow& r) {
    addRow(exclusive_, schema::kSummaryExclusiveRows, r);
}
void SummaryRowBuffers::add(const SummaryKernelRow& r) {
    addRow(kernel_, schema::kSummaryKernelRows, r);
}
void SummaryRowBuffers::add(const SummaryGapRow& r) {
    gaps_[r.rank].add(r);
}
void SummaryRowBuffers::add(const SummarySyncRow& r) {
    addRow(sync_, schema::kSummarySyncRows, r);
}

void SummaryRowBuffers::add(const SummaryStreamRow& r) {
    addRow(stream_, schema::kSummaryStreamRows, r);
}

void SummaryRowBuffers::write(Workspace& ws, RunId runId) const {
    deleteRunSummaries(ws, runId); // creates the tables when missing
    append(ws, runId);
}

void SummaryRowBuffers::append(Workspace& ws, RunId runId) const {
    for (const RowBuffer* b : {&rank_, &step_, &exclusive_, &kernel_, &sync_, &stream_})
        b->flush(ws, runId);
    writeGapPacks(ws, runId);
}

void SummaryRowBuffers::writeGapPacks(Workspace& ws, RunId runId) const {
    for (const auto& [rank, gaps] : gaps_)
        writeGapPack(ws, runId, GapPackRow{rank, GapPackWriter::kFormat, gaps.count(), gaps.finish()});
}

} // namespace cnp
