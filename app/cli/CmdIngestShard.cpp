// cnp ingest-shard OUT.cnpdb FILE_OR_DIR... --run NAME [--run-id N] [--config LABEL] ...
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "IngestArgs.h"
#include "ProgressBar.h"

#include "core/Interrupt.h"
#include "ingest/IngestPipeline.h"
#include "store/MetaKeys.h"
#include "store/StringInterner.h"
#include "store/StudyFolder.h"
#include "store/Workspace.h"
#include "store/WorkspaceRemoval.h"
#include "store/WorkspaceTransactions.h"

#include <filesystem>

namespace cnp::cli {
namespace {

int runIngestShard(const std::vector<std::string>& args) {
    std::set<std::string> options = ingestValueOptions();
    options.insert("--run-id");
    ArgParser p(options, {"--quiet", "--timing"});
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

    const std::string out = p.positionals()[0];
    if (StudyFolder::isStudyPath(out))
        throw UsageFailure{"OUT is one shard file (*.cnpdb), not a study"};
    if (std::filesystem::exists(out))
        throw InputError(out, "exists; a shard is written once, into a new file");
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
    } catch (...) {
        removeCreatedWorkspace(out);
        throw;
    }
    reportIngest(p, res, name);
    return Ok;
}

CNP_COMMAND(
    "ingest-shard", "ingest some ranks of a run into a shard file of its own, for cnp study assemble",
    "usage: cnp ingest-shard OUT.cnpdb FILE_OR_DIR... --run NAME [--run-id N] [--config LABEL]\n"
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
    "  other options   as cnp ingest\n\n"
    "A file that is not a sound trace is refused and OUT is not created (exit 2).\n",
    runIngestShard);

} // namespace
} // namespace cnp::cli
