#pragma once
// One description per stored table (schema version 4; docs/schema.md documents each and
// tests/analysis/tst_schemadoc.cpp checks the document against these). Everything that spells a table
// out comes from here: the DDL (schema::createTablesSql, createSummaryTablesSql,
// createTimelineOverviewSql), the bulk insert and loadRun of the row tables (Workspace), the summary
// rows' INSERTs (RunSummaries) and their readers' column lists (RunSummaryReader).
// Column order is table order: appending a column is a schema change (and a migration); the frozen v4
// DDL in tests/data/schema_v4.sql must keep matching (tst_tableschema).
#include "core/SummaryRows.h"
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

// NCCL call arguments of communication kernels (core/CollectiveArgs.h), stored with the rank's events (a
// study's shard of the rank): added to v4 after its release, created when a run with rows is written
// (createCollectiveArgsSql); a workspace without it reads as having none.
inline constexpr auto kCollectiveArgs = [] {
    using namespace detail;
    using E = CollectiveArgs;
    return rowTable<E>(
        "collective_args", "run_id, rank, stream, start_ns", col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::stream>>("stream", I, NN),
        col<IntField<&E::start>>("start_ns", I, NN, NS), col<StringIdField<&E::op>>("op_id", I, NN),
        col<IntField<&E::inNelems>>("in_nelems", I, NN), col<IntField<&E::outNelems>>("out_nelems", I, NN),
        col<StringIdField<&E::dtype>>("dtype_id", I, NN),
        col<IntField<&E::dtypeBytes>>("dtype_bytes", I, NN, BYTES),
        col<IntField<&E::groupSize>>("group_size", I, NN),
        col<StringIdField<&E::groupName>>("pg_name_id", I, NN),
        col<StringIdField<&E::groupDescription>>("pg_desc_id", I, NN),
        col<StringIdField<&E::groupRanks>>("pg_ranks_id", I, NN));
}();

// ---- Summary tables (written from RunSummaries' rows, store/SummaryRowBuffers; read by
// store/SummaryRowReader): each column mapped to a member of its core/SummaryRows.h row type.

