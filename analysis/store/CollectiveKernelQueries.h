#pragma once
// The communication kernels of a run's ranks, read from table `kernels` one rank at a time (the rank's id
// range found by binary search, Workspace::eventStoreOf / lowerBoundId): what the collective matcher
// (metrics/CollectiveMatcher.h) pairs across ranks. O(rows of the rank) per rank.
#include "core/CollectiveKernels.h"
#include "core/Ids.h"
#include "core/TraceData.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cnp {

class Workspace;

class CollectiveKernelQueries {
public:
    // `category`: the category name of communication kernels ("communication").
    CollectiveKernelQueries(const Workspace& ws, RunId runId, const std::string& category);

    // Whether any kernel of the workspace has the category (else every rank reads empty).
    bool categoryKnown() const { return categoryId_.has_value(); }
    // The rank's kernels of the category, naming them by index into names() (appended as new ones are
    // met), each with its call's stored arguments (collective_args, where the table has its row: bytes,
    // process group, group size; read again through the bounds of core/CollectiveArgs.h). Rows whose end
    // precedes their start (a hostile workspace) are left out. `compute` (optional) receives the rank's
    // other kernels' [start, end) in start order (the rows' order), for metrics/CommunicationOverlap.h;
    // the same one scan of the rank's rows either way.
    RankCollectives rankKernels(std::int32_t rank, std::vector<std::pair<Ns, Ns>>* compute = nullptr);
    // Whether any kernel read so far had stored arguments.
    bool anyArgs() const { return anyArgs_; }
    // The names met so far, by index.
    std::vector<std::string> takeNames() { return std::move(names_); }

private:
    std::uint32_t nameIndexOf(std::int64_t nameId);
    // The rank's stored arguments in `store` by (stream, kernel start); empty without the table.
    std::map<std::pair<std::int64_t, Ns>, CollectiveKernel> argsOf(const Workspace& store, std::int32_t rank);

    const Workspace& ws_;
    RunId runId_;
    std::optional<std::int64_t> categoryId_;
    std::unordered_map<std::int64_t, std::uint32_t> nameIndex_;
    std::vector<std::string> names_;
    bool anyArgs_ = false;
};

} // namespace cnp
