#pragma once
// One description per stored table (schema version 3; docs/schema.md documents each and
// tests/analysis/tst_schemadoc.cpp checks the document against these). Everything that spells a table
// out comes from here: the DDL (schema::createTablesSql, createSummaryTablesSql,
// createTimelineOverviewSql), the bulk insert and loadRun of the row tables (Workspace), the summary
// rows' INSERTs (RunSummaries) and their readers' column lists (RunSummaryReader).
// Column order is table order: appending a column is a schema change (and a migration); the frozen v3
// DDL in tests/data/schema_v3.sql must keep matching (tst_tableschema).
#include "core/TraceData.h"
#include "store/RowTable.h"
#include "store/TableSchema.h"

#include <string>
#include <vector>

namespace cnp::schema {

namespace detail {
inline constexpr SqlType I = SqlType::Integer, R = SqlType::Real, T = SqlType::Text, B = SqlType::Blob;
inline constexpr std::string_view NN = "NOT NULL", PK = "PRIMARY KEY", NS = "ns", BYTES = "bytes";
} // namespace detail

// ---- Row tables: each column mapped to a member of the core/TraceData.h row type.
// Event tables: `id INTEGER PRIMARY KEY` and run_id are keys; a run's rows are one id range (Schema.h).

inline constexpr auto kKernels = [] {
    using namespace detail;
    using E = KernelEvent;
    return rowTable<E>(
        "kernels", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::device>>("device", I, NN),
        col<IntField<&E::stream>>("stream", I, NN), col<IntField<&E::start>>("start_ns", I, NN, NS),
        col<IntField<&E::end>>("end_ns", I, NN, NS), col<IntField<&E::correlation>>("correlation", I, NN),
        col<IntElementField<&E::grid, 0>>("grid_x", I, ""),
        col<IntElementField<&E::grid, 1>>("grid_y", I, ""),
        col<IntElementField<&E::grid, 2>>("grid_z", I, ""),
        col<IntElementField<&E::block, 0>>("block_x", I, ""),
        col<IntElementField<&E::block, 1>>("block_y", I, ""),
        col<IntElementField<&E::block, 2>>("block_z", I, ""),
        col<IntField<&E::registers>>("registers", I, ""),
        col<IntField<&E::staticSmem>>("static_smem", I, "", BYTES),
        col<IntField<&E::dynamicSmem>>("dynamic_smem", I, "", BYTES),
        col<StringIdField<&E::name>>("name_id", I, NN),
        col<StringIdField<&E::category>>("category_id", I, NN));
}();

inline constexpr auto kMemcpys = [] {
    using namespace detail;
    using E = MemcpyEvent;
    return rowTable<E>(
        "memcpys", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::device>>("device", I, NN),
        col<IntField<&E::stream>>("stream", I, NN), col<IntField<&E::start>>("start_ns", I, NN, NS),
        col<IntField<&E::end>>("end_ns", I, NN, NS), col<IntField<&E::correlation>>("correlation", I, NN),
        col<IntField<&E::bytes>>("bytes", I, NN, BYTES), col<IntField<&E::kind>>("copy_kind", I, NN),
        col<IntField<&E::srcKind>>("src_kind", I, NN), col<IntField<&E::dstKind>>("dst_kind", I, NN),
        col<StringIdField<&E::name>>("name_id", I, NN));
}();

inline constexpr auto kMemsets = [] {
    using namespace detail;
    using E = MemsetEvent;
    return rowTable<E>(
        "memsets", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::device>>("device", I, NN),
        col<IntField<&E::stream>>("stream", I, NN), col<IntField<&E::start>>("start_ns", I, NN, NS),
        col<IntField<&E::end>>("end_ns", I, NN, NS), col<IntField<&E::correlation>>("correlation", I, NN),
        col<IntField<&E::bytes>>("bytes", I, NN, BYTES), col<IntField<&E::value>>("value", I, NN),
        col<IntField<&E::memKind>>("mem_kind", I, NN), col<StringIdField<&E::name>>("name_id", I, NN));
}();

inline constexpr auto kApiCalls = [] {
    using namespace detail;
    using E = ApiCall;
    return rowTable<E>(
        "api_calls", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::pid>>("pid", I, NN),
        col<IntField<&E::tid>>("tid", I, NN), col<IntField<&E::start>>("start_ns", I, NN, NS),
        col<IntField<&E::end>>("end_ns", I, NN, NS), col<IntField<&E::correlation>>("correlation", I, NN),
        col<IntField<&E::kind>>("kind", I, NN), col<StringIdField<&E::name>>("name_id", I, NN));
}();

inline constexpr auto kCpuRanges = [] {
    using namespace detail;
    using E = CpuRange;
    return rowTable<E>(
        "cpu_ranges", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::pid>>("pid", I, NN),
        col<IntField<&E::tid>>("tid", I, NN), col<IntField<&E::start>>("start_ns", I, NN, NS),
        col<IntField<&E::end>>("end_ns", I, NN, NS), col<IntField<&E::depth>>("depth", I, NN),
        col<IntField<&E::kind>>("kind", I, NN), col<IntField<&E::correlation>>("correlation", I, NN),
        col<StringIdField<&E::name>>("name_id", I, NN), col<StringIdField<&E::domain>>("domain_id", I, NN),
        col<IntField<&E::color>>("color", I, NN, "ARGB"));
}();

inline constexpr auto kGpuAnnotations = [] {
    using namespace detail;
    using E = GpuAnnotation;
    return rowTable<E>(
        "gpu_annotations", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::device>>("device", I, NN),
        col<IntField<&E::stream>>("stream", I, NN), col<IntField<&E::start>>("start_ns", I, NN, NS),
        col<IntField<&E::end>>("end_ns", I, NN, NS), col<StringIdField<&E::name>>("name_id", I, NN));
}();

inline constexpr auto kFlows = [] {
    using namespace detail;
    using E = Flow;
    return rowTable<E>(
        "flows", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::correlation>>("correlation", I, NN),
        col<IntField<&E::cpuTs>>("cpu_ns", I, NN, NS), col<IntField<&E::tid>>("tid", I, NN),
        col<IntField<&E::gpuTs>>("gpu_ns", I, NN, NS), col<IntField<&E::stream>>("stream", I, NN));
}();

inline constexpr auto kCounters = [] {
    using namespace detail;
    using E = CounterSample;
    return rowTable<E>("counters", "", col<KeyField>("id", I, PK), col<KeyField>("run_id", I, NN),
                       col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::device>>("device", I, NN),
                       col<IntField<&E::ts>>("ts_ns", I, NN, NS), col<RealField<&E::value>>("value", R, NN),
                       col<StringIdField<&E::name>>("name_id", I, NN));
}();

inline constexpr auto kRanks = [] {
    using namespace detail;
    using E = RankInfo;
    return rowTable<E>("ranks", "run_id, rank", col<KeyField>("run_id", I, NN),
                       col<IntField<&E::rank>>("rank", I, NN),
                       col<IntField<&E::localRank>>("local_rank", I, "NOT NULL DEFAULT -1"),
                       col<TextField<&E::host>>("host", T, "NOT NULL DEFAULT ''"),
                       col<IntField<&E::pid>>("pid", I, "NOT NULL DEFAULT 0"),
                       col<JsonArrayField<&E::gpuNames>>("gpu_names", T, "NOT NULL DEFAULT '[]'"),
                       col<JsonArrayField<&E::gpuUuids>>("gpu_uuids", T, "NOT NULL DEFAULT '[]'"),
                       col<IntField<&E::clockOffsetNs>>("clock_offset_ns", I, "NOT NULL DEFAULT 0", NS),
                       col<IntField<&E::clockSkewEstimateNs>>("clock_skew_ns", I, "NOT NULL DEFAULT 0", NS),
                       col<TextField<&E::sourceFile>>("source_file", T, "NOT NULL DEFAULT ''"));
}();

inline constexpr auto kSteps = [] {
    using namespace detail;
    using E = StepRange;
    return rowTable<E>("steps", "run_id, rank, step_index", col<KeyField>("run_id", I, NN),
                       col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::index>>("step_index", I, NN),
                       col<StringIdField<&E::name>>("name_id", I, NN),
                       col<IntField<&E::cpuStart>>("cpu_start_ns", I, NN, NS),
                       col<IntField<&E::cpuEnd>>("cpu_end_ns", I, NN, NS),
                       col<IntField<&E::gpuStart>>("gpu_start_ns", I, NN, NS),
                       col<IntField<&E::gpuEnd>>("gpu_end_ns", I, NN, NS));
}();

// ---- Tables read and written by hand-written code (their SQL text is still generated from these).
extern const Table kMeta, kStrings, kRuns, kRunRows, kRunAttributes;
extern const Table kSummaryRank, kSummaryStep, kSummaryExclusive, kSummaryKernel, kSummaryGap, kSummarySync;
extern const Table kTimelineOverview;

struct Index {
    std::string_view name, table, columns;
};

// The tables createTablesSql() creates, in creation order.
const std::vector<Table>& workspaceTables();
// The summary tables (created by ensureSummaryTables) and their indexes.
const std::vector<Table>& summaryTables();
const std::vector<Index>& summaryIndexes();
// Every described table: workspace, summary and timeline_overview tables.
const std::vector<Table>& allTables();
// The described table named `name`; nullptr when none.
const Table* findTable(std::string_view name);

std::string createSummaryTablesSql(); // CREATE TABLE / CREATE INDEX IF NOT EXISTS of the summary tables
std::string createTimelineOverviewSql();
// The summary_rank columns added after its first release (graph_launch_count on), in table order.
std::span<const Column> laterSummaryRankColumns();

} // namespace cnp::schema
