#include "metrics/Categoriser.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

namespace cnp {

namespace {

constexpr StringId kUnset = std::numeric_limits<StringId>::max();

void categoriseByName(TraceData& trace, const CategoryRules& rules) {
    // Indexed by name id; the string table only grows while we intern categories, so size it first.
    std::vector<StringId> cache(trace.strings.size(), kUnset);
    for (auto& k : trace.kernels) {
        if (k.name >= cache.size())
            cache.resize(k.name + 1, kUnset);
        StringId& c = cache[k.name];
        if (c == kUnset)
            c = trace.strings.intern(rules.classify(trace.strings.at(k.name)));
        k.category = c;
    }
}

using ThreadKey = std::tuple<std::int32_t, std::int64_t, std::int64_t>; // rank, pid, tid
using Span = std::pair<Ns, Ns>;                                         // [start, end)

// Per thread and range rule: the union of the CPU ranges whose name the rule matches (first matching rule),
// as disjoint spans sorted by start. O(ranges log ranges); each unique range name classified once.
std::map<ThreadKey, std::vector<std::vector<Span>>> matchingSpans(const TraceData& trace,
                                                                  const CategoryRules& rules) {
    const std::size_t nRules = rules.rangeRules().size();
    std::unordered_map<StringId, int> ruleOf; // range name -> rule index, -1 none
    std::map<ThreadKey, std::vector<std::vector<Span>>> spans;
    for (const auto& r : trace.cpuRanges) {
        auto [it, fresh] = ruleOf.try_emplace(r.name, -1);
        if (fresh)
            it->second = rules.rangeRuleIndex(trace.strings.at(r.name));
        if (it->second < 0 || r.end <= r.start)
            continue;
        auto& perRule = spans[{r.rank, r.pid, r.tid}];
        perRule.resize(nRules);
        perRule[static_cast<std::size_t>(it->second)].push_back({r.start, r.end});
    }
    for (auto& [thread, perRule] : spans)
        for (auto& v : perRule) {
            std::sort(v.begin(), v.end());
            std::vector<Span> merged;
            for (const auto& s : v)
                if (!merged.empty() && s.first <= merged.back().second)
                    merged.back().second = std::max(merged.back().second, s.second);
                else
                    merged.push_back(s);
            v.swap(merged);
        }
    return spans;
}

bool covers(const std::vector<Span>& spans, Ns t) {
    auto it = std::upper_bound(spans.begin(), spans.end(), Span{t, std::numeric_limits<Ns>::max()});
    return it != spans.begin() && t < std::prev(it)->second;
}

// Compute kernels launched (launch call start) inside a matching range on the launching thread take the
// range rule's category. Only the launches inside such ranges are remembered: memory O(recomputed launches).
void categoriseByRange(TraceData& trace, const CategoryRules& rules) {
    const auto spans = matchingSpans(trace, rules);
    if (spans.empty())
        return;
    std::vector<StringId> categoryOf;
    for (const auto& r : rules.rangeRules())
        categoryOf.push_back(trace.strings.intern(r.category));
    std::unordered_map<std::int32_t, std::unordered_map<std::int64_t, StringId>> launched; // rank, corr
    for (const auto& a : trace.apiCalls) {
        if (a.correlation == 0)
            continue;
        const auto it = spans.find({a.rank, a.pid, a.tid});
        if (it == spans.end())
            continue;
        for (std::size_t i = 0; i < it->second.size(); ++i)
            if (covers(it->second[i], a.start)) {
                launched[a.rank].emplace(a.correlation, categoryOf[i]);
                break;
            }
    }
    if (launched.empty())
        return;
    // Communication stays communication: the breakdown's compute / communication split rests on it (a
    // ZeRO-3 all-gather issued inside a recompute range is still a collective).
    const StringId communication = trace.strings.intern(kCommunicationCategory);
    for (auto& k : trace.kernels) {
        if (k.category == communication || k.correlation == 0)
            continue;
        const auto rank = launched.find(k.rank);
        if (rank == launched.end())
            continue;
        if (const auto it = rank->second.find(k.correlation); it != rank->second.end())
            k.category = it->second;
    }
}

} // namespace

void categoriseKernels(TraceData& trace, const CategoryRules& rules) {
    categoriseByName(trace, rules);
    if (!rules.rangeRules().empty())
        categoriseByRange(trace, rules);
}

} // namespace cnp
