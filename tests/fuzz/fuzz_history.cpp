// Fuzz target: the release history's untrusted files. The input is parsed as a history manifest
// (HistoryManifest::fromJson: bounds, release names, paths that must stay inside the folder) and as a
// release summary (releaseSummaryFromJson: shapes and bounds of the per-step arrays); what parses is
// written back and parsed again (the round trip must hold), and a parsed summary is gated against itself
// and fed to the trend (no crash, no unbounded work on any shape it accepts).
#include "FuzzSupport.h"
#include "history/HistoryManifest.h"
#include "history/ReleaseSummaryJson.h"
#include "metrics/ReleaseComparison.h"
#include "metrics/ReleaseTrend.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    cnp::fuzz::refusesCleanly([&] {
        const auto h = cnp::HistoryManifest::fromJson(text, "/fuzz/cnp-history.json");
        for (const auto& e : h.entries()) {
            h.studyPath(e);
            h.summaryPath(e);
        }
        cnp::HistoryManifest::fromJson(h.toJson(), "/fuzz/cnp-history.json");
    });
    cnp::fuzz::refusesCleanly([&] {
        const auto s = cnp::releaseSummaryFromJson(text, "fuzz.json");
        cnp::releaseSummaryFromJson(cnp::releaseSummaryToJson(s), "round trip");
        cnp::GateOptions options;
        options.resamples = 100;
        cnp::checkRelease(s, s, {cnp::GateMetric{}, *cnp::gateMetricFrom("idle")}, options);
        cnp::ReleaseTrend trend;
        trend.addRelease("a", s);
        trend.addRelease("b", s);
        trend.series();
    });
    return 0;
}
