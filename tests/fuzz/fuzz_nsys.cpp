// Fuzz target: Nsight Systems SQLite exports: mutated database bytes opened through the importer, through the
// whole ingest path (TraceIngest.h).
#include "TraceIngest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    cnp::fuzz::ingestTraceBytes("trace.sqlite", data, size);
    return 0;
}
