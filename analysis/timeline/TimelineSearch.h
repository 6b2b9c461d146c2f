#pragma once
// Search of a TimelineModel by event name: case-insensitive substring, or RE2 regex (core/NameRegex.h:
// searched anywhere in the name, case-insensitive, linear time). Names are matched once per distinct
// name (O(total name length)); then every lane is scanned once (O(events)). Hits are kept both in time
// order (next / previous) and per lane in index order (highlighting a draw span is a binary search).
#include "timeline/TimelineModel.h"

#include <map>
#include <string>
#include <vector>

namespace cnp::timeline {

struct SearchHit {
    int row = 0, lane = 0;
    std::uint32_t index = 0;
    Ns start = 0;
};

class TimelineSearch {
public:
    TimelineSearch() = default;
    // An invalid regex leaves the search empty with error() set to one readable line.
    TimelineSearch(const TimelineModel& model, const std::string& pattern, bool regex);

    const std::string& pattern() const { return pattern_; }
    const std::string& error() const { return error_; }
    std::size_t count() const { return hits_.size(); }
    const SearchHit& hit(std::size_t k) const { return hits_[k]; }
    bool nameMatches(std::uint32_t name) const { return name < nameMatch_.size() && nameMatch_[name]; }
    // True when one of events [first, first + count) of (row, lane) matches. O(log hits in lane).
    bool anyMatchIn(int row, int lane, std::uint32_t first, std::uint32_t count) const;
    // First hit starting after `t` (wrapping to the first), last hit starting before `t` (wrapping to
    // the last); -1 when there are no hits. O(log hits).
    std::int64_t nextAfter(Ns t) const;
    std::int64_t previousBefore(Ns t) const;

private:
    std::string pattern_, error_;
    std::vector<bool> nameMatch_;
    std::vector<SearchHit> hits_; // sorted by (start, row, lane, index)
    std::map<std::pair<int, int>, std::vector<std::uint32_t>> perLane_;
};

} // namespace cnp::timeline
