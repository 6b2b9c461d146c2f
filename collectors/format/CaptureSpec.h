#pragma once
// CNP_CAPTURE: which part of a run the collector records. Plain C++ in the format library, so `cnp collect`
// validates --capture with the very parser the collector uses.
//   ""  or "all"                  the whole run (default)
//   "time:DELAY[:DURATION]"       seconds after the collector starts; no DURATION (or 0) = to the end
//   "steps:START:COUNT[:PREFIX]"  from the NVTX range named PREFIX<n> with n == START (PREFIX default "step",
//                                 separators ' ', '#', '_' allowed before the number) for COUNT steps
// NVTX markers, devices, contexts and names are always recorded; the window gates kernels, copies, API calls
// and the rest (see Collector).
#include <string>
#include <string_view>

namespace cnp::collector {

struct CaptureSpec {
    enum class Mode { All, Time, Steps };
    Mode mode = Mode::All;
    double delaySeconds = 0, durationSeconds = 0; // Time; duration 0 = until the end
    long startStep = 0, stepCount = 0;            // Steps; count 0 = until the end
    std::string stepPrefix = "step";
    std::string error; // non-empty when the text was refused (then mode = All)

    static CaptureSpec parse(std::string_view text);
    std::string describe() const; // canonical text, written to the .cnpt header
    // True when `name` is `prefix` followed by optional separators and a decimal number (stored in `step`).
    static bool matchStep(std::string_view name, std::string_view prefix, long& step);
};

} // namespace cnp::collector
