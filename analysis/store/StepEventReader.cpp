#include "store/StepEventReader.h"

#include "store/RankQueries.h"

#include "core/InputError.h"
#include "core/TimeBounds.h"
#include "store/Workspace.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace cnp {

namespace {

constexpr auto kMinKey = std::numeric_limits<std::int64_t>::min();
constexpr int kCpuOpKind = 0;          // CpuRangeKind::CpuOp
constexpr int kPythonFunctionKind = 2; // CpuRangeKind::PythonFunction

// The ids of `table`'s rows of `rank` whose sort key lies in [from, to]; {store, first, last + 1}.
struct RowSpan {
    const Workspace* store = nullptr;
    std::int64_t first = 0, past = 0;
};
RowSpan rowsBetween(const Workspace& ws, RunId runId, std::int32_t rank, const char* table, Ns from, Ns to) {
    const EventSegment at = ws.eventStoreOf(runId, rank, table);
    if (at.store == nullptr || at.rows.empty())
        return {};
    const Workspace& s = *at.store;
    const std::int64_t first = s.lowerBoundId(table, at.rows, rank, from);
    const std::int64_t past = to == std::numeric_limits<Ns>::max()
                                  ? s.lowerBoundId(table, at.rows, rank + 1, kMinKey)
                                  : s.lowerBoundId(table, at.rows, rank, to + 1);
    return {&s, first, past};
}

void checkTimes(const Workspace& ws, const char* table, std::int32_t rank, Ns start, Ns end) {
    if (!saneTime(start) || !saneTime(end) || end < start)
        throw InputError(ws.path(), std::string(table) + ": a row of rank " + std::to_string(rank) +
                                        " has times " + std::to_string(start) + " .. " + std::to_string(end) +
                                        " ns, outside the stored range or ending before it starts");
}

// Texts of string ids through the index (a shard's ids are the index's).
class NameCache {
public:
    explicit NameCache(const Workspace& ws) : st_(ws.db(), "SELECT value FROM strings WHERE id = ?") {}
    const std::string& operator()(std::int64_t id) {
        auto it = cache_.find(id);
        if (it != cache_.end())
            return it->second;
        st_.reset();
        st_.bind(1, id);
        std::string text = st_.step() ? st_.text(0) : std::string();
        return cache_.emplace(id, std::move(text)).first->second;
    }

private:
    Statement st_;
    std::unordered_map<std::int64_t, std::string> cache_;
};

} // namespace

std::vector<std::int32_t> StepEventReader::ranks() const {
    return RankQueries(ws_).rankNumbers(runId_);
}

std::vector<StepEventReader::Window> StepEventReader::steps(std::int32_t rank) const {
    Statement st(ws_.db(), "SELECT step_index, cpu_start_ns, cpu_end_ns, gpu_end_ns FROM steps "
                           "WHERE run_id = ? AND rank = ? ORDER BY step_index");
    st.bind(1, runId_).bind(2, rank);
    std::vector<Window> out;
    while (st.step()) {
        Window w;
        w.rank = rank;
        w.stepIndex = st.i32(0);
        w.label = "step " + std::to_string(w.stepIndex);
        w.start = st.i64(1);
        w.end = st.i64(2);
        w.gpuEnd = st.i64(3);
        checkTimes(ws_, "steps", rank, w.start, w.end);
        if (w.gpuEnd != -1 && !saneTime(w.gpuEnd))
            checkTimes(ws_, "steps", rank, w.gpuEnd, w.gpuEnd);
        out.push_back(std::move(w));
    }
    return out;
}

std::optional<StepEventReader::Window> StepEventReader::annotation(std::int32_t rank, const std::string& text,
                                                                   std::int32_t instance) const {
    std::unordered_set<std::int64_t> ids;
    {
        Statement st(ws_.db(), "SELECT id FROM strings WHERE instr(value, ?) > 0");
        st.bind(1, std::string_view(text));
        while (st.step())
            ids.insert(st.i64(0));
    }
    if (ids.empty() || instance < 0)
        return std::nullopt;
    const RowSpan rows =
        rowsBetween(ws_, runId_, rank, "cpu_ranges", kMinKey, std::numeric_limits<Ns>::max());
    if (rows.store == nullptr)
        return std::nullopt;
    Statement st(rows.store->db(), "SELECT start_ns, end_ns, tid, name_id FROM cpu_ranges WHERE id >= ? AND "
                                   "id < ? ORDER BY id");
    st.bind(1, rows.first).bind(2, rows.past);
    std::int32_t seen = 0;
    while (st.step()) {
        if (ids.count(st.i64(3)) == 0 || seen++ < instance)
            continue;
        Window w;
        w.rank = rank;
        w.start = st.i64(0);
        w.end = st.i64(1);
        w.tid = st.i64(2);
        checkTimes(ws_, "cpu_ranges", rank, w.start, w.end);
        NameCache names(ws_);
        w.label = names(st.i64(3)) + " #" + std::to_string(instance);
        return w;
    }
    return std::nullopt;
}

