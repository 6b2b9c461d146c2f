#include "requests/CriticalPathRequest.h"

#include "core/InputError.h"
#include "store/StepEventReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <stdexcept>

namespace cnp {

namespace {

using Window = StepEventReader::Window;

// The ranks the choice names, each checked against the run's.
std::vector<std::int32_t> ranksOf(const Workspace& ws, const StepEventReader& reader, const std::string& run,
                                  const WindowChoice& choice) {
    std::vector<std::int32_t> all = reader.ranks();
    if (!choice.rank)
        return all;
    if (std::find(all.begin(), all.end(), *choice.rank) == all.end())
        throw InputError(ws.path(), "run '" + run + "' has no rank " + std::to_string(*choice.rank));
    return {*choice.rank};
}

// The median step by CPU duration (the lower middle for an even count).
std::int32_t medianStep(const std::vector<Window>& steps) {
    std::vector<const Window*> byLength;
    byLength.reserve(steps.size());
    for (const auto& s : steps)
        byLength.push_back(&s);
    std::sort(byLength.begin(), byLength.end(), [](const Window* a, const Window* b) {
        return std::make_pair(a->end - a->start, a->stepIndex) <
               std::make_pair(b->end - b->start, b->stepIndex);
    });
    return byLength[(byLength.size() - 1) / 2]->stepIndex;
}

// The windows of one rank the choice selects; `allSteps` for what-if's default.
std::vector<Window> windowsOf(const Workspace& ws, const StepEventReader& reader, const std::string& run,
                              std::int32_t rank, const WindowChoice& choice, bool allSteps,
                              std::optional<std::int32_t>& defaultStep) {
    if (choice.annotation) {
        auto w = reader.annotation(rank, *choice.annotation, choice.instance);
        if (!w)
            throw InputError(ws.path(), "rank " + std::to_string(rank) + " of run '" + run +
                                            "' has no instance " + std::to_string(choice.instance) +
                                            " of a CPU range named like '" + *choice.annotation + "'");
        return {*w};
    }
    std::vector<Window> steps = reader.steps(rank);
    if (choice.step || defaultStep) {
        const std::int32_t want = choice.step ? *choice.step : *defaultStep;
        for (auto& s : steps)
            if (s.stepIndex == want)
                return {s};
        throw InputError(ws.path(), "rank " + std::to_string(rank) + " of run '" + run + "' has no step " +
                                        std::to_string(want));
    }
    if (!steps.empty()) {
        if (allSteps)
            return steps;
        defaultStep = medianStep(steps);
        for (auto& s : steps)
            if (s.stepIndex == *defaultStep)
                return {s};
    }
    auto whole = reader.wholeTrace(rank);
    if (!whole)
        return {};
    return {*whole};
}

// The window's communication kernels (launched in it) numbered by start: ordinal per GPU activity, and
// their starts in that order.
void numberCommunication(const DependencyGraph& g, std::vector<std::int32_t>& ordinalOf,
                         std::vector<Ns>& starts) {
    const auto& gpu = g.events().gpu;
    std::vector<std::int32_t> comm;
    for (const auto& e : g.edges())
        if (e.kind == PathKind::Communication && e.gpuEvent >= 0)
            comm.push_back(e.gpuEvent);
    std::sort(comm.begin(), comm.end(), [&](std::int32_t a, std::int32_t b) {
        return std::make_pair(gpu[static_cast<std::size_t>(a)].start, a) <
               std::make_pair(gpu[static_cast<std::size_t>(b)].start, b);
    });
    ordinalOf.assign(gpu.size(), -1);
    starts.clear();
    for (std::size_t k = 0; k < comm.size(); ++k) {
        ordinalOf[static_cast<std::size_t>(comm[k])] = static_cast<std::int32_t>(k);
        starts.push_back(gpu[static_cast<std::size_t>(comm[k])].start);
    }
}

NamedSegment namedSegment(const StepEvents& ev, const PathSegment& s) {
    NamedSegment n{s, {}, -1, -1, -1, 0, -1};
    if (s.onGpu && s.gpuEvent >= 0) {
        const auto& g = ev.gpu[static_cast<std::size_t>(s.gpuEvent)];
        n.name = g.name;
        n.device = g.device;
        n.stream = g.stream;
        n.eventStart = g.start;
        n.eventEnd = g.end;
        return n;
    }
    if (s.cpuEvent >= 0) {
        const auto& c = ev.cpu[static_cast<std::size_t>(s.cpuEvent)];
        n.name = c.name;
        n.tid = c.tid;
        n.eventStart = c.start;
        n.eventEnd = c.end;
    } else if (s.gpuEvent >= 0) {
        n.name = ev.gpu[static_cast<std::size_t>(s.gpuEvent)].name;
    }
    return n;
}

// The thread of an untraced CPU segment: the main thread's (the window's range ran there).
void placeUntraced(std::vector<NamedSegment>& segments, const StepEvents& ev) {
    for (auto& n : segments)
        if (n.tid < 0 && n.stream < 0)
            n.tid = ev.mainTid >= 0 ? ev.mainTid : (ev.cpu.empty() ? -1 : ev.cpu.front().tid);
}

DependencyGraph buildGraph(const Workspace& ws, const StepEvents& ev, const WindowChoice& choice) {
    try {
        return DependencyGraph::build(ev, choice.graph);
    } catch (const std::runtime_error& e) {
        throw InputError(ws.path(), "rank " + std::to_string(ev.rank) + ", " + ev.label + ": " + e.what());
    }
}

const char* const kNoSyncRecords =
    "no CUDA event records are stored: a blocking call waits for the latest GPU activity launched before it "
    "that ended inside it, and a cudaStreamWaitEvent for the latest activity on another stream of the device "
    "that ended before the next launch on its thread started (inferred)";

} // namespace

CriticalPathReport computeCriticalPath(const Workspace& ws, const std::string& runName,
                                       const WindowChoice& choice, bool keepSegments) {
    auto tx = readSnapshot(ws);
    const RunRecord run = ws.runOrThrow(runName);
    StepEventReader reader(ws, run.id);
    CriticalPathReport report;
    report.run = runName;
    report.notes.push_back(kNoSyncRecords);
    std::optional<std::int32_t> defaultStep;
    std::vector<std::vector<Ns>> commStarts;
    for (std::int32_t rank : ranksOf(ws, reader, runName, choice)) {
        const auto windows = windowsOf(ws, reader, runName, rank, choice, false, defaultStep);
        if (windows.empty())
            continue;
        const StepEvents ev = reader.read(windows.front());
        const DependencyGraph g = buildGraph(ws, ev, choice);
        RankCriticalPath r;
        r.rank = rank;
        r.stepIndex = ev.stepIndex;
        r.window = ev.label;
        r.windowStart = ev.windowStart;
        r.path = CriticalPath::of(g);
        r.cpuEvents = static_cast<std::int32_t>(ev.cpu.size());
        r.gpuActivities = g.gpuActivityCount();
        r.edges = static_cast<std::int32_t>(g.edges().size());
        r.resolvedSyncs = g.resolvedSyncs();
        r.inferredEventWaits = g.inferredEventWaits();
        std::vector<std::int32_t> ordinalOf;
        commStarts.emplace_back();
        numberCommunication(g, ordinalOf, commStarts.back());
        CriticalPath::numberCollectives(r.path, ordinalOf, ev);
        if (keepSegments) {
            for (const auto& s : r.path.segments)
                r.segments.push_back(namedSegment(ev, s));
            placeUntraced(r.segments, ev);
        } else {
            std::erase_if(r.path.segments,
                          [](const PathSegment& s) { return s.kind != PathKind::Communication; });
        }
        report.ranks.push_back(std::move(r));
    }
    if (report.ranks.empty())
        throw InputError(ws.path(),
                         "run '" + runName + "' has no CPU events to build a dependency graph from");

    // A collective cannot end before its last rank arrives: the k-th collective of every rank is one.
    const std::size_t n = commStarts.front().size();
    const bool sameCount = std::all_of(commStarts.begin(), commStarts.end(),
                                       [&](const std::vector<Ns>& s) { return s.size() == n; });
    if (report.ranks.size() > 1 && n > 0 && sameCount) {
        std::vector<Ns> last(n, 0);
        std::vector<std::int32_t> lastRank(n, -1);
        for (std::size_t r = 0; r < commStarts.size(); ++r)
            for (std::size_t k = 0; k < n; ++k)
                if (lastRank[k] < 0 || commStarts[r][k] > last[k])
                    last[k] = commStarts[r][k], lastRank[k] = report.ranks[r].rank;
        for (auto& r : report.ranks) {
            CriticalPath::splitCollectiveWaits(r.path, last, lastRank);
            if (keepSegments) {
                r.segments.clear(); // re-attach names to the split segments by position
            }
        }
        report.collectivesJoined = true;
    } else if (report.ranks.size() > 1 && n > 0) {
        report.notes.push_back(
            "the ranks launched different numbers of collectives in the window: collectives "
            "are not joined across ranks (no collective_wait)");
    }
    if (keepSegments && report.collectivesJoined) {
        // Names again, for the split path (one more read of each kept rank's window).
        std::optional<std::int32_t> step = defaultStep;
        for (auto& r : report.ranks) {
            const auto windows = windowsOf(ws, reader, runName, r.rank, choice, false, step);
            const StepEvents ev = reader.read(windows.front());
            for (const auto& s : r.path.segments)
                r.segments.push_back(namedSegment(ev, s));
            placeUntraced(r.segments, ev);
        }
    }
    return report;
}

WhatIfReport computeWhatIf(const Workspace& ws, const std::string& runName, const WindowChoice& choice,
                           const WhatIfScenario& scenario) {
    auto tx = readSnapshot(ws);
    const RunRecord run = ws.runOrThrow(runName);
    StepEventReader reader(ws, run.id);
    WhatIfReport report;
    report.run = runName;
    report.scenario = scenario.describe();
    report.notes.push_back(kNoSyncRecords);
    std::optional<std::int32_t> noDefault;
    for (std::int32_t rank : ranksOf(ws, reader, runName, choice)) {
        for (const auto& w : windowsOf(ws, reader, runName, rank, choice, true, noDefault)) {
            const StepEvents ev = reader.read(w);
            const DependencyGraph g = buildGraph(ws, ev, choice);
            const Ns measured = CriticalPath::lengthOf(g, WhatIf::weightsOf(g, WhatIfScenario{}));
            const Ns predicted = WhatIf::predictedLength(g, scenario);
            auto it = std::find_if(report.windows.begin(), report.windows.end(), [&](const WhatIfWindow& x) {
                return x.stepIndex == ev.stepIndex && x.window == ev.label;
            });
            if (it == report.windows.end()) {
                report.windows.push_back(
                    WhatIfWindow{ev.stepIndex, ev.label, measured, predicted, rank, rank});
                continue;
            }
            if (measured > it->measured)
                it->measured = measured, it->slowestRank = rank;
            if (predicted > it->predicted)
                it->predicted = predicted, it->predictedSlowestRank = rank;
        }
    }
    if (report.windows.empty())
        throw InputError(ws.path(),
                         "run '" + runName + "' has no CPU events to build a dependency graph from");

    std::vector<double> ratios;
    std::vector<Ns> measured, predicted;
    for (const auto& w : report.windows) {
        ratios.push_back(w.measured > 0 ? static_cast<double>(w.predicted) / static_cast<double>(w.measured)
                                        : 1.0);
        measured.push_back(w.measured);
        predicted.push_back(w.predicted);
    }
    auto median = [](auto v) {
        std::sort(v.begin(), v.end());
        return v[(v.size() - 1) / 2];
    };
    report.medianMeasured = median(measured);
    report.medianPredicted = median(predicted);
    report.ratio = median(ratios);
    report.ratioLow = *std::min_element(ratios.begin(), ratios.end());
    report.ratioHigh = *std::max_element(ratios.begin(), ratios.end());
    report.predictedLow = static_cast<Ns>(static_cast<double>(report.medianMeasured) * report.ratioLow);
    report.predictedHigh = static_cast<Ns>(static_cast<double>(report.medianMeasured) * report.ratioHigh);
    report.notes.push_back(
        "a dependency that was not the last satisfied one is taken to need no time (launch "
        "latency of a queued kernel, a collective's wait as a share of its duration): "
        "predicted savings are an upper bound; the range is the lowest to highest "
        "per-window ratio");
    if (report.windows.size() > 1)
        report.notes.push_back(
            "across ranks, each window's length is its slowest rank's; collectives are not "
            "re-joined after the transformation");
    return report;
}

} // namespace cnp
