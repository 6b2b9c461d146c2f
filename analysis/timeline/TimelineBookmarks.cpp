#include "timeline/TimelineBookmarks.h"

#include <algorithm>
#include <charconv>

namespace cnp::timeline {

namespace {

void sortBookmarks(std::vector<TimelineBookmark>& b) {
    std::stable_sort(b.begin(), b.end(), [](const TimelineBookmark& x, const TimelineBookmark& y) {
        return x.time != y.time ? x.time < y.time : x.label < y.label;
    });
    if (b.size() > kMaxBookmarks)
        b.resize(kMaxBookmarks);
}

} // namespace

std::string cleanBookmarkLabel(std::string_view label) {
    std::string out;
    out.reserve(std::min(label.size(), kMaxBookmarkLabelBytes));
    for (const char ch : label) {
        const auto c = static_cast<unsigned char>(ch);
        out.push_back(c < 0x20 || c == 0x7f ? ' ' : ch);
    }
    if (out.size() > kMaxBookmarkLabelBytes) {
        std::size_t cut = kMaxBookmarkLabelBytes;
        while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) // a continuation byte
            --cut;
        out.resize(cut);
    }
    const auto first = out.find_first_not_of(' ');
    if (first == std::string::npos)
        return {};
    out.erase(0, first);
    out.erase(out.find_last_not_of(' ') + 1);
    return out;
}

std::string formatBookmarks(std::vector<TimelineBookmark> bookmarks) {
    for (auto& b : bookmarks)
        b.label = cleanBookmarkLabel(b.label);
    sortBookmarks(bookmarks);
    std::string out;
    for (const auto& b : bookmarks)
        out += std::to_string(b.time) + '\t' + b.label + '\n';
    return out;
}

std::vector<TimelineBookmark> parseBookmarks(std::string_view text) {
    std::vector<TimelineBookmark> out;
    while (!text.empty() && out.size() < kMaxBookmarks * 4) { // bounded however long the text
        const auto eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        const auto tab = line.find('\t');
        if (tab == std::string_view::npos)
            continue;
        TimelineBookmark b;
        const auto [end, ec] = std::from_chars(line.data(), line.data() + tab, b.time);
        if (ec != std::errc() || end != line.data() + tab)
            continue;
        b.label = cleanBookmarkLabel(line.substr(tab + 1));
        out.push_back(std::move(b));
    }
    sortBookmarks(out);
    return out;
}

} // namespace cnp::timeline
