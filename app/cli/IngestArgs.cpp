#include "IngestArgs.h"

#include "ResourceUse.h"

#include "metrics/AblationStudies.h"

#include <cstdio>
#include <iostream>

namespace cnp::cli {

std::set<std::string> ingestValueOptions() {
    return {"--run",        "--config", "--repeat", "--tokens-per-step", "--flops-per-step",
            "--peak-flops", "--jobs",   "--study"};
}

IngestRequest ingestRequestOf(const ArgParser& p, std::size_t firstInput) {
    IngestRequest req;
    req.inputs.assign(p.positionals().begin() + static_cast<std::ptrdiff_t>(firstInput),
                      p.positionals().end());
    req.runName = p.valueOr("--run", "");
    req.config = p.valueOr("--config", "");
    req.study = p.valueOr("--study", "");
    if (req.study.size() > kMaxStudyNameBytes)
        throw UsageFailure{"--study: a study name is at most " + std::to_string(kMaxStudyNameBytes) +
                           " bytes"};
    req.repeat = static_cast<int>(p.number("--repeat", 0, 1e9).value_or(0));
    req.tokensPerStep = p.number("--tokens-per-step", bounds::kTokensPerStep).value_or(0);
    req.flopsPerStep = p.number("--flops-per-step", bounds::kFlopsPerStep).value_or(0);
    req.peakFlops = p.number("--peak-flops", bounds::kPeakFlops).value_or(0);
    if (req.tokensPerStep < 0 || req.flopsPerStep < 0 || req.peakFlops < 0)
        throw UsageFailure{"--tokens-per-step, --flops-per-step and --peak-flops must not be negative"};
    const double jobs = p.number("--jobs").value_or(0);
    if (p.value("--jobs") && (jobs < 1 || jobs > 256 || jobs != static_cast<int>(jobs)))
        throw UsageFailure{"--jobs must be a whole number from 1 to 256"};
    req.jobs = static_cast<int>(jobs);
    return req;
}

void reportIngest(const ArgParser& p, const IngestResult& res, const std::string& runName) {
    if (!p.has("--quiet")) {
        std::cout << "ingested run '" << runName << "': " << res.ranks
                  << (res.ranks == 1 ? " rank, " : " ranks, ") << res.events << " events from "
                  << res.files.size() << (res.files.size() == 1 ? " file" : " files") << '\n';
        for (const auto& n : res.notes)
            std::cout << "  " << n << '\n';
    }
    if (p.has("--timing")) {
        for (const auto& [phase, seconds] : res.phaseSeconds)
            std::fprintf(stderr, "  %-42s %8.3f s\n", phase.c_str(), seconds);
        printResourceUse();
    }
    for (const auto& w : res.warnings)
        std::cerr << "warning: " << w << '\n';
    if (res.skipped.count > 0)
        std::cerr << "warning: skipped " << res.skipped.count << " malformed event(s); first at byte "
                  << res.skipped.firstOffset << ": " << res.skipped.firstReason << '\n';
}

} // namespace cnp::cli
