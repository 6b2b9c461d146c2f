#include "metrics/MfuInputs.h"

#include "core/InputError.h"
#include "core/PhysicalBounds.h"
#include "metrics/GpuPeakFlops.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace cnp {

namespace {

double storedNumber(const std::string& path, const char* key, const std::optional<std::string>& text,
                    const PhysicalBound& bound) {
    if (!text || text->empty())
        return 0;
    double v = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, v);
    if (ec != std::errc() || ptr != end || !std::isfinite(v) || v < 0)
        throw InputError(path, std::string("meta '") + key + "' is not a number >= 0 (" +
                                   std::to_string(text->size()) + " bytes)");
    if (!bound.holds(v)) // a shared workspace's 1e300 FLOPs per token made MFU figures meaningless
        throw InputError(path, std::string("meta '") + key + "': " + outOfBoundText(bound, v));
    return v;
}

std::string numberText(double v) {
    if (v <= 0)
        return {};
    char buf[64];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v); // shortest round-trip form
    return std::string(buf, ec == std::errc() ? ptr : buf);
}
} // namespace

MfuInputs mfuInputsOf(const WorkspaceSettings& s) {
    return {storedNumber(s.path, "mfu_flops_per_token", s.mfuFlopsPerToken, bounds::kFlopsPerToken),
            storedNumber(s.path, "mfu_peak_flops", s.mfuPeakFlops, bounds::kPeakFlops)};
}

MfuInputTexts mfuInputTexts(const std::string& workspacePath, const MfuInputs& in) {
    for (double v : {in.flopsPerToken, in.peakFlops})
        if (!std::isfinite(v) || v < 0)
            throw InputError(workspacePath, "MFU inputs must be finite numbers >= 0");
    if (!bounds::kFlopsPerToken.holds(in.flopsPerToken))
        throw InputError(workspacePath,
                         "MFU inputs: " + outOfBoundText(bounds::kFlopsPerToken, in.flopsPerToken));
    if (!bounds::kPeakFlops.holds(in.peakFlops))
        throw InputError(workspacePath, "MFU inputs: " + outOfBoundText(bounds::kPeakFlops, in.peakFlops));
    return {numberText(in.flopsPerToken), numberText(in.peakFlops)};
}

MfuBasis resolveMfuBasis(double optionFlopsPerStep, double optionPeakFlops, const MfuInputs& workspace,
                         double tokensPerStep, const std::vector<const RunRecord*>& runs) {
    MfuBasis b;
    if (optionFlopsPerStep > 0) {
        b.flopsPerStep = optionFlopsPerStep;
        b.flopsSource = "option";
    } else if (workspace.flopsPerToken > 0 && tokensPerStep > 0) {
        b.flopsPerStep = workspace.flopsPerToken * tokensPerStep;
        b.flopsSource = "workspace";
    } else {
        const auto it = std::find_if(runs.begin(), runs.end(),
                                     [](const RunRecord* r) { return r->info.flopsPerStep > 0; });
        if (it != runs.end()) {
            b.flopsPerStep = (*it)->info.flopsPerStep;
            b.flopsSource = "run";
        }
    }
    if (optionPeakFlops > 0) {
        b.peakFlops = optionPeakFlops;
        b.peakSource = "option";
        return b;
    }
    if (workspace.peakFlops > 0) {
        b.peakFlops = workspace.peakFlops;
        b.peakSource = "workspace";
        return b;
    }
    for (const RunRecord* r : runs)
        if (r->info.peakFlops > 0) {
            b.peakFlops = r->info.peakFlops;
            b.peakSource = "run";
            return b;
        }
    for (const RunRecord* r : runs)
        if (!r->info.gpuModels.empty())
            if (const GpuPeakFlops* g = gpuPeakFor(r->info.gpuModels.front())) {
                b.peakFlops = g->denseBf16Flops;
                b.peakSource = "default";
                b.defaultGpu = std::string(g->name);
                return b;
            }
    return b;
}

std::optional<double> modelFlopsUtilisation(const MfuBasis& basis, double stepSeconds, int gpus) {
    if (basis.flopsPerStep <= 0 || basis.peakFlops <= 0 || stepSeconds <= 0)
        return std::nullopt;
    return basis.flopsPerStep / stepSeconds / (basis.peakFlops * std::max(1, gpus));
}

} // namespace cnp
