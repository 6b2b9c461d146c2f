#pragma once
// The rows of one event table in (rank, time) order without copying them: a view over the table itself
// when it is in that order already (normaliseTrace sorts every table so), else over a permutation of row
// indices (4 bytes a row). Lets a pass over one rank's rows, or one rank's rows in a time window, run
// without building a sorted copy of the rows. Construction O(n) (the check), O(n log n) when unsorted;
// forEachIn O(log n + rows visited).
#include "core/TraceData.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

namespace cnp {

// TimeOf: Row -> Ns, the time the order sorts by within a rank (a call's start, a flow's CPU time).
template <class Row, class TimeOf> class RankTimeOrder {
public:
    RankTimeOrder(const std::vector<Row>& rows, TimeOf timeOf) : rows_(rows), timeOf_(timeOf) {
        auto less = [&](const Row& a, const Row& b) { return key(a) < key(b); };
        if (std::is_sorted(rows.begin(), rows.end(), less))
            return;
        order_.resize(rows.size());
        std::iota(order_.begin(), order_.end(), std::uint32_t{0});
        std::stable_sort(order_.begin(), order_.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return less(rows[a], rows[b]); });
    }

    // Calls f(row) for every row of `rank` with from <= time <= to, in time order.
    template <class F> void forEachIn(std::int32_t rank, Ns from, Ns to, F&& f) const {
        const std::pair<std::int32_t, Ns> first{rank, from};
        std::size_t lo = 0, hi = rows_.size();
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (key(at(mid)) < first)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (std::size_t i = lo; i < rows_.size(); ++i) {
            const Row& r = at(i);
            if (r.rank != rank || timeOf_(r) > to)
                break;
            f(r);
        }
    }

    // Calls f(row) for every row of `rank`.
    template <class F> void forEachOfRank(std::int32_t rank, F&& f) const {
        forEachIn(rank, std::numeric_limits<Ns>::min(), std::numeric_limits<Ns>::max(), f);
    }

private:
    std::pair<std::int32_t, Ns> key(const Row& r) const { return {r.rank, timeOf_(r)}; }
    const Row& at(std::size_t i) const { return order_.empty() ? rows_[i] : rows_[order_[i]]; }

    const std::vector<Row>& rows_;
    TimeOf timeOf_;
    std::vector<std::uint32_t> order_; // empty: rows_ is in order itself
};

} // namespace cnp
