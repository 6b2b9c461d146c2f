#pragma once
// Collectives matched across the ranks of a stored run (metrics/CollectiveMatcher.h) and the stragglers
// they name with their causes (metrics/StragglerScorer.h), each read in one read transaction: the
// communication kernels rank by rank from the event tables (a study's shards included), the steps and the
// evidence from the summaries.
#include "core/RunRecord.h"
#include "metrics/ClockAligner.h"
#include "metrics/CollectiveEfficiency.h"
#include "metrics/CollectiveMatcher.h"
#include "metrics/CommunicationPerStep.h"
#include "metrics/StragglerScorer.h"
#include "store/Workspace.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cnp {

struct CollectivesResult {
    RunRecord run;
    CollectiveMatch match;
    std::vector<CollectiveStepTotals> steps;
    // How the calls were paired (matchedBy()): by process group and order in it where the kernels' stored
    // arguments name the group (collective_args), else by the order of the kernels on each stream (a
    // trace without arguments, or a workspace ingested before they were stored; bytes then unknown).
    const char* matchedBy() const {
        if (match.calls.empty() || match.callsByGroup == 0)
            return "kernel-order-per-stream";
        return match.callsByGroup == static_cast<std::int64_t>(match.calls.size())
                   ? "process-group-order"
                   : "process-group-order-and-kernel-order-per-stream";
    }
    ClockAlignment clocks; // the hosts' clocks as the collectives see them (metrics/ClockAligner.h)
    // Whether `clocks` is the fit stored at ingest (requests/ClockAlignmentRequest.h); false: fitted now
    // from every rank (a workspace ingested before the fit was stored).
    bool clocksStored = false;
    // Per call (match.calls' order): 1 when a rank of another host than the last-arriving one arrived
    // within the clocks' stated error (clocks.storedErrorNs) of it: no claim which was last
    // (metrics/CrossHostOrder.h).
    std::vector<std::uint8_t> lastRankUncertainByCall;
    bool lastRankUncertain(std::size_t call) const {
        return call < lastRankUncertainByCall.size() && lastRankUncertainByCall[call] != 0;
    }
    std::int64_t uncertainCalls() const {
        return std::count(lastRankUncertainByCall.begin(), lastRankUncertainByCall.end(), std::uint8_t(1));
    }
    std::vector<StepCommunication> communication; // exposed vs overlapped communication per step
    // The fabric's peak bus bandwidth (a --peak-gbps override for both links, else the run's plan
    // attributes fabric.intra_node_gbps / fabric.inter_node_gbps; 0 = unknown) and the calls' efficiency
    // per operation and message size against it.
    FabricPeak fabric;
    std::string fabricSource; // "override", "plan" or "" (unknown)
    std::vector<CollectiveEfficiencyRow> efficiency;
};

// What computeCollectives is asked besides the run.
struct CollectivesOptions {
    std::optional<double> peakGBs; // > 0: the fabric's peak for every call (cnp collectives --peak-gbps)
};

struct StragglersResult {
    RunRecord run;
    CollectiveMatch match;
    StragglerReport report;
    ClockAlignment clocks;
    bool clocksStored = false;                         // as CollectivesResult's
    std::vector<std::uint8_t> lastRankUncertainByCall; // as CollectivesResult's
    FabricPeak fabric; // as CollectivesResult's (the plan's figures; no override)
    std::string fabricSource;
    std::vector<CollectiveEfficiencyRow> efficiency;
};

// Throw InputError when the run does not exist or has no summaries. By name at the CLI's edge; by id
// where the run was picked from a run list.
CollectivesResult computeCollectives(const Workspace& ws, const std::string& runName,
                                     const CollectivesOptions& options = {});
CollectivesResult computeCollectives(const Workspace& ws, RunId runId,
                                     const CollectivesOptions& options = {});
StragglersResult computeStragglers(const Workspace& ws, const std::string& runName,
                                   const StragglerThresholds& thresholds = {});
StragglersResult computeStragglers(const Workspace& ws, RunId runId,
                                   const StragglerThresholds& thresholds = {});

} // namespace cnp
