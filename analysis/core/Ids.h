#pragma once
// Typed identities. A run's id, a rank and a step index are distinct types from the store to the CLI and
// the GUI's signals, so one cannot be passed where another is meant; names appear only at the edges
// (arguments, labels, reports). Each is its integer and nothing more (same size, trivially copyable).
#include <cstddef>
#include <cstdint>
#include <functional>

namespace cnp {

template <class Tag, class Rep> class StrongId {
public:
    using Value = Rep;
    constexpr StrongId() = default;
    constexpr explicit StrongId(Rep v) : v_(v) {}
    constexpr Rep value() const { return v_; }
    // Spelled out rather than a defaulted <=>: Qt 6.4's moc cannot parse <compare>, which that needs.
    friend constexpr bool operator==(StrongId a, StrongId b) { return a.v_ == b.v_; }
    friend constexpr bool operator!=(StrongId a, StrongId b) { return a.v_ != b.v_; }
    friend constexpr bool operator<(StrongId a, StrongId b) { return a.v_ < b.v_; }
    friend constexpr bool operator<=(StrongId a, StrongId b) { return a.v_ <= b.v_; }
    friend constexpr bool operator>(StrongId a, StrongId b) { return a.v_ > b.v_; }
    friend constexpr bool operator>=(StrongId a, StrongId b) { return a.v_ >= b.v_; }

private:
    Rep v_{};
};

// The `runs.id` of a stored run (> 0 for a stored run; RunId() = 0 names none).
using RunId = StrongId<struct RunIdTag, std::int64_t>;
// A process's rank in its job (the traces' rank, >= 0).
using RankId = StrongId<struct RankIdTag, std::int32_t>;
// A step's index within its run, as the trace numbers it (the NVTX range's number, ProfilerStep#N).
using StepIndex = StrongId<struct StepIndexTag, std::int32_t>;

} // namespace cnp

template <class Tag, class Rep> struct std::hash<cnp::StrongId<Tag, Rep>> {
    std::size_t operator()(cnp::StrongId<Tag, Rep> id) const noexcept { return std::hash<Rep>{}(id.value()); }
};
