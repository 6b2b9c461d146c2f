#include "store/Tables.h"

namespace cnp::schema {

namespace {

using namespace detail;
constexpr std::string_view EMPTY_TEXT = "NOT NULL DEFAULT ''", ZERO = "NOT NULL DEFAULT 0";

constexpr Column kMetaColumns[] = {{"key", T, PK}, {"value", T, NN}};
constexpr Column kStringsColumns[] = {{"id", I, PK}, {"value", T, "NOT NULL UNIQUE"}};
constexpr Column kRunsColumns[] = {{"id", I, PK},
                                   {"name", T, "NOT NULL UNIQUE"},
                                   {"config", T, NN},
                                   {"repeat", I, ZERO},
                                   {"source_format", T, NN},
                                   {"source_files", T, NN},
                                   {"host", T, EMPTY_TEXT},
                                   {"world_size", I, "NOT NULL DEFAULT 1"},
                                   {"gpu_models", T, "NOT NULL DEFAULT '[]'"},
                                   {"driver_version", T, EMPTY_TEXT},
                                   {"cuda_version", T, EMPTY_TEXT},
                                   {"cupti_version", T, EMPTY_TEXT},
                                   {"container_image", T, EMPTY_TEXT},
                                   {"env", T, "NOT NULL DEFAULT '{}'"},
                                   {"synthetic", I, ZERO},
                                   {"skipped_events", I, ZERO},
                                   {"first_skip_offset", I, "NOT NULL DEFAULT -1"},
                                   {"first_skip_reason", T, EMPTY_TEXT},
                                   {"tokens_per_step", R, ZERO},
                                   {"flops_per_step", R, ZERO},
                                   {"peak_flops", R, ZERO, "FLOP/s"},
                                   {"created_at", T, NN},
                                   {"kernel_count", I, ZERO},
                                   {"event_count", I, ZERO}};
constexpr Column kRunRowsColumns[] = {
    {"run_id", I, NN}, {"table_name", T, NN}, {"first_id", I, NN}, {"last_id", I, NN}};
constexpr Column kRunAttributesColumns[] = {{"run_id", I, NN}, {"key", T, NN}, {"value", T, NN}};

// summary_rank: the columns from graph_launch_count on were added after its first release.
constexpr Column kSummaryRankColumns[] = {{"run_id", I, NN},
                                          {"rank", I, NN},
                                          {"kernel_count", I, ""},
                                          {"memcpy_count", I, ""},
                                          {"memset_count", I, ""},
                                          {"runtime_count", I, ""},
                                          {"driver_count", I, ""},
                                          {"cpu_range_count", I, ""},
                                          {"flow_count", I, ""},
                                          {"gpu_annotation_count", I, ""},
                                          {"kernel_time_ns", I, "", NS},
                                          {"window_start_ns", I, "", NS},
                                          {"window_end_ns", I, "", NS},
                                          {"compute_ns", I, "", NS},
                                          {"communication_ns", I, "", NS},
                                          {"overlap_ns", I, "", NS},
                                          {"memory_ns", I, "", NS},
                                          {"idle_ns", I, "", NS},
                                          {"communication_total_ns", I, "", NS},
                                          {"memcpy_bytes", I, "", BYTES},
                                          {"memcpy_time_ns", I, "", NS},
                                          {"memset_time_ns", I, "", NS},
                                          {"pageable_memcpy_count", I, ""},
                                          {"pageable_memcpy_ns", I, "", NS},
                                          {"sync_memcpy_count", I, ""},
                                          {"sync_memcpy_ns", I, "", NS},
                                          {"launched_kernel_count", I, ""},
                                          {"launch_delay_mean_ns", R, "", NS},
                                          {"launch_delay_median_ns", I, "", NS},
                                          {"launch_delay_p95_ns", I, "", NS},
                                          {"launch_delay_max_ns", I, "", NS},
                                          {"short_kernel_count", I, ""},
                                          {"launch_api_mean_ns", R, "", NS},
                                          {"device_sync_count", I, ""},
                                          {"device_sync_ns", I, "", NS},
                                          {"stream_sync_count", I, ""},
                                          {"stream_sync_ns", I, "", NS},
                                          {"graph_launch_count", I, ""},
                                          {"graph_kernel_count", I, ""},
                                          {"orphan_count", I, ""},
                                          {"orphan_ns", I, "", NS},
                                          {"launched_window_start_ns", I, "", NS},
                                          {"launched_window_end_ns", I, "", NS},
                                          {"launched_compute_ns", I, "", NS},
                                          {"launched_communication_ns", I, "", NS},
                                          {"launched_overlap_ns", I, "", NS},
                                          {"launched_memory_ns", I, "", NS},
                                          {"launched_idle_ns", I, "", NS},
                                          {"launched_communication_total_ns", I, "", NS}};
constexpr std::size_t kFirstLaterRankColumn = 37; // graph_launch_count
constexpr Column kSummaryStepColumns[] = {{"run_id", I, NN},           {"rank", I, NN},
                                          {"step_index", I, NN},       {"name_id", I, ""},
                                          {"cpu_start_ns", I, "", NS}, {"cpu_end_ns", I, "", NS},
                                          {"gpu_start_ns", I, "", NS}, {"gpu_end_ns", I, "", NS},
                                          {"compute_ns", I, "", NS},   {"communication_ns", I, "", NS},
                                          {"overlap_ns", I, "", NS},   {"memory_ns", I, "", NS},
                                          {"idle_ns", I, "", NS},      {"communication_total_ns", I, "", NS},
                                          {"device_sync_count", I, ""}};
constexpr Column kSummaryExclusiveColumns[] = {{"run_id", I, NN},
                                               {"rank", I, NN},
                                               {"step_index", I, NN},
                                               {"category_id", I, NN},
                                               {"exclusive_ns", I, NN, NS}};
constexpr Column kSummaryKernelColumns[] = {
    {"run_id", I, NN},     {"rank", I, NN},         {"name_id", I, NN},      {"category_id", I, ""},
    {"count", I, ""},      {"total_ns", I, "", NS}, {"mean_ns", R, "", NS},  {"median_ns", R, "", NS},
    {"min_ns", I, "", NS}, {"max_ns", I, "", NS},   {"stddev_ns", R, "", NS}};
constexpr Column kSummaryGapColumns[] = {{"run_id", I, NN},
                                         {"rank", I, NN},
                                         {"step_index", I, ""},
                                         {"start_ns", I, "", NS},
                                         {"end_ns", I, "", NS},
                                         {"cpu_state", T, ""},
                                         {"launches", I, ""},
                                         {"sync_ns", I, "", NS},
                                         {"data_wait_ns", I, "", NS},
                                         {"next_name_id", I, ""},
                                         {"next_launch_ns", I, "", NS}};
constexpr Column kSummarySyncColumns[] = {
    {"run_id", I, NN},       {"rank", I, NN},       {"step_index", I, NN},       {"name_id", I, ""},
    {"start_ns", I, "", NS}, {"end_ns", I, "", NS}, {"dtoh_bytes", I, "", BYTES}};
constexpr Column kTimelineOverviewColumns[] = {{"run_id", I, PK}, {"format", I, NN}, {"data", B, NN}};

static_assert(std::string_view(kSummaryRankColumns[kFirstLaterRankColumn].name) == "graph_launch_count");

} // namespace

const Table kMeta{"meta", kMetaColumns, ""};
const Table kStrings{"strings", kStringsColumns, ""};
const Table kRuns{"runs", kRunsColumns, ""};
const Table kRunRows{"run_rows", kRunRowsColumns, "run_id, table_name"};
const Table kRunAttributes{"run_attributes", kRunAttributesColumns, "run_id, key"};
const Table kSummaryRank{"summary_rank", kSummaryRankColumns, "run_id, rank"};
const Table kSummaryStep{"summary_step", kSummaryStepColumns, "run_id, rank, step_index"};
const Table kSummaryExclusive{"summary_exclusive", kSummaryExclusiveColumns,
                              "run_id, rank, step_index, category_id"};
const Table kSummaryKernel{"summary_kernel", kSummaryKernelColumns, "run_id, rank, name_id"};
const Table kSummaryGap{"summary_gap", kSummaryGapColumns, ""};
const Table kSummarySync{"summary_sync", kSummarySyncColumns, ""};
const Table kTimelineOverview{"timeline_overview", kTimelineOverviewColumns, ""};

const std::vector<Table>& workspaceTables() {
    static const std::vector<Table> tables = {kMeta,
                                              kStrings,
                                              kRuns,
                                              kRanks.table(),
                                              kKernels.table(),
                                              kMemcpys.table(),
                                              kMemsets.table(),
                                              kApiCalls.table(),
                                              kCpuRanges.table(),
                                              kGpuAnnotations.table(),
                                              kFlows.table(),
                                              kCounters.table(),
                                              kSteps.table(),
                                              kRunRows,
                                              kRunAttributes};
    return tables;
}

const std::vector<Table>& summaryTables() {
    static const std::vector<Table> tables = {kSummaryRank,   kSummaryStep, kSummaryExclusive,
                                              kSummaryKernel, kSummaryGap,  kSummarySync};
    return tables;
}

const std::vector<Index>& summaryIndexes() {
    static const std::vector<Index> indexes = {
        {"summary_gap_by_run", "summary_gap", "run_id, rank, start_ns"},
        {"summary_kernel_by_run", "summary_kernel", "run_id, rank, total_ns"}};
    return indexes;
}

const std::vector<Table>& allTables() {
    static const std::vector<Table> tables = [] {
        std::vector<Table> all = workspaceTables();
        all.insert(all.end(), summaryTables().begin(), summaryTables().end());
        all.push_back(kTimelineOverview);
        return all;
    }();
    return tables;
}

const Table* findTable(std::string_view name) {
    for (const auto& t : allTables())
        if (t.name == name)
            return &t;
    return nullptr;
}

std::string createSummaryTablesSql() {
    std::string sql;
    for (const auto& t : summaryTables())
        sql += createTableSql(t);
    for (const auto& i : summaryIndexes())
        sql += "CREATE INDEX IF NOT EXISTS " + std::string(i.name) + " ON " + std::string(i.table) + "(" +
               std::string(i.columns) + ");\n";
    return sql;
}

std::string createTimelineOverviewSql() {
    return createTableSql(kTimelineOverview);
}

std::span<const Column> laterSummaryRankColumns() {
    return std::span<const Column>(kSummaryRankColumns).subspan(kFirstLaterRankColumn);
}

} // namespace cnp::schema
