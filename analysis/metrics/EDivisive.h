#pragma once
// Change points of a series over releases (docs/metrics.md, "Change points"): E-divisive means
// (Matteson & James 2014, "A nonparametric approach for multiple change point analysis of multivariate
// data", JASA), the method of MongoDB's CI performance analysis and of Hunter / Apache Otava. Each round
// splits the segment whose best split maximises the energy statistic
//   Q(X, Y) = m n / (m + n) x (2/(m n) sum |x - y| - 1/C(m,2) sum |x - x'| - 1/C(n,2) sum |y - y'|)
// (exponent 1), and keeps the split when a permutation test (points shuffled within their segments,
// Q recomputed over every segment) gives p <= alpha; it stops at the first split that is not
// significant. Segments have at least `minSegment` points, so a series shorter than 2 x minSegment has
// no change point. Pure, deterministic (seeded). Cost O(permutations x changePoints x n^2).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cnp {

struct EDivisiveOptions {
    double alpha = 0.05;        // significance of a split
    int permutations = 199;     // p-value resolution 1 / (permutations + 1)
    std::size_t minSegment = 2; // points on each side of a split (>= 2: the within-sums need pairs)
    std::size_t maxChangePoints = 16;
    std::uint64_t seed = 0x0ed1715e5eedULL;
};

struct ChangePoint {
    std::size_t index = 0;                // the first point of the new segment (1 .. n - 1)
    double statistic = 0;                 // Q of the split
    double pValue = 1;                    // permutation p-value
    double meanBefore = 0, meanAfter = 0; // of the adjacent segments when the point was found
};

class EDivisive {
public:
    explicit EDivisive(EDivisiveOptions options = {});
    // Change points of `series` in increasing index order. Non-finite values are not allowed (the caller
    // drops releases without the metric). Empty for fewer than 2 x minSegment points.
    std::vector<ChangePoint> detect(const std::vector<double>& series) const;

    struct Split {
        std::size_t at = 0; // first index of the right part; 0 when the segment cannot be split
        double q = 0;
    };
    // The best split of series[begin, end) with at least minSegment points a side. O((end - begin)^2).
    static Split bestSplit(const std::vector<double>& series, std::size_t begin, std::size_t end,
                           std::size_t minSegment);

private:
    EDivisiveOptions options_;
};

} // namespace cnp
