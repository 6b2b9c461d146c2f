#include "plan/ImageReference.h"

#include <re2/re2.h>

namespace cnp::plan {

namespace {

constexpr std::size_t kMaxNameLength = 255;

// distribution/reference's regular expressions, anchored; group 1 is the name (domain and path).
const RE2& referencePattern() {
    static const RE2 re(
        R"(^((?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*)"
        R"((?::[0-9]+)?/)?)"
        R"([a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*))"
        R"((?::[\w][\w.-]{0,127})?)"
        R"((?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$)");
    return re;
}

} // namespace

std::string imageReferenceProblem(const std::string& image) {
    if (image.empty())
        return "the image is empty";
    if (image.front() == '-')
        return "'" + image + "' is an option, not an image reference (REGISTRY/NAME[:TAG][@DIGEST])";
    std::string name;
    if (!RE2::FullMatch(image, referencePattern(), &name))
        return "'" + image +
               "' is not an image reference: expected [REGISTRY[:PORT]/]NAME[:TAG][@DIGEST], the name in "
               "lower "
               "case (letters, digits, '.', '_', '-' between them, '/' between components)";
    if (name.size() > kMaxNameLength)
        return "the image name is longer than 255 characters";
    return {};
}

} // namespace cnp::plan
