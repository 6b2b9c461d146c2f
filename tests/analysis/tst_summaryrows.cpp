// store/SummaryRowBuffers and store/SummaryRowReader: every column of every summary table round-trips
// into its own member. Each row gets a distinct value per member; the test then reads every column back
// twice: through SummaryRowReader (member by member) and by its column NAME in SQL, against a
// name -> value list written here by hand (independent of the pairing in store/Tables.h). A description
// that pairs a column with the wrong member, or a reordered description, fails here. The list must name
// every column of the table but run_id, so a new column forces this test to be extended.
#include "store/RowBuffer.h"
#include "store/Sqlite.h"
#include "store/SummaryRowBuffers.h"
#include "store/SummaryRowReader.h"
#include "store/SummaryTables.h"
#include "store/Tables.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <QTemporaryDir>
#include <QtTest>

#include <set>
#include <string>
#include <variant>
#include <vector>

using namespace cnp;

namespace {

constexpr RunId kRun{7};
struct NoStrings {}; // the summary rows hold no trace string ids

// What one column must hold: an integer, a real, text (TEXT columns) or the text of a `*_id` column's
// string, or NULL.
struct Null {};
struct Interned {
    std::string text;
};
bool operator==(const Null&, const Null&) {
    return true;
}
bool operator==(const Interned& a, const Interned& b) {
    return a.text == b.text;
}
using Value = std::variant<std::int64_t, double, std::string, Interned, Null>;
struct Expect {
    std::string column;
    Value value;
};

// Distinct values: each call to next() a new integer, so no two members share one.
struct Counter {
    std::int64_t n = 1000;
    std::int64_t next() { return n += 7; }
    double real() { return static_cast<double>(next()) + 0.25; }
    std::string text() { return "s" + std::to_string(next()); }
};

// Checks `expected` against the table by column name (one SELECT per column) and that it names every
// column of `table` but run_id, each once.
void checkColumns(const Workspace& ws, const schema::Table& table, const std::string& where,
                  const std::vector<Expect>& expected) {
    std::set<std::string> named;
    for (const Expect& e : expected) {
        QVERIFY2(table.has(e.column), qPrintable(QString::fromStdString(e.column)));
        QVERIFY2(named.insert(e.column).second, qPrintable(QString::fromStdString(e.column)));
        const bool interned = std::holds_alternative<Interned>(e.value);
        const std::string expr =
            interned ? "(SELECT value FROM strings WHERE id = " + e.column + ")" : e.column;
        Statement st(ws.db(), "SELECT " + expr + ", " + e.column + " IS NULL FROM " +
                                  std::string(table.name) +
                                  " WHERE run_id = " + std::to_string(kRun.value()) + " AND " + where);
        QVERIFY2(st.step(), qPrintable(QString::fromStdString(e.column)));
        const QString what = QString::fromStdString(std::string(table.name) + "." + e.column);
        if (const auto* i = std::get_if<std::int64_t>(&e.value)) {
            QVERIFY2(st.i64(1) == 0, qPrintable(what));
            QCOMPARE(st.i64(0), *i);
        } else if (const auto* d = std::get_if<double>(&e.value)) {
            QVERIFY2(st.i64(1) == 0, qPrintable(what));
            QCOMPARE(st.f64(0), *d);
        } else if (const auto* s = std::get_if<std::string>(&e.value)) {
            QCOMPARE(QString::fromStdString(st.text(0)), QString::fromStdString(*s));
        } else if (const auto* t = std::get_if<Interned>(&e.value)) {
            QCOMPARE(QString::fromStdString(st.text(0)), QString::fromStdString(t->text));
        } else {
            QVERIFY2(st.i64(1) == 1, qPrintable(what + " is not NULL"));
        }
    }
    QCOMPARE(named.size() + 1, table.columns.size());
}

SummaryRankRow distinctRankRow(Counter& c) {
    SummaryRankRow r;
    r.rank = static_cast<std::int32_t>(c.next());
    r.kernelCount = c.next(), r.memcpyCount = c.next(), r.memsetCount = c.next(), r.runtimeCount = c.next();
    r.driverCount = c.next(), r.cpuRangeCount = c.next(), r.flowCount = c.next();
    r.gpuAnnotationCount = c.next(), r.kernelTimeNs = c.next();
    r.windowStartNs = c.next(), r.windowEndNs = c.next();
    r.computeNs = c.next(), r.communicationNs = c.next(), r.overlapNs = c.next(), r.memoryNs = c.next();
    r.idleNs = c.next(), r.communicationTotalNs = c.next();
    r.memcpyBytes = c.next(), r.memcpyTimeNs = c.next(), r.memsetTimeNs = c.next();
    r.pageableMemcpyCount = c.next(), r.pageableMemcpyNs = c.next(), r.syncMemcpyCount = c.next();
    r.syncMemcpyNs = c.next(), r.launchedKernelCount = c.next(), r.launchDelayMeanNs = c.real();
    r.launchDelayMedianNs = c.next(), r.launchDelayP95Ns = c.next(), r.launchDelayMaxNs = c.next();
    r.shortKernelCount = c.next(), r.launchApiMeanNs = c.real();
    r.deviceSyncCount = c.next(), r.deviceSyncNs = c.next(), r.streamSyncCount = c.next();
    r.streamSyncNs = c.next(), r.graphLaunchCount = c.next(), r.graphKernelCount = c.next();
    r.orphanCount = c.next(), r.orphanNs = c.next();
    r.launchedWindowStartNs = c.next(), r.launchedWindowEndNs = c.next();
    r.launchedComputeNs = c.next(), r.launchedCommunicationNs = c.next(), r.launchedOverlapNs = c.next();
    r.launchedMemoryNs = c.next(), r.launchedIdleNs = c.next(), r.launchedCommunicationTotalNs = c.next();
    r.launchBoundIdleNs = c.next();
    return r;
}

Value opt(const std::optional<std::int64_t>& v) {
    return v ? Value(*v) : Value(Null{});
}

std::vector<Expect> rankColumns(const SummaryRankRow& r) {
    return {{"rank", std::int64_t{r.rank}},
            {"kernel_count", r.kernelCount},
            {"memcpy_count", r.memcpyCount},
            {"memset_count", r.memsetCount},
            {"runtime_count", r.runtimeCount},
            {"driver_count", r.driverCount},
            {"cpu_range_count", r.cpuRangeCount},
            {"flow_count", r.flowCount},
            {"gpu_annotation_count", r.gpuAnnotationCount},
            {"kernel_time_ns", r.kernelTimeNs},
            {"window_start_ns", opt(r.windowStartNs)},
            {"window_end_ns", opt(r.windowEndNs)},
            {"compute_ns", r.computeNs},
            {"communication_ns", r.communicationNs},
            {"overlap_ns", r.overlapNs},
            {"memory_ns", r.memoryNs},
            {"idle_ns", r.idleNs},
            {"communication_total_ns", r.communicationTotalNs},
            {"memcpy_bytes", r.memcpyBytes},
            {"memcpy_time_ns", r.memcpyTimeNs},
            {"memset_time_ns", r.memsetTimeNs},
            {"pageable_memcpy_count", r.pageableMemcpyCount},
            {"pageable_memcpy_ns", r.pageableMemcpyNs},
            {"sync_memcpy_count", r.syncMemcpyCount},
            {"sync_memcpy_ns", r.syncMemcpyNs},
            {"launched_kernel_count", r.launchedKernelCount},
            {"launch_delay_mean_ns", r.launchDelayMeanNs},
            {"launch_delay_median_ns", r.launchDelayMedianNs},
            {"launch_delay_p95_ns", r.launchDelayP95Ns},
            {"launch_delay_max_ns", r.launchDelayMaxNs},
            {"short_kernel_count", r.shortKernelCount},
            {"launch_api_mean_ns", r.launchApiMeanNs},
            {"device_sync_count", r.deviceSyncCount},
            {"device_sync_ns", r.deviceSyncNs},
            {"stream_sync_count", r.streamSyncCount},
            {"stream_sync_ns", r.streamSyncNs},
            {"graph_launch_count", r.graphLaunchCount},
            {"graph_kernel_count", r.graphKernelCount},
            {"orphan_count", opt(r.orphanCount)},
            {"orphan_ns", r.orphanNs},
            {"launched_window_start_ns", opt(r.launchedWindowStartNs)},
            {"launched_window_end_ns", opt(r.launchedWindowEndNs)},
            {"launched_compute_ns", r.launchedComputeNs},
            {"launched_communication_ns", r.launchedCommunicationNs},
            {"launched_overlap_ns", r.launchedOverlapNs},
            {"launched_memory_ns", r.launchedMemoryNs},
            {"launched_idle_ns", r.launchedIdleNs},
            {"launched_communication_total_ns", r.launchedCommunicationTotalNs},
            {"launch_bound_idle_ns", r.launchBoundIdleNs}};
}

// Member by member: what SummaryRowReader read equals what was written.
void compareRank(const SummaryRankRow& a, const SummaryRankRow& b) {
    const auto ea = rankColumns(a), eb = rankColumns(b);
    QCOMPARE(ea.size(), eb.size());
    for (std::size_t i = 0; i < ea.size(); ++i)
        QVERIFY2(ea[i].value.index() == eb[i].value.index() &&
                     (std::holds_alternative<Null>(ea[i].value) || ea[i].value == eb[i].value),
                 qPrintable(QString::fromStdString(ea[i].column)));
}

} // namespace

