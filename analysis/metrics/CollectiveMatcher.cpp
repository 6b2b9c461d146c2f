#include "metrics/CollectiveMatcher.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace cnp {

namespace {

// The name lower-cased with '_' removed, so "all_reduce", "AllReduce" and "allreduce" compare equal.
std::string folded(std::string_view name) {
    std::string s;
    s.reserve(name.size());
    for (const char c : name)
        if (c != '_')
            s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return s;
}

// Median of `v` (the mean of the two middle values for an even count, rounded down); `v` is reordered.
// v must not be empty. O(n).
Ns medianOf(std::vector<Ns>& v) {
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2 == 1)
        return *mid;
    const Ns below = *std::max_element(v.begin(), mid);
    return below + (*mid - below) / 2;
}

// The index of the step window of `windows` containing t, -1 when none. Windows are in time order.
std::int32_t stepAt(const std::vector<std::pair<Ns, Ns>>& windows, Ns t) {
    auto it = std::upper_bound(windows.begin(), windows.end(), t,
                               [](Ns x, const std::pair<Ns, Ns>& w) { return x < w.first; });
    if (it == windows.begin())
        return -1;
    --it;
    return t < it->second ? static_cast<std::int32_t>(it - windows.begin()) : -1;
}

// One member's kernels on one stream: [begin, end) of its sorted kernel vector.
struct StreamRun {
    std::size_t rankIndex = 0, begin = 0, end = 0;
    std::size_t size() const { return end - begin; }
};

// Fills the call's timing from its members (members[first, first + count) already hold arrival and
// departure). O(count).
void timeCall(CollectiveCall& call, std::vector<CallMember>& members, std::vector<Ns>& scratch) {
    const auto first = members.begin() + static_cast<std::ptrdiff_t>(call.firstMember);
    const auto last = first + static_cast<std::ptrdiff_t>(call.memberCount);
    call.firstArrival = first->arrival;
    call.lastArrival = first->arrival;
    call.lastRank = first->rank;
    for (auto m = first; m != last; ++m) {
        call.firstArrival = std::min(call.firstArrival, m->arrival);
        if (m->arrival > call.lastArrival) {
            call.lastArrival = m->arrival;
            call.lastRank = m->rank;
        }
    }
    scratch.clear();
    call.totalWaitNs = 0;
    for (auto m = first; m != last; ++m) {
        m->waitNs = call.lastArrival - m->arrival;
        m->transferNs = std::max<Ns>(0, m->departure - call.lastArrival);
        call.totalWaitNs += m->waitNs;
        scratch.push_back(m->arrival);
    }
    call.waitNs = call.lastArrival - call.firstArrival;
    call.medianArrival = medianOf(scratch);
    scratch.clear();
    for (auto m = first; m != last; ++m)
        scratch.push_back(m->transferNs);
    call.transferNs = medianOf(scratch);
}

void setBandwidth(CollectiveCall& call) {
    if (call.bytes <= 0 || call.transferNs <= 0)
        return;
    call.algBwGBs = static_cast<double>(call.bytes) / static_cast<double>(call.transferNs); // B/ns = GB/s
    const int n = call.groupSize > 0 ? call.groupSize : static_cast<int>(call.memberCount);
    if (const auto f = busBandwidthFactor(call.op, n))
        call.busBwGBs = *call.algBwGBs * *f;
}

// A kernel's communicator: its process group when the arguments name one, else its stream.
using CommKey = std::pair<std::uint32_t, std::int64_t>;
CommKey commOf(const CollectiveKernel& k) {
    return k.group > 0 ? CommKey{k.group, 0} : CommKey{0, k.stream};
}

// The operation of a kernel: from its name, else from the profiler's collective name in its arguments.
CollectiveOp opOf(const CollectiveKernel& k, const std::vector<CollectiveOp>& opOfName) {
    const CollectiveOp byName = k.nameIndex < opOfName.size() ? opOfName[k.nameIndex] : CollectiveOp::Unknown;
    if (byName != CollectiveOp::Unknown || k.argOp == 0 || k.argOp > opOfName.size())
        return byName;
    return opOfName[k.argOp - 1];
}

} // namespace

std::string_view collectiveOpName(CollectiveOp op) {
    switch (op) {
    case CollectiveOp::AllReduce:
        return "all_reduce";
    case CollectiveOp::AllGather:
        return "all_gather";
    case CollectiveOp::ReduceScatter:
        return "reduce_scatter";
    case CollectiveOp::Broadcast:
        return "broadcast";
    case CollectiveOp::Reduce:
        return "reduce";
    case CollectiveOp::AllToAll:
        return "all_to_all";
    case CollectiveOp::SendRecv:
        return "send_recv";
    case CollectiveOp::Unknown:
        break;
    }
    return "unknown";
}

CollectiveOp collectiveOpOfKernel(std::string_view kernelName) {
    const std::string s = folded(kernelName.substr(0, std::min<std::size_t>(kernelName.size(), 256)));
    // Longer names first: "reducescatter" and "allreduce" contain "reduce".
    static const std::pair<const char*, CollectiveOp> kNames[] = {
        {"allreduce", CollectiveOp::AllReduce}, {"reducescatter", CollectiveOp::ReduceScatter},
        {"allgather", CollectiveOp::AllGather}, {"alltoall", CollectiveOp::AllToAll},
        {"broadcast", CollectiveOp::Broadcast}, {"sendrecv", CollectiveOp::SendRecv},
        {"send", CollectiveOp::SendRecv},       {"recv", CollectiveOp::SendRecv},
        {"reduce", CollectiveOp::Reduce}};
    for (const auto& [text, op] : kNames)
        if (s.find(text) != std::string::npos)
            return op;
    return CollectiveOp::Unknown;
}

