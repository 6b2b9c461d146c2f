#pragma once
// Jobs as podman or docker containers: `ENGINE run --rm` with the collector bind-mounted read-only, the
// job's output folder mounted read-write, every variable passed with -e, the plan's GPU flags (`--gpus all`
// or CDI `--device nvidia.com/gpu=all`), --ipc=host when the configuration wants it; nothing that grants
// privilege (plan/ContainerPrivilege) and an image that is an image reference, or runArgv refuses.
// The engine's own environment may carry settings (podman: CONTAINERS_CONF naming a containers.conf, e.g.
// runc and explicit ulimits on hosts where the defaults fail). Cancel waits (at most 30 s) until the job's
// own container (named after the job) exists or its client has exited — a client stopped while its create
// is in flight would leave a "Created" container behind — then `ENGINE stop`, the client's process group,
// `ENGINE rm -f` of the same name, and waits (at most 30 s) until the name is gone.
#include "launch/Backend.h"
#include "launch/ContainerImages.h"

#include <map>
#include <optional>

namespace cnp::launch {

struct ContainerSettings {
    std::string engine = "podman";      // program: podman or docker
    std::string collectorLibrary;       // host path of libcnp-collector.so
    std::vector<std::string> gpuFlags;  // words, e.g. {"--gpus", "all"}; empty = no GPUs
    std::vector<std::string> extraArgs; // appended to `run` before the image
    EnvList engineEnv;                  // environment of the engine process (CONTAINERS_CONF=...)
    std::string planName;               // for the container's labels
    // `--init`: a small init is PID 1 and passes signals on, so a workload that installs no SIGTERM handler
    // (as PID 1 the kernel ignores its default action) stops on `ENGINE stop` instead of waiting for SIGKILL.
    bool init = true;
    std::string initPath;         // podman `--init-path` ("" = the engine's own init); see containerInit
    std::string pull = "missing"; // the plan's container.pull: missing, always or never (prepare)
};

// The init `podman run --init` can use here: "" when podman's own (/usr/libexec/podman/catatonit) exists,
// else the first statically linked init found (catatonit, tini-static, docker-init: the binary is
// mounted into the image, so it must not need the image's libraries); nullopt when there is none (then a
// run without --init). Docker's daemon brings its own (docker-init): always "".
std::optional<std::string> containerInit(const std::string& engine);

// Inside the container.
inline constexpr const char* kContainerCollectorPath = "/opt/cnp/lib/libcnp-collector.so";
inline constexpr const char* kContainerOutputDir = "/cnp/out";

class ContainerBackend : public Backend {
public:
    explicit ContainerBackend(ContainerSettings s) : s_(std::move(s)) {}
    std::string name() const override { return s_.engine == "docker" ? "docker" : "podman"; }
    std::string describe(const JobSpec& job) const override;
    // Every job's image once: present, or pulled per ContainerSettings::pull; throws InputError listing
    // each image that cannot be run (launch/ContainerImages). Its ID and digest become run attributes.
    void prepare(const std::vector<JobSpec>& jobs,
                 const std::function<void(const std::string&)>& note) override;
    std::unique_ptr<RunningJob> start(const JobSpec& job, const ProgressListener& progress) override;

    // The whole `ENGINE run --rm ...` argv. Throws InputError for a mount path the engine would misread
    // (":" or "," in it, or a relative container path), a job without an image or with one that is not an
    // image reference, several nodes, or a flag or mount that grants privilege (plan/ContainerPrivilege).
    std::vector<std::string> runArgv(const JobSpec& job) const;

private:
    ContainerSettings s_;
    std::map<std::string, ImageFacts> images_; // by image reference: from prepare, else inspected at start
};

// Splits a flag string from the plan ("--gpus all") into words at spaces; no quoting, no expansion.
std::vector<std::string> splitWords(const std::string& flags);

} // namespace cnp::launch
