#include "metrics/SequenceAlignment.h"

#include <algorithm>
#include <optional>

namespace cnp {

namespace {

using Match = std::pair<std::int32_t, std::int32_t>;

// An index computed in 32 bits (the ranges are int32) as a container position; `i` >= 0.
std::size_t idx(std::int32_t i) {
    return static_cast<std::size_t>(i);
}

struct Range {
    std::int32_t a0 = 0, a1 = 0, b0 = 0, b1 = 0; // [a0, a1) of a, [b0, b1) of b
};

// The symbols of `a` that also occur in `b`, with their indices in `a`.
void keepShared(const std::vector<std::int32_t>& a, const std::vector<char>& inOther,
                std::vector<std::int32_t>& symbols, std::vector<std::int32_t>& index) {
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto s = static_cast<std::size_t>(a[i]);
        if (s < inOther.size() && inOther[s] != 0) {
            symbols.push_back(a[i]);
            index.push_back(static_cast<std::int32_t>(i));
        }
    }
}

std::vector<char> presence(const std::vector<std::int32_t>& v) {
    std::int32_t top = -1;
    for (auto s : v)
        top = std::max(top, s);
    std::vector<char> in(idx(top + 1), 0);
    for (auto s : v)
        in[static_cast<std::size_t>(s)] = 1;
    return in;
}

// Myers' middle snake of a range that starts and ends with a mismatch (diff-match-patch's bisect): the
// furthest-reaching D-paths are followed forward from the range's start and backward from its end until
// they overlap; the forward path's end there lies on a shortest edit script. Returns the split point
// (absolute indices), or nullopt when the budget runs out or no split makes progress.
class MiddleSnake {
public:
    MiddleSnake(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b, std::int64_t& work)
        : a_(a), b_(b), work_(work) {}

    std::optional<std::pair<std::int32_t, std::int32_t>> find(const Range& r) {
        n_ = r.a1 - r.a0;
        m_ = r.b1 - r.b0;
        r_ = r;
        const std::int32_t maxD = (n_ + m_ + 1) / 2;
        off_ = maxD;
        v1_.assign(idx(2 * maxD + 2), -1);
        v2_.assign(idx(2 * maxD + 2), -1);
        v1_[idx(off_ + 1)] = 0;
        v2_[idx(off_ + 1)] = 0;
        delta_ = n_ - m_;
        front_ = (delta_ % 2) != 0;
        k1start_ = k1end_ = k2start_ = k2end_ = 0;
        for (std::int32_t d = 0; d < maxD; ++d) {
            if (work_ <= 0)
                return std::nullopt;
            if (auto s = forward(d))
                return s;
            if (auto s = backward(d))
                return s;
        }
        return std::nullopt;
    }

private:
    std::int32_t& v1(std::int32_t k) { return v1_[idx(off_ + k)]; }
    std::int32_t& v2(std::int32_t k) { return v2_[idx(off_ + k)]; }
    bool sameForward(std::int32_t x, std::int32_t y) const {
        return a_[idx(r_.a0 + x)] == b_[idx(r_.b0 + y)];
    }
    bool sameBackward(std::int32_t x, std::int32_t y) const {
        return a_[idx(r_.a1 - x - 1)] == b_[idx(r_.b1 - y - 1)];
    }
    bool inside(std::int32_t k) const {
        return off_ + k >= 0 && off_ + k < static_cast<std::int32_t>(v1_.size());
    }

    std::optional<std::pair<std::int32_t, std::int32_t>> split(std::int32_t x, std::int32_t y) const {
        if ((x <= 0 && y <= 0) || (x >= n_ && y >= m_))
            return std::nullopt;
        return std::make_pair(r_.a0 + x, r_.b0 + y);
    }

