// Fuzz target: .cnpt collector files, plain (mapped) or gzip (streamed), through the whole ingest path
// (TraceIngest.h).
#include "TraceIngest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    cnp::fuzz::ingestTraceBytes("trace.cnpt", data, size);
    return 0;
}
