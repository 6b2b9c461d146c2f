#pragma once

#include <atomic>
#include <functional>

namespace cnp {

// progress(fraction in [0,1]); cancel checked between batches (throws Cancelled, core/InputError.h).
struct ProgressSink {
    std::function<void(double)> progress;
    const std::atomic<bool>* cancel = nullptr;
    void report(double f) const {
        if (progress)
            progress(f);
    }
    void checkCancel() const;
};

} // namespace cnp
