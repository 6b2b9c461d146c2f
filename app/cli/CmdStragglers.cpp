// cnp stragglers WS --run NAME [--json]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/Units.h"
#include "metrics/StragglerEvidence.h"
#include "requests/CollectivesRequest.h"
#include "store/Workspace.h"

#include <iostream>

namespace cnp::cli {
namespace {

std::string dur(Ns ns) {
    return units::duration(static_cast<double>(ns));
}

void writeJson(const std::string& runName, const StragglersResult& r) {
    JsonOutput j;
    j.beginObject().key("run").str(runName).key("calls").num(r.report.calls);
    j.key("median_window_ns").num(r.report.medianWindowNs).key("ranks").beginArray();
    for (const auto& s : r.report.ranks) {
        j.beginObject().key("rank").num(s.rank).key("calls").num(s.calls).key("last_count").num(s.lastCount);
        j.key("last_share")
            .real(s.lastShare)
            .key("lateness_ns")
            .num(s.latenessNs)
            .key("wait_ns")
            .num(s.waitNs);
        j.key("compute_ns").num(s.computeNs).key("median_compute_ns").num(s.medianComputeNs);
        j.key("gpu_time_ratio").real(s.gpuTimeRatio).key("host_idle_ns").num(s.hostIdleNs);
        j.key("median_host_idle_ns").num(s.medianHostIdleNs).key("transfer_ratio").real(s.transferRatio);
        j.key("transfer_excess_ns").num(s.transferExcessNs).key("causes").beginArray();
        for (const auto c : s.causes)
            j.str(stragglerCauseName(c));
        j.endArray().key("slower_kernels").beginArray();
        for (const auto& k : s.slowerKernels)
            j.beginObject()
                .key("name")
                .str(k.name)
                .key("excess_ns")
                .num(k.excessNs)
                .key("ratio")
                .real(k.ratio)
                .endObject();
        j.endArray().endObject();
    }
    j.endArray().endObject();
    std::cout << j.text();
}

void printEvidence(const RankStraggling& s) {
    const auto lines = stragglerEvidenceLines(s);
    for (std::size_t i = 0; i < lines.size(); ++i)
        std::cout << (i == 0 ? "" : "  ") << lines[i] << '\n';
}

void printText(const std::string& runName, const StragglersResult& r) {
    const StragglerReport& rep = r.report;
    std::cout << "run " << runName << ": " << units::count(rep.calls)
              << " collective calls of two or more ranks\n";
    if (rep.calls == 0) {
        std::cout << "  no collectives to score\n";
        return;
    }
    TableOutput t({">rank", ">last", ">share", ">lateness", ">wait", ">GPU time", ">transfer", "causes"});
    for (const auto& s : rep.ranks)
        t.addRow({std::to_string(s.rank), units::count(s.lastCount), units::percent(s.lastShare),
                  dur(s.latenessNs), dur(s.waitNs), units::ratio(s.gpuTimeRatio),
                  units::ratio(s.transferRatio), stragglerCausesText(s)});
    t.print(std::cout, "  ");
    std::cout << '\n';
    for (const auto& s : rep.ranks)
        if (!s.causes.empty() || &s == &rep.ranks.front())
            printEvidence(s);
}

int runStragglers(const std::vector<std::string>& args) {
    ArgParser p({"--run"}, {"--json"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto runName = p.value("--run");
    if (!runName)
        throw UsageFailure{"--run NAME is required"};
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    const StragglersResult r = computeStragglers(ws, *runName);
    if (p.has("--json"))
        writeJson(*runName, r);
    else
        printText(*runName, r);
    return Ok;
}

} // namespace

CNP_COMMAND(
    "stragglers", "per rank: how often and by how much it arrives last at collectives, and why",
    "usage: cnp stragglers WS --run NAME [--json]\n\n"
    "Scores every rank of run NAME on the collectives matched across ranks (cnp collectives): how\n"
    "often it arrived last and how much later than the median rank, and the evidence of its own\n"
    "trace against the median rank's: longer compute (which kernels), GPU idle while its host was\n"
    "busy (data loading, launch-bound), a GPU slower across all kernels, a slow link (longer\n"
    "transfers). Most often last first. Definitions and thresholds: docs/metrics.md, \"Stragglers\".\n\n"
    "  --run NAME   the run\n"
    "  --json       machine-readable output (docs/cli.md)\n",
    runStragglers);

} // namespace cnp::cli
