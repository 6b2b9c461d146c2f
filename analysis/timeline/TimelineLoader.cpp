#include "timeline/TimelineLoader.h"

#include "core/InputError.h"
#include "timeline/TimelineBuilder.h"

#include <algorithm>
#include <unordered_map>

namespace cnp::timeline {

namespace {

// Maps workspace string ids to the builder's dense name ids; texts are fetched once at the end.
class NameResolver {
public:
    explicit NameResolver(TimelineBuilder& b) : b_(b) {}
    std::uint32_t operator()(std::int64_t wsId) {
        if (wsId == 0)
            return 0;
        auto [it, fresh] = map_.try_emplace(wsId, 0);
        if (fresh)
            it->second = b_.addNameSlot();
        return it->second;
    }
    void resolve(const Workspace& ws) {
        Statement st(ws.db(), "SELECT value FROM strings WHERE id = ?");
        for (const auto& [wsId, local] : map_) {
            st.reset();
            st.bind(1, wsId);
            if (st.step())
                b_.setName(local, st.text(0));
        }
    }

private:
    TimelineBuilder& b_;
    std::unordered_map<std::int64_t, std::uint32_t> map_;
};

} // namespace

TimelineModel loadTimeline(const std::string& workspacePath, std::int64_t runId, const ProgressSink& sink) {
    Workspace ws(workspacePath, Workspace::Mode::ReadOnly);
    return loadTimeline(ws, runId, sink);
}

TimelineModel loadTimeline(const Workspace& ws, std::int64_t runId, const ProgressSink& sink) {
    sqlite3* db = ws.db();
    const ReadTransaction snapshot(db); // one consistent view, whatever another process removes meanwhile
    std::string runName;
    {
        Statement st(db, "SELECT name FROM runs WHERE id = ?");
        st.bind(1, runId);
        if (!st.step())
            throw InputError(ws.path(),
                             "run id " + std::to_string(runId) +
                                 " is no longer in the workspace (removed after the run list was read)");
        runName = st.text(0);
    }
    // Progress denominator: rows of the run over every table read below.
    std::int64_t total = 0;
    const char* tables[] = {"kernels", "memcpys", "memsets", "gpu_annotations", "api_calls", "cpu_ranges"};
    for (const char* t : tables)
        total += ws.eventRows(runId, t).size();
    std::int64_t done = 0;
    const double loadShare = 0.85; // the rest is TimelineBuilder::build
    auto tick = [&]() {
        if ((++done & 0xffff) == 0) {
            sink.checkCancel();
            sink.report(loadShare * static_cast<double>(done) /
                        static_cast<double>(std::max<std::int64_t>(1, total)));
        }
    };

    TimelineBuilder b;
    NameResolver name(b);
    // Category styles: one per distinct category string id.
    std::unordered_map<std::int64_t, std::uint8_t> categoryStyle;
    {
        const IdRange rows = ws.eventRows(runId, "kernels");
        Statement st(db, "SELECT rank, device, stream, start_ns, end_ns, name_id, category_id FROM kernels "
                         "WHERE id BETWEEN ? AND ?");
        st.bind(1, rows.first).bind(2, rows.last);
        while (st.step()) {
            const std::int64_t cat = st.i64(6);
            auto it = categoryStyle.find(cat);
            if (it == categoryStyle.end()) {
                std::string c = ws.stringById(cat);
                it = categoryStyle.emplace(cat, b.internStyle(c.empty() ? "other" : c)).first;
            }
            b.addGpuEvent(st.i32(0), st.i32(1), st.i64(2), EventKind::Kernel, st.i64(3), st.i64(4),
                          name(st.i64(5)), it->second);
            tick();
        }
    }
    const std::uint8_t memory = b.internStyle("memory");
    {
        const IdRange rows = ws.eventRows(runId, "memcpys");
        Statement st(db, "SELECT rank, device, stream, start_ns, end_ns, name_id, copy_kind FROM memcpys "
                         "WHERE id BETWEEN ? AND ?");
        st.bind(1, rows.first).bind(2, rows.last);
        while (st.step()) {
            const std::int64_t n = st.i64(5);
            const std::uint32_t nm =
                n ? name(n)
                  : b.internName(std::string("Memcpy ") + toString(static_cast<MemcpyKind>(st.i32(6))));
            b.addGpuEvent(st.i32(0), st.i32(1), st.i64(2), EventKind::Memcpy, st.i64(3), st.i64(4), nm,
                          memory);
            tick();
        }
    }
    {
        const IdRange rows = ws.eventRows(runId, "memsets");
        Statement st(
            db,
            "SELECT rank, device, stream, start_ns, end_ns, name_id FROM memsets WHERE id BETWEEN ? AND ?");
        st.bind(1, rows.first).bind(2, rows.last);
        while (st.step()) {
            const std::int64_t n = st.i64(5);
            b.addGpuEvent(st.i32(0), st.i32(1), st.i64(2), EventKind::Memset, st.i64(3), st.i64(4),
                          n ? name(n) : b.internName("Memset"), memory);
            tick();
        }
    }
    {
        const IdRange rows = ws.eventRows(runId, "gpu_annotations");
        Statement st(
            db,
            "SELECT rank, device, start_ns, end_ns, name_id FROM gpu_annotations WHERE id BETWEEN ? AND ?");
        st.bind(1, rows.first).bind(2, rows.last);
        while (st.step()) {
            b.addGpuAnnotation(st.i32(0), st.i32(1), st.i64(2), st.i64(3), name(st.i64(4)));
            tick();
        }
    }
    {
        const std::uint8_t runtime = b.internStyle("runtime API"), driver = b.internStyle("driver API");
        const IdRange rows = ws.eventRows(runId, "api_calls");
        Statement st(
            db,
            "SELECT rank, pid, tid, start_ns, end_ns, name_id, kind FROM api_calls WHERE id BETWEEN ? AND ?");
        st.bind(1, rows.first).bind(2, rows.last);
        while (st.step()) {
            b.addCpuEvent(st.i32(0), st.i64(1), st.i64(2), EventKind::ApiCall, st.i64(3), st.i64(4),
                          name(st.i64(5)), st.i32(6) == static_cast<int>(ApiKind::Driver) ? driver : runtime);
            tick();
        }
    }
    {
        std::uint8_t kindStyle[5];
        for (int k = 0; k < 5; ++k)
            kindStyle[k] = b.internStyle(TimelineBuilder::cpuRangeStyle(static_cast<CpuRangeKind>(k)));
        const IdRange rows = ws.eventRows(runId, "cpu_ranges");
        Statement st(db, "SELECT rank, pid, tid, start_ns, end_ns, name_id, kind FROM cpu_ranges WHERE id "
                         "BETWEEN ? AND ?");
        st.bind(1, rows.first).bind(2, rows.last);
        while (st.step()) {
            const int k = std::clamp(st.i32(6), 0, 4);
            b.addCpuEvent(st.i32(0), st.i64(1), st.i64(2), EventKind::CpuRange, st.i64(3), st.i64(4),
                          name(st.i64(5)), kindStyle[k]);
            tick();
        }
    }
    {
        Statement st(db,
                     "SELECT rank, step_index, name_id, cpu_start_ns, cpu_end_ns, gpu_start_ns, gpu_end_ns "
                     "FROM steps WHERE run_id = ? ORDER BY rank, step_index");
        st.bind(1, runId);
        while (st.step()) {
            StepRange s;
            s.rank = st.i32(0);
            s.index = st.i32(1);
            s.name = name(st.i64(2));
            s.cpuStart = st.i64(3);
            s.cpuEnd = st.i64(4);
            s.gpuStart = st.i64(5);
            s.gpuEnd = st.i64(6);
            b.addStep(s);
        }
    }
    {
        const IdRange rows = ws.eventRows(runId, "counters");
        Statement st(db, "SELECT rank, device, ts_ns, value, name_id FROM counters WHERE id BETWEEN ? AND ?");
        st.bind(1, rows.first).bind(2, rows.last);
        while (st.step())
            b.addCounterSample(st.i32(0), st.i32(1), name(st.i64(4)), st.i64(2), st.f64(3));
    }
    {
        Statement st(db, "SELECT rank, host FROM ranks WHERE run_id = ?");
        st.bind(1, runId);
        while (st.step()) {
            const std::string host = st.text(1);
            b.setRankLabel(st.i32(0),
                           "Rank " + std::to_string(st.i32(0)) + (host.empty() ? "" : " · " + host));
        }
    }
    name.resolve(ws);
    sink.checkCancel();
    ProgressSink buildSink;
    buildSink.cancel = sink.cancel;
    buildSink.progress = [&](double f) { sink.report(loadShare + (1 - loadShare) * f); };
    TimelineModel m = b.build(buildSink);
    m.runId = runId;
    m.runName = runName;
    sink.report(1.0);
    return m;
}

} // namespace cnp::timeline