class TestSummaryRows : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int n_ = 0;

    std::unique_ptr<Workspace> freshWorkspace() {
        return std::make_unique<Workspace>(dir_.filePath(QString("w%1.cnpdb").arg(++n_)).toStdString(),
                                           Workspace::Mode::CreateIfMissing);
    }
    static void write(Workspace& ws, const SummaryRowBuffers& rows) {
        auto tx = writeTransaction(ws);
        rows.write(ws, kRun);
        tx.commit();
    }

private slots:
    void rankRowRoundTripsEveryColumn() {
        auto ws = freshWorkspace();
        Counter c;
        const SummaryRankRow full = distinctRankRow(c);
        SummaryRankRow empty = distinctRankRow(c); // NULL windows and orphan count
        empty.windowStartNs.reset(), empty.windowEndNs.reset(), empty.orphanCount.reset();
        empty.launchedWindowStartNs.reset(), empty.launchedWindowEndNs.reset();
        SummaryRowBuffers rows;
        rows.add(full);
        rows.add(empty);
        write(*ws, rows);
        checkColumns(*ws, schema::kSummaryRank, "rank = " + std::to_string(full.rank), rankColumns(full));
        checkColumns(*ws, schema::kSummaryRank, "rank = " + std::to_string(empty.rank), rankColumns(empty));
        const auto back = SummaryRowReader(*ws, kRun).ranks();
        QCOMPARE(back.size(), std::size_t{2});
        compareRank(back[0], full);
        compareRank(back[1], empty);
    }

    void stepRowRoundTripsEveryColumn() {
        auto ws = freshWorkspace();
        Counter c;
        SummaryStepRow r;
        r.rank = static_cast<std::int32_t>(c.next()), r.stepIndex = static_cast<std::int32_t>(c.next());
        r.name = c.text(), r.cpuStartNs = c.next(), r.cpuEndNs = c.next(), r.gpuStartNs = c.next();
        r.gpuEndNs = c.next(), r.computeNs = c.next(), r.communicationNs = c.next(), r.overlapNs = c.next();
        r.memoryNs = c.next(), r.idleNs = c.next(), r.communicationTotalNs = c.next();
        r.deviceSyncCount = c.next(), r.launchBoundIdleNs = c.next();
        SummaryRowBuffers rows;
        rows.add(r);
        write(*ws, rows);
        checkColumns(*ws, schema::kSummaryStep, "1",
                     {{"rank", std::int64_t{r.rank}},
                      {"step_index", std::int64_t{r.stepIndex}},
                      {"name_id", Interned{r.name}},
                      {"cpu_start_ns", r.cpuStartNs},
                      {"cpu_end_ns", r.cpuEndNs},
                      {"gpu_start_ns", r.gpuStartNs},
                      {"gpu_end_ns", r.gpuEndNs},
                      {"compute_ns", r.computeNs},
                      {"communication_ns", r.communicationNs},
                      {"overlap_ns", r.overlapNs},
                      {"memory_ns", r.memoryNs},
                      {"idle_ns", r.idleNs},
                      {"communication_total_ns", r.communicationTotalNs},
                      {"device_sync_count", r.deviceSyncCount},
                      {"launch_bound_idle_ns", r.launchBoundIdleNs}});
        const auto back = SummaryRowReader(*ws, kRun).steps(-1);
        QCOMPARE(back.size(), std::size_t{1});
        const SummaryStepRow& b = back[0];
        QCOMPARE(b.rank, r.rank);
        QCOMPARE(b.stepIndex, r.stepIndex);
        QCOMPARE(b.name, r.name);
        QCOMPARE(b.cpuStartNs, r.cpuStartNs);
        QCOMPARE(b.cpuEndNs, r.cpuEndNs);
        QCOMPARE(b.gpuStartNs, r.gpuStartNs);
        QCOMPARE(b.gpuEndNs, r.gpuEndNs);
        QCOMPARE(b.computeNs, r.computeNs);
        QCOMPARE(b.communicationNs, r.communicationNs);
        QCOMPARE(b.overlapNs, r.overlapNs);
        QCOMPARE(b.memoryNs, r.memoryNs);
        QCOMPARE(b.idleNs, r.idleNs);
        QCOMPARE(b.communicationTotalNs, r.communicationTotalNs);
        QCOMPARE(b.deviceSyncCount, r.deviceSyncCount);
        QCOMPARE(b.launchBoundIdleNs, r.launchBoundIdleNs);
    }

    void exclusiveRowRoundTripsEveryColumn() {
        auto ws = freshWorkspace();
        const SummaryExclusiveRow whole{3, -1, "gemm", 1234}, step{3, 5, "idle", 777};
        SummaryRowBuffers rows;
        rows.add(whole);
        rows.add(step);
        write(*ws, rows);
        checkColumns(*ws, schema::kSummaryExclusive, "step_index = 5",
                     {{"rank", std::int64_t{3}},
                      {"step_index", std::int64_t{5}},
                      {"category_id", Interned{"idle"}},
                      {"exclusive_ns", std::int64_t{777}}});
        const SummaryRowReader reader(*ws, kRun);
        const auto w = reader.exclusive(RankId(3), SummaryRowReader::kWholeWindow);
        QCOMPARE(w.size(), std::size_t{1});
        QCOMPARE(w[0].rank, 3);
        QCOMPARE(w[0].stepIndex, -1);
        QCOMPARE(w[0].category, std::string("gemm"));
        QCOMPARE(w[0].exclusiveNs, std::int64_t{1234});
        const auto s = reader.stepExclusive(-1);
        QCOMPARE(s.size(), std::size_t{1});
        QCOMPARE(s[0].stepIndex, 5);
        QCOMPARE(s[0].category, std::string("idle"));
        QCOMPARE(s[0].exclusiveNs, std::int64_t{777});
    }

    void kernelRowRoundTripsEveryColumn() {
        auto ws = freshWorkspace();
        Counter c;
        SummaryKernelRow r;
        r.rank = static_cast<std::int32_t>(c.next()), r.name = c.text(), r.category = c.text();
        r.count = c.next(), r.totalNs = c.next(), r.meanNs = c.real(), r.medianNs = c.real();
        r.minNs = c.next(), r.maxNs = c.next(), r.stddevNs = c.real();
        SummaryRowBuffers rows;
        rows.add(r);
        write(*ws, rows);
        checkColumns(*ws, schema::kSummaryKernel, "1",
                     {{"rank", std::int64_t{r.rank}},
                      {"name_id", Interned{r.name}},
                      {"category_id", Interned{*r.category}},
                      {"count", r.count},
                      {"total_ns", r.totalNs},
                      {"mean_ns", r.meanNs},
                      {"median_ns", r.medianNs},
                      {"min_ns", r.minNs},
                      {"max_ns", r.maxNs},
                      {"stddev_ns", r.stddevNs}});
        const SummaryRowReader reader(*ws, kRun);
        QCOMPARE(reader.kernelTotalNs(r.rank), r.totalNs);
        const auto back = reader.kernels(r.rank, 0);
        QCOMPARE(back.size(), std::size_t{1});
        const SummaryKernelRow& b = back[0];
        QCOMPARE(b.rank, r.rank);
        QCOMPARE(b.name, r.name);
        QCOMPARE(b.category, r.category);
        QCOMPARE(b.count, r.count);
        QCOMPARE(b.totalNs, r.totalNs);
        QCOMPARE(b.meanNs, r.meanNs);
        QCOMPARE(b.medianNs, r.medianNs);
        QCOMPARE(b.minNs, r.minNs);
        QCOMPARE(b.maxNs, r.maxNs);
        QCOMPARE(b.stddevNs, r.stddevNs);
    }

    static std::pair<SummaryGapRow, SummaryGapRow> distinctGapRows(Counter& c) {
        SummaryGapRow r;
        r.rank = static_cast<std::int32_t>(c.next()), r.stepIndex = static_cast<std::int32_t>(c.next());
        r.startNs = c.next(), r.endNs = r.startNs + 100000, r.cpuState = c.text(), r.launches = c.next();
        r.syncNs = c.next(), r.dataWaitNs = c.next(), r.nextName = c.text(), r.nextLaunchNs = c.next();
        SummaryGapRow none = r; // no next kernel
        none.rank += 1, none.nextName.reset();
        return {r, none};
    }

    static void checkGapsRead(const Workspace& ws, const SummaryGapRow& r) {
        const auto back = SummaryRowReader(ws, kRun).gaps(100000);
        QCOMPARE(back.size(), std::size_t{2});
        const SummaryGapRow& b = back[0]; // equal lengths: by rank
        QCOMPARE(b.rank, r.rank);
        QCOMPARE(b.stepIndex, r.stepIndex);
        QCOMPARE(b.startNs, r.startNs);
        QCOMPARE(b.endNs, r.endNs);
        QCOMPARE(b.cpuState, r.cpuState);
        QCOMPARE(b.launches, r.launches);
        QCOMPARE(b.syncNs, r.syncNs);
        QCOMPARE(b.dataWaitNs, r.dataWaitNs);
        QCOMPARE(b.nextName, r.nextName);
        QCOMPARE(b.nextLaunchNs, r.nextLaunchNs);
        QCOMPARE(back[1].rank, r.rank + 1);
        QVERIFY(!back[1].nextName.has_value());
        QCOMPARE(SummaryRowReader(ws, kRun).gaps(100001).size(), std::size_t{0});
    }

    // Gaps are written packed, one summary_gap_pack row per rank (store/GapPack.h), none as summary_gap rows.
    void gapRowRoundTripsEveryColumn() {
        auto ws = freshWorkspace();
        Counter c;
        const auto [r, none] = distinctGapRows(c);
        SummaryRowBuffers rows;
        rows.add(r);
        rows.add(none);
        write(*ws, rows);
        QCOMPARE(queryInt(ws->db(), "SELECT count(*) FROM summary_gap"), std::int64_t{0});
        Statement packs(ws->db(),
                        "SELECT rank, format, gap_count, length(pack) > 8 FROM summary_gap_pack WHERE "
                        "run_id = 7 ORDER BY rank");
        for (const std::int32_t rank : {r.rank, none.rank}) {
            QVERIFY(packs.step());
            QCOMPARE(packs.i64(0), std::int64_t{rank});
            QCOMPARE(packs.i64(1), std::int64_t{1});
            QCOMPARE(packs.i64(2), std::int64_t{1});
            QCOMPARE(packs.i64(3), std::int64_t{1});
        }
        QVERIFY(!packs.step());
        checkGapsRead(*ws, r);
    }

    // A run summarised before summary_gap_pack keeps summary_gap rows, read column by column as before.
    void storedGapRowsOfAnOlderRunAreRead() {
        auto ws = freshWorkspace();
        Counter c;
        const auto [r, none] = distinctGapRows(c);
        {
            auto tx = writeTransaction(*ws);
            deleteRunSummaries(*ws, kRun); // creates the tables
            RowBuffer rows(schema::insertSql(schema::kSummaryGap));
            for (const SummaryGapRow* g : {&r, &none}) {
                rows.bindRunId(1);
                schema::kSummaryGapRows.bindRow(rows, 1, *g, NoStrings{});
                rows.exec();
            }
            rows.flush(*ws, kRun);
            tx.commit();
        }
        checkColumns(*ws, schema::kSummaryGap, "rank = " + std::to_string(r.rank),
                     {{"rank", std::int64_t{r.rank}},
                      {"step_index", std::int64_t{r.stepIndex}},
                      {"start_ns", r.startNs},
                      {"end_ns", r.endNs},
                      {"cpu_state", r.cpuState},
                      {"launches", r.launches},
                      {"sync_ns", r.syncNs},
                      {"data_wait_ns", r.dataWaitNs},
                      {"next_name_id", Interned{*r.nextName}},
                      {"next_launch_ns", r.nextLaunchNs}});
        Statement id0(ws->db(),
                      "SELECT next_name_id FROM summary_gap WHERE rank = " + std::to_string(none.rank));
        QVERIFY(id0.step());
        QCOMPARE(id0.i64(0), std::int64_t{0});
        checkGapsRead(*ws, r);
    }

    void syncRowRoundTripsEveryColumn() {
        auto ws = freshWorkspace();
        Counter c;
        SummarySyncRow r;
        r.rank = static_cast<std::int32_t>(c.next()), r.stepIndex = static_cast<std::int32_t>(c.next());
        r.api = c.text(), r.startNs = c.next(), r.endNs = c.next(), r.dtohBytes = c.next();
        SummaryRowBuffers rows;
        rows.add(r);
        write(*ws, rows);
        checkColumns(*ws, schema::kSummarySync, "1",
                     {{"rank", std::int64_t{r.rank}},
                      {"step_index", std::int64_t{r.stepIndex}},
                      {"name_id", Interned{r.api}},
                      {"start_ns", r.startNs},
                      {"end_ns", r.endNs},
                      {"dtoh_bytes", r.dtohBytes}});
        const auto back = SummaryRowReader(*ws, kRun).syncs();
        QCOMPARE(back.size(), std::size_t{1});
        QCOMPARE(back[0].rank, r.rank);
        QCOMPARE(back[0].stepIndex, r.stepIndex);
        QCOMPARE(back[0].api, r.api);
        QCOMPARE(back[0].startNs, r.startNs);
        QCOMPARE(back[0].endNs, r.endNs);
        QCOMPARE(back[0].dtohBytes, r.dtohBytes);
    }

    // summary_rank as first released (no graph_launch_count .. launched_*): the later members read as 0 /
    // nullopt, the first ones by name.
    void olderRankTableReadsLaterColumnsAsNull() {
        auto ws = freshWorkspace();
        const auto later = schema::laterSummaryRankColumns();
        const std::size_t first = schema::kSummaryRank.columns.size() - later.size();
        execSql(ws->db(),
                "CREATE TABLE summary_rank(" + schema::columnList(schema::kSummaryRank, 0, first) + ")");
        execSql(ws->db(),
                "INSERT INTO summary_rank(run_id, rank, kernel_count, stream_sync_ns) VALUES(7, 2, 40, 9)");
        QVERIFY(!columnsOf(*ws, "summary_rank").contains("orphan_count"));
        QVERIFY(runHasSummaries(*ws, kRun));
        QVERIFY(!runHasSummaries(*ws, RunId(kRun.value() + 1)));
        const auto back = SummaryRowReader(*ws, kRun).ranks();
        QCOMPARE(back.size(), std::size_t{1});
        QCOMPARE(back[0].rank, 2);
        QCOMPARE(back[0].kernelCount, std::int64_t{40});
        QCOMPARE(back[0].streamSyncNs, std::int64_t{9});
        QVERIFY(!back[0].windowStartNs.has_value());
        QVERIFY(!back[0].orphanCount.has_value());
        QCOMPARE(back[0].graphLaunchCount, std::int64_t{0});
        // ensureSummaryTables adds the later columns (NULL in the old row).
        ensureSummaryTables(*ws);
        QCOMPARE(columnsOf(*ws, "summary_rank").size(), schema::kSummaryRank.columns.size());
        QVERIFY(!SummaryRowReader(*ws, kRun).ranks()[0].orphanCount.has_value());
    }

    void writeReplacesTheRunsRows() {
        auto ws = freshWorkspace();
        SummaryRowBuffers a, b;
        a.add(SummarySyncRow{1, 0, "cudaStreamSynchronize", 10, 20, 0});
        a.add(SummarySyncRow{2, 0, "cudaStreamSynchronize", 10, 20, 0});
        b.add(SummarySyncRow{3, 0, "cudaEventSynchronize", 10, 50, 8});
        write(*ws, a);
        write(*ws, b);
        const auto back = SummaryRowReader(*ws, kRun).syncs();
        QCOMPARE(back.size(), std::size_t{1});
        QCOMPARE(back[0].rank, 3);
        QCOMPARE(back[0].api, std::string("cudaEventSynchronize"));
        QVERIFY(SummaryRowReader(*ws, RunId(kRun.value() + 1)).syncs().empty());
    }

    void noSyncTableNoSyncs() {
        auto ws = freshWorkspace();
        QVERIFY(!hasTable(*ws, "summary_sync"));
        QVERIFY(SummaryRowReader(*ws, kRun).syncs().empty());
    }
};

QTEST_GUILESS_MAIN(TestSummaryRows)
#include "tst_summaryrows.moc"
