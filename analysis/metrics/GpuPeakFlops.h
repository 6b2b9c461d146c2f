#pragma once
// Peak dense BF16 tensor FLOP/s of the GPUs the product knows, the default of the MFU denominator when
// neither the user nor the run's metadata gives one (docs/metrics.md, "Ablation"). Plain data, no I/O.
#include <string_view>
#include <vector>

namespace cnp {

struct GpuPeakFlops {
    std::string_view name;    // shown to the user, e.g. "NVIDIA H100 SXM"
    std::string_view pattern; // found case-insensitively inside a GPU model name ("NVIDIA H100 80GB HBM3")
    double denseBf16Flops;    // FLOP/s of one GPU, dense (no structured sparsity), BF16 inputs
};

// The table, most specific pattern first ("H100 PCIe" before "H100"): gpuPeakFor takes the first match.
const std::vector<GpuPeakFlops>& knownGpuPeaks();
// The entry whose pattern occurs in `gpuModel`; nullptr when none does. O(table size x name length).
const GpuPeakFlops* gpuPeakFor(std::string_view gpuModel);
// The entry named exactly `name` (GUI round trip); nullptr when none.
const GpuPeakFlops* gpuPeakNamed(std::string_view name);

} // namespace cnp
