// cnp insights WS --run NAME [--idle-gap-us N] [--json]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "requests/InsightsRequest.h"
#include "store/Workspace.h"

#include <iostream>

namespace cnp::cli {
namespace {

int runInsights(const std::vector<std::string>& args) {
    ArgParser p({"--run", "--idle-gap-us"}, {"--json"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto runName = p.value("--run");
    if (!runName)
        throw UsageFailure{"--run NAME is required"};
    InsightOptions o;
    if (auto g = p.number("--idle-gap-us", 0, 9e12)) {
        if (*g < 10)
            throw UsageFailure{"--idle-gap-us must be >= 10 (shorter gaps are not stored)"};
        o.idleGapNs = static_cast<Ns>(*g * 1000);
    }
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const auto insights = computeInsights(ws, *runName, o);

    if (p.has("--json")) {
        JsonOutput j;
        j.beginObject().key("run").str(*runName).key("insights").beginArray();
        for (const auto& in : insights) {
            j.beginObject().key("id").str(in.id).key("severity").str(toString(in.severity));
            j.key("title").str(in.title).key("explanation").str(in.explanation).key("value").real(in.value);
            j.key("evidence_total").num(static_cast<std::int64_t>(in.evidenceTotal));
            j.key("evidence").beginArray();
            for (const auto& e : in.evidence) {
                j.beginObject().key("rank").num(e.rank).key("step").num(e.stepIndex);
                j.key("start_ns").num(e.start).key("end_ns").num(e.end).key("kernels").beginArray();
                for (const auto& k : e.kernels)
                    j.str(k);
                j.endArray().key("detail").str(e.detail).endObject();
            }
            j.endArray().endObject();
        }
        j.endArray().endObject();
        std::cout << j.text();
        return Ok;
    }
    if (insights.empty()) {
        std::cout << "no findings for run " << *runName << "\n";
        return Ok;
    }
    for (const auto& in : insights) {
        std::cout << "[" << toString(in.severity) << "] " << in.title << "\n  " << in.explanation << "\n";
        for (const auto& e : in.evidence) {
            std::cout << "    - ";
            if (e.rank >= 0)
                std::cout << "rank " << e.rank << ' ';
            if (e.stepIndex >= 0)
                std::cout << "step " << e.stepIndex << ' ';
            if (e.start >= 0)
                std::cout << "@" << e.start << " ns ";
            std::cout << e.detail;
            if (!e.kernels.empty()) {
                const auto& k = e.kernels.front();
                std::cout << " (" << (k.size() > 60 ? k.substr(0, 57) + "..." : k)
                          << (e.kernels.size() > 1 ? ", +" + std::to_string(e.kernels.size() - 1) + " more"
                                                   : "")
                          << ")";
            }
            std::cout << '\n';
        }
        if (in.evidenceTotal > in.evidence.size())
            std::cout << "    (the " << in.evidence.size() << " most telling of " << in.evidenceTotal
                      << " shown)\n";
        std::cout << '\n';
    }
    return Ok;
}

} // namespace

CNP_COMMAND("insights", "findings with severity, explanation and evidence for one run",
            "usage: cnp insights WS --run NAME [--idle-gap-us N] [--json]\n\n"
            "Checks run NAME for: GPU idle gaps and what the CPU was doing (launch-bound, waiting on data,\n"
            "synchronising), exposed communication, low communication/compute overlap, kernels shorter than\n"
            "their launch call, synchronous or pageable memcpy, CPU-blocking stream/event and device-wide\n"
            "synchronisation inside steps,\n"
            "stragglers and rank imbalance, compute on a side stream, and the training image's release-note "
            "rules on run metadata\n"
            "(NCCL_SOCKET_IFNAME per pod size, CUDA vs driver version, DeepSpeed prefetch bucket size).\n"
            "Most severe first. Thresholds: docs/metrics.md.\n\n"
            "  --run NAME        the run to check\n"
            "  --idle-gap-us N   report idle gaps of at least N microseconds (default 100, minimum 10)\n"
            "  --json            machine-readable output (docs/cli.md)\n",
            runInsights);

} // namespace cnp::cli
