#include "launch/ClusterEventFetch.h"

#include "core/EventShardRanks.h"
#include "core/InputError.h"
#include "core/RunAttributeKeys.h"
#include "launch/FetchPod.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesManifests.h"
#include "launch/KubernetesObjects.h"
#include "store/EventShardLink.h"
#include "store/LinkedEventShards.h"
#include "store/Workspace.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <set>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;

// Where ingest.events says the shards are: "<pvc>:<job>/<attempt>/shards" (ClusterIngest writes it).
struct ShardsOnVolume {
    std::string pvc, job, attempt;
};

std::optional<ShardsOnVolume> parseShardsOnVolume(const std::string& text) {
    const auto colon = text.find(':');
    const std::string suffix = "/shards";
    if (colon == std::string::npos || text.size() < suffix.size() ||
        text.compare(text.size() - suffix.size(), suffix.size(), suffix) != 0)
        return std::nullopt;
    const std::string path = text.substr(colon + 1, text.size() - suffix.size() - colon - 1);
    const auto slash = path.find('/');
    if (slash == std::string::npos)
        return std::nullopt;
    ShardsOnVolume s{text.substr(0, colon), path.substr(0, slash), path.substr(slash + 1)};
    if (s.pvc.empty() || s.job.empty() || s.job != dnsLabel(s.job, kMaxJobNameLength) ||
        !isAttemptName(s.attempt))
        return std::nullopt;
    return s;
}

std::optional<int> repeatOf(const std::string& text) {
    int v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < 1 || v > 1000000)
        return std::nullopt;
    return v;
}

// The job that made the run, as `plan` plans it, with the attempt the run's shards were written by.
JobSpec jobOfRun(const Workspace& ws, RunId runId, const plan::Plan& plan, const ShardsOnVolume& where) {
    const std::string run = ws.runLabel(runId);
    const auto config = ws.runAttribute(runId, "plan.config");
    const auto repeat = repeatOf(ws.runAttribute(runId, "plan.repeat").value_or(""));
    if (!config || !repeat)
        throw InputError(ws.path(), "run " + run +
                                        " records no plan configuration and repeat (plan.config, "
                                        "plan.repeat): it was not made by cnp run");
    if (std::none_of(plan.configurations.begin(), plan.configurations.end(),
                     [&](const plan::Configuration& c) { return c.name == *config; }))
        throw InputError(plan.path, "has no configuration " + *config + ", which run " + run + " ran");
    JobSelection sel;
    sel.configs = {*config};
    sel.tracedRepeats = *repeat;
    for (JobSpec& j : planJobs(plan, sel, linkedShardsDir(ws, runId)))
        if (j.repeat == *repeat && j.traced) {
            if (j.jobName != where.job)
                throw InputError(plan.path, "names the job of " + *config + " repeat " +
                                                std::to_string(*repeat) + " " + j.jobName + ", but run " +
                                                run + "'s events are under " + where.job +
                                                " (another plan?)");
            j.attempt = where.attempt;
            j.outputDir = linkedShardsDir(ws, runId);
            return j;
        }
    throw InputError(plan.path, "plans no traced repeat " + std::to_string(*repeat) + " of " + *config);
}

// The shards holding `ranks` (every shard when empty) that are not linked yet, and those that are.
std::pair<std::vector<int>, std::vector<int>> shardsToFetch(const Workspace& ws, RunId runId,
                                                            const EventShardRanks& shards,
                                                            const std::vector<std::int32_t>& ranks) {
    std::set<int> wanted;
    if (ranks.empty())
        for (int k = 0; k < shards.shardCount(); ++k)
            wanted.insert(k);
    for (const std::int32_t r : ranks) {
        const int k = shards.shardOf(r);
        if (k < 0)
            throw InputError(ws.path(), "run " + ws.runLabel(runId) + " has no rank " + std::to_string(r));
        wanted.insert(k);
    }
    const auto linked =
        parseShardList(ws.runAttribute(runId, kEventsFetchedAttribute).value_or(""), shards.shardCount())
            .value_or(std::vector<int>{});
    std::pair<std::vector<int>, std::vector<int>> out;
    for (const int k : wanted) {
        std::error_code ec;
        const bool here = std::binary_search(linked.begin(), linked.end(), k) &&
                          fs::is_regular_file(linkedShardPath(ws, runId, k), ec);
        (here ? out.second : out.first).push_back(k);
    }
    return out;
}

