#pragma once
// Timeline bookmarks: a time of a run with an optional label, kept per run as the run attribute
// `timeline.bookmarks` (docs/schema.md, docs/timeline.md). The stored text is one bookmark a line,
// "TIME_NS<TAB>LABEL", sorted by time. A shared workspace is untrusted: parsing never throws, skips a
// malformed line, keeps at most kMaxBookmarks and cuts a label at kMaxBookmarkLabelBytes (on a UTF-8
// character boundary). Pure. O(n log n) in the bookmarks.
#include "core/TraceData.h"

#include <string>
#include <string_view>
#include <vector>

namespace cnp::timeline {

inline constexpr const char* kBookmarksAttribute = "timeline.bookmarks";
inline constexpr std::size_t kMaxBookmarks = 256;
inline constexpr std::size_t kMaxBookmarkLabelBytes = 120;

struct TimelineBookmark {
    Ns time = 0; // absolute ns, the run's clock as stored
    std::string label;
    bool operator==(const TimelineBookmark&) const = default;
};

// `label` as stored: control characters (tab and newline included) become spaces, leading and trailing
// spaces go, and it is cut to kMaxBookmarkLabelBytes without splitting a UTF-8 sequence.
std::string cleanBookmarkLabel(std::string_view label);

// The attribute's text: the bookmarks sorted by time (then label), labels cleaned, at most kMaxBookmarks.
std::string formatBookmarks(std::vector<TimelineBookmark> bookmarks);

// The bookmarks of an attribute's text, sorted by time; malformed lines skipped (never throws).
std::vector<TimelineBookmark> parseBookmarks(std::string_view text);

} // namespace cnp::timeline
