#pragma once
// Minimal option parser for the cnp subcommands: positionals, --flag, --opt VALUE, --opt=VALUE,
// and "--" ending options (the rest become `rest`). Unknown options raise UsageFailure.
#include "CommandRegistry.h"

#include "core/PhysicalBounds.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cnp::cli {

class ArgParser {
public:
    // valueOptions take a value; flags do not. Names include the leading dashes.
    ArgParser(std::set<std::string> valueOptions, std::set<std::string> flags);
    void parse(const std::vector<std::string>& args);

    const std::vector<std::string>& positionals() const { return positionals_; }
    const std::vector<std::string>& rest() const { return rest_; }
    bool has(const std::string& flag) const;
    std::optional<std::string> value(const std::string& opt) const;
    std::string valueOr(const std::string& opt, const std::string& fallback) const;
    // Parses a numeric option; UsageFailure when it is not a number or not finite (inf, nan).
    std::optional<double> number(const std::string& opt) const;
    // The same, and UsageFailure naming the option and the range unless lo <= value <= hi: every
    // numeric option is bounded at intake, so a later cast to int or a loop over it stays defined.
    std::optional<double> number(const std::string& opt, double lo, double hi) const;
    // A physical quantity: UsageFailure unless bound.holds(value) (core/PhysicalBounds.h).
    std::optional<double> number(const std::string& opt, const PhysicalBound& bound) const;
    void requirePositionals(std::size_t min, std::size_t max, const std::string& what) const;

private:
    std::set<std::string> valueOptions_, flags_;
    std::vector<std::string> positionals_, rest_;
    std::set<std::string> seenFlags_;
    std::map<std::string, std::string> values_;
};

} // namespace cnp::cli
