#include "metrics/GpuPeakFlops.h"

#include <algorithm>
#include <cctype>

namespace cnp {

// Vendor datasheet figures, dense BF16 tensor throughput of one GPU. NVIDIA's datasheets print the
// figure "with sparsity"; the dense figure is half of it:
// - H100 SXM: "BF16 Tensor Core 1,979 teraFLOPS*" (* with sparsity) -> 989.4 TFLOP/s dense, the figure
//   of the H100 Tensor Core GPU architecture whitepaper; H100 PCIe 1,513 -> 756; H100 NVL 1,671 -> 835.
// - H200 SXM: "BF16 Tensor Core 1,979 TFLOPS" (with sparsity) -> 989.4 dense; H200 NVL 1,671 -> 835.
// - A100 (SXM and PCIe, 40/80 GB): "BF16 Tensor Core 312 TFLOPS | 624 TFLOPS*" -> 312 dense.
// AMD's datasheets print dense figures: Instinct MI250X "Peak bfloat16 383.0 TFLOPs", MI250 362.1.
// ROCm names both MI250 variants "AMD Instinct MI250X / MI250": that name takes MI250X's (higher)
// peak, so a default never overstates MFU.
const std::vector<GpuPeakFlops>& knownGpuPeaks() {
    static const std::vector<GpuPeakFlops> table{
        {"NVIDIA H100 PCIe", "H100 PCIe", 756e12},   {"NVIDIA H100 NVL", "H100 NVL", 835e12},
        {"NVIDIA H100 SXM", "H100", 989.4e12},       {"NVIDIA H200 NVL", "H200 NVL", 835e12},
        {"NVIDIA H200 SXM", "H200", 989.4e12},       {"NVIDIA A100", "A100", 312e12},
        {"AMD Instinct MI250X", "MI250X", 383.0e12}, {"AMD Instinct MI250", "MI250", 362.1e12},
    };
    return table;
}

namespace {
bool containsIgnoringCase(std::string_view text, std::string_view pattern) {
    const auto lower = [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    };
    return std::search(text.begin(), text.end(), pattern.begin(), pattern.end(), lower) != text.end();
}
} // namespace

const GpuPeakFlops* gpuPeakFor(std::string_view gpuModel) {
    for (const auto& g : knownGpuPeaks())
        if (containsIgnoringCase(gpuModel, g.pattern))
            return &g;
    return nullptr;
}

const GpuPeakFlops* gpuPeakNamed(std::string_view name) {
    for (const auto& g : knownGpuPeaks())
        if (g.name == name)
            return &g;
    return nullptr;
}

} // namespace cnp