inline constexpr auto kSummaryRankRows = [] {
    using namespace detail;
    using E = SummaryRankRow;
    constexpr std::string_view O = "";
    return rowTable<E>(
        "summary_rank", "run_id, rank", col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::kernelCount>>("kernel_count", I, O),
        col<IntField<&E::memcpyCount>>("memcpy_count", I, O),
        col<IntField<&E::memsetCount>>("memset_count", I, O),
        col<IntField<&E::runtimeCount>>("runtime_count", I, O),
        col<IntField<&E::driverCount>>("driver_count", I, O),
        col<IntField<&E::cpuRangeCount>>("cpu_range_count", I, O),
        col<IntField<&E::flowCount>>("flow_count", I, O),
        col<IntField<&E::gpuAnnotationCount>>("gpu_annotation_count", I, O),
        col<IntField<&E::kernelTimeNs>>("kernel_time_ns", I, O, NS),
        col<OptionalIntField<&E::windowStartNs>>("window_start_ns", I, O, NS),
        col<OptionalIntField<&E::windowEndNs>>("window_end_ns", I, O, NS),
        col<IntField<&E::computeNs>>("compute_ns", I, O, NS),
        col<IntField<&E::communicationNs>>("communication_ns", I, O, NS),
        col<IntField<&E::overlapNs>>("overlap_ns", I, O, NS),
        col<IntField<&E::memoryNs>>("memory_ns", I, O, NS), col<IntField<&E::idleNs>>("idle_ns", I, O, NS),
        col<IntField<&E::communicationTotalNs>>("communication_total_ns", I, O, NS),
        col<IntField<&E::memcpyBytes>>("memcpy_bytes", I, O, BYTES),
        col<IntField<&E::memcpyTimeNs>>("memcpy_time_ns", I, O, NS),
        col<IntField<&E::memsetTimeNs>>("memset_time_ns", I, O, NS),
        col<IntField<&E::pageableMemcpyCount>>("pageable_memcpy_count", I, O),
        col<IntField<&E::pageableMemcpyNs>>("pageable_memcpy_ns", I, O, NS),
        col<IntField<&E::syncMemcpyCount>>("sync_memcpy_count", I, O),
        col<IntField<&E::syncMemcpyNs>>("sync_memcpy_ns", I, O, NS),
        col<IntField<&E::launchedKernelCount>>("launched_kernel_count", I, O),
        col<RealField<&E::launchDelayMeanNs>>("launch_delay_mean_ns", R, O, NS),
        col<IntField<&E::launchDelayMedianNs>>("launch_delay_median_ns", I, O, NS),
        col<IntField<&E::launchDelayP95Ns>>("launch_delay_p95_ns", I, O, NS),
        col<IntField<&E::launchDelayMaxNs>>("launch_delay_max_ns", I, O, NS),
        col<IntField<&E::shortKernelCount>>("short_kernel_count", I, O),
        col<RealField<&E::launchApiMeanNs>>("launch_api_mean_ns", R, O, NS),
        col<IntField<&E::deviceSyncCount>>("device_sync_count", I, O),
        col<IntField<&E::deviceSyncNs>>("device_sync_ns", I, O, NS),
        col<IntField<&E::streamSyncCount>>("stream_sync_count", I, O),
        col<IntField<&E::streamSyncNs>>("stream_sync_ns", I, O, NS),
        // Added after the table's first release (laterSummaryRankColumns):
        col<IntField<&E::graphLaunchCount>>("graph_launch_count", I, O),
        col<IntField<&E::graphKernelCount>>("graph_kernel_count", I, O),
        col<OptionalIntField<&E::orphanCount>>("orphan_count", I, O),
        col<IntField<&E::orphanNs>>("orphan_ns", I, O, NS),
        col<OptionalIntField<&E::launchedWindowStartNs>>("launched_window_start_ns", I, O, NS),
        col<OptionalIntField<&E::launchedWindowEndNs>>("launched_window_end_ns", I, O, NS),
        col<IntField<&E::launchedComputeNs>>("launched_compute_ns", I, O, NS),
        col<IntField<&E::launchedCommunicationNs>>("launched_communication_ns", I, O, NS),
        col<IntField<&E::launchedOverlapNs>>("launched_overlap_ns", I, O, NS),
        col<IntField<&E::launchedMemoryNs>>("launched_memory_ns", I, O, NS),
        col<IntField<&E::launchedIdleNs>>("launched_idle_ns", I, O, NS),
        col<IntField<&E::launchedCommunicationTotalNs>>("launched_communication_total_ns", I, O, NS),
        col<IntField<&E::launchBoundIdleNs>>("launch_bound_idle_ns", I, O, NS));
}();

inline constexpr auto kSummaryStepRows = [] {
    using namespace detail;
    using E = SummaryStepRow;
    constexpr std::string_view O = "";
    return rowTable<E>(
        "summary_step", "run_id, rank, step_index", col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::stepIndex>>("step_index", I, NN),
        col<InternedTextField<&E::name>>("name_id", I, O),
        col<IntField<&E::cpuStartNs>>("cpu_start_ns", I, O, NS),
        col<IntField<&E::cpuEndNs>>("cpu_end_ns", I, O, NS),
        col<IntField<&E::gpuStartNs>>("gpu_start_ns", I, O, NS),
        col<IntField<&E::gpuEndNs>>("gpu_end_ns", I, O, NS),
        col<IntField<&E::computeNs>>("compute_ns", I, O, NS),
        col<IntField<&E::communicationNs>>("communication_ns", I, O, NS),
        col<IntField<&E::overlapNs>>("overlap_ns", I, O, NS),
        col<IntField<&E::memoryNs>>("memory_ns", I, O, NS), col<IntField<&E::idleNs>>("idle_ns", I, O, NS),
        col<IntField<&E::communicationTotalNs>>("communication_total_ns", I, O, NS),
        col<IntField<&E::deviceSyncCount>>("device_sync_count", I, O),
        // Added in schema v4 (laterSummaryColumns):
        col<IntField<&E::launchBoundIdleNs>>("launch_bound_idle_ns", I, O, NS));
}();

