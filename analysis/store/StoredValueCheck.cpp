#include "store/StoredValueCheck.h"

#include <cmath>
#include <cstdio>

namespace cnp {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool isTimeColumn(std::string_view name) {
    return endsWith(name, "start_ns") || endsWith(name, "end_ns") || name == "ts_ns" || name == "cpu_ns" ||
           name == "gpu_ns" || name == "next_launch_ns" || name.starts_with("clock_") ||
           name.starts_with("launch_delay_");
}

bool isCountColumn(std::string_view name) {
    return endsWith(name, "_count") || name == "count" || name == "launches";
}

std::string shortest(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

const std::string kMax = std::to_string(kMaxTraceTimeNs);

} // namespace

std::vector<StoredValueCheck::Rule> StoredValueCheck::rulesOf(const schema::Table& t) {
    std::vector<Rule> rules(t.columns.size());
    for (std::size_t i = 0; i < t.columns.size(); ++i) {
        const schema::Column& c = t.columns[i];
        Rule& r = rules[i];
        if (c.unit == "ns")
            r.kind = isTimeColumn(c.name) ? Kind::Time : Kind::Duration;
        else if (c.unit == "bytes" || (c.type == schema::SqlType::Integer && isCountColumn(c.name)))
            r.kind = Kind::Amount;
        if (c.unit == "ns" && endsWith(c.name, "end_ns")) {
            const std::string start =
                std::string(c.name.substr(0, c.name.size() - std::string_view("end_ns").size())) + "start_ns";
            for (std::size_t j = 0; j < i; ++j)
                if (t.columns[j].name == start)
                    r.startOf = static_cast<int>(j);
        }
    }
    return rules;
}

bool StoredValueCheck::intOk(Rule rule, std::int64_t v, std::optional<std::int64_t> start) {
    switch (rule.kind) {
    case Kind::Time:
        if (!saneTime(v))
            return false;
        break;
    case Kind::Duration:
    case Kind::Amount:
        if (v < 0 || v > kMaxTraceTimeNs)
            return false;
        break;
    case Kind::Free:
        break;
    }
    return !(start && v < *start);
}

std::string StoredValueCheck::intProblem(const schema::Column& c, Rule rule, std::int64_t v,
                                         std::optional<std::int64_t> start, std::string_view startName) {
    if (intOk(rule, v, start)) // the usual case: no text is built
        return {};
    const std::string value = std::string(c.name) + " " + std::to_string(v);
    switch (rule.kind) {
    case Kind::Time:
        if (!saneTime(v))
            return value + " is outside the range of stored times (-" + kMax + " to " + kMax + " ns)";
        break;
    case Kind::Duration:
    case Kind::Amount:
        if (v < 0 || v > kMaxTraceTimeNs)
            return value + " is outside 0 to " + kMax + (rule.kind == Kind::Duration ? " ns" : "");
        break;
    case Kind::Free:
        break;
    }
    return value + " is before " + std::string(startName) + " " + std::to_string(*start);
}

std::string StoredValueCheck::realProblem(const schema::Column& c, Kind kind, double v) {
    const auto max = static_cast<double>(kMaxTraceTimeNs);
    const bool bad = kind == Kind::Time   ? !(std::fabs(v) <= max)
                     : kind == Kind::Free ? false
                                          : !(v >= 0 && v <= max); // NaN fails both
    if (!bad)
        return {};
    return std::string(c.name) + " " + shortest(v) + " is outside " +
           (kind == Kind::Time ? "-" + kMax : std::string("0")) + " to " + kMax +
           (kind == Kind::Amount ? "" : " ns");
}

} // namespace cnp
