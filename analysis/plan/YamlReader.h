#pragma once
// Typed reads from a yaml-cpp tree that turn every mismatch into a Finding instead of an exception:
// mappings checked against their known keys (unknown and duplicate keys reported), scalars converted
// strictly (an integer is digits, a bool is true/false/yes/no/on/off). Every node visited spends one unit
// of a budget; once it is spent, reads return nothing and one "too-large" finding is recorded.
#include "plan/Plan.h"
#include "plan/PlanFinding.h"

#include <yaml-cpp/yaml.h>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cnp::plan {

// 1-based position of a node; {0, 0} for a node without a mark (a default or implied null).
SourcePos positionOf(const YAML::Node& node);

class YamlReader {
public:
    YamlReader(std::string file, std::vector<Finding>& findings, int nodeBudget);

    using KeyHandler = std::function<void(const YAML::Node& value, SourcePos keyPos)>;
    using KeyTable = std::vector<std::pair<std::string, KeyHandler>>;
    // Calls the handler of every key of `map` (in file order); `what` names the mapping in messages
    // ("workload", "configuration 'Base'"). Returns false (after a type finding) when it is no mapping.
    bool readMap(const YAML::Node& map, const std::string& what, const KeyTable& keys);

    std::optional<std::string> string(const YAML::Node& n, const std::string& what);
    std::optional<long long> integer(const YAML::Node& n, const std::string& what, long long lo,
                                     long long hi);
    std::optional<double> number(const YAML::Node& n, const std::string& what, double lo);
    std::optional<bool> boolean(const YAML::Node& n, const std::string& what);
    // A sequence of scalars, each with its position; nullopt after a finding.
    std::optional<std::vector<std::pair<std::string, SourcePos>>> stringList(const YAML::Node& n,
                                                                             const std::string& what);
    // A mapping of scalar keys to scalar values (env, nodeSelector), in file order; null values read "".
    std::optional<std::vector<std::tuple<std::string, std::string, SourcePos>>>
    stringMap(const YAML::Node& n, const std::string& what);

    // Spends one node of the budget; false once it is exhausted.
    bool spend(const YAML::Node& n);
    void report(SourcePos pos, Severity severity, std::string rule, std::string message);
    void typeError(const YAML::Node& n, const std::string& what, const std::string& expected);
    const std::string& file() const { return file_; }

private:
    std::string file_;
    std::vector<Finding>& findings_;
    int budget_;
    bool exhausted_ = false;
};

} // namespace cnp::plan
