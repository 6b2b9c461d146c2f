#pragma once
// The inputs of MFU (docs/metrics.md, "Ablation"): model FLOPs and the GPU's peak FLOP/s, as the user
// entered them for the whole workspace (meta keys `mfu_flops_per_token`, `mfu_peak_flops`, docs/schema.md),
// and the rule that picks, per configuration, which of the options, the workspace, the runs' metadata
// and the known-GPU defaults (GpuPeakFlops) an MFU figure rests on.
#include "core/RunRecord.h"
#include "core/WorkspaceSettings.h"

#include <optional>
#include <string>
#include <vector>

namespace cnp {

struct MfuInputs {
    double flopsPerToken = 0; // model FLOPs of one token, forward + backward, whole model; 0 = not set
    double peakFlops = 0;     // peak FLOP/s of one GPU; 0 = not set (the runs' metadata or a default)
};

// The workspace's inputs; 0 where a key is unset or empty. Throws InputError naming the workspace when a
// stored value is not a finite number >= 0 (workspace content is input like any other).
MfuInputs mfuInputsOf(const WorkspaceSettings& settings);
// The stored text of each input (0 clears one: its text is empty), shortest round-trip form. Throws
// InputError naming `workspacePath` for a value that is negative or not finite.
struct MfuInputTexts {
    std::string flopsPerToken, peakFlops;
};
MfuInputTexts mfuInputTexts(const std::string& workspacePath, const MfuInputs& inputs);

// What one configuration's MFU rests on; a figure 0 = unknown (no MFU).
struct MfuBasis {
    double flopsPerStep = 0; // whole job
    double peakFlops = 0;    // one GPU
    // Where each came from: "option" (command line), "workspace" (entered in the workbench), "run"
    // (ingest metadata), "default" (knownGpuPeaks(), peak only); empty when unknown.
    std::string flopsSource, peakSource;
    std::string defaultGpu; // the knownGpuPeaks() entry's name when peakSource == "default"
};

// First that is known wins. FLOPs per step: `optionFlopsPerStep`, the workspace's FLOPs per token x
// `tokensPerStep` (both > 0), then the first run with FLOPs per step. Peak: `optionPeakFlops`, the
// workspace's, the first run with one, then the known-GPU figure of the first run whose first GPU model
// is in the table. O(runs).
MfuBasis resolveMfuBasis(double optionFlopsPerStep, double optionPeakFlops, const MfuInputs& workspace,
                         double tokensPerStep, const std::vector<const RunRecord*>& runs);

// MFU = FLOPs per step / step time / (peak x GPUs); nullopt when an input is unknown or stepSeconds <= 0.
std::optional<double> modelFlopsUtilisation(const MfuBasis& basis, double stepSeconds, int gpus);

} // namespace cnp
