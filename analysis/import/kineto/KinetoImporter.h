#pragma once
// The PyTorch-profiler (Kineto) importer: Chrome-trace JSON, plain or gzip (detected from the magic
// bytes), streamed through RapidJSON's SAX reader. See KinetoTraceParser.h for what is read and how
// times are converted. Memory: the resulting TraceData plus O(1) parser state - never a DOM.
// Throughput on the reference 2-core machine: see bench/ingest.cpp.
#include "import/Importer.h"

namespace cnp {

class KinetoImporter : public Importer {
public:
    std::string formatName() const override { return "kineto"; }
    // Claims *.json / *.json.gz names, and any content whose first non-blank byte is '{' or '['
    // (so a trace with an unusual name is still read, and a non-trace JSON gets a precise error).
    bool canRead(const std::string& path, std::string_view head) const override;
    TraceData read(const std::string& path, const ProgressSink& sink) const override;
    // The "rank" of a "distributedInfo" object that lies whole in `head` (PyTorch writes it before the
    // events), by a text scan: a hint only.
    std::optional<std::int32_t> rankHint(std::string_view head) const override;
};

// The whole read without the Importer indirection (used by the benchmark's parse-only floor).
TraceData readKinetoTrace(const std::string& path, const ProgressSink& sink = {});

} // namespace cnp
