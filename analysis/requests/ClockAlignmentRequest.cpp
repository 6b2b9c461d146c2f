#include "requests/ClockAlignmentRequest.h"

#include "core/RunAttributeKeys.h"
#include "metrics/ClockAlignmentText.h"
#include "metrics/CollectiveMatcher.h"
#include "store/CollectiveKernelQueries.h"
#include "store/RankQueries.h"
#include "store/WorkspaceTransactions.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cnp {

ClockAlignment fitRunClocks(const Workspace& ws, RunId runId) {
    std::vector<std::pair<std::int32_t, std::string>> hosts; // the ranks read, with their hosts
    std::map<std::string, int> readOnHost;
    for (const RankInfo& r : RankQueries(ws).ranksOfRun(runId)) // in rank order: each host's lowest first
        if (++readOnHost[r.host] <= kClockRanksPerHost)
            hosts.emplace_back(r.rank, r.host);
    if (readOnHost.size() < 2) // one host: nothing to align, no kernel read
        return estimateClockAlignment(CollectiveMatch{}, hosts);
    CollectiveInput input;
    CollectiveKernelQueries q(ws, runId, "communication");
    for (const auto& [rank, host] : hosts)
        if (RankCollectives k = q.rankKernels(rank); !k.kernels.empty())
            input.ranks.push_back(std::move(k));
    input.names = q.takeNames();
    ClockAlignment a = estimateClockAlignment(matchCollectives(std::move(input)), hosts);
    for (auto& h : a.hosts) // the ranks on the host, not only those read
        h.ranks = readOnHost[h.host];
    return a;
}

void recordClockAlignment(Workspace& ws, RunId runId) {
    std::string text;
    {
        const auto snapshot = readSnapshot(ws);
        text = clockAlignmentToText(fitRunClocks(ws, runId));
    }
    Transaction tx = writeTransaction(ws);
    ws.setRunAttribute(runId, kClockAlignmentAttribute, text);
    tx.commit();
}

std::optional<ClockAlignment> storedClockAlignment(const Workspace& ws, RunId runId) {
    const auto text = ws.runAttribute(runId, kClockAlignmentAttribute);
    if (!text)
        return std::nullopt;
    return clockAlignmentFromText(*text);
}

} // namespace cnp
