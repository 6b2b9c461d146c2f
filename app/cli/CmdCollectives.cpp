// cnp collectives WS --run NAME [--limit N] [--peak-gbps X] [--json]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/Units.h"
#include "requests/CollectivesRequest.h"
#include "store/Workspace.h"

#include <algorithm>
#include <iostream>
#include <map>

namespace cnp::cli {
namespace {

std::string dur(Ns ns) {
    return units::duration(static_cast<double>(ns));
}

std::string gbs(const std::optional<double>& v) {
    return v ? units::fixed(*v, 2) + " GB/s" : std::string("-");
}

// "1 KiB" .. for a bucket's bounds; "?" for unknown.
std::string bucketText(const CollectiveEfficiencyRow& e) {
    if (e.bucketMinBytes < 0)
        return "unknown size";
    return units::bytes(static_cast<double>(e.bucketMinBytes)) + " to " +
           units::bytes(static_cast<double>(e.bucketMaxBytes));
}

void writeEfficiencyJson(JsonOutput& j, const CollectivesResult& r) {
    j.key("fabric").beginObject().key("source");
    if (r.fabricSource.empty())
        j.null();
    else
        j.str(r.fabricSource);
    auto gbsOrNull = [](double v) { return v > 0 ? std::optional<double>(v) : std::nullopt; };
    j.key("intra_node_gbps").real(gbsOrNull(r.fabric.intraNodeGBs));
    j.key("inter_node_gbps").real(gbsOrNull(r.fabric.interNodeGBs)).endObject();
    j.key("efficiency").beginArray();
    for (const auto& e : r.efficiency) {
        j.beginObject().key("op").str(collectiveOpName(e.op)).key("bucket_min_bytes");
        if (e.bucketMinBytes < 0)
            j.null().key("bucket_max_bytes").null();
        else
            j.num(e.bucketMinBytes).key("bucket_max_bytes").num(e.bucketMaxBytes);
        j.key("calls").num(e.calls).key("inter_node_calls").num(e.interNodeCalls);
        j.key("wait_ns").num(e.waitNs).key("transfer_ns").num(e.transferNs);
        j.key("kernel_ns").num(e.kernelNs).key("exposed_ns").num(e.exposedNs());
        j.key("overlapped_ns").num(e.overlappedNs).key("overlap_share").real(e.overlapShare());
        j.key("median_busbw_gbs")
            .real(e.medianBusBwGBs)
            .key("median_busbw_peak_share")
            .real(e.medianPeakShare);
        j.endObject();
    }
    j.endArray();
}

void writeJson(const std::string& runName, const CollectivesResult& r) {
    const CollectiveMatch& m = r.match;
    JsonOutput j;
    j.beginObject().key("run").str(runName).key("matched_by").str(r.matchedBy());
    j.key("ranks").num(m.ranks).key("calls").num(static_cast<std::int64_t>(m.calls.size()));
    j.key("unmatched_kernels").num(m.unmatchedKernels).key("uneven_streams").beginArray();
    for (const auto s : m.unevenStreams)
        j.num(s);
    j.endArray().key("steps").beginArray();
    for (const auto& s : r.steps)
        j.beginObject()
            .key("step")
            .num(s.step)
            .key("calls")
            .num(s.calls)
            .key("wait_ns")
            .num(s.waitNs)
            .key("transfer_ns")
            .num(s.transferNs)
            .endObject();
    j.endArray().key("communication_per_step").beginArray();
    for (const auto& c : r.communication)
        j.beginObject()
            .key("step")
            .num(c.step)
            .key("ranks")
            .num(c.ranks)
            .key("exposed_ns")
            .num(c.exposedNs)
            .key("overlapped_ns")
            .num(c.overlappedNs)
            .key("overlap_share")
            .real(c.overlapShare())
            .endObject();
    j.endArray().key("clocks").beginObject().key("reference_host").str(r.clocks.referenceHost);
    j.key("source").str(r.clocksStored ? "stored-at-ingest" : "computed-now");
    j.key("stored_error_ns").num(r.clocks.storedErrorNs).key("fitted_error_ns").num(r.clocks.fittedErrorNs);
    j.key("hosts").beginArray();
    for (const auto& h : r.clocks.hosts)
        j.beginObject()
            .key("host")
            .str(h.host)
            .key("ranks")
            .num(h.ranks)
            .key("calls")
            .num(h.calls)
            .key("offset_ns")
            .num(h.offsetNs)
            .key("drift_ppm")
            .real(h.driftPpm)
            .key("residual_ns")
            .num(h.residualNs)
            .key("max_abs_difference_ns")
            .num(h.maxAbsDifferenceNs)
            .endObject();
    j.endArray().endObject();
    writeEfficiencyJson(j, r);
    j.key("collectives").beginArray();
    for (std::size_t ci = 0; ci < m.calls.size(); ++ci) {
        const CollectiveCall& c = m.calls[ci];
        j.beginObject().key("stream").num(c.stream).key("sequence").num(c.sequence);
        j.key("op").str(collectiveOpName(c.op)).key("name").str(m.nameOf(c)).key("step").num(c.step);
        j.key("first_arrival_ns").num(c.firstArrival).key("last_arrival_ns").num(c.lastArrival);
        j.key("last_rank_certain").boolean(!r.lastRankUncertain(ci));
        j.key("last_rank")
            .num(c.lastRank)
            .key("wait_ns")
            .num(c.waitNs)
            .key("total_wait_ns")
            .num(c.totalWaitNs);
        j.key("process_group");
        if (c.group > 0)
            j.str(m.groupOf(c));
        else
            j.null();
        j.key("group_size").num(c.groupSize > 0 ? c.groupSize : static_cast<std::int64_t>(c.memberCount));
        j.key("transfer_ns").num(c.transferNs).key("bytes");
        if (c.bytes > 0)
            j.num(c.bytes);
        else
            j.null();
        j.key("algbw_gbs").real(c.algBwGBs).key("busbw_gbs").real(c.busBwGBs).key("members").beginArray();
        for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i) {
            const CallMember& a = m.members[i];
            j.beginObject().key("rank").num(a.rank).key("arrival_ns").num(a.arrival);
            j.key("departure_ns").num(a.departure).key("wait_ns").num(a.waitNs);
            j.key("transfer_ns").num(a.transferNs).endObject();
        }
        j.endArray().endObject();
    }
    j.endArray().endObject();
    std::cout << j.text();
}

// Per operation and message size: calls, transfer, median busbw and its share of the fabric's peak.
void printEfficiency(const CollectivesResult& r) {
    std::cout << "\nefficiency per operation and message size (busbw: nccl-tests' bus bandwidth; peak: ";
    if (r.fabricSource.empty())
        std::cout << "unknown, give --peak-gbps or the plan's fabric)\n";
    else
        std::cout << (r.fabricSource == "plan" ? "the plan's fabric" : "--peak-gbps") << ", intra-node "
                  << units::fixed(r.fabric.intraNodeGBs, 0) << " GB/s, inter-node "
                  << units::fixed(r.fabric.interNodeGBs, 0) << " GB/s)\n";
    std::cout << "  (exposed / overlapped: the members' kernel time outside / under their rank's compute "
                 "kernels)\n";
    TableOutput t({"operation", "message size", ">calls", ">inter-node", ">transfer", ">exposed",
                   ">overlapped", ">median busbw", ">of peak"});
    for (const auto& e : r.efficiency)
        t.addRow(
            {std::string(collectiveOpName(e.op)), bucketText(e), units::count(e.calls),
             units::count(e.interNodeCalls), dur(e.transferNs), dur(e.exposedNs()),
             e.overlapShare() ? dur(e.overlappedNs) + " (" + units::percent(*e.overlapShare()) + ")" : "-",
             gbs(e.medianBusBwGBs), e.medianPeakShare ? units::percent(*e.medianPeakShare) : "-"});
    t.print(std::cout, "  ");
}

// Calls, wait and transfer per operation.
void printPerOp(const CollectiveMatch& m) {
    struct Totals {
        std::int64_t calls = 0;
        Ns wait = 0, transfer = 0;
    };
    std::map<std::string_view, Totals> byOp;
    for (const auto& c : m.calls) {
        auto& t = byOp[collectiveOpName(c.op)];
        ++t.calls;
        t.wait += c.waitNs;
        t.transfer += c.transferNs;
    }
    TableOutput t({"operation", ">calls", ">wait", ">transfer"});
    for (const auto& [op, v] : byOp)
        t.addRow({std::string(op), units::count(v.calls), dur(v.wait), dur(v.transfer)});
    t.print(std::cout, "  ");
}

void printCalls(const CollectivesResult& r, std::size_t limit) {
    const CollectiveMatch& m = r.match;
    std::vector<const CollectiveCall*> order;
    for (const auto& c : m.calls)
        order.push_back(&c);
    std::stable_sort(order.begin(), order.end(),
                     [](const CollectiveCall* a, const CollectiveCall* b) { return a->waitNs > b->waitNs; });
    if (order.size() > limit)
        order.resize(limit);
    TableOutput t({">stream", ">#", "operation", ">step", ">ranks", ">last rank", ">wait", ">transfer",
                   ">bytes", ">algbw", ">busbw"});
    for (const auto* c : order)
        t.addRow({std::to_string(c->stream), std::to_string(c->sequence),
                  std::string(collectiveOpName(c->op)), c->step >= 0 ? std::to_string(c->step) : "-",
                  std::to_string(c->memberCount),
                  std::to_string(c->lastRank) +
                      (r.lastRankUncertain(static_cast<std::size_t>(c - m.calls.data())) ? "?" : ""),
                  dur(c->waitNs), dur(c->transferNs),
                  c->bytes > 0 ? units::bytes(static_cast<double>(c->bytes)) : "-", gbs(c->algBwGBs),
                  gbs(c->busBwGBs)});
    t.print(std::cout, "  ");
}

// Per step: the calls' summed wait and transfer, and the ranks' mean exposed and overlapped communication.
void printPerStep(const CollectivesResult& r) {
    std::map<std::int32_t, const StepCommunication*> comm;
    for (const auto& c : r.communication)
        comm[c.step] = &c;
    std::cout << "\nper step (exposed and overlapped: the ranks' mean)\n";
    TableOutput t({">step", ">calls", ">wait", ">transfer", ">exposed", ">overlapped", ">overlap"});
    for (const auto& s : r.steps) {
        const auto it = comm.find(s.step);
        const StepCommunication* c = it == comm.end() ? nullptr : it->second;
        const auto share = c ? c->overlapShare() : std::nullopt;
        t.addRow({std::to_string(s.step), units::count(s.calls), dur(s.waitNs), dur(s.transferNs),
                  c ? dur(c->exposedNs) : "-", c ? dur(c->overlappedNs) : "-",
                  share ? units::percent(*share) : "-"});
    }
    t.print(std::cout, "  ");
}

void printText(const std::string& runName, const CollectivesResult& r, std::size_t limit) {
    const CollectiveMatch& m = r.match;
    std::cout << "run " << runName << ": " << units::count(static_cast<std::int64_t>(m.calls.size()))
              << " collective calls across " << m.ranks << " ranks\n";
    if (m.calls.empty()) {
        std::cout << "  no communication kernels to match\n";
        return;
    }
    if (m.callsByGroup == 0)
        std::cout << "  matched by the order of communication kernels on each stream (the run stores no\n"
                     "  process group or message size: bytes, algbw and busbw are unknown)\n";
    else
        std::cout << "  " << units::count(m.callsByGroup)
                  << " calls matched by process group and order in it (the trace's NCCL arguments)"
                  << (m.callsByGroup < static_cast<std::int64_t>(m.calls.size())
                          ? ", the rest by kernel order per stream\n"
                          : "\n");
    if (m.unmatchedKernels > 0)
        std::cout << "  " << units::count(m.unmatchedKernels) << " kernels left unmatched on "
                  << m.unevenStreams.size() << " streams whose ranks have different kernel counts\n";
    std::cout << "\nper operation\n";
    printPerOp(m);
    if (!r.efficiency.empty())
        printEfficiency(r);
    if (!r.steps.empty())
        printPerStep(r);
    if (r.clocks.hosts.size() > 1) {
        std::cout << "\nclocks (departures from the same calls, against host " << r.clocks.referenceHost
                  << (r.clocksStored ? "; fitted at ingest" : "; fitted now, none stored")
                  << "): aligned to +-" << dur(r.clocks.storedErrorNs)
                  << "; with each host's offset and drift removed +-" << dur(r.clocks.fittedErrorNs) << "\n";
        TableOutput t({"host", ">ranks", ">calls", ">offset", ">drift (ppm)", ">residual"});
        for (const auto& h : r.clocks.hosts)
            t.addRow({h.host, std::to_string(h.ranks), units::count(h.calls),
                      units::durationExact(h.offsetNs), units::fixed(h.driftPpm, 2), dur(h.residualNs)});
        t.print(std::cout, "  ");
    }
    std::cout << "\nlongest waits (" << std::min(limit, m.calls.size()) << " of "
              << units::count(static_cast<std::int64_t>(m.calls.size())) << " calls)\n";
    if (const std::int64_t n = r.uncertainCalls(); n > 0)
        std::cout << "  last rank marked ?: a rank of another host arrived within the clocks' +-"
                  << dur(r.clocks.storedErrorNs) << " of it, so which was last is not known ("
                  << units::count(n) << " of the calls)\n";
    printCalls(r, limit);
}

int runCollectives(const std::vector<std::string>& args) {
    ArgParser p({"--run", "--limit", "--peak-gbps"}, {"--json"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto runName = p.value("--run");
    if (!runName)
        throw UsageFailure{"--run NAME is required"};
    std::size_t limit = 20;
    if (auto l = p.number("--limit", 1, 1e9))
        limit = static_cast<std::size_t>(*l);
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    CollectivesOptions options;
    if (auto peak = p.number("--peak-gbps", 0.001, 1e6))
        options.peakGBs = *peak;
    const CollectivesResult r = computeCollectives(ws, *runName, options);
    if (p.has("--json"))
        writeJson(*runName, r);
    else
        printText(*runName, r, limit);
    return Ok;
}

} // namespace

CNP_COMMAND("collectives", "every collective call matched across ranks: wait, transfer, bandwidth",
            "usage: cnp collectives WS --run NAME [--limit N] [--peak-gbps X] [--json]\n\n"
            "Pairs each communication kernel with the same call on the other ranks (the k-th kernel on a\n"
            "stream of every rank that has the stream) and reports per call every rank's arrival, the wait\n"
            "until the last rank arrived, the transfer after that, bytes, algorithm and bus bandwidth where\n"
            "the size is known, and the last-arriving rank; totals per operation and per step, and the\n"
            "median bus bandwidth per operation and message size against the fabric's peak.\n"
            "Definitions: docs/metrics.md, \"Collectives\".\n\n"
            "  --run NAME   the run\n"
            "  --limit N    calls listed, longest wait first (default 20; --json lists all)\n"
            "  --peak-gbps X  the fabric's peak bus bandwidth in GB/s for every call (default: the plan's\n"
            "               fabric.intraNodeGBps / fabric.interNodeGBps recorded with the run)\n"
            "  --json       machine-readable output with every call and its members (docs/cli.md)\n",
            runCollectives);

} // namespace cnp::cli
