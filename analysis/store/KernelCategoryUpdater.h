#pragma once
// Rewrites the stored categories of one run's kernels (`cnp reclassify`): by kernel name across the
// run's rows of table `kernels`, or of one kernel row addressed by its position among them. In a study the
// rows are in the shards (Workspace::eventSegments): a new category string gets its id in the index and
// the same id in each shard it is written to. Runs inside the caller's write transaction (a study's spans
// its shards); a call by name is one UPDATE per segment (O(kernels of the run)).
#include "core/Ids.h"
#include "store/Workspace.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

namespace cnp {

class Statement;

class KernelCategoryUpdater {
public:
    // `runId`'s kernels; where they are is read once.
    KernelCategoryUpdater(Workspace& ws, RunId runId);
    ~KernelCategoryUpdater();
    KernelCategoryUpdater(const KernelCategoryUpdater&) = delete;
    KernelCategoryUpdater& operator=(const KernelCategoryUpdater&) = delete;

    // The run's kernel rows (loadRun reads them in this order: kernel i of the loaded run is row i here).
    std::int64_t size() const;
    // Every kernel of the run named `name` gets category `category` (both interned when new).
    void setCategoryOfName(std::string_view name, std::string_view category);
    // Kernel `index` of the run (0 <= index < size()) gets category `category`.
    void setCategoryOfKernel(std::int64_t index, std::string_view category);

private:
    // `s`'s workspace string id, the same in the index and in the segment's store.
    std::int64_t idIn(const EventSegment& seg, std::string_view s);

    // The statement `sql` prepared on `db`, once per connection.
    Statement& prepared(std::map<sqlite3*, std::unique_ptr<Statement>>& cache, sqlite3* db, const char* sql);

    Workspace& ws_;
    std::vector<EventSegment> segments_;
    std::map<sqlite3*, std::unique_ptr<Statement>> byName_, byId_, copyString_;
};

} // namespace cnp
