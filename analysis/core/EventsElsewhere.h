#pragma once
// Thrown where events of a run added from summary files are read but are not in this workspace: its
// shards stayed where they were written (ingest on the cluster) and those holding the ranks asked for were
// not fetched yet (docs/launcher.md, "Events on demand"). An InputError naming the workspace, whose message
// says where the events are and how to fetch them; the workbench catches this type to offer the fetch.
#include "core/Ids.h"
#include "core/InputError.h"

#include <string>
#include <utility>
#include <vector>

namespace cnp {

class EventsElsewhere : public InputError {
public:
    EventsElsewhere(std::string file, std::string message, RunId runId, std::vector<int> missingShards)
        : InputError(std::move(file), std::move(message)), runId_(runId),
          missingShards_(std::move(missingShards)) {}
    RunId runId() const { return runId_; }
    // The shards (events.shard_ranks numbering) to fetch; empty when the run records no shards.
    const std::vector<int>& missingShards() const { return missingShards_; }

private:
    RunId runId_;
    std::vector<int> missingShards_;
};

} // namespace cnp
