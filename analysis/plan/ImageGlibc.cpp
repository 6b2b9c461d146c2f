#include "plan/ImageGlibc.h"

namespace cnp::plan {

namespace {

// Distribution releases and their glibc (2.<minor>), as their release notes state.
struct Release {
    const char* token;
    int minor;
};
constexpr Release kReleases[] = {
    {"ubuntu14.04", 19}, {"ubuntu16.04", 23}, {"ubuntu18.04", 27},  {"ubuntu20.04", 31},
    {"ubuntu22.04", 35}, {"ubuntu24.04", 39}, {"centos6", 12},      {"centos7", 17},
    {"centos8", 28},     {"rockylinux8", 28}, {"rockylinux9", 34},  {"ubi7", 17},
    {"ubi8", 28},        {"ubi9", 34},        {"oraclelinux8", 28}, {"oraclelinux9", 34}};

} // namespace

std::optional<ImageGlibc> glibcFromImage(const std::string& image) {
    // The tag: after the last ':' that follows the last '/', before any digest.
    const std::string ref = image.substr(0, image.find('@'));
    const auto slash = ref.rfind('/');
    const auto colon = ref.rfind(':');
    if (colon == std::string::npos || (slash != std::string::npos && colon < slash))
        return std::nullopt;
    const std::string tag = ref.substr(colon + 1);
    // A token stands alone in the tag: at its ends or between '-' / '_' ("ubi8", not "ubi80").
    auto boundary = [&](std::size_t at) { return at >= tag.size() || tag[at] == '-' || tag[at] == '_'; };
    for (const Release& r : kReleases) {
        const std::string token = r.token;
        for (auto at = tag.find(token); at != std::string::npos; at = tag.find(token, at + 1))
            if ((at == 0 || boundary(at - 1)) && boundary(at + token.size()))
                return ImageGlibc{r.token, r.minor};
    }
    return std::nullopt;
}

} // namespace cnp::plan
