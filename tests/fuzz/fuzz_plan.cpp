// Fuzz target: plan YAML. The plan parser (analysis/plan/PlanParser, cnp::plan) is not on main yet, so
// this harness loads the text with yaml-cpp, as the parser will, and walks every node through
// loadPlanText(): retarget that one function to the parser's entry point when it lands. yaml-cpp
// refuses bad YAML with YAML::Exception (the parser turns it into InputError).
#include "FuzzSupport.h"

#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace {

// Visits every node, converting scalars as the plan model reads them. Recursion depth = nesting depth,
// which yaml-cpp's parser bounds (YAML::DeepRecursion).
void walk(const YAML::Node& n) {
    switch (n.Type()) {
    case YAML::NodeType::Scalar:
        (void)n.as<std::string>();
        try {
            (void)n.as<double>();
        } catch (const YAML::BadConversion&) {
        }
        return;
    case YAML::NodeType::Sequence:
        for (const auto& child : n)
            walk(child);
        return;
    case YAML::NodeType::Map:
        for (const auto& kv : n) {
            walk(kv.first);
            walk(kv.second);
        }
        return;
    default:
        return;
    }
}

// A plan is one YAML document: YAML::Load. (YAML::LoadAll of yaml-cpp 0.7.0 never returns on input as
// small as ",": it keeps yielding empty documents; found by this harness, kept in
// tests/data/fuzz-regressions/plan/.)
void loadPlanText(std::string_view text) {
    walk(YAML::Load(std::string(text)));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        loadPlanText(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const YAML::Exception&) {
    }
    return 0;
}