inline constexpr auto kSummaryExclusiveRows = [] {
    using namespace detail;
    using E = SummaryExclusiveRow;
    return rowTable<E>("summary_exclusive", "run_id, rank, step_index, category_id",
                       col<KeyField>("run_id", I, NN), col<IntField<&E::rank>>("rank", I, NN),
                       col<IntField<&E::stepIndex>>("step_index", I, NN),
                       col<InternedTextField<&E::category>>("category_id", I, NN),
                       col<IntField<&E::exclusiveNs>>("exclusive_ns", I, NN, NS));
}();

inline constexpr auto kSummaryKernelRows = [] {
    using namespace detail;
    using E = SummaryKernelRow;
    constexpr std::string_view O = "";
    return rowTable<E>(
        "summary_kernel", "run_id, rank, name_id", col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<InternedTextField<&E::name>>("name_id", I, NN),
        col<InternedTextField<&E::category>>("category_id", I, O), col<IntField<&E::count>>("count", I, O),
        col<IntField<&E::totalNs>>("total_ns", I, O, NS), col<RealField<&E::meanNs>>("mean_ns", R, O, NS),
        col<RealField<&E::medianNs>>("median_ns", R, O, NS), col<IntField<&E::minNs>>("min_ns", I, O, NS),
        col<IntField<&E::maxNs>>("max_ns", I, O, NS), col<RealField<&E::stddevNs>>("stddev_ns", R, O, NS));
}();

inline constexpr auto kSummaryGapRows = [] {
    using namespace detail;
    using E = SummaryGapRow;
    constexpr std::string_view O = "";
    return rowTable<E>(
        "summary_gap", "", col<KeyField>("run_id", I, NN), col<IntField<&E::rank>>("rank", I, NN),
        col<IntField<&E::stepIndex>>("step_index", I, O), col<IntField<&E::startNs>>("start_ns", I, O, NS),
        col<IntField<&E::endNs>>("end_ns", I, O, NS), col<TextField<&E::cpuState>>("cpu_state", T, O),
        col<IntField<&E::launches>>("launches", I, O), col<IntField<&E::syncNs>>("sync_ns", I, O, NS),
        col<IntField<&E::dataWaitNs>>("data_wait_ns", I, O, NS),
        col<InternedTextField<&E::nextName>>("next_name_id", I, O),
        col<IntField<&E::nextLaunchNs>>("next_launch_ns", I, O, NS));
}();

inline constexpr auto kSummarySyncRows = [] {
    using namespace detail;
    using E = SummarySyncRow;
    constexpr std::string_view O = "";
    return rowTable<E>(
        "summary_sync", "", col<KeyField>("run_id", I, NN), col<IntField<&E::rank>>("rank", I, NN),
        col<IntField<&E::stepIndex>>("step_index", I, NN), col<InternedTextField<&E::api>>("name_id", I, O),
        col<IntField<&E::startNs>>("start_ns", I, O, NS), col<IntField<&E::endNs>>("end_ns", I, O, NS),
        col<IntField<&E::dtohBytes>>("dtoh_bytes", I, O, BYTES));
}();

inline constexpr auto kSummaryStreamRows = [] {
    using namespace detail;
    using E = SummaryStreamRow;
    constexpr std::string_view O = "";
    return rowTable<E>(
        "summary_stream", "run_id, rank, device, stream", col<KeyField>("run_id", I, NN),
        col<IntField<&E::rank>>("rank", I, NN), col<IntField<&E::device>>("device", I, NN),
        col<IntField<&E::stream>>("stream", I, NN), col<IntField<&E::kernelCount>>("kernel_count", I, O),
        col<IntField<&E::computeNs>>("compute_ns", I, O, NS),
        col<IntField<&E::communicationNs>>("communication_ns", I, O, NS),
        col<IntField<&E::memoryNs>>("memory_ns", I, O, NS),
        col<InternedTextField<&E::topKernel>>("top_kernel_id", I, O),
        col<IntField<&E::topKernelNs>>("top_kernel_ns", I, O, NS),
        col<IntField<&E::queueMax>>("queue_max", I, O), col<RealField<&E::queueMean>>("queue_mean", R, O),
        col<IntField<&E::queuedOps>>("queued_ops", I, O));
}();

