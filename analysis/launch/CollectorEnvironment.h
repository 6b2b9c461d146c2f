#pragma once
// The environment that injects the CUPTI collector into a workload (docs/collector.md). One definition,
// shared by `cnp collect` and every `cnp run` backend, so a traced process sees the same variables however
// it was started.
#include <string>
#include <utility>
#include <vector>

namespace cnp::launch {

// Environment variables in the order they are set; names unique (setEnv keeps them so).
using EnvList = std::vector<std::pair<std::string, std::string>>;

struct CollectorSettings {
    std::string library;   // libcnp-collector.so as the workload sees it (host or container path)
    std::string outputDir; // CNP_OUTPUT_DIR as the workload sees it
    std::string config;    // CNP_CONFIG, "" = unset
    std::string run;       // CNP_RUN, "" = unset
    std::string capture;   // CNP_CAPTURE in canonical form (CaptureSpec::describe), "" = record everything
    std::string image;     // CNP_IMAGE, "" = unset
};

// CUDA_INJECTION64_PATH and NVTX_INJECTION64_PATH (both the collector, which hands NVTX over to the CUPTI it
// is bound to; set before the process starts so NVTX calls made before CUDA's initialisation are seen),
// CNP_OUTPUT_DIR, then the labels that are set.
EnvList collectorEnvironment(const CollectorSettings& settings);

// Sets `name` to `value`: replaces an existing entry in place, else appends.
void setEnv(EnvList& env, const std::string& name, const std::string& value);

// `overrides` applied on top of `base` with setEnv (later entries win).
EnvList mergeEnv(EnvList base, const EnvList& overrides);

// libcnp-collector.so: $CNP_COLLECTOR_LIB, else next to the running executable (build tree: <build>/lib;
// installed: <prefix>/lib/cnp). "" when none exists; `looked` receives every path tried.
std::string findCollectorLibrary(std::vector<std::string>& looked);

} // namespace cnp::launch