std::string shardName(int k) {
    return "shard-" + std::to_string(k) + ".cnpdb";
}

// Deletes the fetch pod however the fetch ends.
struct PodGuard {
    const FetchPod& pod;
    ~PodGuard() { pod.remove(); }
};

} // namespace

EventFetchOutcome fetchRunEvents(Workspace& ws, RunId runId, const plan::Plan& plan, const KubectlOptions& k,
                                 const std::vector<std::int32_t>& ranks, const FetchProgress& progress) {
    const std::string run = ws.runLabel(runId);
    const auto whereText = ws.runAttribute(runId, kIngestEventsAttribute);
    const auto shardsText = ws.runAttribute(runId, kEventShardRanksAttribute);
    if (!ws.runAttribute(runId, kEventsElsewhereAttribute) || !whereText || !shardsText)
        throw InputError(ws.path(), "run " + run +
                                        " was not ingested on a cluster (no ingest.events and "
                                        "events.shard_ranks): its events are not on a volume");
    const auto where = parseShardsOnVolume(*whereText);
    const auto shards = EventShardRanks::parse(*shardsText);
    if (!where || !shards)
        throw InputError(ws.path(), "run " + run +
                                        ": ingest.events or events.shard_ranks is not of the form "
                                        "cnp writes");
    if (where->pvc != plan.kubernetes.tracesPvc)
        throw InputError(plan.path, "has the traces volume '" + plan.kubernetes.tracesPvc + "', but run " +
                                        run + "'s events are on '" + where->pvc + "'");
    const JobSpec job = jobOfRun(ws, runId, plan, *where);
    auto [fetch, already] = shardsToFetch(ws, runId, *shards, ranks);
    EventFetchOutcome out;
    out.already = already;
    if (fetch.empty()) {
        out.summary = "nothing to fetch";
        return out;
    }
    const FetchPod pod(plan, k, job);
    const PodGuard guard{pod};
    if (!pod.start("events not fetched"))
        throw InputError(job.outputDir, "events not fetched: the fetch pod " + pod.name() +
                                            " did not start within " + std::to_string(k.fetchTimeoutSeconds) +
                                            " s");
    const std::string remote = podShardsDir(job, kPodTracesDir);
    const std::vector<RemoteFile> listing =
        listRemoteFolder(pod.exec(), remote, k.fetchTries, job.outputDir, "shards");
    std::vector<RemoteFile> wanted;
    std::vector<std::string> names;
    for (const int s : fetch) {
        const auto it = std::find_if(listing.begin(), listing.end(),
                                     [&](const RemoteFile& f) { return f.name == shardName(s); });
        if (it == listing.end())
            throw InputError(job.outputDir, "shard " + std::to_string(s) + ": no " + shardName(s) + " in " +
                                                remote + " on " + where->pvc);
        wanted.push_back(*it);
        names.push_back(shardName(s));
    }
    const auto sums = checksumRemoteFolder(pod.exec(), remote, names, k.fetchTries, job.outputDir, "shards");
    const std::string incoming = (fs::path(job.outputDir) / "incoming").string();
    std::error_code ec;
    fs::create_directories(incoming, ec);
    const FetchOutcome got =
        fetchFiles(wanted, remote, incoming, fetchOptionsFor(k, job), catThrough(pod.exec()), sums, progress);
    out.bytes = got.bytes;
    out.seconds = got.seconds;
    out.summary = got.summary();
    if (!got.problems.empty()) {
        std::string all;
        for (const auto& p : got.problems)
            all += (all.empty() ? "" : "; ") + p;
        throw InputError(job.outputDir, std::to_string(got.problems.size()) + " shard problem(s): " + all);
    }
    for (const int s : fetch) {
        if (progress)
            progress("linking shard " + std::to_string(s) + " into " + ws.path());
        linkFetchedShard(ws, runId, s, (fs::path(incoming) / shardName(s)).string());
        out.linked.push_back(s);
    }
    fs::remove(incoming, ec); // only when empty
    return out;
}

} // namespace cnp::launch
