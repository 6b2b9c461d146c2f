#include "timeline/TimelineSearch.h"

#include "core/NameRegex.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace cnp::timeline {

namespace {
std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}
} // namespace

TimelineSearch::TimelineSearch(const TimelineModel& m, const std::string& pattern, bool regex)
    : pattern_(pattern) {
    if (pattern.empty())
        return;
    nameMatch_.assign(m.names.size(), false);
    if (regex) {
        const NameRegex re(pattern, NameRegex::Case::Insensitive);
        if (!re.valid()) {
            error_ = "invalid regular expression '" + pattern + "': " + re.error();
            nameMatch_.clear();
            return;
        }
        for (std::size_t k = 1; k < m.names.size(); ++k)
            nameMatch_[k] = re.search(m.names[k]);
    } else {
        const std::string needle = lower(pattern);
        for (std::size_t k = 1; k < m.names.size(); ++k)
            nameMatch_[k] = lower(m.names[k]).find(needle) != std::string::npos;
    }
    if (std::none_of(nameMatch_.begin(), nameMatch_.end(), [](bool b) { return b; }))
        return;
    for (int r = 0; r < static_cast<int>(m.rows.size()); ++r)
        for (int l = 0; l < static_cast<int>(m.rows[r].lanes.size()); ++l) {
            const EventTrack& tr = m.rows[r].lanes[l];
            std::vector<std::uint32_t> idx;
            for (std::size_t i = 0; i < tr.size(); ++i)
                if (nameMatch_[tr.name(i)]) {
                    idx.push_back(static_cast<std::uint32_t>(i));
                    hits_.push_back({r, l, static_cast<std::uint32_t>(i), tr.start(i)});
                }
            if (!idx.empty())
                perLane_.emplace(std::make_pair(r, l), std::move(idx));
        }
    std::sort(hits_.begin(), hits_.end(), [](const SearchHit& a, const SearchHit& b) {
        return std::tie(a.start, a.row, a.lane, a.index) < std::tie(b.start, b.row, b.lane, b.index);
    });
}

bool TimelineSearch::anyMatchIn(int row, int lane, std::uint32_t first, std::uint32_t count) const {
    const auto it = perLane_.find({row, lane});
    if (it == perLane_.end())
        return false;
    const auto pos = std::lower_bound(it->second.begin(), it->second.end(), first);
    return pos != it->second.end() && *pos < first + count;
}

std::int64_t TimelineSearch::nextAfter(Ns t) const {
    if (hits_.empty())
        return -1;
    const auto it =
        std::upper_bound(hits_.begin(), hits_.end(), t, [](Ns v, const SearchHit& h) { return v < h.start; });
    return it == hits_.end() ? 0 : it - hits_.begin();
}

std::int64_t TimelineSearch::previousBefore(Ns t) const {
    if (hits_.empty())
        return -1;
    const auto it =
        std::lower_bound(hits_.begin(), hits_.end(), t, [](const SearchHit& h, Ns v) { return h.start < v; });
    return it == hits_.begin() ? static_cast<std::int64_t>(hits_.size()) - 1 : (it - hits_.begin()) - 1;
}

} // namespace cnp::timeline
