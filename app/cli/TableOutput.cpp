#include "TableOutput.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cnp::cli {

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
        w[i] = headers_[i].size();
    for (const auto& r : rows_)
        for (std::size_t i = 0; i < r.size(); ++i)
            w[i] = std::max(w[i], r[i].size());
    auto line = [&](const std::vector<std::string>& cells) {
        std::string s = indent;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            const std::string pad(w[i] - cells[i].size(), ' ');
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
    for (auto x : w)
        rule.emplace_back(x, '-');
    line(rule);
    for (const auto& r : rows_)
        line(r);
}

std::string TableOutput::fixed(double v, int decimals) {
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

std::string TableOutput::duration(double ns) {
    const double a = std::fabs(ns);
    if (a < 1e3)
        return fixed(ns, 0) + " ns";
    if (a < 1e6)
        return fixed(ns / 1e3, a < 1e4 ? 2 : 1) + " us";
    if (a < 1e9)
        return fixed(ns / 1e6, a < 1e7 ? 3 : 2) + " ms";
    return fixed(ns / 1e9, 3) + " s";
}

std::string TableOutput::percent(double f) {
    return fixed(100.0 * f, 1) + "%";
}

std::string TableOutput::count(std::int64_t v) {
    return std::to_string(v);
}

} // namespace cnp::cli
