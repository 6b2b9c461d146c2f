#include "ArgParser.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cnp::cli {

ArgParser::ArgParser(std::set<std::string> valueOptions, std::set<std::string> flags)
    : valueOptions_(std::move(valueOptions)), flags_(std::move(flags)) {
    flags_.insert("--help");
    flags_.insert("-h");
}

void ArgParser::parse(const std::vector<std::string>& args) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            rest_.assign(args.begin() + static_cast<long>(i) + 1, args.end());
            return;
        }
        if (a.size() > 1 && a[0] == '-') {
            std::string name = a, val;
            bool inlineValue = false;
            if (auto eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) {
                name = a.substr(0, eq);
                val = a.substr(eq + 1);
                inlineValue = true;
            }
            if (flags_.count(name)) {
                if (inlineValue)
                    throw UsageFailure{"option " + name + " takes no value"};
                seenFlags_.insert(name == "-h" ? "--help" : name);
            } else if (valueOptions_.count(name)) {
                if (!inlineValue) {
                    if (i + 1 >= args.size())
                        throw UsageFailure{"option " + name + " needs a value"};
                    val = args[++i];
                }
                values_[name] = val;
            } else {
                throw UsageFailure{"unknown option " + name};
            }
            continue;
        }
        positionals_.push_back(a);
    }
}

bool ArgParser::has(const std::string& flag) const {
    return seenFlags_.count(flag) > 0;
}

std::optional<std::string> ArgParser::value(const std::string& opt) const {
    auto it = values_.find(opt);
    if (it == values_.end())
        return std::nullopt;
    return it->second;
}

std::string ArgParser::valueOr(const std::string& opt, const std::string& fallback) const {
    return value(opt).value_or(fallback);
}

std::optional<double> ArgParser::number(const std::string& opt) const {
    auto v = value(opt);
    if (!v)
        return std::nullopt;
    char* end = nullptr;
    const double d = std::strtod(v->c_str(), &end);
    if (v->empty() || *end != '\0')
        throw UsageFailure{"option " + opt + " expects a number, got '" + *v + "'"};
    if (!std::isfinite(d))
        throw UsageFailure{"option " + opt + " expects a finite number, got '" + *v + "'"};
    return d;
}

std::optional<double> ArgParser::number(const std::string& opt, double lo, double hi) const {
    const auto d = number(opt);
    if (d && !(*d >= lo && *d <= hi)) {
        char range[80];
        std::snprintf(range, sizeof range, "%.6g to %.6g", lo, hi);
        throw UsageFailure{"option " + opt + " expects a number from " + range + ", got '" + *value(opt) +
                           "'"};
    }
    return d;
}

std::optional<double> ArgParser::number(const std::string& opt, const PhysicalBound& bound) const {
    const auto d = number(opt);
    if (d && !bound.holds(*d))
        throw UsageFailure{"option " + opt + ": " + outOfBoundText(bound, *d)};
    return d;
}

void ArgParser::requirePositionals(std::size_t min, std::size_t max, const std::string& what) const {
    if (positionals_.size() < min)
        throw UsageFailure{"missing " + what};
    if (positionals_.size() > max)
        throw UsageFailure{"unexpected argument '" + positionals_[max] + "'"};
}

} // namespace cnp::cli
