// cnp ingest-shard OUT.cnpdb FILE_OR_DIR... --run NAME [--run-id N] [--config LABEL] ...
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "IngestArgs.h"
#include "ProgressBar.h"

#include "core/Interrupt.h"
#include "ingest/IngestPipeline.h"
#include "requests/ClockAlignmentRequest.h"
#include "store/MetaKeys.h"
#include "store/StringInterner.h"
#include "store/StudyFolder.h"
#include "store/SummaryFile.h"
#include "store/Workspace.h"
#include "store/WorkspaceRemoval.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace cnp::cli {
namespace {

// --block K/N: of the inputs' trace files in order of the ranks their headers state (then by name), the
// K-th of N blocks of consecutive files (0-based; sizes differ by at most one), so that N pods or
// containers given the same folder and their index each take their own ranks. UsageFailure on a bad
// value; InputError naming a file whose header states no rank (its place cannot be known).
std::vector<std::string> blockOf(const std::vector<std::string>& inputs, const std::string& value) {
    const auto slash = value.find('/');
    std::size_t k = 0, n = 0;
    try {
        std::size_t used = 0, usedN = 0;
        k = std::stoul(value.substr(0, slash), &used);
        n = slash == std::string::npos ? 0 : std::stoul(value.substr(slash + 1), &usedN);
        if (used != slash || usedN != value.size() - slash - 1)
            n = 0;
    } catch (const std::exception&) {
        n = 0;
    }
    if (n < 1 || n > 100000 || k >= n)
        throw UsageFailure{"--block takes K/N with 0 <= K < N <= 100000, not '" + value + "'"};
    std::vector<std::pair<std::int32_t, std::string>> ranked;
    for (const auto& f : expandInputs(inputs)) {
        const std::int32_t rank = rankHintOf(f);
        if (rank < 0)
            throw InputError(f,
                             "its header states no rank, so --block cannot place it: name the files instead");
        ranked.emplace_back(rank, f);
    }
    std::sort(ranked.begin(), ranked.end());
    const std::size_t first = ranked.size() * k / n, end = ranked.size() * (k + 1) / n;
    if (first == end)
        throw InputError(inputs.front(),
                         "block " + value + " of " + std::to_string(ranked.size()) + " trace files is empty");
    std::vector<std::string> out;
    for (std::size_t i = first; i < end; ++i)
        out.push_back(ranked[i].second);
    return out;
}

int runIngestShard(const std::vector<std::string>& args) {
    std::set<std::string> options = ingestValueOptions();
    options.insert("--run-id");
    options.insert("--block");
    options.insert("--summary-out");
    ArgParser p(options, {"--quiet", "--timing", "--again"});
    p.parse(args);
    p.requirePositionals(2, 100000, "OUT.cnpdb and at least one trace file or folder");
    IngestRequest req = ingestRequestOf(p, 1);
    if (req.runName.empty())
        throw UsageFailure{"--run NAME is required: every shard of a run names it alike"};
    const double runId = p.number("--run-id", 1, 1e15).value_or(1);
    if (runId != static_cast<double>(static_cast<std::int64_t>(runId)))
        throw UsageFailure{"--run-id must be a whole number from 1"};
    req.shardRunId = RunId(static_cast<std::int64_t>(runId));
    const std::string name = req.runName;
    // The shard's run row is "<id>:<name>", as a study's shards name their runs (docs/schema.md).
    req.runName = std::to_string(req.shardRunId->value()) + ":" + name;
    req.configFallback = name;
    if (const auto block = p.value("--block"))
        req.inputs = blockOf(req.inputs, *block);

    const std::string out = p.positionals()[0];
    if (StudyFolder::isStudyPath(out))
        throw UsageFailure{"OUT is one shard file (*.cnpdb), not a study"};
    const std::string summaryOut = p.value("--summary-out").value_or("");
    if (!summaryOut.empty() && (StudyFolder::isStudyPath(summaryOut) || summaryOut == out))
        throw UsageFailure{"--summary-out is one new file (*.cnpdb) beside OUT"};
    if (p.has("--again")) {
        if (summaryOut.empty())
            throw UsageFailure{"--again needs --summary-out: the summary file, written last, marks a "
                               "finished shard"};
        if (std::filesystem::exists(summaryOut) && std::filesystem::exists(out)) {
            if (!p.has("--quiet"))
                std::cout << "ingest-shard: " << out << " and " << summaryOut
                          << " were written by an earlier attempt; kept\n";
            return Ok;
        }
        // What an attempt killed half-way left (OUT without its summary file) is this command's own.
        removeCreatedWorkspace(out);
        removeCreatedWorkspace(summaryOut);
    }
    if (std::filesystem::exists(out))
        throw InputError(out, "exists; a shard is written once, into a new file");
    if (!summaryOut.empty() && std::filesystem::exists(summaryOut))
        throw InputError(summaryOut, "exists; a summary file is written once, into a new file");
    // A pod runs this without a shell: OUT's folder (the attempt's shards/ on the volume) is made here.
    std::error_code ec;
    if (const auto folder = std::filesystem::path(out).parent_path(); !folder.empty())
        std::filesystem::create_directories(folder, ec);
    IngestResult res;
    try {
        Workspace ws(out, Workspace::Mode::CreateIfMissing);
        {
            Transaction tx = writeTransaction(ws); // before any string: shards number them alike
            ws.setMeta(std::string(metakeys::kStringIds), std::string(StringInterner::kContentIds));
            tx.commit();
        }
        ProgressBar bar("ingest-shard");
        const ProgressSink sink{[&](double f) { bar.update(f); }, &interruptFlag()};
        res = ingest(ws, req, sink);
        if (!summaryOut.empty()) // a failure removes both: a pod is retried whole
            writeSummaryFile(ws, summaryOut, "communication", kClockRanksPerHost);
    } catch (...) {
        removeCreatedWorkspace(out);
        throw;
    }
    reportIngest(p, res, name);
    return Ok;
}

CNP_COMMAND(
    "ingest-shard", "ingest some ranks of a run into a shard file of its own, for cnp study assemble",
    "usage: cnp ingest-shard OUT.cnpdb FILE_OR_DIR... --run NAME [--run-id N] [--block K/N]\n"
    "                        [--summary-out FILE] [--config LABEL]\n"
    "                        [--repeat N] [--study NAME] [--tokens-per-step N] [--flops-per-step F]\n"
    "                        [--peak-flops F] [--jobs N] [--quiet] [--timing]\n\n"
    "Writes a new shard file holding the given rank files of one run, written alone: next to the\n"
    "traces (a cluster node, a container), with no study to share. It keeps the ranks' events and\n"
    "summaries, and what the study's index merges (the step decision, every kernel duration in\n"
    "compressed form, its part of the timeline overview). `cnp study assemble` then builds a study\n"
    "from such shards, reading their summaries only (docs/schema.md, \"Studies of shards\").\n\n"
    "  --run NAME      the run's name; every shard of the run gives the same\n"
    "  --run-id N      the run's id in the study (default 1); every shard of the run gives the same,\n"
    "                  the runs of one study different ones\n"
    "  --block K/N     of the inputs' files in rank order (their headers' ranks), take the K-th of\n"
    "                  N blocks of consecutive files (0-based): N workers given one folder and their\n"
    "                  index each ingest their own ranks\n"
    "  --summary-out FILE  also write FILE, a copy of the shard without its event rows but the\n"
    "                  communication kernels the clock fit reads (its summaries, strings,\n"
    "                  shard_part, runs, ranks and steps): cnp study assemble builds the same index\n"
    "                  from it, and it is what the workstation fetches from a cluster\n"
    "                  (docs/launcher.md, \"Ingest on the cluster\")\n"
    "  --again         a retried worker (the cluster's ingest pods): OUT and the summary file are\n"
    "                  its own; when both are there an earlier attempt finished and they are kept\n"
    "                  (exit 0), else what a killed attempt left is removed and the shard written\n"
    "  other options   as cnp ingest\n\n"
    "OUT's folder is created when missing. A file that is not a sound trace is refused and\n"
    "neither OUT nor the summary file is created (exit 2).\n",
    runIngestShard);

} // namespace
} // namespace cnp::cli
