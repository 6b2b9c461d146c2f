#pragma once
// Rewrites the stored categories of one run's kernels (`cnp reclassify`): by kernel name across the
// run's id range of table `kernels`, or of one kernel row addressed by its position in that range.
// Runs inside the caller's write transaction; each call is one UPDATE (by name: O(kernels of the run)).
#include "core/IdRange.h"
#include "core/Ids.h"

#include <cstdint>
#include <memory>
#include <string_view>

namespace cnp {

class Workspace;
class Statement;

class KernelCategoryUpdater {
public:
    // `runId`'s kernels; their id range is read once.
    KernelCategoryUpdater(Workspace& ws, RunId runId);
    ~KernelCategoryUpdater();
    KernelCategoryUpdater(const KernelCategoryUpdater&) = delete;
    KernelCategoryUpdater& operator=(const KernelCategoryUpdater&) = delete;

    // The run's rows of `kernels` (loadRun reads them in id order: kernel i of the loaded run is row
    // rows().first + i).
    IdRange rows() const { return rows_; }
    // Every kernel of the run named `name` gets category `category` (both interned when new).
    void setCategoryOfName(std::string_view name, std::string_view category);
    // Kernel `index` of the run (row rows().first + index) gets category `category`.
    void setCategoryOfKernel(std::int64_t index, std::string_view category);

private:
    Workspace& ws_;
    IdRange rows_;
    std::unique_ptr<Statement> byName_, byId_; // prepared on first use
};

} // namespace cnp