    std::optional<std::pair<std::int32_t, std::int32_t>> forward(std::int32_t d) {
        for (std::int32_t k = -d + k1start_; k <= d - k1end_; k += 2) {
            --work_;
            std::int32_t x = (k == -d || (k != d && v1(k - 1) < v1(k + 1))) ? v1(k + 1) : v1(k - 1) + 1;
            std::int32_t y = x - k;
            while (x < n_ && y < m_ && sameForward(x, y))
                ++x, ++y, --work_;
            v1(k) = x;
            if (x > n_) {
                k1end_ += 2;
            } else if (y > m_) {
                k1start_ += 2;
            } else if (front_) {
                const std::int32_t k2 = delta_ - k;
                if (inside(k2) && v2(k2) != -1 && x >= n_ - v2(k2))
                    return split(x, y);
            }
        }
        return std::nullopt;
    }

    std::optional<std::pair<std::int32_t, std::int32_t>> backward(std::int32_t d) {
        for (std::int32_t k = -d + k2start_; k <= d - k2end_; k += 2) {
            --work_;
            std::int32_t x = (k == -d || (k != d && v2(k - 1) < v2(k + 1))) ? v2(k + 1) : v2(k - 1) + 1;
            std::int32_t y = x - k;
            while (x < n_ && y < m_ && sameBackward(x, y))
                ++x, ++y, --work_;
            v2(k) = x;
            if (x > n_) {
                k2end_ += 2;
            } else if (y > m_) {
                k2start_ += 2;
            } else if (!front_) {
                const std::int32_t k1 = delta_ - k;
                if (inside(k1) && v1(k1) != -1) {
                    const std::int32_t x1 = v1(k1);
                    if (x1 >= n_ - x)
                        return split(x1, x1 - k1);
                }
            }
        }
        return std::nullopt;
    }

    const std::vector<std::int32_t>& a_;
    const std::vector<std::int32_t>& b_;
    std::int64_t& work_;
    Range r_;
    std::int32_t n_ = 0, m_ = 0, off_ = 0, delta_ = 0;
    bool front_ = false;
    std::int32_t k1start_ = 0, k1end_ = 0, k2start_ = 0, k2end_ = 0;
    std::vector<std::int32_t> v1_, v2_;
};

// Matches the common prefix and suffix of `r` and narrows it to what lies between.
void trim(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b, Range& r,
          std::vector<Match>& out) {
    while (r.a0 < r.a1 && r.b0 < r.b1 &&
           a[static_cast<std::size_t>(r.a0)] == b[static_cast<std::size_t>(r.b0)])
        out.emplace_back(r.a0++, r.b0++);
    while (r.a0 < r.a1 && r.b0 < r.b1 && a[idx(r.a1 - 1)] == b[idx(r.b1 - 1)])
        out.emplace_back(--r.a1, --r.b1);
}

} // namespace

SequenceAlignment::Result SequenceAlignment::align(const std::vector<std::int32_t>& a,
                                                   const std::vector<std::int32_t>& b, std::int64_t maxWork) {
    std::vector<std::int32_t> fa, fb, ia, ib;
    keepShared(a, presence(b), fa, ia);
    keepShared(b, presence(a), fb, ib);

    Result result;
    std::vector<Match> found; // in filtered indices, in no particular order
    std::int64_t work = maxWork;
    MiddleSnake snake(fa, fb, work);
    std::vector<Range> todo{
        {0, static_cast<std::int32_t>(fa.size()), 0, static_cast<std::int32_t>(fb.size())}};
    while (!todo.empty()) {
        Range r = todo.back();
        todo.pop_back();
        trim(fa, fb, r, found);
        if (r.a0 == r.a1 || r.b0 == r.b1)
            continue;
        const auto at = snake.find(r);
        if (!at) {
            result.truncated = result.truncated || work <= 0;
            continue;
        }
        todo.push_back({at->first, r.a1, at->second, r.b1});
        todo.push_back({r.a0, at->first, r.b0, at->second});
    }
    std::sort(found.begin(), found.end());
    result.matches.reserve(found.size());
    for (const auto& [x, y] : found)
        result.matches.emplace_back(ia[static_cast<std::size_t>(x)], ib[static_cast<std::size_t>(y)]);
    return result;
}

} // namespace cnp
