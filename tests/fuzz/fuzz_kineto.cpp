// Fuzz target: Kineto (PyTorch profiler) JSON, plain or gzip, through the whole ingest path (TraceIngest.h).
#include "TraceIngest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    cnp::fuzz::ingestTraceBytes("trace.json", data, size);
    return 0;
}
