#include "plan/CudaDriver.h"

#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace cnp::plan {
namespace {

// {CUDA major, minor} -> minimum driver major, ascending (release notes of the training image).
constexpr std::array<std::pair<std::pair<int, int>, int>, 2> kDriverTable = {
    {{{12, 8}, 575}, {{13, 0}, 580}}};

// Reads digits at s[i..]; advances i. nullopt when there are none.
std::optional<int> readNumber(const std::string& s, std::size_t& i) {
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data() + i, s.data() + s.size(), v);
    if (ec != std::errc() || p == s.data() + i)
        return std::nullopt;
    i = std::size_t(p - s.data());
    return v;
}

// MAJOR.MINOR[.PATCH] starting at s[i]; does not need to end the string.
std::optional<CudaVersion> versionAt(const std::string& s, std::size_t i) {
    CudaVersion v;
    auto major = readNumber(s, i);
    if (!major || i >= s.size() || s[i] != '.')
        return std::nullopt;
    ++i;
    auto minor = readNumber(s, i);
    if (!minor)
        return std::nullopt;
    v.major = *major;
    v.minor = *minor;
    if (i + 1 < s.size() && s[i] == '.' && std::isdigit(static_cast<unsigned char>(s[i + 1]))) {
        ++i;
        v.patch = readNumber(s, i).value_or(0);
    }
    return v;
}

// `cu128` -> 12.8, `cu130` -> 13.0 (three or four digits: the last one is the minor version).
std::optional<CudaVersion> wheelSpelling(const std::string& tag) {
    for (std::size_t at = tag.find("cu"); at != std::string::npos; at = tag.find("cu", at + 1)) {
        std::size_t i = at + 2, start = i;
        while (i < tag.size() && std::isdigit(static_cast<unsigned char>(tag[i])))
            ++i;
        const std::size_t digits = i - start;
        if ((digits == 3 || digits == 4) &&
            (at == 0 || !std::isalnum(static_cast<unsigned char>(tag[at - 1])))) {
            const int all = std::stoi(tag.substr(start, digits));
            return CudaVersion{all / 10, all % 10, 0};
        }
    }
    return std::nullopt;
}

} // namespace

std::optional<CudaVersion> parseCudaVersion(const std::string& text) {
    auto v = versionAt(text, 0);
    if (!v)
        return std::nullopt;
    const std::string back = toString(*v);
    // Accept exactly MAJOR.MINOR or MAJOR.MINOR.PATCH.
    const std::string twoPart = std::to_string(v->major) + "." + std::to_string(v->minor);
    if (text != back && text != twoPart)
        return std::nullopt;
    return v;
}

std::optional<CudaVersion> cudaVersionFromImage(const std::string& image) {
    const std::size_t slash = image.rfind('/');
    const std::size_t colon = image.find(':', slash == std::string::npos ? 0 : slash);
    if (colon == std::string::npos)
        return std::nullopt;
    const std::string repo = image.substr(0, colon);
    const std::string tag = image.substr(colon + 1);
    const std::string repoName = slash == std::string::npos ? repo : repo.substr(slash + 1);
    if (repoName == "cuda")
        return versionAt(tag, 0);
    if (const std::size_t at = tag.find("cuda"); at != std::string::npos)
        if (auto v = versionAt(tag, at + 4))
            return v;
    return wheelSpelling(tag);
}

std::optional<int> requiredDriverMajor(const CudaVersion& v) {
    std::optional<int> required;
    for (const auto& [cuda, driver] : kDriverTable)
        if (std::pair(v.major, v.minor) >= cuda)
            required = driver;
    return required;
}

std::optional<int> driverMajor(const std::string& driverVersion) {
    std::size_t i = 0;
    auto major = readNumber(driverVersion, i);
    if (!major || (i < driverVersion.size() && driverVersion[i] != '.'))
        return std::nullopt;
    return major;
}

std::string toString(const CudaVersion& v) {
    return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

} // namespace cnp::plan
