#pragma once
// A finished job into the workspace: its ranks' .cnpt files as one run (ranks merged and clock-aligned by
// the ingest pipeline), or for an untraced repeat a run without events; then the run_attributes that make
// `cnp run` resumable and the figures its log reported (docs/schema.md).
#include "launch/JobSpec.h"
#include "launch/LogFigures.h"
#include "plan/Plan.h"
#include "store/Workspace.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp::launch {

// The run this job already produced in `ws` (same plan.hash, plan.config, plan.repeat and launch.traced), if
// any: an untraced repeat N never stands in for a traced repeat N (after `--repeats 1` the untraced ones
// start at 2; a plain re-run then needs a traced 2).
std::optional<RunId> findCompletedRun(const Workspace& ws, const plan::Plan& plan, const JobSpec& job);

// Ingests job.outputDir (its *.cnpt; for an untraced job none is read) as run job.runName (or
// "<runName>.<n>" when a run of another plan has that name) and records the attributes: the plan's, the
// log figures and `backendAttributes` (RunningJob::runAttributes). With `summaryFiles`
// (RunningJob::summaryFiles: the run was ingested on a cluster) the run is added from those instead, under
// their run id (ingest/StudyAssembler.h, addRunFromSummaries), and no trace is read. Throws InputError
// when a traced job left no trace; on any exception the workspace is unchanged.
RunId ingestJob(Workspace& ws, const plan::Plan& plan, const JobSpec& job, const std::string& backend,
                const LogFigures& figures,
                const std::vector<std::pair<std::string, std::string>>& backendAttributes = {},
                const std::vector<std::string>& summaryFiles = {});

} // namespace cnp::launch
