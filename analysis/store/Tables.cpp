#include "store/Tables.h"

namespace cnp::schema {

namespace {

using namespace detail;

constexpr Column kMetaColumns[] = {{"key", T, PK}, {"value", T, NN}};
constexpr Column kStringsColumns[] = {{"id", I, PK}, {"value", T, "NOT NULL UNIQUE"}};
constexpr Column kRunRowsColumns[] = {
    {"run_id", I, NN}, {"table_name", T, NN}, {"first_id", I, NN}, {"last_id", I, NN}};
constexpr Column kRunAttributesColumns[] = {{"run_id", I, NN}, {"key", T, NN}, {"value", T, NN}};

constexpr Column kTimelineOverviewColumns[] = {{"run_id", I, PK}, {"format", I, NN}, {"data", B, NN}};
constexpr Column kShardPartColumns[] = {
    {"run_id", I, PK},        {"steps_pattern", I, NN},   {"steps_by_name", I, NN}, {"kernel_format", I, NN},
    {"kernel_groups", B, NN}, {"overview_format", I, NN}, {"overview_part", B, NN}};

constexpr Column kSummaryGapPackColumns[] = {
    {"run_id", I, NN}, {"rank", I, NN}, {"format", I, NN}, {"gap_count", I, NN}, {"pack", B, NN}};

} // namespace

const Table kMeta{"meta", kMetaColumns, ""};
const Table kStrings{"strings", kStringsColumns, ""};
const Table kRuns{"runs", kRunsColumns, ""};
const Table kRunRows{"run_rows", kRunRowsColumns, "run_id, table_name"};
const Table kRunAttributes{"run_attributes", kRunAttributesColumns, "run_id, key"};
const Table kSummaryRank = kSummaryRankRows.table();
const Table kSummaryStep = kSummaryStepRows.table();
const Table kSummaryExclusive = kSummaryExclusiveRows.table();
const Table kSummaryKernel = kSummaryKernelRows.table();
const Table kSummaryGap = kSummaryGapRows.table();
const Table kSummarySync = kSummarySyncRows.table();
const Table kSummaryStream = kSummaryStreamRows.table();
const Table kTimelineOverview{"timeline_overview", kTimelineOverviewColumns, ""};
const Table kCollectiveArgsTable = kCollectiveArgs.table();
const Table kShardPart{"shard_part", kShardPartColumns, ""};
const Table kSummaryGapPack{"summary_gap_pack", kSummaryGapPackColumns, "run_id, rank"};

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
    static const std::vector<Table> tables = {kSummaryRank, kSummaryStep, kSummaryExclusive, kSummaryKernel,
                                              kSummaryGap,  kSummarySync, kSummaryStream,    kSummaryGapPack};
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
        all.push_back(kCollectiveArgsTable);
        all.push_back(kShardPart);
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

std::string createCollectiveArgsSql() {
    return createTableSql(kCollectiveArgsTable);
}

std::string createShardPartSql() {
    return createTableSql(kShardPart);
}

std::span<const Column> laterSummaryRankColumns() {
    constexpr std::size_t first = kSummaryRankRows.indexOf("graph_launch_count");
    return std::span<const Column>(kSummaryRankRows.columns).subspan(first);
}

} // namespace cnp::schema
