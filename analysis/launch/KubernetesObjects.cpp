#include "launch/KubernetesObjects.h"

#include <algorithm>
#include <cstdlib>

namespace cnp::launch {

// A Job's (or PyTorchJob's) end from its conditions; Complete/Succeeded or Failed with status "True".
JobStatus parseJobStatus(const rapidjson::Value& d) {
    JobStatus s;
    if (!d.IsObject() || !d.HasMember("status") || !d["status"].IsObject())
        return s;
    const auto& st = d["status"];
    if (st.HasMember("conditions") && st["conditions"].IsArray())
        for (const auto& c : st["conditions"].GetArray()) {
            if (!c.IsObject() || !c.HasMember("type") || !c["type"].IsString() || !c.HasMember("status") ||
                !c["status"].IsString() || std::string(c["status"].GetString()) != "True")
                continue;
            const std::string type = c["type"].GetString();
            s.complete = s.complete || type == "Complete" || type == "Succeeded";
            s.failed = s.failed || type == "Failed";
        }
    return s;
}

const char* member(const rapidjson::Value& v, const char* key) {
    return v.IsObject() && v.HasMember(key) && v[key].IsString() ? v[key].GetString() : nullptr;
}

// The pod's rank: its Indexed Job completion index, or for a PyTorchJob Master 0 and Worker i -> i + 1.
int podRank(const rapidjson::Value& meta) {
    if (meta.HasMember("annotations"))
        if (const char* idx = member(meta["annotations"], "batch.kubernetes.io/job-completion-index"))
            return std::atoi(idx);
    if (meta.HasMember("labels")) {
        const char* type = member(meta["labels"], "training.kubeflow.org/replica-type");
        const char* idx = member(meta["labels"], "training.kubeflow.org/replica-index");
        if (type && idx)
            return (std::string(type) == "worker" ? 1 : 0) + std::atoi(idx);
    }
    return 0;
}

std::optional<PodState> parsePod(const rapidjson::Value& item) {
    if (!item.IsObject() || !item.HasMember("metadata") || !item["metadata"].IsObject())
        return std::nullopt;
    const auto& meta = item["metadata"];
    const char* name = member(meta, "name");
    if (!name)
        return std::nullopt;
    PodState p;
    p.name = name;
    p.rank = podRank(meta);
    if (!item.HasMember("status"))
        return p;
    const auto& status = item["status"];
    if (const char* phase = member(status, "phase"))
        p.phase = phase;
    if (status.IsObject() && status.HasMember("containerStatuses") && status["containerStatuses"].IsArray())
        for (const auto& c : status["containerStatuses"].GetArray()) {
            const char* container = member(c, "name");
            if (const char* id = member(c, "imageID");
                id && container &&
                (std::string(container) == "workload" || std::string(container) == "pytorch"))
                p.imageId = id;
        }
    return p;
}

std::vector<PodState> parsePods(const std::string& json) {
    std::vector<PodState> pods;
    rapidjson::Document d;
    if (d.Parse(json.c_str()).HasParseError() || !d.IsObject() || !d.HasMember("items") ||
        !d["items"].IsArray())
        return pods;
    for (const auto& item : d["items"].GetArray())
        if (auto p = parsePod(item))
            pods.push_back(*p);
    return pods;
}

// One event of `kubectl get --watch -o json --output-watch-events`: its type and object; false for text
// that is not one (`d` then holds nothing to use).
bool parseWatchEvent(const std::string& text, rapidjson::Document& d, std::string& type) {
    if (d.Parse(text.c_str()).HasParseError() || !d.IsObject() || !d.HasMember("object") ||
        !d["object"].IsObject())
        return false;
    const char* t = member(d, "type");
    type = t ? t : "";
    return true;
}

bool isAttemptName(const std::string& s) {
    if (s.rfind("attempt-", 0) != 0 || s.size() > 40 || s.size() == 8)
        return false;
    return std::all_of(s.begin() + 8, s.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-'; });
}

} // namespace cnp::launch
