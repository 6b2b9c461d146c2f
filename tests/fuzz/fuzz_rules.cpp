// Fuzz target: category rule files (CategoryRules::fromJson) applied to kernel names, and the regex
// engine alone. Input: the rule document; its own bytes also serve as a name, and the first line as a
// bare pattern searched in the rest (core/NameRegex.h must stay linear and never crash).
#include "FuzzSupport.h"
#include "core/NameRegex.h"
#include "metrics/CategoryRules.h"

#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    cnp::fuzz::refusesCleanly([&] {
        const auto rules = cnp::CategoryRules::fromJson(text, "fuzz.json");
        for (std::string_view name : {std::string_view("ncclKernel_AllReduce_RING_LL_Sum_float"),
                                      std::string_view("void cutlass::Kernel<sm90_xmma_gemm>"), text})
            rules.classify(name);
        rules.computePriority();
        cnp::CategoryRules::fromJson(rules.toJson(), "round trip");
    });
    const std::size_t newline = text.find('\n');
    const std::string_view pattern = text.substr(0, newline);
    const std::string_view name = newline == std::string_view::npos ? text : text.substr(newline + 1);
    for (auto c : {cnp::NameRegex::Case::Sensitive, cnp::NameRegex::Case::Insensitive}) {
        const cnp::NameRegex re(pattern, c);
        re.search(name);
    }
    return 0;
}
