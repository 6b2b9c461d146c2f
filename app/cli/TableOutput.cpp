#include "TableOutput.h"

#include <algorithm>

namespace cnp::cli {

namespace {
// Display columns of a UTF-8 string: its code points (bytes that are not continuation bytes).
std::size_t columns(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(
        s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
} // namespace

TableOutput::TableOutput(std::vector<std::string> headers) {
    for (auto& h : headers) {
        const bool r = !h.empty() && h[0] == '>';
        right_.push_back(r);
        headers_.push_back(r ? h.substr(1) : h);
    }
}

void TableOutput::addRow(std::vector<std::string> cells) {
    cells.resize(headers_.size());
    rows_.push_back(std::move(cells));
}

void TableOutput::print(std::ostream& out, const std::string& indent) const {
    std::vector<std::size_t> w(headers_.size());
    for (std::size_t i = 0; i < headers_.size(); ++i)
        w[i] = columns(headers_[i]);
    for (const auto& r : rows_)
        for (std::size_t i = 0; i < r.size(); ++i)
            w[i] = std::max(w[i], columns(r[i]));
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s = indent;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string pad(w[i] - columns(cells[i]), ' ');
            s += right_[i] ? pad + cells[i] : cells[i] + (i + 1 < cells.size() ? pad : "");
            if (i + 1 < cells.size())
                s += "  ";
        }
        while (!s.empty() && s.back() == ' ')
            s.pop_back();
        out << s << '\n';
    };
    line(headers_);
    std::vector<std::string> rule;
    rule.reserve(w.size());
    for (auto x : w)
        rule.emplace_back(x, '-');
    line(rule);
    for (const auto& r : rows_)
        line(r);
}

} // namespace cnp::cli
