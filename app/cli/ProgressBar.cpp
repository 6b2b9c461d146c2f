#include "ProgressBar.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace cnp::cli {

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)), enabled_(isatty(STDERR_FILENO) != 0) {}

ProgressBar::~ProgressBar() {
    finish();
}

void ProgressBar::update(double fraction) {
    if (!enabled_ || finished_)
        return;
    const int percent = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100.0);
    const auto now = std::chrono::steady_clock::now();
    if (percent == lastPercent_ || (now - lastDraw_ < std::chrono::milliseconds(100) && percent < 100))
        return;
    lastPercent_ = percent;
    lastDraw_ = now;
    constexpr int width = 30;
    const int filled = percent * width / 100;
    std::fprintf(stderr, "\r%s [%.*s%*s] %3d%%", label_.c_str(), filled, "##############################",
                 width - filled, "", percent);
    std::fflush(stderr);
}

void ProgressBar::finish() {
    if (enabled_ && !finished_ && lastPercent_ >= 0)
        std::fputs("\r\033[K", stderr);
    finished_ = true;
}

} // namespace cnp::cli
