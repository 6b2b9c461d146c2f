// cnp ingest WS FILE_OR_DIR... [--run NAME] [--config LABEL] [--repeat N] [--tokens-per-step N]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "IngestArgs.h"
#include "ProgressBar.h"

#include "core/Interrupt.h"
#include "ingest/IngestPipeline.h"
#include "store/StudyFolder.h"
#include "store/Workspace.h"
#include "store/WorkspaceRemoval.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <thread>

namespace cnp::cli {
namespace {

// Test hook (docs/testing.md, "Interrupting a command"): with CNP_TEST_PAUSE_INGEST set, the ingest's first
// progress report says so on stderr and waits for Ctrl-C (at most 120 s), so that a test interrupts an
// ingest in the middle of its work whatever the machine's speed. Called from any ingest thread.
void pauseForInterruptOnce() {
    static const bool enabled = std::getenv("CNP_TEST_PAUSE_INGEST") != nullptr;
    static std::atomic<bool> done{false};
    if (!enabled || done.exchange(true))
        return;
    std::fputs("cnp ingest: paused for a signal (CNP_TEST_PAUSE_INGEST)\n", stderr);
    std::fflush(stderr);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!interruptRequested() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

int runIngest(const std::vector<std::string>& args) {
    std::set<std::string> options = ingestValueOptions();
    options.insert("--shards");
    ArgParser p(options, {"--quiet", "--timing"});
    p.parse(args);
    p.requirePositionals(2, 100000, "WORKSPACE and at least one trace file or folder");
    const IngestRequest req = ingestRequestOf(p, 1);

    const std::string wsPath = p.positionals()[0];
    const bool existed = std::filesystem::exists(wsPath);
    const bool study = StudyFolder::isStudyPath(wsPath);
    const double shards = p.number("--shards").value_or(0);
    if (p.value("--shards") && (!study || existed))
        throw UsageFailure{"--shards applies to a new study (a WORKSPACE path ending in .cnpstudy)"};
    if (p.value("--shards") &&
        (shards < 1 || shards > StudyFolder::kMaxShards || shards != static_cast<int>(shards)))
        throw UsageFailure{"--shards must be a whole number from 1 to " +
                           std::to_string(StudyFolder::kMaxShards)};
    IngestResult res;
    try {
        if (study && !existed) // one shard per worker unless told otherwise
            StudyFolder::create(wsPath, shards > 0 ? static_cast<int>(shards)
                                                   : (req.jobs > 0 ? req.jobs : defaultIngestJobs()));
        Workspace ws(wsPath, Workspace::Mode::CreateIfMissing);
        // Ctrl-C (main's handler raises interruptFlag()) cancels cleanly: the transaction rolls back and the
        // workspace stays as it was.
        ProgressBar bar("ingest");
        ProgressSink sink{[&](double f) {
                              pauseForInterruptOnce();
                              bar.update(f);
                          },
                          &interruptFlag()};
        res = ingest(ws, req, sink);
    } catch (...) {
        // A workspace this command created for a failed ingest is removed again: nothing half-made stays.
        if (!existed)
            removeCreatedWorkspace(wsPath);
        throw;
    }
    reportIngest(p, res, res.runName);
    return Ok;
}

CNP_COMMAND(
    "ingest", "read trace files (Kineto JSON, Nsight Systems SQLite, .cnpt) into a workspace",
    "usage: cnp ingest WORKSPACE FILE_OR_DIR... [--run NAME] [--config LABEL] [--repeat N]\n"
    "                  [--tokens-per-step N] [--flops-per-step F] [--peak-flops F] [--jobs N]\n"
    "                  [--shards N] [--study NAME] [--quiet] [--timing]\n\n"
    "Creates WORKSPACE (*.cnpdb) if missing and adds one run made of all given files; a folder\n"
    "contributes every trace file in it (one file per rank). Formats are recognised by content:\n"
    "PyTorch-profiler JSON (.json/.json.gz), Nsight Systems SQLite export, CNP collector .cnpt.\n\n"
    "  --run NAME            run name (default: the first file's name without extensions)\n"
    "  --config LABEL        configuration label for ablations (default: the run name)\n"
    "  --repeat N            repeat index of this configuration (default 0)\n"
    "  --study NAME          the ablation study the run belongs to (cnp ablation compares one study;\n"
    "                        not a .cnpstudy folder of shards)\n"
    "  --tokens-per-step N   tokens processed per training step (enables tokens/s)\n"
    "  --flops-per-step F    model FLOPs per training step, whole job (with --peak-flops: MFU)\n"
    "  --peak-flops F        peak FLOP/s of one GPU (e.g. 989e12 for an H200's dense BF16)\n"
    "  --jobs N              trace files read in parallel (default: one per hardware thread); the\n"
    "                        run is the same whatever N\n"
    "  --shards N            a new study (WORKSPACE ending in .cnpstudy): its number of shards,\n"
    "                        each written by its own thread (default: one per --jobs worker)\n"
    "  --timing              print the wall time of each ingest phase on stderr\n\n"
    "A study (a folder: docs/schema.md, \"Studies of shards\") is read and written like a workspace by\n"
    "every command; its runs' events are spread over its shards, written in parallel.\n"
    "A file that is not a sound trace is refused whole and the workspace is left unchanged (exit 2).\n"
    "Malformed single events inside a sound file are skipped, counted and reported.\n",
    runIngest);

} // namespace
} // namespace cnp::cli
