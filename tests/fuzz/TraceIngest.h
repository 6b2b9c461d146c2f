#pragma once
// The path a trace file takes through `cnp ingest`, for the importer harnesses: detect the format and
// import (importFile), then add the trace as a run of a fresh workspace (normalise, categorise, steps,
// summaries, timeline overview, inserts). Bad input must end as InputError; a workspace is never needed
// by the caller, so it is created and removed in the scratch folder.
#include <cstddef>
#include <cstdint>

namespace cnp::fuzz {

void ingestTraceBytes(const char* fileName, const std::uint8_t* data, std::size_t size);

} // namespace cnp::fuzz
