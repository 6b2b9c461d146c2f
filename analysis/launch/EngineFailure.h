#pragma once
// Why podman or docker failed, from what the engine printed (issue 28: a failed `ENGINE run` showed only
// "exit code 125"). The engines exit 125 when they themselves fail (a bad flag, an image they cannot get,
// a device they cannot set up), 126 when the workload's program cannot be executed and 127 when it is not
// in the image; the cause is in the engine's own error lines, which precede the workload's output in the
// job's log (and a pull's stderr). Known causes are said in a sentence with the way out; any other engine
// error line is quoted.
#include <string>

namespace cnp::launch {

struct EngineFailure {
    std::string cause;     // "" = not the engine's failure, or nothing recognisable
    bool everyJob = false; // the same cause fails every job of the study (a flag, the GPU runtime)
};

// `output`: what `ENGINE run` (or `ENGINE pull`) printed; `exitCode` its exit code (exitCodeOf); `image`
// the image it was to run. Reads only lines the engines write (Error:, docker: Error response from daemon,
// unknown flag, OCI runtime messages).
EngineFailure diagnoseEngineFailure(const std::string& engine, int exitCode, const std::string& output,
                                    const std::string& image);

} // namespace cnp::launch
