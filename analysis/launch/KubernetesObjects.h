#pragma once
// What the Kubernetes backend reads of the API's objects, as kubectl prints them (`-o json`, watch events):
// a Job's (or PyTorchJob's) end, a pod's phase, rank and image. Untrusted text: anything not of the
// expected form reads as absent.
#include "core/RapidJson.h"

#include <optional>
#include <string>
#include <vector>

namespace cnp::launch {

struct JobStatus {
    bool complete = false, failed = false;
};

struct PodState {
    std::string name;
    int rank = 0;
    std::string phase;   // Pending, Running, Succeeded, Failed, Unknown
    std::string imageId; // the workload container's status.imageID (the image as the node pulled it)
};

// A Job's (or PyTorchJob's) end from its conditions; Complete/Succeeded or Failed with status "True".
JobStatus parseJobStatus(const rapidjson::Value& d);
// The string member `key` of `v`; nullptr when absent or not a string.
const char* member(const rapidjson::Value& v, const char* key);
// The pod's rank: its Indexed Job completion index, or for a PyTorchJob Master 0 and Worker i -> i + 1.
int podRank(const rapidjson::Value& meta);
std::optional<PodState> parsePod(const rapidjson::Value& item);
// The pods of a `kubectl get pods -o json` list.
std::vector<PodState> parsePods(const std::string& json);
// One event of `kubectl get --watch -o json --output-watch-events`: its type and object; false for text
// that is not one (`d` then holds nothing to use).
bool parseWatchEvent(const std::string& text, rapidjson::Document& d, std::string& type);
// An attempt name as the orchestrator makes them ("attempt-<n>[-<hex>]"): it becomes a folder on the trace
// volume, so text from a cluster object or a workspace that is anything else (a path, "..") is refused.
bool isAttemptName(const std::string& s);

} // namespace cnp::launch
