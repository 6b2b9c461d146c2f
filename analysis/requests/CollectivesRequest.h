#pragma once
// Collectives matched across the ranks of a stored run (metrics/CollectiveMatcher.h) and the stragglers
// they name with their causes (metrics/StragglerScorer.h), each read in one read transaction: the
// communication kernels rank by rank from the event tables (a study's shards included), the steps and the
// evidence from the summaries.
#include "core/RunRecord.h"
#include "metrics/ClockAligner.h"
#include "metrics/CollectiveMatcher.h"
#include "metrics/CommunicationPerStep.h"
#include "metrics/StragglerScorer.h"
#include "store/Workspace.h"

#include <string>
#include <vector>

namespace cnp {

struct CollectivesResult {
    RunRecord run;
    CollectiveMatch match;
    std::vector<CollectiveStepTotals> steps;
    // The workspace stores no process group or message size of a collective: calls are paired by the
    // order of the communication kernels on each stream, and bytes (so algbw and busbw) are unknown.
    bool matchedByKernelOrder = true;
    ClockAlignment clocks; // the hosts' clocks as the collectives see them (metrics/ClockAligner.h)
    std::vector<StepCommunication> communication; // exposed vs overlapped communication per step
};

struct StragglersResult {
    RunRecord run;
    CollectiveMatch match;
    StragglerReport report;
    ClockAlignment clocks;
};

// Throw InputError when the run does not exist or has no summaries. By name at the CLI's edge; by id
// where the run was picked from a run list.
CollectivesResult computeCollectives(const Workspace& ws, const std::string& runName);
CollectivesResult computeCollectives(const Workspace& ws, RunId runId);
StragglersResult computeStragglers(const Workspace& ws, const std::string& runName,
                                   const StragglerThresholds& thresholds = {});
StragglersResult computeStragglers(const Workspace& ws, RunId runId,
                                   const StragglerThresholds& thresholds = {});

} // namespace cnp
