#pragma once
// A regular expression over names (kernels, API calls, ranges, search text) with a guaranteed
// linear-time match: RE2 (automata, no backtracking), so a hostile pattern or name cannot hang or
// overflow the stack. Syntax: RE2's (docs/metrics.md, "Rule syntax"): ECMAScript minus
// backreferences and lookaround; `.` matches one UTF-8 character. search() looks for a match
// anywhere in the name (like std::regex_search). Matching is thread-safe on a const object.
// Cost: compile O(pattern), search O(name length) with memory bounded by kMaxProgramBytes.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace cnp {

class NameRegex {
public:
    enum class Case { Sensitive, Insensitive };
    // RE2's budget for the compiled program and its DFA caches; a pattern needing more is invalid.
    static constexpr std::int64_t kMaxProgramBytes = 8 << 20;

    NameRegex(std::string_view pattern, Case c);
    ~NameRegex();
    NameRegex(NameRegex&&) noexcept;
    NameRegex& operator=(NameRegex&&) noexcept;

    bool valid() const { return error_.empty(); }
    // One readable line ("missing ): (unclosed") when the pattern does not compile; else "".
    const std::string& error() const { return error_; }
    // True when the pattern matches somewhere in `name`; false for an invalid pattern.
    bool search(std::string_view name) const;

private:
    std::unique_ptr<re2::RE2> re_;
    std::string error_;
};

} // namespace cnp
