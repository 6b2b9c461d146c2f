#include "core/EventKind.h"

namespace cnp {

const char* toString(EventKind k) {
    switch (k) {
    case EventKind::Kernel:
        return "kernel";
    case EventKind::Memcpy:
        return "memcpy";
    case EventKind::Memset:
        return "memset";
    case EventKind::ApiCall:
        return "API call";
    case EventKind::CpuRange:
        return "CPU range";
    case EventKind::GpuAnnotation:
        return "GPU annotation";
    case EventKind::Step:
        return "step";
    }
    return "event";
}

} // namespace cnp
