#pragma once
// An importer turns one source file (or folder) into a TraceData. Importers never touch the
// workspace; IngestPipeline owns normalisation, categorisation, steps and the transaction.
// A structurally broken file throws InputError (the whole file is refused); single malformed
// events are skipped and counted in TraceData::info.skipped.
#include "core/ProgressSink.h"
#include "core/TraceData.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace cnp {

class Importer {
public:
    virtual ~Importer() = default;
    virtual std::string formatName() const = 0; // "kineto", "nsys", "cnpt", "chrome"
    // `head` holds the first bytes of the file (decompressed if gzip), possibly fewer than 4096.
    virtual bool canRead(const std::string& path, std::string_view head) const = 0;
    virtual TraceData read(const std::string& path, const ProgressSink& sink) const = 0;
    // The rank the file's first bytes (`head`, decompressed) say it holds, when they say one: a hint that
    // orders a run's files before they are read (ingest/RunStreamer.h), never trusted for the result.
    virtual std::optional<std::int32_t> rankHint(std::string_view /*head*/) const { return std::nullopt; }
};

std::unique_ptr<Importer> makeKinetoImporter();
std::unique_ptr<Importer> makeNsysImporter();
std::unique_ptr<Importer> makeCnptImporter();

} // namespace cnp
