#include "metrics/EnvironmentChecks.h"

#include "core/BoundedJson.h"

#include "core/RapidJson.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace cnp {

const char* toString(CheckVerdict v) {
    switch (v) {
    case CheckVerdict::Passed:
        return "passed";
    case CheckVerdict::Failed:
        return "failed";
    case CheckVerdict::NotChecked:
        return "not checked";
    }
    return "not checked";
}

namespace {

// "13.0.2" -> {13,0,2}; "13000"/"12080" (CUDA_VERSION style) -> {13,0,0}/{12,8,0}; "580.159" -> {580,159}.
std::vector<int> parseVersion(const std::string& s) {
    std::vector<int> v;
    int cur = -1;
    for (char c : s) {
        if (c >= '0' && c <= '9') {
            cur = (cur < 0 ? 0 : cur) * 10 + (c - '0');
            if (cur > 100000000)
                return {};
        } else if (c == '.') {
            v.push_back(cur < 0 ? 0 : cur);
            cur = -1;
        } else if (cur >= 0 || !v.empty()) {
            break;
        }
    }
    if (cur >= 0)
        v.push_back(cur);
    return v;
}

std::optional<std::pair<int, int>> cudaMajorMinor(const std::string& s) {
    auto v = parseVersion(s);
    if (v.empty())
        return std::nullopt;
    if (v.size() == 1 && v[0] >= 1000) // CUDA_VERSION encoding 1000*major + 10*minor
        return std::make_pair(v[0] / 1000, (v[0] % 1000) / 10);
    return std::make_pair(v[0], v.size() > 1 ? v[1] : 0);
}

std::string envValue(const RunInfo& info, const std::string& key, bool* found) {
    for (const auto& [k, v] : info.env)
        if (k == key) {
            *found = true;
            return v;
        }
    *found = false;
    return {};
}

int gpusPerPod(const RunRecord& run, std::optional<std::int32_t> mostRanksOnOneHost) {
    bool f = false;
    const std::string lws = envValue(run.info, "LOCAL_WORLD_SIZE", &f);
    if (f) {
        auto v = parseVersion(lws);
        if (!v.empty() && v[0] > 0)
            return v[0];
    }
    const std::string cvd = envValue(run.info, "CUDA_VISIBLE_DEVICES", &f);
    if (f && !cvd.empty())
        return static_cast<int>(std::count(cvd.begin(), cvd.end(), ',')) + 1;
    return mostRanksOnOneHost.value_or(run.info.worldSize);
}

EnvironmentCheck ncclSocketIfnameCheck(const RunRecord& run, std::optional<std::int32_t> mostRanksOnOneHost) {
    EnvironmentCheck c{"release-notes.nccl-socket-ifname",
                       "NCCL_SOCKET_IFNAME is eth0 for pods of 1, 2, 4 or 8 GPUs and hpn0 for 16",
                       CheckVerdict::NotChecked, "NCCL_SOCKET_IFNAME not recorded", std::nullopt};
    bool found = false;
    const std::string ifname = envValue(run.info, "NCCL_SOCKET_IFNAME", &found);
    if (!found)
        return c;
    const int gpus = gpusPerPod(run, mostRanksOnOneHost);
    std::string expected;
    if (gpus == 1 || gpus == 2 || gpus == 4 || gpus == 8)
        expected = "eth0";
    else if (gpus == 16)
        expected = "hpn0";
    c.observed = "NCCL_SOCKET_IFNAME=" + ifname + ", GPUs per pod: " + std::to_string(gpus);
    if (expected.empty())
        return c; // the notes say nothing about this pod size
    if (ifname == expected) {
        c.verdict = CheckVerdict::Passed;
        return c;
    }
    c.verdict = CheckVerdict::Failed;
    Insight in;
    in.id = c.id;
    in.severity = InsightSeverity::Critical;
    in.value = gpus;
    in.title = "NCCL_SOCKET_IFNAME is '" + ifname + "' but must be '" + expected + "' for a pod with " +
               std::to_string(gpus) + " GPUs";
    in.explanation = "The training image's release notes require NCCL_SOCKET_IFNAME=eth0 when a pod uses "
                     "1, 2, 4 or 8 GPUs and hpn0 when it uses all 16 GPUs of a node. With another "
                     "interface NCCL bootstraps over the wrong network: collectives are slow or hang.";
    in.evidence.push_back({-1, -1, -1, -1, {}, "NCCL_SOCKET_IFNAME=" + ifname});
    c.failure = std::move(in);
    return c;
}

EnvironmentCheck driverVersionCheck(const RunRecord& run) {
    EnvironmentCheck c{"release-notes.driver-version",
                       "CUDA 13.x needs driver >= 580, CUDA 12.8 needs >= 575", CheckVerdict::NotChecked, "",
                       std::nullopt};
    const auto cuda = cudaMajorMinor(run.info.cudaVersion);
    const auto driver = parseVersion(run.info.driverVersion);
    c.observed = "driver " + (run.info.driverVersion.empty() ? "?" : run.info.driverVersion) + ", CUDA " +
                 (run.info.cudaVersion.empty() ? "?" : run.info.cudaVersion);
    // NVIDIA driver branches are 3-digit (470, 535, 580...). Sources such as Kineto report the driver's
    // CUDA API version instead ("13.0" / 13000): that says nothing about the branch, so it is not
    // checked.
    if (!cuda || driver.empty() || driver[0] < 100 || driver[0] >= 1000)
        return c;
    int need = 0;
    if (cuda->first >= 13)
        need = 580;
    else if (cuda->first == 12 && cuda->second >= 8)
        need = 575;
    if (need == 0)
        return c; // no requirement for this CUDA version
    if (driver[0] >= need) {
        c.verdict = CheckVerdict::Passed;
        return c;
    }
    c.verdict = CheckVerdict::Failed;
    Insight in;
    in.id = c.id;
    in.severity = InsightSeverity::Critical;
    in.value = driver[0];
    in.title = "CUDA " + run.info.cudaVersion + " needs driver >= " + std::to_string(need) + ", run has " +
               run.info.driverVersion;
    in.explanation = "The training image's release notes: CUDA 13.0.2 needs NVIDIA driver 580 or newer and "
                     "CUDA 12.8 needs 575 or newer. An older driver runs only through forward "
                     "compatibility, if at all: expect initialisation failures or missing features. Use "
                     "an image built for the node's driver, or upgrade the driver.";
    in.evidence.push_back(
        {-1, -1, -1, -1, {}, "driver " + run.info.driverVersion + ", CUDA " + run.info.cudaVersion});
    c.failure = std::move(in);
    return c;
}

// The prefetch bucket size from the metadata key, else from a DEEPSPEED_CONFIG JSON document; nullopt
// when neither records it. An explicit JSON null counts as empty.
std::optional<std::string> prefetchBucket(const RunInfo& info) {
    bool found = false;
    std::string bucket = envValue(info, "zero_optimization.stage3_prefetch_bucket_size", &found);
    if (found)
        return bucket;
    const std::string cfg = envValue(info, "DEEPSPEED_CONFIG", &found);
    if (!found)
        return std::nullopt;
    rapidjson::Document d;
    // The run's env is workspace content: parsed without recursion, depth-bounded (core/BoundedJson).
    if (!parseBoundedJson(cfg, d).ok || !d.IsObject() || !d.HasMember("zero_optimization") ||
        !d["zero_optimization"].IsObject() ||
        !d["zero_optimization"].HasMember("stage3_prefetch_bucket_size"))
        return std::nullopt;
    const auto& v = d["zero_optimization"]["stage3_prefetch_bucket_size"];
    if (v.IsNull())
        return std::string();
    return v.IsString() ? v.GetString() : v.IsNumber() ? std::to_string(v.GetDouble()) : "?";
}

EnvironmentCheck prefetchBucketCheck(const RunRecord& run) {
    EnvironmentCheck c{"release-notes.deepspeed-prefetch-bucket",
                       "DeepSpeed stage3_prefetch_bucket_size is empty or 'auto'", CheckVerdict::NotChecked,
                       "stage3_prefetch_bucket_size not recorded", std::nullopt};
    const auto bucket = prefetchBucket(run.info);
    if (!bucket)
        return c;
    c.observed = "stage3_prefetch_bucket_size=" + *bucket;
    if (bucket->empty() || *bucket == "auto") {
        c.verdict = CheckVerdict::Passed;
        return c;
    }
    c.verdict = CheckVerdict::Failed;
    Insight in;
    in.id = c.id;
    in.severity = InsightSeverity::Warning;
    in.title = "DeepSpeed zero_optimization.stage3_prefetch_bucket_size is '" + *bucket +
               "'; must be empty or 'auto'";
    in.explanation =
        "The training image's release notes require stage3_prefetch_bucket_size to be left empty "
        "or set to 'auto' so DeepSpeed sizes the ZeRO-3 prefetch bucket from the model. A fixed "
        "value from another model either starves the prefetch (exposed all-gathers) or wastes "
        "memory.";
    in.evidence.push_back({-1, -1, -1, -1, {}, "stage3_prefetch_bucket_size=" + *bucket});
    c.failure = std::move(in);
    return c;
}

} // namespace

std::vector<EnvironmentCheck> checkEnvironment(const RunSnapshot& snapshot) {
    const RunRecord& run = snapshot.run;
    return {ncclSocketIfnameCheck(run, snapshot.mostRanksOnOneHost), driverVersionCheck(run),
            prefetchBucketCheck(run)};
}

} // namespace cnp
