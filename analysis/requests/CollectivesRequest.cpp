#include "requests/CollectivesRequest.h"

#include "metrics/CommunicationOverlap.h"
#include "metrics/CrossHostOrder.h"
#include "requests/ClockAlignmentRequest.h"
#include "requests/WorkspaceCategories.h"
#include "store/CollectiveKernelQueries.h"
#include "store/RankQueries.h"
#include "store/RunSnapshotReader.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace cnp {

namespace {

constexpr const char* kCommunication = "communication";

// Each rank's steps as windows from the earlier to the later of their CPU and GPU starts and ends.
std::vector<RankStepWindows> stepWindowsOf(const std::vector<StepSummary>& steps) {
    std::map<std::int32_t, RankStepWindows> byRank;
    for (const auto& s : steps) {
        auto& w = byRank[s.rank];
        w.rank = s.rank;
        const Ns start = s.hasGpu() ? std::min(s.cpuStart, s.gpuStart) : s.cpuStart;
        const Ns end = s.hasGpu() ? std::max(s.cpuEnd, s.gpuEnd) : s.cpuEnd;
        w.windows.emplace_back(start, end);
    }
    std::vector<RankStepWindows> out;
    for (auto& [rank, w] : byRank) {
        std::sort(w.windows.begin(), w.windows.end());
        out.push_back(std::move(w));
    }
    return out;
}

using HostOfRank = std::vector<std::pair<std::int32_t, std::string>>;

// Reads the run's communication kernels rank by rank, each with its overlap with the rank's compute
// kernels (read in the same scan, one rank's at a time), and matches them; `hosts` (optional) receives
// each rank's host. Inside the caller's read snapshot.
CollectiveMatch matchRun(const Workspace& ws, const RunRecord& run, const std::vector<StepSummary>& steps,
                         HostOfRank* hosts = nullptr) {
    CollectiveInput input;
    CollectiveKernelQueries q(ws, run.id, kCommunication);
    for (const RankInfo& r : RankQueries(ws).ranksOfRun(run.id)) {
        if (hosts)
            hosts->emplace_back(r.rank, r.host);
        std::vector<std::pair<Ns, Ns>> compute; // the rank's, dropped once its overlaps are set
        RankCollectives k = q.rankKernels(r.rank, &compute);
        setCommunicationOverlap(k, std::move(compute));
        if (!k.kernels.empty())
            input.ranks.push_back(std::move(k));
    }
    input.names = q.takeNames();
    input.steps = stepWindowsOf(steps);
    return matchCollectives(std::move(input));
}

// A run attribute read as a number >= 0 (C locale, locale-independent); 0 when absent or not one.
double attributeNumber(const Workspace& ws, RunId runId, const std::string& key) {
    const auto text = ws.runAttribute(runId, key);
    double v = 0;
    if (!text || text->empty())
        return 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    return ec == std::errc() && end == text->data() + text->size() && v >= 0 && v <= 1e9 ? v : 0;
}

// The stored clock fit where ingest wrote one, else the fit from `match` (CollectivesResult's or
// StragglersResult's clocks and clocksStored).
template <class Result> void setClocks(const Workspace& ws, const HostOfRank& hosts, Result& out) {
    if (auto stored = storedClockAlignment(ws, out.run.id)) {
        out.clocks = std::move(*stored);
        out.clocksStored = true;
    } else {
        out.clocks = estimateClockAlignment(out.match, hosts);
    }
}

// The override for both links, else the plan's figures recorded with the run (CollectivesResult's or
// StragglersResult's fabric and fabricSource).
template <class Result> void setFabric(const Workspace& ws, const CollectivesOptions& options, Result& out) {
    if (options.peakGBs && *options.peakGBs > 0) {
        out.fabric = {*options.peakGBs, *options.peakGBs};
        out.fabricSource = "override";
        return;
    }
    out.fabric.intraNodeGBs = attributeNumber(ws, out.run.id, "fabric.intra_node_gbps");
    out.fabric.interNodeGBs = attributeNumber(ws, out.run.id, "fabric.inter_node_gbps");
    if (out.fabric.intraNodeGBs > 0 || out.fabric.interNodeGBs > 0)
        out.fabricSource = "plan";
}

template <class Key>
CollectivesResult collectivesOf(const Workspace& ws, const Key& key, const CollectivesOptions& options) {
    const auto snapshot = readSnapshot(ws);
    CollectivesResult out;
    out.run = ws.runOrThrow(key);
    RunSnapshotParts parts;
    parts.steps = true;
    const RunSnapshot s = readRunSnapshot(ws, out.run, CategoryOrder{}, parts);
    HostOfRank hosts;
    out.match = matchRun(ws, out.run, s.steps, &hosts);
    out.steps = collectiveStepTotals(out.match);
    setClocks(ws, hosts, out);
    out.lastRankUncertainByCall = uncertainLastArrivals(out.match, hosts, out.clocks.storedErrorNs);
    out.communication = communicationPerStep(s.steps);
    setFabric(ws, options, out);
    out.efficiency = collectiveEfficiency(out.match, hosts, out.fabric);
    return out;
}

// Each rank's evidence from its summaries: its kernel statistics, its data-wait and launch-bound idle.
std::vector<RankEvidenceInput> evidenceOf(RunSnapshot& s) {
    std::map<std::int32_t, RankEvidenceInput> byRank;
    for (const auto& r : s.ranks) {
        auto& e = byRank[r.rank];
        e.rank = r.rank;
        e.windowNs = r.window ? r.window->end - r.window->start : 0;
        e.launchBoundNs = r.launchBoundIdleNs;
    }
    for (const auto& [rank, ns] : s.gapTotals.dataWaitByRank())
        byRank[rank].dataWaitNs += ns;
    for (auto& [rank, kernels] : s.rankKernels)
        byRank[rank].kernels = std::move(kernels);
    std::vector<RankEvidenceInput> out;
    for (auto& [rank, e] : byRank) {
        e.rank = rank;
        out.push_back(std::move(e));
    }
    return out;
}

template <class Key>
StragglersResult stragglersOf(const Workspace& ws, const Key& key, const StragglerThresholds& thresholds) {
    const auto snapshot = readSnapshot(ws);
    StragglersResult out;
    out.run = ws.runOrThrow(key);
    const CategoryOrder order = categoryOrderOf(categoryRulesOf(ws));
    RunSnapshotParts parts;
    parts.ranks = parts.steps = parts.gaps = true;
    RunSnapshot s = readRunSnapshot(ws, out.run, order, parts);
    for (const auto& r : s.ranks)
        parts.rankKernels.push_back(r.rank);
    parts.ranks = parts.steps = parts.gaps = false;
    s.rankKernels = readRunSnapshot(ws, out.run, order, parts).rankKernels;
    HostOfRank hosts;
    out.match = matchRun(ws, out.run, s.steps, &hosts);
    out.report = scoreStragglers(out.match, evidenceOf(s), thresholds);
    setClocks(ws, hosts, out);
    out.lastRankUncertainByCall = uncertainLastArrivals(out.match, hosts, out.clocks.storedErrorNs);
    setFabric(ws, CollectivesOptions{}, out);
    out.efficiency = collectiveEfficiency(out.match, hosts, out.fabric);
    return out;
}

} // namespace

CollectivesResult computeCollectives(const Workspace& ws, const std::string& runName,
                                     const CollectivesOptions& options) {
    return collectivesOf(ws, runName, options);
}

CollectivesResult computeCollectives(const Workspace& ws, RunId runId, const CollectivesOptions& options) {
    return collectivesOf(ws, runId, options);
}

StragglersResult computeStragglers(const Workspace& ws, const std::string& runName,
                                   const StragglerThresholds& thresholds) {
    return stragglersOf(ws, runName, thresholds);
}

StragglersResult computeStragglers(const Workspace& ws, RunId runId, const StragglerThresholds& thresholds) {
    return stragglersOf(ws, runId, thresholds);
}

} // namespace cnp
