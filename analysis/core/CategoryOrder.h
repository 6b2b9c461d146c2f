#pragma once
// The activity categories in exclusive-time priority order (docs/metrics.md, "Categories"): the compute
// categories of the rules' priority list, then communication, then memory; "idle" is no activity. A plain
// value shared by the store (which orders stored exclusive rows by it) and the metrics.
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

inline constexpr std::string_view kCommunicationCategory = "communication";
inline constexpr std::string_view kMemoryCategory = "memory";
inline constexpr std::string_view kIdleCategory = "idle";

// Activity classes: the category list is ordered by exclusive-time priority (index 0 = highest).
// Every compute category comes before communication, which comes before memory.
struct CategoryOrder {
    std::vector<std::string> names; // compute categories..., "communication", "memory"
    int communication = 0;          // index of "communication"
    int memory = 0;                 // index of "memory"
    // From a compute-priority list (CategoryRules::computePriority()).
    static CategoryOrder fromComputePriority(const std::vector<std::string>& compute);
    // Index of `name`; unknown names are appended to the compute categories (before communication).
    int indexOf(const std::string& name);
    bool isCompute(int i) const { return i < communication; }
};

} // namespace cnp