std::optional<StepEventReader::Window> StepEventReader::wholeTrace(std::int32_t rank) const {
    Ns lo = std::numeric_limits<Ns>::max(), hi = std::numeric_limits<Ns>::min();
    for (const char* table : {"api_calls", "cpu_ranges"}) {
        const RowSpan rows = rowsBetween(ws_, runId_, rank, table, kMinKey, std::numeric_limits<Ns>::max());
        if (rows.store == nullptr || rows.first >= rows.past)
            continue;
        Statement st(rows.store->db(),
                     table == std::string_view("api_calls")
                         ? "SELECT MIN(start_ns), MAX(end_ns) FROM api_calls WHERE id >= ? AND id < ?"
                         : "SELECT MIN(start_ns), MAX(end_ns) FROM cpu_ranges WHERE id >= ? AND id < ?");
        st.bind(1, rows.first).bind(2, rows.past);
        if (st.step()) {
            checkTimes(ws_, table, rank, st.i64(0), st.i64(1));
            lo = std::min(lo, st.i64(0));
            hi = std::max(hi, st.i64(1));
        }
    }
    if (lo > hi)
        return std::nullopt;
    Window w;
    w.rank = rank;
    w.label = "whole trace";
    w.start = lo;
    w.end = hi;
    return w;
}

StepEvents StepEventReader::read(const Window& w) const {
    StepEvents out;
    out.rank = w.rank;
    out.stepIndex = w.stepIndex;
    out.label = w.label;
    out.windowStart = w.start;
    out.windowEnd = w.end;
    out.mainTid = w.tid;
    NameCache names(ws_);
    // Half-open: the next step's range starts where this one ends.
    const Ns lastStart = w.end > w.start ? w.end - 1 : w.end;

    {
        const RowSpan rows = rowsBetween(ws_, runId_, w.rank, "api_calls", w.start, lastStart);
        if (rows.store != nullptr) {
            Statement st(rows.store->db(),
                         "SELECT start_ns, end_ns, tid, correlation, name_id FROM api_calls "
                         "WHERE id >= ? AND id < ?");
            st.bind(1, rows.first).bind(2, rows.past);
            while (st.step()) {
                StepCpuEvent c{st.i64(0), st.i64(1), st.i64(2), st.i64(3), true, false, names(st.i64(4))};
                checkTimes(ws_, "api_calls", w.rank, c.start, c.end);
                out.cpu.push_back(std::move(c));
            }
        }
    }
    {
        const RowSpan rows = rowsBetween(ws_, runId_, w.rank, "cpu_ranges", w.start, lastStart);
        if (rows.store != nullptr) {
            Statement st(rows.store->db(), "SELECT start_ns, end_ns, tid, kind, name_id FROM cpu_ranges "
                                           "WHERE id >= ? AND id < ?");
            st.bind(1, rows.first).bind(2, rows.past);
            while (st.step()) {
                if (st.i32(3) == kPythonFunctionKind)
                    continue;
                StepCpuEvent c{st.i64(0),       st.i64(1), st.i64(2), 0, false, st.i32(3) != kCpuOpKind,
                               names(st.i64(4))};
                checkTimes(ws_, "cpu_ranges", w.rank, c.start, c.end);
                if (out.mainTid < 0 && c.start == w.start && c.end == w.end)
                    out.mainTid = c.tid;
                out.cpu.push_back(std::move(c));
            }
        }
    }
    const Ns horizon = std::max(w.end, w.gpuEnd) + (w.end - w.start);
    struct GpuTable {
        const char* table;
        const char* sql;
        EventKind kind;
    };
    const GpuTable tables[] = {
        {"kernels",
         "SELECT start_ns, end_ns, device, stream, correlation, name_id, category_id FROM kernels WHERE id "
         ">= ? "
         "AND id < ?",
         EventKind::Kernel},
        {"memcpys",
         "SELECT start_ns, end_ns, device, stream, correlation, name_id, 0 FROM memcpys WHERE id >= ? AND id "
         "< ?",
         EventKind::Memcpy},
        {"memsets",
         "SELECT start_ns, end_ns, device, stream, correlation, name_id, 0 FROM memsets WHERE id >= ? AND id "
         "< ?",
         EventKind::Memset},
    };
    for (const GpuTable& t : tables) {
        const RowSpan rows = rowsBetween(ws_, runId_, w.rank, t.table, w.start, horizon);
        if (rows.store == nullptr)
            continue;
        Statement st(rows.store->db(), t.sql);
        st.bind(1, rows.first).bind(2, rows.past);
        while (st.step()) {
            StepGpuEvent g;
            g.start = st.i64(0);
            g.end = st.i64(1);
            g.device = st.i32(2);
            g.stream = st.i64(3);
            g.correlation = st.i64(4);
            g.kind = t.kind;
            g.name = names(st.i64(5));
            g.category = t.kind == EventKind::Kernel ? names(st.i64(6)) : std::string("memory");
            checkTimes(ws_, t.table, w.rank, g.start, g.end);
            out.gpu.push_back(std::move(g));
        }
    }
    return out;
}

} // namespace cnp
