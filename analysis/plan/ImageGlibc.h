#pragma once
// The glibc an image's name implies, for the `collector-glibc` lint rule (docs/plans.md): the collector
// loads on glibc 2.28 and newer (docs/collector.md "glibc floor"). Only distribution tokens with a fixed
// glibc are read from the tag (nvidia/cuda's `...-ubuntu18.04`, `...-centos7`, `...-ubi8`): the release
// notes of each distribution give its glibc. Anything else cannot be known without the image; `cnp run`
// probes it (launch/ImageTraceCheck).
#include <optional>
#include <string>

namespace cnp::plan {

struct ImageGlibc {
    std::string distribution; // the token the tag names, e.g. "ubuntu18.04"
    int minor = 0;            // glibc 2.<minor>
};

// The distribution and its glibc named by `image`'s tag; nullopt when the tag names none this knows.
std::optional<ImageGlibc> glibcFromImage(const std::string& image);

} // namespace cnp::plan
