#include "launch/JobIngest.h"

#include "core/InputError.h"
#include "core/RunAttributeKeys.h"
#include "ingest/IngestPipeline.h"
#include "ingest/StudyAssembler.h"
#include "store/Sqlite.h"
#include "store/WorkspaceTransactions.h"

#include <cstdio>
#include <filesystem>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;

// Full precision, C locale (docs/schema.md: run_attributes values).
std::string numberText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

std::string freeRunName(const Workspace& ws, const std::string& wanted) {
    std::string name = wanted;
    for (int n = 2; ws.findRun(name); ++n)
        name = wanted + "." + std::to_string(n);
    return name;
}

bool hasTraceFile(const std::string& dir) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() > 5 && (name.ends_with(".cnpt") || name.ends_with(".cnpt.gz")))
            return true;
    }
    return false;
}

// An untraced repeat: a run that holds no events, only its labels (and, below, its log figures). It has one
// rank without events, so it has a (zero) summary row like every run: readers of summaries accept it, and
// the trace-derived ablation finds no window in it and takes no sample from it.
RunId addEmptyRun(Workspace& ws, const plan::Plan& plan, const JobSpec& job, const std::string& name,
                  const std::string& backend) {
    TraceData trace;
    trace.ranks.push_back(RankInfo{});
    trace.info.name = name;
    trace.info.config = job.config;
    trace.info.repeat = job.repeat;
    trace.info.sourceFormat = "log";
    // The local backend runs on this machine, not in the configuration's image: it records none.
    trace.info.containerImage = backend == "local" ? std::string() : job.image;
    trace.info.worldSize = job.nodes * job.gpusPerNode;
    trace.info.tokensPerStep = plan.tokensPerStep;
    trace.info.flopsPerStep = plan.flopsPerToken * plan.tokensPerStep;
    return addTrace(ws, std::move(trace));
}

void writeAttributes(Workspace& ws, RunId runId, const plan::Plan& plan, const JobSpec& job,
                     const std::string& backend, const LogFigures& f) {
    ws.setRunAttribute(runId, "plan.hash", plan.hash);
    // Absolute: a relative path names nothing once the workspace is read from another folder.
    ws.setRunAttribute(runId, "plan.path", fs::absolute(plan.path).lexically_normal().string());
    ws.setRunAttribute(runId, "plan.name", plan.name);
    // The study: the plan's name, else its file's stem (metrics/AblationStudies.h reads old runs so).
    ws.setRunAttribute(runId, kStudyAttribute,
                       plan.name.empty() ? fs::path(plan.path).stem().string() : plan.name);
    ws.setRunAttribute(runId, "plan.config", job.config);
    ws.setRunAttribute(runId, "plan.repeat", std::to_string(job.repeat));
    // What the configuration is expected to change (`expect:`), for predict-then-measure (docs/metrics.md).
    if (const plan::Configuration* c = plan.find(job.config); c && !c->expect.empty())
        ws.setRunAttribute(runId, "plan.expect", c->expect);
    ws.setRunAttribute(runId, "launch.backend", backend);
    ws.setRunAttribute(runId, "launch.traced", job.traced ? "1" : "0");
    if (plan.fabric.intraNodeGBps > 0)
        ws.setRunAttribute(runId, "fabric.intra_node_gbps", numberText(plan.fabric.intraNodeGBps));
    if (plan.fabric.interNodeGBps > 0)
        ws.setRunAttribute(runId, "fabric.inter_node_gbps", numberText(plan.fabric.interNodeGBps));
    if (f.throughput) {
        ws.setRunAttribute(runId, "log.throughput", numberText(*f.throughput));
        ws.setRunAttribute(runId, "log.throughput_unit", f.throughputUnit);
    }
    if (f.stepTimeSeconds)
        ws.setRunAttribute(runId, "log.step_time_s", numberText(*f.stepTimeSeconds));
    if (f.throughput || f.stepTimeSeconds)
        ws.setRunAttribute(runId, "log.source", "log");
}

} // namespace

std::optional<RunId> findCompletedRun(const Workspace& ws, const plan::Plan& plan, const JobSpec& job) {
    // O(runs) attribute reads: a workspace holds tens of runs, and this runs once per job.
    for (const RunRecord& r : ws.runs()) {
        const auto a = ws.runAttributes(r.id);
        auto is = [&](const char* key, const std::string& value) {
            const auto it = a.find(key);
            return it != a.end() && it->second == value;
        };
        if (is("plan.hash", plan.hash) && is("plan.config", job.config) &&
            is("plan.repeat", std::to_string(job.repeat)) && is("launch.traced", job.traced ? "1" : "0"))
            return r.id;
    }
    return std::nullopt;
}

RunId ingestJob(Workspace& ws, const plan::Plan& plan, const JobSpec& job, const std::string& backend,
                const LogFigures& figures,
                const std::vector<std::pair<std::string, std::string>>& backendAttributes,
                const std::vector<std::string>& summaryFiles) {
    const std::string name = freeRunName(ws, job.runName);
    RunId runId;
    if (job.traced && !summaryFiles.empty()) {
        runId = addRunFromSummaries(ws, summaryFiles, name);
    } else if (job.traced) {
        if (!hasTraceFile(job.outputDir))
            throw InputError(job.outputDir, "the job wrote no trace (.cnpt): did the workload use CUDA?");
        IngestRequest req;
        req.inputs = {job.outputDir};
        req.runName = name;
        req.config = job.config;
        req.repeat = job.repeat;
        req.tokensPerStep = plan.tokensPerStep;
        runId = ingest(ws, req).runId;
    } else {
        runId = addEmptyRun(ws, plan, job, name, backend);
    }
    // The run is committed; its attributes follow in a transaction of their own. Should that fail, the run
    // is removed again so that resume re-runs the job rather than keep a run it cannot recognise.
    try {
        Transaction tx = writeTransaction(ws);
        writeAttributes(ws, runId, plan, job, backend, figures);
        for (const auto& [key, value] : backendAttributes)
            ws.setRunAttribute(runId, key, value);
        tx.commit();
    } catch (...) {
        ws.removeRun(name);
        throw;
    }
    return runId;
}

} // namespace cnp::launch
