#include "store/KernelCategoryUpdater.h"

#include "store/Sqlite.h"

#include <stdexcept>
#include <string>

namespace cnp {

KernelCategoryUpdater::KernelCategoryUpdater(Workspace& ws, RunId runId)
    : ws_(ws), segments_(ws.eventSegments(runId, "kernels")) {}

KernelCategoryUpdater::~KernelCategoryUpdater() = default;

std::int64_t KernelCategoryUpdater::size() const {
    std::int64_t n = 0;
    for (const auto& seg : segments_)
        n += seg.rows.size();
    return n;
}

Statement& KernelCategoryUpdater::prepared(std::map<sqlite3*, std::unique_ptr<Statement>>& cache, sqlite3* db,
                                           const char* sql) {
    auto& st = cache[db];
    if (!st)
        st = std::make_unique<Statement>(db, sql);
    return *st;
}

std::int64_t KernelCategoryUpdater::idIn(const EventSegment& seg, std::string_view s) {
    const std::int64_t id = ws_.internString(s);
    if (seg.store != &ws_) {
        prepared(copyString_, seg.store->db(), "INSERT OR IGNORE INTO strings(id, value) VALUES(?, ?)")
            .bind(1, id)
            .bind(2, s)
            .exec();
    }
    return id;
}

void KernelCategoryUpdater::setCategoryOfName(std::string_view name, std::string_view category) {
    for (const auto& seg : segments_) {
        const std::int64_t categoryId = idIn(seg, category), nameId = ws_.internString(name);
        prepared(byName_, seg.store->db(),
                 "UPDATE kernels SET category_id = ? WHERE id BETWEEN ? AND ? AND name_id = ?")
            .bind(1, categoryId)
            .bind(2, seg.rows.first)
            .bind(3, seg.rows.last)
            .bind(4, nameId)
            .exec();
    }
}

void KernelCategoryUpdater::setCategoryOfKernel(std::int64_t index, std::string_view category) {
    for (const auto& seg : segments_) {
        if (index < seg.rows.size()) {
            const std::int64_t categoryId = idIn(seg, category);
            prepared(byId_, seg.store->db(), "UPDATE kernels SET category_id = ? WHERE id = ?")
                .bind(1, categoryId)
                .bind(2, seg.rows.first + index)
                .exec();
            return;
        }
        index -= seg.rows.size();
    }
    throw std::logic_error("KernelCategoryUpdater: kernel " + std::to_string(index) + " past the run's rows");
}

} // namespace cnp
