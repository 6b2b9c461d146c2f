#pragma once
// Launch -> GPU activity flows, the one linking every importer uses: CUPTI gives a launching API call
// and the kernels / copies / fills it started the same correlation id, so each GPU activity whose
// correlation id names a known launch becomes one Flow (CPU side: the call's start and thread; GPU
// side: the activity's start and stream). Correlation id 0 means unknown (TraceData) and never links.
// Several calls may carry one id (a runtime call and the driver call it made): the first runtime call
// launched, else the first call. Correlation ids are unique per process only: `scope` keeps processes
// apart (nsys: the pid; one-process formats: 0). Flows come out in the order the activities went in.
// Memory O(launches + activities); each add and lookup O(1) expected.
#include "core/TraceData.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

namespace cnp {

class FlowLinker {
public:
    struct Launch {
        Ns start = 0;
        std::int64_t pid = 0, tid = 0;
        ApiKind kind = ApiKind::Runtime;
    };

    void reserve(std::size_t launches, std::size_t activities);

    // A call that may have launched GPU work.
    void addLaunch(std::int64_t scope, std::int64_t correlation, const Launch& launch);
    void addLaunch(std::int64_t scope, const ApiCall& call) {
        addLaunch(scope, call.correlation, Launch{call.start, call.pid, call.tid, call.kind});
    }
    // The launch of `correlation` in `scope`; nullptr when none is known (or the id is 0).
    const Launch* launch(std::int64_t scope, std::int64_t correlation) const;

    // A GPU activity; linked by linkInto once every launch is known.
    void addActivity(std::int64_t scope, std::int32_t rank, std::int64_t correlation, Ns start,
                     std::int64_t stream);
    // Appends one Flow per activity whose launch is known, in addActivity order. O(activities).
    void linkInto(std::vector<Flow>& flows) const;
    // The Flow of one GPU activity whose launch is known, without queueing it (for callers that have
    // every launch already; saves addActivity's copy).
    std::optional<Flow> flowFor(std::int64_t scope, std::int32_t rank, std::int64_t correlation, Ns start,
                                std::int64_t stream) const;

private:
    struct Key {
        std::int64_t scope, correlation;
        bool operator==(const Key& o) const { return scope == o.scope && correlation == o.correlation; }
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            // Mixes the scope in with a 64-bit odd multiplier (ids of one scope are often consecutive).
            return std::hash<std::int64_t>()(
                k.correlation ^
                static_cast<std::int64_t>(static_cast<std::uint64_t>(k.scope) * 0x9E3779B97F4A7C15ULL));
        }
    };
    struct Activity {
        std::int64_t scope, correlation;
        Ns start;
        std::int64_t stream;
        std::int32_t rank;
    };
    std::unordered_map<Key, Launch, KeyHash> launches_;
    std::vector<Activity> activities_;
};

} // namespace cnp
