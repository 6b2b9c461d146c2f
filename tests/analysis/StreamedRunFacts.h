#pragma once
// Hand-built parts of a multi-rank run and every stored fact of a run as text: the whole-run reference that
// a streamed run (tst_runstreamer) and a study's sharded run (tst_shardedstudy) must equal.
#include "tst_analysis_synthetic.h"

#include "ingest/RunStreamer.h"
#include "store/Sqlite.h"
#include "timeline/TimelineOverview.h"

#include <QStringList>

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

namespace cnp::testing {

// Rank `rank` of a three-step run: per step a launch, a gemm and an all-reduce (times in ns, by hand).
// `stepNames`: the names of its three CPU step ranges.
inline TraceData rankPart(int rank, const std::vector<std::string>& stepNames) {
    SyntheticTrace s("run", "cfg", 0);
    RankInfo ri;
    ri.rank = rank;
    ri.rankClaimed = true;
    ri.host = "node" + std::to_string(rank / 2);
    s.t.ranks.push_back(ri);
    const Ns shift = rank * 7;
    for (std::size_t i = 0; i < stepNames.size(); ++i) {
        const Ns t0 = static_cast<Ns>(i) * 1000 + shift;
        const std::int64_t corr = static_cast<std::int64_t>(i) * 10 + 1;
        s.range(t0, t0 + 900, stepNames[i], rank);
        s.kernel(t0 + 100, t0 + 400 + rank, "ampere_sgemm_128x64", corr, rank);
        s.kernel(t0 + 450, t0 + 800 - rank, "ncclKernel_AllReduce_RING", corr + 1, rank);
    }
    return std::move(s.t);
}

inline std::vector<std::string> profilerSteps(int first) {
    return {"ProfilerStep#" + std::to_string(first), "ProfilerStep#" + std::to_string(first + 1),
            "ProfilerStep#" + std::to_string(first + 2)};
}

// Every stored fact of run `id` as text, in stored order: events, steps, summary rows, overview shape.
inline QStringList describe(Workspace& ws, RunId id) {
    QStringList out;
    const TraceData t = ws.loadRun(id);
    for (const auto& k : t.kernels)
        out << QStringLiteral("k r%1 %2-%3 %4 %5")
                   .arg(k.rank)
                   .arg(k.start)
                   .arg(k.end)
                   .arg(QString::fromStdString(t.strings.at(k.name)),
                        QString::fromStdString(t.strings.at(k.category)));
    for (const auto& a : t.apiCalls)
        out << QStringLiteral("a r%1 %2 %3").arg(a.rank).arg(a.start).arg(a.correlation);
    for (const auto& s : t.steps)
        out << QStringLiteral("s r%1 #%2 %3 cpu %4 gpu %5-%6")
                   .arg(s.rank)
                   .arg(s.index)
                   .arg(QString::fromStdString(t.strings.at(s.name)))
                   .arg(s.cpuStart)
                   .arg(s.gpuStart)
                   .arg(s.gpuEnd);
    const std::string run = std::to_string(id.value());
    Statement kernels(ws.db(),
                      "SELECT rank, (SELECT value FROM strings WHERE id = name_id), count, total_ns, "
                      "median_ns, stddev_ns FROM summary_kernel WHERE run_id = " +
                          run + " ORDER BY rank, 2");
    while (kernels.step())
        out << QStringLiteral("sk r%1 %2 n%3 t%4 med%5 sd%6")
                   .arg(kernels.i64(0))
                   .arg(QString::fromStdString(kernels.text(1)))
                   .arg(kernels.i64(2))
                   .arg(kernels.i64(3))
                   .arg(kernels.f64(4), 0, 'g', 17)
                   .arg(kernels.f64(5), 0, 'g', 17);
    for (const char* table : {"summary_rank", "summary_step", "summary_exclusive", "summary_gap"})
        out << QStringLiteral("%1 %2").arg(table).arg(
            queryInt(ws.db(), std::string("SELECT COUNT(*) FROM ") + table + " WHERE run_id = " + run));
    out << QStringLiteral("idle %1").arg(
        queryInt(ws.db(), "SELECT SUM(idle_ns * (rank + 1)) FROM summary_rank "
                          "WHERE run_id = " +
                              run));
    const auto overview = timeline::loadOverview(ws, id);
    out << QStringLiteral("overview rows %1 events %2 span %3-%4")
               .arg(overview ? static_cast<int>(overview->rows.size()) : -1)
               .arg(overview ? static_cast<qint64>(overview->eventCount()) : -1)
               .arg(overview ? overview->runStart : -1)
               .arg(overview ? overview->runEnd : -1);
    const auto rec = ws.runOrThrow(id);
    out << QStringLiteral("run ranks %1 kernels %2 events %3 world %4")
               .arg(rec.rankCount)
               .arg(rec.kernelCount)
               .arg(rec.eventCount)
               .arg(rec.info.worldSize);
    return out;
}

// Streams `parts` (copied for every pass) as run `name` on `jobs` readers.
inline StreamedRun stream(Workspace& ws, const std::vector<TraceData>& parts, const std::string& name,
                          int jobs, std::atomic<int>* loads = nullptr) {
    RunSource src;
    for (std::size_t i = 0; i < parts.size(); ++i)
        src.names.push_back("part" + std::to_string(i));
    src.load = [&parts, loads](std::size_t i, const ProgressSink&) {
        if (loads)
            ++*loads;
        return parts[i];
    };
    return streamRun(ws, src, name, jobs, {});
}

// The same ranks as one part (merged in rank order), added as one run: the whole-run reference.
inline RunId whole(Workspace& ws, std::vector<TraceData> parts, const std::string& name) {
    std::sort(parts.begin(), parts.end(),
              [](const TraceData& a, const TraceData& b) { return a.ranks[0].rank < b.ranks[0].rank; });
    TraceData run = std::move(parts.front());
    parts.erase(parts.begin());
    run.mergeAll(std::move(parts));
    run.info.name = name;
    return addTrace(ws, std::move(run));
}

} // namespace cnp::testing
