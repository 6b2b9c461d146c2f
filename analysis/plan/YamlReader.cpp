#include "plan/YamlReader.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace cnp::plan {
namespace {

std::string nodeKind(const YAML::Node& n) {
    switch (n.Type()) {
    case YAML::NodeType::Map:
        return "a mapping";
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Null:
        return "nothing";
    case YAML::NodeType::Scalar:
        return "'" + n.Scalar() + "'";
    default:
        return "an undefined value";
    }
}

// Levenshtein distance, bounded inputs (key names): O(|a|·|b|).
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

std::string unknownKeyMessage(const std::string& key, const std::string& what,
                              const YamlReader::KeyTable& keys) {
    std::string best;
    std::size_t bestDistance = 3; // suggest only close spellings
    std::string known;
    for (const auto& [name, handler] : keys) {
        known += (known.empty() ? "" : ", ") + name;
        const std::size_t d = editDistance(key.substr(0, 64), name);
        if (d < bestDistance)
            bestDistance = d, best = name;
    }
    std::string msg = "unknown key '" + key + "' in " + what;
    if (!best.empty())
        msg += " (did you mean '" + best + "'?)";
    return msg + "; known keys: " + known;
}

} // namespace

SourcePos positionOf(const YAML::Node& node) {
    const YAML::Mark m = node.Mark();
    if (m.line < 0 || m.column < 0)
        return {};
    return {m.line + 1, m.column + 1};
}

YamlReader::YamlReader(std::string file, std::vector<Finding>& findings, int nodeBudget)
    : file_(std::move(file)), findings_(findings), budget_(nodeBudget) {}

bool YamlReader::spend(const YAML::Node& n) {
    if (exhausted_)
        return false;
    if (--budget_ >= 0)
        return true;
    exhausted_ = true;
    report(positionOf(n), Severity::Error, "too-large",
           "the plan has too many values (aliases expanding to a huge tree?); reading stopped here");
    return false;
}

void YamlReader::report(SourcePos pos, Severity severity, std::string rule, std::string message) {
    findings_.push_back({file_, pos.line, pos.column, severity, std::move(rule), std::move(message)});
}

void YamlReader::typeError(const YAML::Node& n, const std::string& what, const std::string& expected) {
    report(positionOf(n), Severity::Error, "type", what + " must be " + expected + ", not " + nodeKind(n));
}

bool YamlReader::readMap(const YAML::Node& map, const std::string& what, const KeyTable& keys) {
    if (!spend(map))
        return false;
    if (!map.IsMap()) {
        typeError(map, what, "a mapping");
        return false;
    }
    std::set<std::string> seen;
    for (auto it = map.begin(); it != map.end(); ++it) {
        if (!spend(it->first))
            return false;
        const SourcePos keyPos = positionOf(it->first);
        if (!it->first.IsScalar()) {
            typeError(it->first, "a key in " + what, "a name");
            continue;
        }
        const std::string key = it->first.Scalar();
        if (!seen.insert(key).second) {
            report(keyPos, Severity::Error, "duplicate-key", "key '" + key + "' appears twice in " + what);
            continue;
        }
        auto h = std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return k.first == key; });
        if (h == keys.end())
            report(keyPos, Severity::Error, "unknown-key", unknownKeyMessage(key, what, keys));
        else
            h->second(it->second, keyPos);
    }
    return true;
}

std::optional<std::string> YamlReader::string(const YAML::Node& n, const std::string& what) {
    if (!spend(n))
        return std::nullopt;
    if (!n.IsScalar()) {
        typeError(n, what, "a text value");
        return std::nullopt;
    }
    return n.Scalar();
}

std::optional<long long> YamlReader::integer(const YAML::Node& n, const std::string& what, long long lo,
                                             long long hi) {
    const std::string expected = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!spend(n))
        return std::nullopt;
    long long v = 0;
    const std::string s = n.IsScalar() ? n.Scalar() : std::string();
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (!n.IsScalar() || s.empty() || ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) {
        typeError(n, what, expected);
        return std::nullopt;
    }
    return v;
}

std::optional<double> YamlReader::number(const YAML::Node& n, const std::string& what, double lo) {
    if (!spend(n))
        return std::nullopt;
    double v = 0;
    const std::string s = n.IsScalar() ? n.Scalar() : std::string();
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (!n.IsScalar() || s.empty() || ec != std::errc() || end != s.data() + s.size() || !(v >= lo) ||
        v > 1e30) {
        typeError(n, what, "a number ≥ " + std::to_string(static_cast<long long>(lo)));
        return std::nullopt;
    }
    return v;
}

std::optional<bool> YamlReader::boolean(const YAML::Node& n, const std::string& what) {
    if (!spend(n))
        return std::nullopt;
    bool v = false;
    if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)) {
        typeError(n, what, "true or false");
        return std::nullopt;
    }
    return v;
}

std::optional<std::vector<std::pair<std::string, SourcePos>>>
YamlReader::stringList(const YAML::Node& n, const std::string& what) {
    if (!spend(n))
        return std::nullopt;
    if (!n.IsSequence()) {
        typeError(n, what, "a list of text values");
        return std::nullopt;
    }
    std::vector<std::pair<std::string, SourcePos>> out;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const YAML::Node item = n[i];
        auto s = string(item, what + " item " + std::to_string(i + 1));
        if (!s)
            return std::nullopt;
        out.emplace_back(std::move(*s), positionOf(item));
    }
    return out;
}

std::optional<std::vector<std::tuple<std::string, std::string, SourcePos>>>
YamlReader::stringMap(const YAML::Node& n, const std::string& what) {
    std::vector<std::tuple<std::string, std::string, SourcePos>> out;
    if (!spend(n))
        return std::nullopt;
    if (!n.IsMap()) {
        typeError(n, what, "a mapping of names to values");
        return std::nullopt;
    }
    std::set<std::string> seen;
    for (auto it = n.begin(); it != n.end(); ++it) {
        auto key = string(it->first, "a name in " + what);
        if (!key || !spend(it->second))
            return std::nullopt;
        const SourcePos keyPos = positionOf(it->first);
        if (!seen.insert(*key).second) {
            report(keyPos, Severity::Error, "duplicate-key", "'" + *key + "' appears twice in " + what);
            continue;
        }
        if (it->second.IsNull()) {
            out.emplace_back(*key, std::string(), keyPos);
            continue;
        }
        auto value = string(it->second, what + "." + *key);
        if (!value)
            return std::nullopt;
        const SourcePos valuePos = positionOf(it->second);
        out.emplace_back(*key, std::move(*value), valuePos.line > 0 ? valuePos : keyPos);
    }
    return out;
}

} // namespace cnp::plan
