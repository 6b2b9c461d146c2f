#include "core/StringTable.h"

#include "core/NameBound.h"

namespace cnp {

StringTable::StringTable() {
    strings_.emplace_back();
    index_.emplace(std::string(), 0);
}

StringId StringTable::intern(std::string_view s) {
    if (s.size() > kMaxNameBytes)
        return intern(truncatedName(s)); // at most kMaxNameBytes: recurses once
    if (auto it = index_.find(s); it != index_.end())
        return it->second;
    const auto id = static_cast<StringId>(strings_.size());
    strings_.emplace_back(s);
    index_.emplace(strings_.back(), id);
    return id;
}

} // namespace cnp
