#include "timeline/TimelineLoader.h"

#include "core/InputError.h"
#include "store/RankQueries.h"
#include "store/RunEventReader.h"
#include "store/Schema.h"
#include "store/WorkspaceTransactions.h"
#include "timeline/QueueLengthLanes.h"
#include "timeline/TimelineBuilder.h"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

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
    void resolve(const RunEventReader& reader) {
        std::vector<std::int64_t> ids;
        ids.reserve(map_.size());
        for (const auto& entry : map_)
            ids.push_back(entry.first);
        reader.forEachString(
            ids, [&](std::int64_t wsId, const std::string& text) { b_.setName(map_.at(wsId), text); });
    }

private:
    TimelineBuilder& b_;
    std::unordered_map<std::int64_t, std::uint32_t> map_;
};

} // namespace

TimelineModel loadTimeline(const std::string& workspacePath, RunId runId, const ProgressSink& sink) {
    Workspace ws(workspacePath, Workspace::Mode::ReadOnly);
    return loadTimeline(ws, runId, sink);
}

TimelineModel loadTimeline(const Workspace& ws, RunId runId, const ProgressSink& sink) {
    const ReadTransaction snapshot =
        readSnapshot(ws); // one consistent view, whatever another process removes meanwhile
    const RunEventReader reader(ws, runId);
    const std::optional<std::string> runName = reader.runName();
    if (!runName)
        throw InputError(ws.path(),
                         "run id " + std::to_string(runId.value()) +
                             " is no longer in the workspace (removed after the run list was read)");
    // Progress denominator: rows of the run over every table read below.
    std::int64_t total = 0;
    for (std::string_view t : schema::spanEventTables())
        for (const EventSegment& seg : ws.eventSegments(runId, t))
            total += seg.rows.size();
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
    QueueLengthLanes queues;
    // Category styles: one per distinct category string id.
    std::unordered_map<std::int64_t, std::uint8_t> categoryStyle;
    reader.forEachGpuSpan(EventKind::Kernel, [&](const RunEventReader::GpuSpan& e) {
        auto it = categoryStyle.find(e.extra);
        if (it == categoryStyle.end()) {
            std::string c = ws.stringById(e.extra);
            it = categoryStyle.emplace(e.extra, b.internStyle(c.empty() ? "other" : c)).first;
        }
        b.addGpuEvent(e.rank, e.device, e.stream, EventKind::Kernel, e.start, e.end, name(e.nameId),
                      it->second);
        queues.addOperation(e.rank, e.device, e.stream, e.correlation, e.start);
        tick();
    });
    const std::uint8_t memory = b.internStyle("memory");
    reader.forEachGpuSpan(EventKind::Memcpy, [&](const RunEventReader::GpuSpan& e) {
        const std::uint32_t nm =
            e.nameId ? name(e.nameId)
                     : b.internName(std::string("Memcpy ") +
                                    toString(static_cast<MemcpyKind>(static_cast<std::int32_t>(e.extra))));
        b.addGpuEvent(e.rank, e.device, e.stream, EventKind::Memcpy, e.start, e.end, nm, memory);
        queues.addOperation(e.rank, e.device, e.stream, e.correlation, e.start);
        tick();
    });
    reader.forEachGpuSpan(EventKind::Memset, [&](const RunEventReader::GpuSpan& e) {
        b.addGpuEvent(e.rank, e.device, e.stream, EventKind::Memset, e.start, e.end,
                      e.nameId ? name(e.nameId) : b.internName("Memset"), memory);
        queues.addOperation(e.rank, e.device, e.stream, e.correlation, e.start);
        tick();
    });
    reader.forEachAnnotation([&](const RunEventReader::Annotation& e) {
        b.addGpuAnnotation(e.rank, e.device, e.start, e.end, name(e.nameId));
        tick();
    });
    const std::uint8_t runtime = b.internStyle("runtime API"), driver = b.internStyle("driver API");
    reader.forEachCpuSpan(EventKind::ApiCall, [&](const RunEventReader::CpuSpan& e) {
        b.addCpuEvent(e.rank, e.pid, e.tid, EventKind::ApiCall, e.start, e.end, name(e.nameId),
                      e.kind == static_cast<int>(ApiKind::Driver) ? driver : runtime);
        queues.addLaunch(e.rank, e.correlation, e.start);
        tick();
    });
    std::uint8_t kindStyle[5];
    for (int k = 0; k < 5; ++k)
        kindStyle[k] = b.internStyle(TimelineBuilder::cpuRangeStyle(static_cast<CpuRangeKind>(k)));
    reader.forEachCpuSpan(EventKind::CpuRange, [&](const RunEventReader::CpuSpan& e) {
        b.addCpuEvent(e.rank, e.pid, e.tid, EventKind::CpuRange, e.start, e.end, name(e.nameId),
                      kindStyle[std::clamp(e.kind, 0, 4)]);
        tick();
    });
    reader.forEachStep([&](const RunEventReader::Step& e) {
        StepRange s;
        s.rank = e.rank;
        s.index = e.index;
        s.name = name(e.nameId);
        s.cpuStart = e.cpuStart;
        s.cpuEnd = e.cpuEnd;
        s.gpuStart = e.gpuStart;
        s.gpuEnd = e.gpuEnd;
        b.addStep(s);
    });
    reader.forEachSample([&](const RunEventReader::Sample& e) {
        b.addCounterSample(e.rank, e.device, name(e.nameId), e.ts, e.value);
    });
    queues.emit(b);
    for (const RankInfo& r : RankQueries(ws).ranksOfRun(runId))
        b.setRankLabel(r.rank, "Rank " + std::to_string(r.rank) + (r.host.empty() ? "" : " · " + r.host));
    name.resolve(reader);
    sink.checkCancel();
    ProgressSink buildSink;
    buildSink.cancel = sink.cancel;
    buildSink.progress = [&](double f) { sink.report(loadShare + (1 - loadShare) * f); };
    TimelineModel m = b.build(buildSink);
    m.runId = runId;
    m.runName = *runName;
    sink.report(1.0);
    return m;
}

} // namespace cnp::timeline
