#pragma once
// A `kubectl get ... --watch -o json --output-watch-events` kept running for as long as its owner wants it,
// read without blocking: every event kubectl prints (one JSON object each, `{"type": "ADDED" | "MODIFIED"
// | "DELETED" | "ERROR", "object": {...}}`) is handed out whole and in order (JsonObjectStream frames
// them). When the stream ends — the API server closes watches after its own timeout, the watch's
// --request-timeout cuts it, kubectl cannot connect — kubectl is started again `reconnectMs` after it
// exited. Every start begins with kubectl's own GET (or LIST) of the current state, printed as ADDED
// events, so a change made while no watch was open is not missed, and a server that refuses watches still
// yields the state once per reconnect interval: polling as the fallback.
#include "launch/JsonObjectStream.h"
#include "launch/Subprocess.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace cnp::launch {

class ResourceWatch {
public:
    // `argv`: the whole kubectl command line. kubectl's stderr is appended to `stderrPath`.
    ResourceWatch(std::vector<std::string> argv, std::string stderrPath, int reconnectMs);
    ~ResourceWatch();
    ResourceWatch(const ResourceWatch&) = delete;
    ResourceWatch& operator=(const ResourceWatch&) = delete;

    // Never blocks: starts kubectl when due, returns the events printed since the last call.
    std::vector<std::string> poll();
    // Stops kubectl (its process group); poll() starts it again.
    void stop();

    int starts() const { return starts_; }       // how many times kubectl was started
    int failedStarts() const { return failed_; } // of those, how many exited non-zero

private:
    std::vector<std::string> argv_;
    std::string stderrPath_;
    std::chrono::milliseconds reconnect_;
    std::unique_ptr<ProcessGroup> process_;
    JsonObjectStream stream_;
    std::chrono::steady_clock::time_point nextStart_{};
    int starts_ = 0, failed_ = 0;
};

} // namespace cnp::launch
