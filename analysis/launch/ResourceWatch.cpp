#include "launch/ResourceWatch.h"

namespace cnp::launch {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

ResourceWatch::ResourceWatch(std::vector<std::string> argv, std::string stderrPath, int reconnectMs)
    : argv_(std::move(argv)), stderrPath_(std::move(stderrPath)), reconnect_(reconnectMs) {}

ResourceWatch::~ResourceWatch() {
    stop();
}

std::vector<std::string> ResourceWatch::poll() {
    if (!process_ && Clock::now() >= nextStart_) {
        process_ = std::make_unique<ProcessGroup>(argv_, EnvList{}, stderrPath_, std::string(),
                                                  ProcessGroup::Stdout::ToPipe);
        stream_ = JsonObjectStream(); // a half-printed event of the last kubectl never completes
        ++starts_;
    }
    std::vector<std::string> events;
    if (!process_)
        return events;
    stream_.feed(process_->readOutput());
    while (auto e = stream_.next())
        events.push_back(std::move(*e));
    // Ended: all of its output read and the process reaped. Start again after the reconnect interval.
    if (process_->outputEnded())
        if (const auto code = process_->poll()) {
            failed_ += *code != 0;
            process_.reset();
            nextStart_ = Clock::now() + reconnect_;
        }
    return events;
}

void ResourceWatch::stop() {
    if (process_)
        process_->stop(2000);
    process_.reset();
}

} // namespace cnp::launch
