#pragma once
// The kinds of event a run holds, named once: the timeline's lanes, the details pane, the stored event
// tables (store/Schema.h maps a kind to its table) and the readers all speak of these.
#include <array>
#include <cstdint>

namespace cnp {

enum class EventKind : std::uint8_t { Kernel, Memcpy, Memset, ApiCall, CpuRange, GpuAnnotation, Step };

// Every kind, in enum order.
inline constexpr std::array<EventKind, 7> kEventKinds{
    EventKind::Kernel,   EventKind::Memcpy,        EventKind::Memset, EventKind::ApiCall,
    EventKind::CpuRange, EventKind::GpuAnnotation, EventKind::Step};
// The GPU activities a launching API call can lead to (a correlation id's far end).
inline constexpr std::array<EventKind, 3> kGpuActivityKinds{EventKind::Kernel, EventKind::Memcpy,
                                                            EventKind::Memset};

// What a person reads: "kernel", "memcpy", "memset", "API call", "CPU range", "GPU annotation", "step".
const char* toString(EventKind k);

} // namespace cnp
