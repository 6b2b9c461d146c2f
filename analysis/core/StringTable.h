#pragma once
// Interned strings for one trace. Id 0 is always the empty string; ids are dense and
// stable for the lifetime of the table. intern() is O(length) amortised.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cnp {

using StringId = std::uint32_t;

class StringTable {
public:
    StringTable();
    StringId intern(std::string_view s);
    const std::string& at(StringId id) const { return strings_[id]; }
    std::size_t size() const { return strings_.size(); }
    const std::vector<std::string>& all() const { return strings_; }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> strings_;
    std::unordered_map<std::string, StringId, Hash, std::equal_to<>> index_;
};

} // namespace cnp
