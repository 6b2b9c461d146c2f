#include "core/CategoryOrder.h"

#include <algorithm>

namespace cnp {

CategoryOrder CategoryOrder::fromComputePriority(const std::vector<std::string>& compute) {
    CategoryOrder o;
    for (const auto& c : compute)
        if (c != kCommunicationCategory && c != kMemoryCategory && c != kIdleCategory &&
            std::find(o.names.begin(), o.names.end(), c) == o.names.end())
            o.names.push_back(c);
    o.communication = static_cast<int>(o.names.size());
    o.names.emplace_back(kCommunicationCategory);
    o.memory = static_cast<int>(o.names.size());
    o.names.emplace_back(kMemoryCategory);
    return o;
}

int CategoryOrder::indexOf(const std::string& name) {
    auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end())
        return static_cast<int>(it - names.begin());
    names.insert(names.begin() + communication, name);
    ++communication;
    ++memory;
    return communication - 1;
}

} // namespace cnp
