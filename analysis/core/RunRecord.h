#pragma once
// One stored run as the workspace lists it (table `runs`, docs/schema.md): its id, what the ingest
// recorded about it (RunInfo) and its sizes. A plain value: the store reads it, everything else reads it.
#include "core/Ids.h"
#include "core/TraceData.h"

#include <cstdint>
#include <string>

namespace cnp {

struct RunRecord {
    RunId id;
    RunInfo info;
    std::int32_t rankCount = 0;
    std::int64_t kernelCount = 0;
    std::int64_t eventCount = 0;
    std::string createdAt; // ISO 8601 UTC
};

} // namespace cnp
