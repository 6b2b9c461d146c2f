#pragma once
// Which NVIDIA driver an image's CUDA needs, for the `cuda-driver` lint rule (docs/plans.md).
//
// The table holds only what the training image's release notes state: CUDA 13.0 needs driver ≥ 580 and
// CUDA 12.8 needs ≥ 575. A version between or after entries needs at least the requirement of the nearest
// entry below it (requirements never decrease with newer CUDA); a version below every entry has no known
// requirement and is not checked.
#include <optional>
#include <string>

namespace cnp::plan {

struct CudaVersion {
    int major = 0;
    int minor = 0;
    int patch = 0;
};

// "13.0.2", "12.8" -> version; nullopt for anything else.
std::optional<CudaVersion> parseCudaVersion(const std::string& text);
// The CUDA version an image reference names, where its name says it: a tag with `cuda12.8.0`/`cuda12.8`
// or `cu128`/`cu130` in it (PyTorch wheels' spelling), or an image named `.../cuda` whose tag starts
// with the version (`nvidia/cuda:12.8.0-devel-ubuntu22.04`). Anything else (an NGC `25.01-py3` tag, a
// private golden image) cannot be known from the name: write `cudaVersion:` in the configuration.
std::optional<CudaVersion> cudaVersionFromImage(const std::string& image);
// The lowest driver major version that runs `v`; nullopt when the table says nothing about it.
std::optional<int> requiredDriverMajor(const CudaVersion& v);
// The major number of a driver version string ("580.65.06" -> 580); nullopt when it is not one.
std::optional<int> driverMajor(const std::string& driverVersion);
std::string toString(const CudaVersion& v);

} // namespace cnp::plan
