#pragma once
// What `cnp ingest` and `cnp ingest-shard` share: the run options of an IngestRequest read from the command
// line, and the report printed after the ingest.
#include "ArgParser.h"

#include "ingest/IngestPipeline.h"

#include <set>
#include <string>

namespace cnp::cli {

// The value options the request reads (--run, --config, --repeat, --study, --tokens-per-step,
// --flops-per-step, --peak-flops, --jobs); a command adds its own.
std::set<std::string> ingestValueOptions();
// The request from `p` (positionals from index `firstInput` on are the inputs). UsageFailure on a bad value.
IngestRequest ingestRequestOf(const ArgParser& p, std::size_t firstInput);
// Prints the outcome (stdout unless --quiet; --timing phases and warnings on stderr). `runName`: how the
// run is named (a shard's row holds "<id>:<name>").
void reportIngest(const ArgParser& p, const IngestResult& res, const std::string& runName);

} // namespace cnp::cli
