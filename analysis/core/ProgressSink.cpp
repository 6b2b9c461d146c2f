#include "core/ProgressSink.h"

#include "core/InputError.h"

namespace cnp {

void ProgressSink::checkCancel() const {
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

} // namespace cnp
