#include "TraceIngest.h"

#include "FuzzSupport.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"

#include <filesystem>

namespace cnp::fuzz {

void ingestTraceBytes(const char* fileName, const std::uint8_t* data, std::size_t size) {
    const std::string& path = writeScratch(fileName, data, size);
    const std::string wsPath = scratchDir() + "/trace-ingest.cnpdb";
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(wsPath + suffix);
    refusesCleanly([&] {
        TraceData trace = importFile(path);
        Workspace ws(wsPath, Workspace::Mode::CreateIfMissing);
        addTrace(ws, std::move(trace));
    });
}

} // namespace cnp::fuzz
