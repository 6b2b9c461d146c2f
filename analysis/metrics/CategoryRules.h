#pragma once
// Ordered, user-editable kernel classification rules (docs/metrics.md, "Categories").
// A rule is (category, RE2 regex: core/NameRegex.h); matching is case-insensitive and searches anywhere
// in the demangled kernel name, in time linear in the name's length; the first matching rule wins; names
// matching no rule get the fallback category ("other"). memcpy/memset activities are always category "memory"
// (kMemoryCategory). Range rules (category, RE2 regex on CPU range names, same matching) give a kernel the
// rule's category when its launch call lies inside a CPU range of that name on the launching thread, before
// any name rule: what the work is for (recomputed forward work) rather than what the kernel is. Sources, in
// order of precedence: the workspace's meta key "category_rules" (a JSON document, store/MetaKeys.h),
// resources/rules/categories.json, then the built-in defaults (identical to that file). Rule JSON:
// {"rules": [{"category": S, "pattern": S}, ...], "range_rules": [{"category": S, "pattern": S}, ...],
//  "fallback": S, "exclusive_priority": [compute categories, highest priority first]};
// "range_rules" may be absent (no range rule).
#include "core/CategoryOrder.h"
#include "core/NameRegex.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

struct WorkspaceSettings;

struct CategoryRule {
    std::string category;
    std::string pattern;
};

class CategoryRules {
public:
    // Intake bounds (issue 33.5): a rule document (a --rules file, the stored meta category_rules) is at
    // most 1 MiB and holds at most 1,000 rules and range rules together; the shipped
    // resources/rules/categories.json is 1.9 KB with 9. 8,000 rules once took 108 s and 4 GB to compile,
    // and were then stored and compiled again by every later command.
    static constexpr std::size_t kMaxDocumentBytes = std::size_t{1} << 20;
    static constexpr std::size_t kMaxRules = 1000;
    // The built-in default rules of docs/metrics.md.
    CategoryRules();
    // Parses a rule document; throws InputError naming `sourceName` on bad JSON, a missing field
    // or an invalid pattern (the message names the rule by its 1-based position and category).
    static CategoryRules fromJson(std::string_view json, const std::string& sourceName);
    static CategoryRules fromFile(const std::string& path);
    static CategoryRules defaults() { return CategoryRules(); }
    // The workspace's own rules (meta category_rules) when present, else resources/rules/categories.json
    // when readable, else the built-in defaults. requests/WorkspaceCategories.h reads them for a request.
    static CategoryRules forSettings(const WorkspaceSettings& settings);

    std::string toJson() const;
    const std::vector<CategoryRule>& rules() const { return rules_; }
    const std::vector<CategoryRule>& rangeRules() const { return rangeRules_; }
    const std::string& fallback() const { return fallback_; }

    // O(rules x name length); callers classify each unique name once (see Categoriser).
    std::string classify(std::string_view kernelName) const;
    // The index of the first range rule matching a CPU range name, -1 when none. O(range rules x length).
    int rangeRuleIndex(std::string_view rangeName) const;

    // Compute categories, highest exclusive-time priority first: the configured priority list, then
    // every other category the rules can produce (in rule order), the fallback last unless listed.
    // Never contains communication or memory.
    std::vector<std::string> computePriority() const;

private:
    void compile(const std::string& sourceName);
    static std::vector<NameRegex> compileRules(const std::vector<CategoryRule>& rules,
                                               const std::string& kind, const std::string& sourceName);

    std::vector<CategoryRule> rules_, rangeRules_;
    std::string fallback_ = "other";
    std::vector<std::string> priority_;
    std::vector<NameRegex> compiled_, rangeCompiled_; // one per rule, same order
};

} // namespace cnp
