#include "store/KernelCategoryUpdater.h"

#include "store/Sqlite.h"
#include "store/Workspace.h"

namespace cnp {

KernelCategoryUpdater::KernelCategoryUpdater(Workspace& ws, RunId runId)
    : ws_(ws), rows_(ws.eventRows(runId, "kernels")) {}

KernelCategoryUpdater::~KernelCategoryUpdater() = default;

void KernelCategoryUpdater::setCategoryOfName(std::string_view name, std::string_view category) {
    if (!byName_)
        byName_ = std::make_unique<Statement>(
            ws_.db(), "UPDATE kernels SET category_id = ? WHERE id BETWEEN ? AND ? AND name_id = ?");
    byName_->bind(1, ws_.internString(category))
        .bind(2, rows_.first)
        .bind(3, rows_.last)
        .bind(4, ws_.internString(name))
        .exec();
}

void KernelCategoryUpdater::setCategoryOfKernel(std::int64_t index, std::string_view category) {
    if (!byId_)
        byId_ = std::make_unique<Statement>(ws_.db(), "UPDATE kernels SET category_id = ? WHERE id = ?");
    byId_->bind(1, ws_.internString(category)).bind(2, rows_.first + index).exec();
}

} // namespace cnp
