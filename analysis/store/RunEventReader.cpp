#include "store/RunEventReader.h"

#include "core/InputError.h"
#include "core/TimeBounds.h"
#include "store/Schema.h"
#include "store/Workspace.h"

namespace cnp {

namespace {

// A span's times as StoredValueCheck states them (issue 33.4): within +-kMaxTraceTimeNs, start <= end;
// otherwise InputError naming the workspace, table, run and rank, as loadRun does.
void checkSpan(const Workspace& ws, RunId runId, std::string_view table, std::int32_t rank,
               std::int64_t start, std::int64_t end, const char* startName = "start_ns",
               const char* endName = "end_ns") {
    std::string problem;
    for (const auto& [name, t] : {std::pair{startName, start}, std::pair{endName, end}})
        if (problem.empty() && !saneTime(t))
            problem = std::string(name) + " " + std::to_string(t) +
                      " is outside the range of stored times (-" + std::to_string(kMaxTraceTimeNs) + " to " +
                      std::to_string(kMaxTraceTimeNs) + " ns)";
    if (problem.empty() && end < start)
        problem = std::string(endName) + " " + std::to_string(end) + " is before " + startName + " " +
                  std::to_string(start);
    if (!problem.empty())
        throw InputError(ws.path(), std::string(table) + ": a row of run " + ws.runLabel(runId) + " (rank " +
                                        std::to_string(rank) + "): " + problem);
}

} // namespace

std::optional<std::string> RunEventReader::runName() const {
    Statement st(ws_.db(), "SELECT name FROM runs WHERE id = ?");
    st.bind(1, runId_);
    if (!st.step())
        return std::nullopt;
    return st.text(0);
}

void RunEventReader::forEachGpuSpan(EventKind kind, const std::function<void(const GpuSpan&)>& fn) const {
    // Fixed SQL per table: the sixth column is the table's `extra`.
    const char* sql = "SELECT rank, device, stream, start_ns, end_ns, name_id, category_id, correlation "
                      "FROM kernels WHERE id BETWEEN ? AND ?";
    if (kind == EventKind::Memcpy) {
        sql = "SELECT rank, device, stream, start_ns, end_ns, name_id, copy_kind, correlation FROM memcpys "
              "WHERE id BETWEEN ? AND ?";
    } else if (kind == EventKind::Memset) {
        sql = "SELECT rank, device, stream, start_ns, end_ns, name_id, 0, correlation FROM memsets "
              "WHERE id BETWEEN ? AND ?";
    }
    GpuSpan r;
    for (const EventSegment& seg : ws_.eventSegments(runId_, schema::eventTableOf(kind))) {
        Statement st(seg.store->db(), sql);
        st.bind(1, seg.rows.first).bind(2, seg.rows.last);
        while (st.step()) {
            r.rank = st.i32(0);
            r.device = st.i32(1);
            r.stream = st.i64(2);
            r.start = st.i64(3);
            r.end = st.i64(4);
            r.nameId = st.i64(5);
            r.extra = st.i64(6);
            r.correlation = st.i64(7);
            checkSpan(ws_, runId_, schema::eventTableOf(kind), r.rank, r.start, r.end);
            fn(r);
        }
    }
}

void RunEventReader::forEachAnnotation(const std::function<void(const Annotation&)>& fn) const {
    for (const EventSegment& seg :
         ws_.eventSegments(runId_, schema::eventTableOf(EventKind::GpuAnnotation))) {
        Statement st(
            seg.store->db(),
            "SELECT rank, device, start_ns, end_ns, name_id FROM gpu_annotations WHERE id BETWEEN ? AND ?");
        st.bind(1, seg.rows.first).bind(2, seg.rows.last);
        while (st.step()) {
            const Annotation a{st.i32(0), st.i32(1), st.i64(2), st.i64(3), st.i64(4)};
            checkSpan(ws_, runId_, "gpu_annotations", a.rank, a.start, a.end);
            fn(a);
        }
    }
}

void RunEventReader::forEachCpuSpan(EventKind kind, const std::function<void(const CpuSpan&)>& fn) const {
    const bool api = kind == EventKind::ApiCall;
    const char* sql =
        api ? "SELECT rank, pid, tid, start_ns, end_ns, name_id, kind, correlation FROM api_calls WHERE id "
              "BETWEEN ? AND ?"
            : "SELECT rank, pid, tid, start_ns, end_ns, name_id, kind, 0 FROM cpu_ranges WHERE id BETWEEN ? "
              "AND "
              "?";
    CpuSpan r;
    for (const EventSegment& seg :
         ws_.eventSegments(runId_, schema::eventTableOf(api ? EventKind::ApiCall : EventKind::CpuRange))) {
        Statement st(seg.store->db(), sql);
        st.bind(1, seg.rows.first).bind(2, seg.rows.last);
        while (st.step()) {
            r.rank = st.i32(0);
            r.pid = st.i64(1);
            r.tid = st.i64(2);
            r.start = st.i64(3);
            r.end = st.i64(4);
            r.nameId = st.i64(5);
            r.kind = st.i32(6);
            r.correlation = st.i64(7);
            checkSpan(ws_, runId_, api ? "api_calls" : "cpu_ranges", r.rank, r.start, r.end);
            fn(r);
        }
    }
}

void RunEventReader::forEachStep(const std::function<void(const Step&)>& fn) const {
    Statement st(ws_.db(),
                 "SELECT rank, step_index, name_id, cpu_start_ns, cpu_end_ns, gpu_start_ns, gpu_end_ns "
                 "FROM steps WHERE run_id = ? ORDER BY rank, step_index");
    st.bind(1, runId_);
    while (st.step()) {
        const Step s{st.i32(0), st.i32(1), st.i64(2), st.i64(3), st.i64(4), st.i64(5), st.i64(6)};
        checkSpan(ws_, runId_, "steps", s.rank, s.cpuStart, s.cpuEnd, "cpu_start_ns", "cpu_end_ns");
        checkSpan(ws_, runId_, "steps", s.rank, s.gpuStart, s.gpuEnd, "gpu_start_ns", "gpu_end_ns");
        fn(s);
    }
}

void RunEventReader::forEachSample(const std::function<void(const Sample&)>& fn) const {
    for (const EventSegment& seg : ws_.eventSegments(runId_, "counters")) {
        Statement st(seg.store->db(),
                     "SELECT rank, device, ts_ns, value, name_id FROM counters WHERE id BETWEEN ? AND ?");
        st.bind(1, seg.rows.first).bind(2, seg.rows.last);
        while (st.step()) {
            const Sample x{st.i32(0), st.i32(1), st.i64(2), st.f64(3), st.i64(4)};
            checkSpan(ws_, runId_, "counters", x.rank, x.ts, x.ts, "ts_ns", "ts_ns");
            fn(x);
        }
    }
}

void RunEventReader::forEachString(const std::vector<std::int64_t>& ids,
                                   const std::function<void(std::int64_t, const std::string&)>& fn) const {
    Statement st(ws_.db(), "SELECT value FROM strings WHERE id = ?");
    for (const std::int64_t id : ids) {
        st.reset();
        st.bind(1, id);
        if (st.step())
            fn(id, st.text(0));
    }
}

} // namespace cnp
