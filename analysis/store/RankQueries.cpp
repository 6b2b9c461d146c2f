#include "store/RankQueries.h"

#include "store/Tables.h"
#include "store/Workspace.h"

namespace cnp {

namespace {

// The ranks table has no string-id column: reading it needs no string map.
struct NoStrings {
    StringId localString(std::int64_t) { return 0; }
};

} // namespace

std::vector<RankInfo> RankQueries::ranksOfRun(RunId runId) const {
    // Read by the table's description (store/Tables.h), as loadRun reads it.
    std::vector<RankInfo> out;
    Statement st(ws_.db(),
                 "SELECT " + schema::kRanks.valueColumns() + " FROM ranks WHERE run_id = ? ORDER BY rank");
    st.bind(1, runId);
    NoStrings strings;
    while (st.step()) {
        RankInfo r;
        schema::kRanks.readRow(st, 0, r, strings);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<std::int32_t> RankQueries::rankNumbers(RunId runId) const {
    Statement st(ws_.db(), "SELECT rank FROM ranks WHERE run_id = ? ORDER BY rank");
    st.bind(1, runId);
    std::vector<std::int32_t> out;
    while (st.step())
        out.push_back(st.i32(0));
    return out;
}

std::optional<std::int32_t> RankQueries::mostRanksOnOneHost(RunId runId) const {
    Statement st(ws_.db(),
                 "SELECT COUNT(*) FROM ranks WHERE run_id = ? GROUP BY host ORDER BY COUNT(*) DESC LIMIT 1");
    st.bind(1, runId);
    if (st.step())
        return st.i32(0);
    return std::nullopt;
}

} // namespace cnp
