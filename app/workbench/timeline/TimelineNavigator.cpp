#include "timeline/TimelineNavigator.h"

#include <algorithm>

namespace cnp::wb {

using namespace cnp::timeline;

TimelineNavigator::TimelineNavigator(QObject* parent) : QObject(parent) {}

void TimelineNavigator::setWidth(int px) {
    axis_.setWidth(px);
}

void TimelineNavigator::setRun(Ns runStart, Ns runEnd) {
    runStart_ = runStart;
    runEnd_ = runEnd;
}

void TimelineNavigator::clearHistory() {
    history_.assign(1, window());
    index_ = 0;
    gestureMoved_ = false;
    emit historyChanged();
}

Ns TimelineNavigator::marginFor(Ns start, Ns end) {
    return std::max<Ns>(1, (end - start) / 20);
}

Ns TimelineNavigator::timeInRun(Ns t) const {
    return runEnd_ > runStart_ ? std::clamp(t, runStart_, runEnd_) : t;
}

void TimelineNavigator::clampToRun() {
    if (runEnd_ <= runStart_)
        return;
    const Ns margin = marginFor(runStart_, runEnd_);
    axis_.clampTo(runStart_ - margin, runEnd_ + margin);
}

void TimelineNavigator::fitAll() {
    if (runEnd_ > runStart_)
        zoomTo(runStart_, runEnd_);
}

void TimelineNavigator::zoomTo(Ns start, Ns end) {
    const Ns margin = marginFor(start, end);
    navigate({start - margin, end + margin});
}

void TimelineNavigator::showWindow(Ns start, Ns end) {
    navigate({start, end});
}

void TimelineNavigator::navigate(Window w) {
    endGesture();
    const Window before = window();
    axis_.setWindow(w.start, w.end);
    if (window() == before)
        return;
    push();
    emit rangeChanged();
}

void TimelineNavigator::zoomAt(double x, double factor) {
    const Window before = window();
    axis_.zoomAt(x, factor);
    clampToRun();
    continued(before);
}

void TimelineNavigator::panPixels(double dx) {
    const Window before = window();
    axis_.panPixels(dx);
    clampToRun();
    continued(before);
}

void TimelineNavigator::centreOn(Ns t) {
    const Window before = window();
    const Ns span = axis_.span();
    axis_.setWindow(t - span / 2, t - span / 2 + span);
    clampToRun();
    continued(before);
}

void TimelineNavigator::continued(Window before) {
    if (window() == before)
        return;
    if (gestureMoved_) {
        history_[index_] = window();
    } else {
        gestureMoved_ = true;
        push();
    }
    emit rangeChanged();
}

void TimelineNavigator::endGesture() {
    gestureMoved_ = false;
}

void TimelineNavigator::follow(Ns start, Ns end) {
    const Window before = window();
    axis_.setWindow(start, end);
    history_[index_] = window();
    if (window() != before)
        emit rangeChanged();
}

void TimelineNavigator::push() {
    history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(index_) + 1, history_.end());
    history_.push_back(window());
    if (history_.size() > kHistoryLimit)
        history_.erase(history_.begin(), history_.end() - kHistoryLimit);
    index_ = history_.size() - 1;
    emit historyChanged();
}

void TimelineNavigator::restore(std::size_t index) {
    endGesture();
    index_ = index;
    const Window before = window();
    axis_.setWindow(history_[index_].start, history_[index_].end);
    emit historyChanged();
    if (window() != before)
        emit rangeChanged();
}

bool TimelineNavigator::back() {
    if (!canGoBack())
        return false;
    restore(index_ - 1);
    return true;
}

bool TimelineNavigator::forward() {
    if (!canGoForward())
        return false;
    restore(index_ + 1);
    return true;
}

} // namespace cnp::wb
