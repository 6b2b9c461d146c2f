#pragma once
// Ordered, user-editable kernel classification rules (docs/metrics.md, "Categories").
// A rule is (category, RE2 regex: core/NameRegex.h); matching is case-insensitive and searches anywhere
// in the demangled kernel name, in time linear in the name's length; the first matching rule wins; names
// matching no rule get the fallback category ("other"). memcpy/memset activities are always category "memory"
// (kMemoryCategory). Sources, in order of precedence: the workspace's meta key "category_rules" (a JSON
// document), resources/rules/categories.json, then the built-in defaults (identical to that file). Rule JSON:
// {"rules": [{"category": S, "pattern": S}, ...], "fallback": S,
//             "exclusive_priority": [compute categories, highest priority first]}.
#include "core/NameRegex.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

class Workspace;

inline constexpr std::string_view kCommunicationCategory = "communication";
inline constexpr std::string_view kMemoryCategory = "memory";
inline constexpr std::string_view kIdleCategory = "idle";
inline constexpr std::string_view kCategoryRulesMetaKey = "category_rules";

struct CategoryRule {
    std::string category;
    std::string pattern;
};

class CategoryRules {
public:
    // The built-in default rules of docs/metrics.md.
    CategoryRules();
    // Parses a rule document; throws InputError naming `sourceName` on bad JSON, a missing field
    // or an invalid pattern (the message names the rule by its 1-based position and category).
    static CategoryRules fromJson(std::string_view json, const std::string& sourceName);
    static CategoryRules fromFile(const std::string& path);
    static CategoryRules defaults() { return CategoryRules(); }
    // The workspace override when present, else resources/rules/categories.json when readable,
    // else the built-in defaults.
    static CategoryRules forWorkspace(const Workspace& ws);

    std::string toJson() const;
    const std::vector<CategoryRule>& rules() const { return rules_; }
    const std::string& fallback() const { return fallback_; }

    // O(rules x name length); callers classify each unique name once (see Categoriser).
    std::string classify(std::string_view kernelName) const;

    // Compute categories, highest exclusive-time priority first: the configured priority list, then
    // every other category the rules can produce (in rule order), the fallback last unless listed.
    // Never contains communication or memory.
    std::vector<std::string> computePriority() const;

private:
    void compile(const std::string& sourceName);

    std::vector<CategoryRule> rules_;
    std::string fallback_ = "other";
    std::vector<std::string> priority_;
    std::vector<NameRegex> compiled_; // one per rule, same order
};

} // namespace cnp
