#pragma once
// The stated range of every numeric value a row table holds, checked when a row is read back from a
// workspace (a shared workspace is untrusted: issue 33.4). Ingest never stores a value outside it, so a
// row that breaks it was crafted or damaged and is refused (Workspace::loadRun, SummaryRowReader):
//  - times (columns in ns named `*start_ns`, `*end_ns`, `ts_ns`, `cpu_ns`, `gpu_ns`, `next_launch_ns`,
//    `clock_*_ns`, `launch_delay_*`): within +-kMaxTraceTimeNs (core/TimeBounds.h, 2^62 - 1 ns);
//  - durations (every other column in ns), sizes (bytes) and counts (`*_count`, `count`, `launches`):
//    0 to kMaxTraceTimeNs; a real-valued one also finite;
//  - a `X start_ns` column is not after its `X end_ns` column (an event, step, window, gap or sync ends no
//    earlier than it starts).
// So the difference of two stored times, and a duration, never overflows int64; sums of many stay the
// caller's care (they saturate, and a saturated sum stored back is refused here). O(columns) per row.
#include "core/TimeBounds.h"
#include "store/TableSchema.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cnp {

class StoredValueCheck {
public:
    enum class Kind : std::uint8_t { Free, Time, Duration, Amount };
    struct Rule {
        Kind kind = Kind::Free;
        int startOf = -1; // for an `X end_ns` column: the index of its `X start_ns` column
    };

    // The rule of each column of `t`, by column index.
    static std::vector<Rule> rulesOf(const schema::Table& t);

    // "" when every value of `row` is within its stated range; else the first problem, e.g.
    // "end_ns 10 is before start_ns 20" or "kernel_time_ns 9223372036854775807 is outside 0 to
    // 4611686018427387903 ns".
    template <class RowTable, class Row> static std::string problemOf(const RowTable& table, const Row& row) {
        static const std::vector<Rule> rules = rulesOf(table.table());
        std::array<std::optional<std::int64_t>, std::tuple_size_v<decltype(table.columns)>> ints{};
        std::string problem;
        table.visit(row, [&](const schema::Column& c, const auto& v) {
            if (!problem.empty())
                return;
            const auto k = static_cast<std::size_t>(&c - table.columns.data());
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_integral_v<V>) {
                ints[k] = static_cast<std::int64_t>(v);
            } else if constexpr (std::is_same_v<V, std::optional<std::int64_t>>) {
                ints[k] = v;
            } else if constexpr (std::is_floating_point_v<V>) {
                problem = realProblem(c, rules[k].kind, static_cast<double>(v));
                return;
            } else {
                return;
            }
            if (ints[k])
                problem = intProblem(
                    c, rules[k], *ints[k],
                    rules[k].startOf >= 0 ? ints[static_cast<std::size_t>(rules[k].startOf)] : std::nullopt,
                    rules[k].startOf >= 0 ? table.columns[static_cast<std::size_t>(rules[k].startOf)].name
                                          : std::string_view());
        });
        return problem;
    }

private:
    // Whether `v` is within `rule`'s range and not before `start`: O(1), allocates nothing.
    static bool intOk(Rule rule, std::int64_t v, std::optional<std::int64_t> start);
    // "" when intOk, else the problem's text (built only then).
    static std::string intProblem(const schema::Column& c, Rule rule, std::int64_t v,
                                  std::optional<std::int64_t> start, std::string_view startName);
    static std::string realProblem(const schema::Column& c, Kind kind, double v);
};

} // namespace cnp
