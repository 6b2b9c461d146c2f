#pragma once
// Progress of `cnp run`, per job and per rank, and its JSON-lines form (`cnp run --progress json`, read by
// the workbench's Plans page; docs/launcher.md). The protocol, one object per line:
//   {"type":"run","config":"Base","repeat":1,"rank":null,"state":"running","message":"..."}
//   {"type":"summary","done":N,"failed":N,"skipped":N,"cancelled":N,"detached":N}
// `rank` is an integer for per-rank states, null for the job as a whole.
#include <functional>
#include <optional>
#include <string>

namespace cnp::launch {

// Detached: submitted (or found running) and left to run without cnp (`cnp run --detach`); a later run
// attaches to it.
enum class JobState {
    Pending,
    Starting,
    Running,
    Collecting,
    Ingesting,
    Done,
    Failed,
    Skipped,
    Cancelled,
    Detached
};

// The protocol's spelling: "pending", "starting", ...
const char* stateName(JobState s);
// True for done, failed, skipped, cancelled, detached: a job's last state (in this run of cnp).
bool isFinal(JobState s);

struct ProgressEvent {
    std::string config;
    int repeat = 0;
    std::optional<int> rank; // nullopt: the whole job
    JobState state = JobState::Pending;
    std::string message;
};

struct RunSummary {
    int done = 0, failed = 0, skipped = 0, cancelled = 0, detached = 0;
    void count(JobState s);
};

using ProgressListener = std::function<void(const ProgressEvent&)>;

std::string toJsonLine(const ProgressEvent& e);  // no trailing newline
std::string toJsonLine(const RunSummary& s);     // no trailing newline
std::string toHumanLine(const ProgressEvent& e); // "Base r1 [rank 0]: running (message)"

} // namespace cnp::launch
