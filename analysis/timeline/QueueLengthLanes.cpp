#include "timeline/QueueLengthLanes.h"

#include "metrics/StreamQueueLength.h"

#include <algorithm>
#include <string>
#include <tuple>

namespace cnp::timeline {

void QueueLengthLanes::addOperation(std::int32_t rank, std::int32_t device, std::int64_t stream,
                                    std::int64_t correlation, Ns start) {
    if (correlation != 0)
        ops_.push_back({rank, device, stream, correlation, start});
}

void QueueLengthLanes::addLaunch(std::int32_t rank, std::int64_t correlation, Ns start) {
    if (correlation != 0)
        launches_.push_back({rank, correlation, start});
}

void QueueLengthLanes::emit(TimelineBuilder& b) {
    // Launches by (rank, correlation), the earliest first: an operation's launch is found by binary search.
    std::sort(launches_.begin(), launches_.end(), [](const Launch& x, const Launch& y) {
        return std::tie(x.rank, x.correlation, x.start) < std::tie(y.rank, y.correlation, y.start);
    });
    std::sort(ops_.begin(), ops_.end(), [](const Op& x, const Op& y) {
        return std::tie(x.rank, x.device, x.stream, x.start) < std::tie(y.rank, y.device, y.stream, y.start);
    });
    for (std::size_t i = 0; i < ops_.size();) {
        const Op& first = ops_[i];
        std::vector<StreamQueueLength::Operation> queued;
        for (; i < ops_.size() && ops_[i].rank == first.rank && ops_[i].device == first.device &&
               ops_[i].stream == first.stream;
             ++i) {
            const Op& o = ops_[i];
            const auto it =
                std::lower_bound(launches_.begin(), launches_.end(), o, [](const Launch& l, const Op& op) {
                    return std::tie(l.rank, l.correlation) < std::tie(op.rank, op.correlation);
                });
            if (it != launches_.end() && it->rank == o.rank && it->correlation == o.correlation)
                queued.push_back({it->start, o.start});
        }
        if (queued.empty())
            continue;
        const std::uint32_t name = b.internName("Queue · stream " + std::to_string(first.stream));
        const StreamQueueLength queue(queued); // named: series() refers into it
        for (const auto& [t, length] : queue.series())
            b.addCounterSample(first.rank, first.device, name, t, static_cast<double>(length));
    }
    ops_ = {};
    launches_ = {};
}

} // namespace cnp::timeline
