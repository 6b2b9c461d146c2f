#include "core/NameRegex.h"

#include <re2/re2.h>

namespace cnp {

NameRegex::NameRegex(std::string_view pattern, Case c) {
    RE2::Options o;
    o.set_case_sensitive(c == Case::Sensitive);
    o.set_log_errors(false);
    o.set_max_mem(kMaxProgramBytes);
    re_ = std::make_unique<re2::RE2>(re2::StringPiece(pattern.data(), pattern.size()), o);
    if (!re_->ok())
        error_ = re_->error().empty() ? std::string("invalid pattern") : re_->error();
}

NameRegex::~NameRegex() = default;
NameRegex::NameRegex(NameRegex&&) noexcept = default;
NameRegex& NameRegex::operator=(NameRegex&&) noexcept = default;

bool NameRegex::search(std::string_view name) const {
    return valid() && RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *re_);
}

} // namespace cnp
