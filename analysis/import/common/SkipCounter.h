#pragma once
// The one place importers refuse single events and count them in TraceData::info.skipped (the first
// refusal keeps its offset and reason, later ones only count). The span rule: an event whose end lies
// before its start is refused as "<subject> ends before it starts", one whose time lies outside the sane
// range as "<subject> time out of range" (TraceData's invariant end >= start). The subject names the event
// the way its format does: "kernel" (.cnpt), "CUPTI_ACTIVITY_KIND_KERNEL row 5:" (nsys); the Kineto
// importer refuses a negative dur the same way before it has a span. O(1) per event, no allocation
// unless an event is refused.
#include "core/TraceData.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cnp {

class SkipCounter {
public:
    enum class SpanFault : std::uint8_t { None, EndsBeforeStart, OutOfRange };

    explicit SkipCounter(SkipReport& report) : report_(report) {}

    // What is wrong with [start, end]: a missing (unmappable) time first, then the order.
    static SpanFault spanFault(std::optional<std::int64_t> start, std::optional<std::int64_t> end) {
        if (!start || !end)
            return SpanFault::OutOfRange;
        return *end < *start ? SpanFault::EndsBeforeStart : SpanFault::None;
    }
    // The reason text of a fault: "<subject> ends before it starts" / "<subject> time out of range".
    static std::string reason(SpanFault fault, std::string_view subject);

    // True (nothing counted) when the span is sound; otherwise counts it and returns false.
    // `subject` is called only on a refusal, so building its text costs nothing for sound events.
    template <typename SubjectFn>
    bool acceptSpan(std::optional<std::int64_t> start, std::optional<std::int64_t> end, std::int64_t offset,
                    SubjectFn&& subject) {
        const SpanFault f = spanFault(start, end);
        if (f == SpanFault::None)
            return true;
        refuse(offset, reason(f, subject()));
        return false;
    }

    // Counts one refused event.
    void refuse(std::int64_t offset, const std::string& why) { report_.add(offset, why); }
    // Counts `n` refused events at once (the first with `offset` and `why`); the count saturates.
    void refuseMany(std::uint64_t n, std::int64_t offset, const std::string& why);

    std::int64_t count() const { return report_.count; }

private:
    SkipReport& report_;
};

} // namespace cnp
