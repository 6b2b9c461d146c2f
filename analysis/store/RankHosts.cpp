#include "store/RankHosts.h"

#include "store/Sqlite.h"

namespace cnp {

std::vector<std::string> rankHosts(const Workspace& ws, RunId runId) {
    Statement st(ws.db(), "SELECT DISTINCT host FROM ranks WHERE run_id = ? AND host <> '' ORDER BY host");
    st.bind(1, runId);
    std::vector<std::string> hosts;
    while (st.step())
        hosts.push_back(st.text(0));
    return hosts;
}

} // namespace cnp
