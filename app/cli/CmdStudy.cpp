// cnp study assemble X.cnpstudy SHARD.cnpdb...
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "ProgressBar.h"
#include "ResourceUse.h"

#include "core/Interrupt.h"
#include "ingest/StudyAssembler.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace cnp::cli {
namespace {

int runStudy(const std::vector<std::string>& args) {
    ArgParser p({}, {"--quiet", "--timing"});
    p.parse(args);
    p.requirePositionals(1, 100000, "a subcommand (assemble)");
    if (p.positionals()[0] != "assemble")
        throw UsageFailure{"unknown study subcommand '" + p.positionals()[0] + "' (cnp study assemble)"};
    p.requirePositionals(3, 100000, "assemble STUDY.cnpstudy and at least one shard file");
    const std::vector<std::string> shards(p.positionals().begin() + 2, p.positionals().end());
    const long long read0 = bytesReadSoFar();
    ProgressBar bar("assemble");
    const ProgressSink sink{[&](double f) { bar.update(f); }, &interruptFlag()};
    const AssembledStudy s = assembleStudy(p.positionals()[1], shards, sink);
    const long long read1 = bytesReadSoFar();
    if (!p.has("--quiet"))
        std::cout << "assembled " << p.positionals()[1] << ": " << s.runs
                  << (s.runs == 1 ? " run, " : " runs, ") << s.ranks << " ranks, " << s.events
                  << " events in " << s.shards << (s.shards == 1 ? " shard" : " shards") << " ("
                  << s.shardBytes << " bytes, " << s.copiedBytes << " of them copied)\n";
    if (p.has("--timing")) {
        for (const auto& [phase, seconds] : s.phases)
            std::fprintf(stderr, "  %-42s %8.3f s\n", phase.c_str(), seconds);
        if (read0 >= 0 && read1 >= 0)
            std::fprintf(stderr, "  %-42s %8lld\n", "bytes read", read1 - read0);
        printResourceUse();
    }
    return Ok;
}

CNP_COMMAND("study", "assemble a study (*.cnpstudy) from shards written alone by cnp ingest-shard",
            "usage: cnp study assemble STUDY.cnpstudy SHARD.cnpdb... [--quiet] [--timing]\n\n"
            "Creates the study folder STUDY.cnpstudy from shard files written by cnp ingest-shard (one\n"
            "or several per run, each a block of the run's ranks): the shards become its shard files as\n"
            "they are (hard links where the file system allows, else copies; the study then owns them),\n"
            "and its index is built from their summaries only: ranks, steps, summary rows, the all-rank\n"
            "kernel statistics and the timeline overview merged exactly, the run rows. Every command\n"
            "then opens the study as it opens a workspace.\n\n"
            "Refused, naming the file, with nothing written (exit 2): a file that is no finished shard,\n"
            "shards of one run id with different names, two shards claiming one rank, interleaved ranks,\n"
            "different step decisions or category rules. --timing prints each phase's seconds and the\n"
            "bytes read on stderr. docs/schema.md, \"Studies of shards\".\n",
            runStudy);

} // namespace
} // namespace cnp::cli
