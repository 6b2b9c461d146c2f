#include "import/common/FlowLinker.h"

namespace cnp {

void FlowLinker::reserve(std::size_t launches, std::size_t activities) {
    launches_.reserve(launches);
    activities_.reserve(activities);
}

void FlowLinker::addLaunch(std::int64_t scope, std::int64_t correlation, const Launch& launch) {
    if (correlation == 0)
        return;
    auto [it, inserted] = launches_.emplace(Key{scope, correlation}, launch);
    if (!inserted && launch.kind == ApiKind::Runtime && it->second.kind == ApiKind::Driver)
        it->second = launch;
}

const FlowLinker::Launch* FlowLinker::launch(std::int64_t scope, std::int64_t correlation) const {
    if (correlation == 0)
        return nullptr;
    auto it = launches_.find(Key{scope, correlation});
    return it == launches_.end() ? nullptr : &it->second;
}

void FlowLinker::addActivity(std::int64_t scope, std::int32_t rank, std::int64_t correlation, Ns start,
                             std::int64_t stream) {
    if (correlation != 0)
        activities_.push_back({scope, correlation, start, stream, rank});
}

std::optional<Flow> FlowLinker::flowFor(std::int64_t scope, std::int32_t rank, std::int64_t correlation,
                                        Ns start, std::int64_t stream) const {
    const Launch* l = launch(scope, correlation);
    if (!l)
        return std::nullopt;
    return Flow{correlation, rank, l->start, l->tid, start, stream};
}

void FlowLinker::linkInto(std::vector<Flow>& flows) const {
    for (const auto& a : activities_)
        if (auto f = flowFor(a.scope, a.rank, a.correlation, a.start, a.stream))
            flows.push_back(*f);
}

} // namespace cnp
