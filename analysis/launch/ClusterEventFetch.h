#pragma once
// Events on demand (docs/launcher.md): a run ingested on the cluster (kubernetes.cnpImage) came home as its
// summaries; its events stay in the shards on the traces volume (run attribute ingest.events). This fetches
// the shards holding the ranks asked for, with the transport traces use (the job's fetch pod, sha256sum on
// the volume, streamed, resumable, checked), and links each into the workspace (store/EventShardLink.h), so
// that the timeline, collectives and every other event reader read them as if ingested here.
#include "core/Ids.h"
#include "launch/KubernetesBackend.h"
#include "launch/TraceFetch.h"
#include "plan/Plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace cnp {
class Workspace;
}

namespace cnp::launch {

struct EventFetchOutcome {
    std::vector<int> linked;  // shards fetched and linked now
    std::vector<int> already; // shards asked for that were linked before
    std::uint64_t bytes = 0;  // transferred
    double seconds = 0;       // the transfer, wall clock
    std::string summary;      // as FetchOutcome::summary, or "nothing to fetch"
};

// Fetches and links the shards of run `runId` holding `ranks` (every shard of the run when empty) that are
// not linked yet. The run must have been ingested on the cluster by `plan` (the same traces PVC, and the
// job the plan gives its configuration and repeat). The fetch pod is deleted however this ends. Throws
// InputError naming the workspace, the plan or the file: a run not ingested on a cluster, another plan, a
// rank the run has not, a shard missing on the volume, a transfer that failed its checks (what arrived stays
// in the run's incoming folder and is resumed next time), a shard that is not the run's.
EventFetchOutcome fetchRunEvents(Workspace& ws, RunId runId, const plan::Plan& plan, const KubectlOptions& k,
                                 const std::vector<std::int32_t>& ranks, const FetchProgress& progress = {});

} // namespace cnp::launch
