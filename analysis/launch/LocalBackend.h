#pragma once
// Jobs as local processes: one process group per job (torchrun around the workload when a node has more
// than one GPU), run as `env NAME=VALUE... ARGV` so the dry-run line is exactly what executes; stdout and
// stderr go to <outputDir>/node0.log; the process runs in localWorkingDir(job); traces to <outputDir>
// (CNP_OUTPUT_DIR). A local box is one node: a job of several nodes is refused (requireOneNode). The process
// inherits cnp's environment, except that an untraced job gets `env -u` for the injection variables
// (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH) its configuration does not set: the overhead baseline is
// never traced by the caller's injection.
#include "launch/Backend.h"

namespace cnp::launch {

class LocalBackend : public Backend {
public:
    explicit LocalBackend(std::string collectorLibrary) : collector_(std::move(collectorLibrary)) {}
    std::string name() const override { return "local"; }
    std::string describe(const JobSpec& job) const override;
    std::unique_ptr<RunningJob> start(const JobSpec& job, const ProgressListener& progress) override;

    // `env [-u NAME]... NAME=VALUE... ARGV`: the job's whole command line.
    std::vector<std::string> commandLine(const JobSpec& job) const;

private:
    std::string collector_; // host path of libcnp-collector.so
};

// The folder a local job runs in: the plan's `workingDir` resolved against the plan file's folder, and that
// folder itself when the plan sets none, so the workload's relative paths (`python train.py`,
// `./run.sh`, `--config conf/a.yaml`) mean the files beside the plan wherever cnp (or the workbench) was
// started. An absolute `workingDir` is kept; a plan that was not read from a file keeps its own value.
std::string localWorkingDir(const JobSpec& job);

// Reads every *.log file directly in `dir` (sorted by name), concatenated.
std::string readLogs(const std::string& dir);

} // namespace cnp::launch
