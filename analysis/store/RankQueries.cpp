#include "store/RankQueries.h"

#include "core/BoundedJson.h"
#include "core/RapidJson.h"
#include "store/Workspace.h"

namespace cnp {

namespace {

std::vector<std::string> jsonStrings(const std::string& s) {
    std::vector<std::string> out;
    rapidjson::Document d;
    if (!parseBoundedJson(s, d).ok || !d.IsArray())
        return out;
    for (const auto& v : d.GetArray())
        if (v.IsString())
            out.emplace_back(v.GetString(), v.GetStringLength());
    return out;
}

} // namespace

std::vector<RankInfo> RankQueries::ranksOfRun(std::int64_t runId) const {
    std::vector<RankInfo> out;
    Statement st(ws_.db(),
                 "SELECT rank, local_rank, host, pid, gpu_names, gpu_uuids, clock_offset_ns, clock_skew_ns, "
                 "source_file FROM ranks WHERE run_id = ? ORDER BY rank");
    st.bind(1, runId);
    while (st.step()) {
        RankInfo r;
        r.rank = st.i32(0);
        r.localRank = st.i32(1);
        r.host = st.text(2);
        r.pid = st.i64(3);
        r.gpuNames = jsonStrings(st.text(4));
        r.gpuUuids = jsonStrings(st.text(5));
        r.clockOffsetNs = st.i64(6);
        r.clockSkewEstimateNs = st.i64(7);
        r.sourceFile = st.text(8);
        out.push_back(std::move(r));
    }
    return out;
}

std::optional<std::int32_t> RankQueries::mostRanksOnOneHost(std::int64_t runId) const {
    Statement st(ws_.db(),
                 "SELECT COUNT(*) FROM ranks WHERE run_id = ? GROUP BY host ORDER BY COUNT(*) DESC LIMIT 1");
    st.bind(1, runId);
    if (st.step())
        return st.i32(0);
    return std::nullopt;
}

} // namespace cnp
