// cnp export WS --run NAME --format chrome|csv --out PATH
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "core/InputError.h"
#include "export/ChromeTraceExporter.h"
#include "export/CsvExporter.h"
#include "export/RankSubset.h"
#include "metrics/MultiRankSteps.h"
#include "requests/WorkspaceCategories.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace cnp::cli {
namespace {

int runExport(const std::vector<std::string>& args) {
    ArgParser p({"--run", "--format", "--out", "--rank"}, {"--quiet"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto run = p.value("--run");
    const auto out = p.value("--out");
    const std::string format = p.valueOr("--format", "chrome");
    if (!run)
        throw UsageFailure{"--run NAME is required"};
    if (!out)
        throw UsageFailure{"--out PATH is required"};
    if (format != "chrome" && format != "csv")
        throw UsageFailure{"unknown --format '" + format + "' (chrome or csv)"};
    const std::string wsPath = p.positionals()[0];
    if (!std::filesystem::exists(wsPath))
        throw InputError(wsPath, "no such workspace");

    const Workspace ws(wsPath, Workspace::Mode::ReadOnly);
    const ReadTransaction snapshot = readSnapshot(ws); // the run as it was when the export started
    const RunRecord rec = ws.runOrThrow(*run);
    std::optional<std::int32_t> rank;
    if (const auto r = p.number("--rank", 0, 2147483647)) {
        if (*r < 0 || *r != static_cast<double>(static_cast<std::int32_t>(*r)))
            throw UsageFailure{"--rank takes a rank number"};
        rank = static_cast<std::int32_t>(*r);
    }
    // One rank reads only its rows (and of a run ingested on a cluster only its shard).
    TraceData trace = ws.loadRun(rec.id, rank);
    if (rank)
        trace = rankSubset(trace, *rank); // refuses a rank the run has not
    if (format == "chrome") {
        const auto events = ChromeTraceExporter(trace).write(*out);
        if (!p.has("--quiet"))
            std::cout << "wrote " << *out << ": " << events << " trace events of run '" << *run << "' ("
                      << trace.ranks.size() << (trace.ranks.size() == 1 ? " rank" : " ranks") << ")\n";
        return Ok;
    }
    std::unique_ptr<RunSummaryReader> summaries;
    try {
        summaries = std::make_unique<RunSummaryReader>(summaryReaderOf(ws, rec.id));
    } catch (const InputError&) {
        summaries.reset(); // a run without stored summaries: event tables only (noted below)
    }
    if (summaries && p.value("--rank"))
        summaries.reset(); // summaries cover the whole run; a one-rank export writes its events only
    const auto res = CsvExporter(trace, summaries.get()).write(*out);
    if (!p.has("--quiet")) {
        std::cout << "wrote " << res.files.size() << " CSV files of run '" << *run << "' to " << *out
                  << ":\n";
        for (const auto& [name, rows] : res.files)
            std::cout << "  " << name << "  " << rows << (rows == 1 ? " row\n" : " rows\n");
    }
    for (const auto& n : res.notes)
        std::cerr << "note: " << n << '\n';
    return Ok;
}

CNP_COMMAND("export", "write a run as a Chrome/Perfetto trace (JSON) or as CSV tables",
            "usage: cnp export WORKSPACE --run NAME [--format chrome|csv] --out PATH [--rank N] [--quiet]\n\n"
            "  --format chrome   (default) Chrome trace-event JSON that Perfetto UI (ui.perfetto.dev) and\n"
            "                    chrome://tracing open; PATH ending in .gz is gzip-compressed. One process\n"
            "                    per rank, a track per CPU thread and per GPU stream, NVTX/annotations\n"
            "                    nested, launch -> kernel flow arrows, kernel args (grid, block, registers,\n"
            "                    correlation). Times keep ns precision; `cnp ingest` reads the file back.\n"
            "  --format csv      PATH is a folder (created if missing): one RFC 4180 CSV per event table\n"
            "                    (kernels.csv, memcpys.csv, api_calls.csv, cpu_ranges.csv, ...) and per\n"
            "                    summary (kernel_stats.csv, breakdown_per_rank.csv, breakdown_per_step.csv,\n"
            "                    idle_gaps.csv). Times are integer ns.\n\n"
            "  --rank N          export only rank N of a multi-rank run (a Chrome file per rank re-ingests\n"
            "                    as that rank: `cnp ingest WS r0.json r1.json ...` rebuilds the ranks).\n\n"
            "Files appear only when complete. Exit 2 when the workspace or run does not exist or PATH\n"
            "cannot be written.\n",
            runExport);

} // namespace
} // namespace cnp::cli