std::optional<double> busBandwidthFactor(CollectiveOp op, int ranks) {
    if (ranks < 1)
        return std::nullopt;
    const double n = ranks;
    switch (op) {
    case CollectiveOp::AllReduce:
        return 2 * (n - 1) / n;
    case CollectiveOp::AllGather:
    case CollectiveOp::ReduceScatter:
    case CollectiveOp::AllToAll:
        return (n - 1) / n;
    case CollectiveOp::Broadcast:
    case CollectiveOp::Reduce:
    case CollectiveOp::SendRecv:
        return 1.0;
    case CollectiveOp::Unknown:
        break;
    }
    return std::nullopt;
}

CollectiveMatch matchCollectives(CollectiveInput input) {
    CollectiveMatch out;
    out.names = std::move(input.names);
    std::vector<CollectiveOp> opOfName(out.names.size());
    for (std::size_t i = 0; i < out.names.size(); ++i)
        opOfName[i] = collectiveOpOfKernel(out.names[i]);

    // Each rank's kernels sorted by (communicator, start); each communicator's run of them per rank.
    // O(k log k).
    std::map<CommKey, std::vector<StreamRun>> streams;
    std::vector<RankCollectives>& ranks = input.ranks;
    std::sort(ranks.begin(), ranks.end(),
              [](const RankCollectives& a, const RankCollectives& b) { return a.rank < b.rank; });
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        auto& ks = ranks[r].kernels;
        if (ks.empty())
            continue;
        ++out.ranks;
        std::sort(ks.begin(), ks.end(), [](const CollectiveKernel& a, const CollectiveKernel& b) {
            const CommKey ca = commOf(a), cb = commOf(b);
            return std::tie(ca, a.start, a.end) < std::tie(cb, b.start, b.end);
        });
        for (std::size_t i = 0; i < ks.size();) {
            std::size_t j = i;
            while (j < ks.size() && commOf(ks[j]) == commOf(ks[i]))
                ++j;
            streams[commOf(ks[i])].push_back({r, i, j});
            i = j;
        }
    }

    std::map<std::int32_t, const RankStepWindows*> stepsOf;
    for (const auto& s : input.steps)
        stepsOf[s.rank] = &s;

    std::vector<Ns> scratch;
    for (const auto& [comm, runs] : streams) {
        const std::int64_t stream = ranks[runs.front().rankIndex].kernels[runs.front().begin].stream;
        std::size_t calls = runs.front().size();
        std::size_t total = 0;
        for (const auto& run : runs) {
            calls = std::min(calls, run.size());
            total += run.size();
        }
        if (total != calls * runs.size()) {
            out.unevenStreams.push_back(stream);
            out.unmatchedKernels += static_cast<std::int64_t>(total - calls * runs.size());
        }
        for (std::size_t seq = 0; seq < calls; ++seq) {
            CollectiveCall call;
            call.stream = stream;
            call.group = comm.first;
            call.sequence = static_cast<std::int32_t>(seq);
            call.firstMember = out.members.size();
            call.memberCount = runs.size();
            for (const auto& run : runs) {
                const RankCollectives& rank = ranks[run.rankIndex];
                const CollectiveKernel& k = rank.kernels[run.begin + seq];
                out.members.push_back({rank.rank, k.start, k.end, 0, 0, k.id, k.overlappedNs});
                call.bytes = std::max(call.bytes, k.bytes);
                call.groupSize = std::max(call.groupSize, k.groupSize);
            }
            timeCall(call, out.members, scratch);
            // The name and operation of the last arrival's kernel (the members' are the same op).
            for (const auto& run : runs) {
                const RankCollectives& rank = ranks[run.rankIndex];
                if (rank.rank != call.lastRank)
                    continue;
                const CollectiveKernel& k = rank.kernels[run.begin + seq];
                call.nameIndex = k.nameIndex < out.names.size() ? k.nameIndex : 0;
                call.op = opOf(k, opOfName);
                call.stream = k.stream;
            }
            if (const auto it = stepsOf.find(call.lastRank); it != stepsOf.end())
                call.step = stepAt(it->second->windows, call.lastArrival);
            setBandwidth(call);
            out.callsByGroup += call.group > 0 ? 1 : 0;
            out.calls.push_back(call);
        }
    }
    return out;
}

std::vector<CollectiveStepTotals> collectiveStepTotals(const CollectiveMatch& match) {
    std::map<std::int32_t, CollectiveStepTotals> byStep;
    for (const auto& c : match.calls) {
        if (c.step < 0)
            continue;
        auto& t = byStep[c.step];
        t.step = c.step;
        ++t.calls;
        t.waitNs += c.waitNs;
        t.transferNs += c.transferNs;
    }
    std::vector<CollectiveStepTotals> out;
    out.reserve(byStep.size());
    for (const auto& [step, t] : byStep)
        out.push_back(t);
    return out;
}

} // namespace cnp