// ---- The runs table: Workspace binds and reads its columns by name (kRunsColumns' indexes, resolved
// at compile time by runsColumn), so reordering the description cannot shift a value.
inline constexpr Column kRunsColumns[] = {{"id", detail::I, detail::PK},
                                          {"name", detail::T, "NOT NULL UNIQUE"},
                                          {"config", detail::T, detail::NN},
                                          {"repeat", detail::I, "NOT NULL DEFAULT 0"},
                                          {"source_format", detail::T, detail::NN},
                                          {"source_files", detail::T, detail::NN},
                                          {"host", detail::T, "NOT NULL DEFAULT ''"},
                                          {"world_size", detail::I, "NOT NULL DEFAULT 1"},
                                          {"gpu_models", detail::T, "NOT NULL DEFAULT '[]'"},
                                          {"driver_version", detail::T, "NOT NULL DEFAULT ''"},
                                          {"cuda_version", detail::T, "NOT NULL DEFAULT ''"},
                                          {"cupti_version", detail::T, "NOT NULL DEFAULT ''"},
                                          {"container_image", detail::T, "NOT NULL DEFAULT ''"},
                                          {"env", detail::T, "NOT NULL DEFAULT '{}'"},
                                          {"synthetic", detail::I, "NOT NULL DEFAULT 0"},
                                          {"skipped_events", detail::I, "NOT NULL DEFAULT 0"},
                                          {"first_skip_offset", detail::I, "NOT NULL DEFAULT -1"},
                                          {"first_skip_reason", detail::T, "NOT NULL DEFAULT ''"},
                                          {"tokens_per_step", detail::R, "NOT NULL DEFAULT 0"},
                                          {"flops_per_step", detail::R, "NOT NULL DEFAULT 0"},
                                          {"peak_flops", detail::R, "NOT NULL DEFAULT 0", "FLOP/s"},
                                          {"created_at", detail::T, detail::NN},
                                          {"kernel_count", detail::I, "NOT NULL DEFAULT 0"},
                                          {"event_count", detail::I, "NOT NULL DEFAULT 0"}};

// Index of column `name` of the runs table (consteval: a misspelt name does not compile).
consteval int runsColumn(std::string_view name) {
    for (std::size_t i = 0; i < std::size(kRunsColumns); ++i)
        if (kRunsColumns[i].name == name)
            return static_cast<int>(i);
    throw "no such runs column"; // not a constant expression: a compile error
}

// ---- Tables read and written by hand-written code (their SQL text is still generated from these).
extern const Table kMeta, kStrings, kRuns, kRunRows, kRunAttributes;
extern const Table kSummaryRank, kSummaryStep, kSummaryExclusive, kSummaryKernel, kSummaryGap, kSummarySync,
    kSummaryStream;
extern const Table kTimelineOverview;
extern const Table kCollectiveArgsTable;
// What a shard written alone keeps of each of its runs so that a study can be assembled from shards
// (docs/schema.md "shard_part"; store/ShardParts.h). Only in such shards; created with their first run.
extern const Table kShardPart;
// One row per (run, rank): the rank's GPU idle gaps packed (docs/schema.md "summary_gap_pack";
// store/GapPack.h, store/GapPackRows.h). A summary table; runs summarised before it keep summary_gap rows.
extern const Table kSummaryGapPack;

struct Index {
    std::string_view name, table, columns;
};

// The tables createTablesSql() creates, in creation order.
const std::vector<Table>& workspaceTables();
// The summary tables (created by ensureSummaryTables) and their indexes.
const std::vector<Table>& summaryTables();
const std::vector<Index>& summaryIndexes();
// Every described table: workspace, summary, timeline_overview, collective_args and shard_part tables.
const std::vector<Table>& allTables();
// The described table named `name`; nullptr when none.
const Table* findTable(std::string_view name);

std::string createSummaryTablesSql(); // CREATE TABLE / CREATE INDEX IF NOT EXISTS of the summary tables
std::string createTimelineOverviewSql();
std::string createCollectiveArgsSql(); // CREATE TABLE IF NOT EXISTS collective_args
std::string createShardPartSql();      // CREATE TABLE IF NOT EXISTS shard_part
// The summary_rank columns added after its first release (graph_launch_count on), in table order.
std::span<const Column> laterSummaryRankColumns();

} // namespace cnp::schema
