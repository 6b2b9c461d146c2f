#include "metrics/RunDiff.h"

#include "metrics/MultiRankSteps.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>

namespace cnp {

namespace {

bool isHex(char c) {
    return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
bool isIdent(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Removes balanced <...> and (...) groups (nested), keeping everything outside them.
std::string stripGroups(std::string_view s) {
    std::string out;
    int angle = 0, paren = 0;
    for (char c : s) {
        if (c == '<' && paren == 0) {
            ++angle;
            continue;
        }
        if (c == '>' && angle > 0 && paren == 0) {
            --angle;
            continue;
        }
        if (c == '(' && angle == 0) {
            ++paren;
            continue;
        }
        if (c == ')' && paren > 0 && angle == 0) {
            --paren;
            continue;
        }
        if (angle == 0 && paren == 0)
            out += c;
    }
    return out;
}

std::int64_t* classCounter(RunDiffResult& res, const std::string& cls) {
    if (cls == "added")
        return &res.added;
    if (cls == "removed")
        return &res.removed;
    if (cls == "unchanged")
        return &res.unchanged;
    return cls == "faster" ? &res.faster : &res.slower;
}

} // namespace

const char* kernelChangeClass(double countA, double countB, double totalA, double totalB,
                              const RunDiffOptions& opt) {
    const double delta = totalB - totalA, ad = std::fabs(delta);
    if (countA <= 0)
        return "added";
    if (countB <= 0)
        return "removed";
    if (ad <= opt.unchangedFraction * totalA &&
        ad <= static_cast<double>(opt.unchangedPerInstanceNs) * std::max(countA, countB))
        return "unchanged";
    return delta < 0 ? "faster" : "slower";
}

std::string normaliseKernelName(std::string_view name) {
    std::string s = stripGroups(name);
    // Split into identifier tokens and separators; drop hash-like tokens, strip numeric suffixes.
    std::string out;
    std::size_t i = 0;
    while (i < s.size()) {
        if (!isIdent(s[i])) {
            out += s[i++];
            continue;
        }
        std::size_t j = i;
        while (j < s.size() && isIdent(s[j]))
            ++j;
        std::string tok = s.substr(i, j - i);
        i = j;
        const bool hex0x = tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X') &&
                           std::all_of(tok.begin() + 2, tok.end(), isHex);
        const bool longHash = tok.size() >= 8 && std::all_of(tok.begin(), tok.end(), isHex) &&
                              std::any_of(tok.begin(), tok.end(),
                                          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
        if (hex0x || longHash)
            continue;
        // Strip trailing "_<digits>" and "_<hash>" groups: triton_poi_fused_add_3 -> triton_poi_fused_add.
        for (;;) {
            auto us = tok.rfind('_');
            if (us == std::string::npos || us + 1 >= tok.size() || us == 0)
                break;
            const auto tail = std::string_view(tok).substr(us + 1);
            const bool digits = std::all_of(
                tail.begin(), tail.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
            const bool hash = tail.size() >= 8 && std::all_of(tail.begin(), tail.end(), isHex) &&
                              std::any_of(tail.begin(), tail.end(),
                                          [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
            if (!digits && !hash)
                break;
            tok.resize(us);
        }
        out += tok;
    }
    // Collapse whitespace runs and trim.
    std::string clean;
    for (char c : out) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!clean.empty() && clean.back() != ' ')
                clean += ' ';
        } else {
            clean += c;
        }
    }
    while (!clean.empty() && clean.back() == ' ')
        clean.pop_back();
    return clean.empty() ? std::string(name) : clean;
}

RunDiffResult diffRuns(const RunSnapshot& a, const RunSnapshot& b, const RunDiffOptions& opt) {
    RunDiffResult res;
    res.runA = a.run.info.name;
    res.runB = b.run.info.name;
    std::map<std::string, KernelDiffRow> rows;
    auto add = [&](const std::vector<KernelStatRow>& stats, bool isA) {
        for (const auto& k : stats) {
            const std::string key = opt.normalize ? normaliseKernelName(k.name) : k.name;
            auto& r = rows[key];
            r.name = key;
            if (r.category.empty())
                r.category = k.category; // A's rows are added first, so A's category wins
            (isA ? r.countA : r.countB) += k.count;
            (isA ? r.totalA : r.totalB) += k.totalNs;
            (isA ? r.namesA : r.namesB) += 1;
            (isA ? res.totalA : res.totalB) += k.totalNs;
        }
    };
    add(a.kernels, true);
    add(b.kernels, false);
    std::map<std::string, CategoryDiffRow> cats;
    for (auto& [key, r] : rows) {
        r.delta = r.totalB - r.totalA;
        r.cls = kernelChangeClass(static_cast<double>(r.countA), static_cast<double>(r.countB),
                                  static_cast<double>(r.totalA), static_cast<double>(r.totalB), opt);
        ++*classCounter(res, r.cls);
        auto& c = cats[r.category];
        c.category = r.category;
        c.totalA += r.totalA;
        c.totalB += r.totalB;
        c.delta += r.delta;
        res.kernels.push_back(r);
    }
    std::sort(res.kernels.begin(), res.kernels.end(), [](const KernelDiffRow& x, const KernelDiffRow& y) {
        const Ns dx = std::llabs(x.delta), dy = std::llabs(y.delta);
        if (dx != dy)
            return dx > dy;
        return x.name < y.name;
    });
    for (auto& [k, c] : cats)
        res.categories.push_back(c);
    std::sort(res.categories.begin(), res.categories.end(),
              [](const CategoryDiffRow& x, const CategoryDiffRow& y) {
                  const Ns dx = std::llabs(x.delta), dy = std::llabs(y.delta);
                  if (dx != dy)
                      return dx > dy;
                  return x.category < y.category;
              });
    for (const auto& m : aggregateSteps(a.steps))
        res.stepTimesA.push_back(m.stepTimeNs);
    for (const auto& m : aggregateSteps(b.steps))
        res.stepTimesB.push_back(m.stepTimeNs);
    res.stepsA = summariseSteps(res.stepTimesA);
    res.stepsB = summariseSteps(res.stepTimesB);
    return res;
}

StepDistribution summariseSteps(std::vector<Ns> v) {
    StepDistribution d;
    d.count = v.size();
    if (v.empty())
        return d;
    std::sort(v.begin(), v.end());
    // Quantile q at position q*(n-1), interpolated between its two neighbours. O(n log n).
    auto quantile = [&](double q) {
        const double pos = q * static_cast<double>(v.size() - 1);
        const auto lo = static_cast<std::size_t>(pos);
        const std::size_t hi = std::min(lo + 1, v.size() - 1);
        const double f = pos - static_cast<double>(lo);
        return static_cast<double>(v[lo]) + f * static_cast<double>(v[hi] - v[lo]);
    };
    d.minNs = static_cast<double>(v.front());
    d.q1Ns = quantile(0.25);
    d.medianNs = quantile(0.5);
    d.q3Ns = quantile(0.75);
    d.maxNs = static_cast<double>(v.back());
    return d;
}

} // namespace cnp
