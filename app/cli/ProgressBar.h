#pragma once
// A one-line progress bar on stderr, drawn only when stderr is a terminal; redrawn at most every 100 ms.
#include <chrono>
#include <string>

namespace cnp::cli {

class ProgressBar {
public:
    explicit ProgressBar(std::string label);
    ~ProgressBar();
    void update(double fraction);
    void finish();

private:
    std::string label_;
    bool enabled_;
    bool finished_ = false;
    int lastPercent_ = -1;
    std::chrono::steady_clock::time_point lastDraw_{};
};

} // namespace cnp::cli
