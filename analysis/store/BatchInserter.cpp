#include "store/BatchInserter.h"

#include <algorithm>

namespace cnp {

BatchInserter::BatchInserter(sqlite3* db, std::string table, std::string columns, RunId runId)
    : db_(db), table_(std::move(table)), columns_(std::move(columns)), runId_(runId),
      cols_(static_cast<int>(std::count(columns_.begin(), columns_.end(), ',')) + 1) {}

std::string BatchInserter::sql(std::size_t rows) const {
    std::string row = "(" + std::to_string(runId_.value());
    for (int c = 0; c < cols_; ++c)
        row += ",?";
    row += ')';
    std::string s = "INSERT INTO " + table_ + "(run_id, " + columns_ + ") VALUES";
    for (std::size_t r = 0; r < rows; ++r)
        s += (r ? "," : "") + row;
    return s;
}

Statement& BatchInserter::statement(std::size_t rows) {
    if (rows == kRows) {
        if (!full_.handle())
            full_ = Statement(db_, sql(kRows));
        return full_;
    }
    if (tailRows_ != rows) {
        tail_ = Statement(db_, sql(rows));
        tailRows_ = rows;
    }
    return tail_;
}

} // namespace cnp
