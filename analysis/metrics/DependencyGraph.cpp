#include "metrics/DependencyGraph.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace cnp {

namespace {

bool contains(std::string_view s, std::string_view p) {
    return s.find(p) != std::string_view::npos;
}

// How far back among activities ending before a time a search for a matching one looks: bounds the
// inferred waits and sync resolution to O(log V + this) each.
constexpr std::size_t kBackwardScan = 256;
// A GPU activity that starts this much later than both its launch call's start and its stream
// predecessor's end waited for something else: another stream's activity (docs/metrics.md).
constexpr Ns kUnexplainedStartNs = 50'000;

PathKind kindOfGpu(const StepGpuEvent& g) {
    if (g.kind != EventKind::Kernel || g.category == "memory")
        return PathKind::Memory;
    return g.category == "communication" ? PathKind::Communication : PathKind::Compute;
}

} // namespace

const char* toString(PathKind kind) {
    switch (kind) {
    case PathKind::Cpu:
        return "cpu";
    case PathKind::Compute:
        return "compute";
    case PathKind::Communication:
        return "communication";
    case PathKind::Memory:
        return "memory";
    case PathKind::Launch:
        return "launch";
    case PathKind::KernelGap:
        return "kernel_gap";
    case PathKind::Sync:
        return "sync";
    case PathKind::CollectiveWait:
        return "collective_wait";
    }
    return "cpu";
}

bool DependencyGraph::isBlockingSync(std::string_view n) {
    return contains(n, "DeviceSynchronize") || contains(n, "CtxSynchronize") ||
           contains(n, "StreamSynchronize") || contains(n, "EventSynchronize");
}

bool DependencyGraph::isCopyOrFill(std::string_view n) {
    return contains(n, "Memcpy") || contains(n, "Memset");
}

bool DependencyGraph::isStreamWaitEvent(std::string_view n) {
    return contains(n, "StreamWaitEvent");
}

DependencyGraph DependencyGraph::build(const StepEvents& events, const DependencyGraphOptions& options) {
    DependencyGraph g;
    g.events_ = &events;
    g.options_ = options;
    g.cpuCount_ = static_cast<std::int32_t>(events.cpu.size());
    g.addNodes();
    std::vector<std::vector<Candidate>> candidates(g.nodes_.size());
    g.addCpuChains(candidates);
    g.addGpuEdges(candidates);
    g.addSyncEdges(candidates);
    g.resolve(std::move(candidates));
    g.sortTopologically();
    return g;
}

// Nodes, the launch of each GPU activity (by correlation id, same rank) and the main thread.
void DependencyGraph::addNodes() {
    const auto& ev = *events_;
    nodes_.reserve(1 + 2 * (ev.cpu.size() + ev.gpu.size()));
    nodes_.push_back(GraphNode{ev.windowStart, -1, false, true});
    std::unordered_map<std::int64_t, std::int32_t> byCorrelation;
    std::map<std::int64_t, std::int32_t> eventsPerThread;
    for (std::int32_t i = 0; i < cpuCount_; ++i) {
        const auto& c = ev.cpu[static_cast<std::size_t>(i)];
        nodes_.push_back(GraphNode{c.start, i, false, true});
        nodes_.push_back(GraphNode{c.end, i, false, false});
        if (c.isApiCall && c.correlation != 0)
            byCorrelation.emplace(c.correlation, i);
        ++eventsPerThread[c.tid];
    }
    launchOf_.assign(ev.gpu.size(), -1);
    launchedWork_.assign(ev.cpu.size(), 0);
    for (std::size_t k = 0; k < ev.gpu.size(); ++k) {
        const auto& a = ev.gpu[k];
        nodes_.push_back(GraphNode{a.start, static_cast<std::int32_t>(k), true, true});
        nodes_.push_back(GraphNode{a.end, static_cast<std::int32_t>(k), true, false});
        if (a.correlation == 0)
            continue;
        if (auto it = byCorrelation.find(a.correlation); it != byCorrelation.end()) {
            launchOf_[k] = it->second;
            launchedWork_[static_cast<std::size_t>(it->second)] = 1;
            ++gpuInGraph_;
        }
    }
    mainTid_ = ev.mainTid;
    if (eventsPerThread.find(mainTid_) == eventsPerThread.end()) {
        std::int32_t most = -1;
        for (const auto& [tid, n] : eventsPerThread)
            if (n > most)
                most = n, mainTid_ = tid;
    }
}

// One chain per thread through its events' points in nesting order. O(C log C).
void DependencyGraph::addCpuChains(std::vector<std::vector<Candidate>>& into) {
    const auto& ev = *events_;
    std::map<std::int64_t, std::vector<std::int32_t>> byThread;
    for (std::int32_t i = 0; i < cpuCount_; ++i)
        byThread[ev.cpu[static_cast<std::size_t>(i)].tid].push_back(i);
    waitBefore_.assign(ev.cpu.size(), -1);

    std::vector<std::pair<Ns, std::int32_t>> mainPoints; // (ts, node) of the main thread, in chain order
    auto chainOf = [&](std::vector<std::int32_t>& ids, std::vector<std::int32_t>& points) {
        // Outer first among equal starts (the longer one), then API calls inside ranges.
        std::sort(ids.begin(), ids.end(), [&](std::int32_t a, std::int32_t b) {
            const auto& x = ev.cpu[static_cast<std::size_t>(a)];
            const auto& y = ev.cpu[static_cast<std::size_t>(b)];
            return std::make_tuple(x.start, -x.end, x.isApiCall, a) <
                   std::make_tuple(y.start, -y.end, y.isApiCall, b);
        });
        std::vector<std::int32_t> stack;
        std::int32_t pendingWait = -1;
        for (std::int32_t i : ids) {
            const auto& c = ev.cpu[static_cast<std::size_t>(i)];
            while (!stack.empty() && ev.cpu[static_cast<std::size_t>(stack.back())].end <= c.start) {
                points.push_back(endOfCpu(stack.back()));
                stack.pop_back();
            }
            points.push_back(startOfCpu(i));
            stack.push_back(i);
            if (c.isApiCall && isStreamWaitEvent(c.name))
                pendingWait = i;
            else if (launchedWork_[static_cast<std::size_t>(i)]) {
                waitBefore_[static_cast<std::size_t>(i)] = pendingWait;
                pendingWait = -1;
            }
        }
        while (!stack.empty()) {
            points.push_back(endOfCpu(stack.back()));
            stack.pop_back();
        }
    };
    auto linkChain = [&](const std::vector<std::int32_t>& points) {
        std::vector<std::int32_t> open; // events open after each point, innermost last
        for (std::size_t k = 0; k + 1 < points.size(); ++k) {
            const GraphNode& p = nodes_[static_cast<std::size_t>(points[k])];
            if (p.start)
                open.push_back(p.event);
            else if (!open.empty())
                open.pop_back();
            Candidate c;
            c.from = points[k];
            c.cpuEvent = open.empty() ? -1 : open.back();
            const bool launching = c.cpuEvent >= 0 && launchedWork_[static_cast<std::size_t>(c.cpuEvent)] &&
                                   ev.cpu[static_cast<std::size_t>(c.cpuEvent)].isApiCall;
            c.kind = launching ? PathKind::Launch : PathKind::Cpu;
            c.free = !options_.countUntracedCpuTime &&
                     (c.cpuEvent < 0 || ev.cpu[static_cast<std::size_t>(c.cpuEvent)].isAnnotation);
            into[static_cast<std::size_t>(points[k + 1])].push_back(c);
        }
    };

    // The main thread first: the others enter from its points.
    std::vector<std::int32_t> points;
    if (auto it = byThread.find(mainTid_); it != byThread.end()) {
        chainOf(it->second, points);
        for (std::int32_t n : points)
            mainPoints.emplace_back(nodes_[static_cast<std::size_t>(n)].ts, n);
        if (!points.empty())
            into[static_cast<std::size_t>(points.front())].push_back(
                Candidate{0, PathKind::Cpu, -1, -1, 0, !options_.countUntracedCpuTime});
        linkChain(points);
    }
    for (auto& [tid, ids] : byThread) {
        if (tid == mainTid_)
            continue;
        points.clear();
        chainOf(ids, points);
        if (points.empty())
            continue;
        const Ns first = nodes_[static_cast<std::size_t>(points.front())].ts;
        auto at = std::upper_bound(mainPoints.begin(), mainPoints.end(), std::make_pair(first, INT32_MAX));
        const std::int32_t from = at == mainPoints.begin() ? 0 : std::prev(at)->second;
        into[static_cast<std::size_t>(points.front())].push_back(
            Candidate{from, PathKind::Cpu, -1, -1, 0, !options_.countUntracedCpuTime});
        linkChain(points);
    }
}

// Durations, stream order, launch edges and inferred cross-stream event waits. O(G log G).
void DependencyGraph::addGpuEdges(std::vector<std::vector<Candidate>>& into) {
    const auto& ev = *events_;
    std::vector<std::int32_t> ids;
    for (std::size_t k = 0; k < ev.gpu.size(); ++k)
        if (launchOf_[k] >= 0)
            ids.push_back(static_cast<std::int32_t>(k));
    auto gpuAt = [&](std::int32_t k) -> const StepGpuEvent& { return ev.gpu[static_cast<std::size_t>(k)]; };
    std::sort(ids.begin(), ids.end(), [&](std::int32_t a, std::int32_t b) {
        return std::make_tuple(gpuAt(a).device, gpuAt(a).stream, gpuAt(a).start, a) <
               std::make_tuple(gpuAt(b).device, gpuAt(b).stream, gpuAt(b).start, b);
    });
    // Activities of each device by end time, for the inferred waits.
    std::map<std::int32_t, std::vector<std::pair<Ns, std::int32_t>>> endsByDevice;
    for (std::int32_t k : ids)
        endsByDevice[gpuAt(k).device].emplace_back(gpuAt(k).end, k);
    for (auto& [device, ends] : endsByDevice)
        std::sort(ends.begin(), ends.end());

    for (std::size_t n = 0; n < ids.size(); ++n) {
        const std::int32_t k = ids[n];
        const auto& a = gpuAt(k);
        const std::int32_t launch = launchOf_[static_cast<std::size_t>(k)];
        into[static_cast<std::size_t>(endOfGpu(k))].push_back(
            Candidate{startOfGpu(k), kindOfGpu(a), -1, k, 0});
        into[static_cast<std::size_t>(startOfGpu(k))].push_back(
            Candidate{startOfCpu(launch), PathKind::Launch, launch, k, 0});
        if (n > 0 && gpuAt(ids[n - 1]).device == a.device && gpuAt(ids[n - 1]).stream == a.stream)
            into[static_cast<std::size_t>(startOfGpu(k))].push_back(
                Candidate{endOfGpu(ids[n - 1]), PathKind::KernelGap, -1, k, 1});
        const std::int32_t wait = waitBefore_[static_cast<std::size_t>(launch)];
        // Another stream's activity this one waited for: after a cudaStreamWaitEvent, the latest activity
        // launched before that call; otherwise, when neither its launch nor its stream predecessor explains
        // a start more than kUnexplainedStartNs later, the latest launched before it that ended in between.
        Ns explained = ev.cpu[static_cast<std::size_t>(launch)].start;
        if (n > 0 && gpuAt(ids[n - 1]).device == a.device && gpuAt(ids[n - 1]).stream == a.stream)
            explained = std::max(explained, gpuAt(ids[n - 1]).end);
        if (wait < 0 && a.start - explained <= kUnexplainedStartNs)
            continue;
        const Ns launchedBefore = ev.cpu[static_cast<std::size_t>(wait >= 0 ? wait : launch)].start;
        const Ns endedAfter = wait >= 0 ? std::numeric_limits<Ns>::min() : explained;
        const auto& ends = endsByDevice[a.device];
        auto it = std::upper_bound(ends.begin(), ends.end(), std::make_pair(a.start, INT32_MAX));
        for (std::size_t scanned = 0; it != ends.begin() && scanned < kBackwardScan; ++scanned) {
            --it;
            if (it->first <= endedAfter)
                break;
            const auto& src = gpuAt(it->second);
            const std::int32_t srcLaunch = launchOf_[static_cast<std::size_t>(it->second)];
            if (src.stream != a.stream &&
                ev.cpu[static_cast<std::size_t>(srcLaunch)].start < launchedBefore) {
                into[static_cast<std::size_t>(startOfGpu(k))].push_back(
                    Candidate{endOfGpu(it->second), PathKind::Sync, wait, k, 2});
                ++inferredWaits_;
                break;
            }
        }
    }
}

// Blocking calls wait for the latest GPU activity launched before them that ended inside them; a copy or
// fill call for its own activity when that ended inside the call. O(C log G).
void DependencyGraph::addSyncEdges(std::vector<std::vector<Candidate>>& into) {
    const auto& ev = *events_;
    std::vector<std::pair<Ns, std::int32_t>> ends; // (end, activity) of every activity in the graph
    for (std::size_t k = 0; k < ev.gpu.size(); ++k)
        if (launchOf_[k] >= 0)
            ends.emplace_back(ev.gpu[k].end, static_cast<std::int32_t>(k));
    std::sort(ends.begin(), ends.end());
    for (std::size_t k = 0; k < ev.gpu.size(); ++k) {
        const std::int32_t launch = launchOf_[k];
        if (launch < 0)
            continue;
        const auto& call = ev.cpu[static_cast<std::size_t>(launch)];
        if (isCopyOrFill(call.name) && ev.gpu[k].end <= call.end) {
            into[static_cast<std::size_t>(endOfCpu(launch))].push_back(
                Candidate{endOfGpu(static_cast<std::int32_t>(k)), PathKind::Sync, launch,
                          static_cast<std::int32_t>(k), 2});
            ++resolvedSyncs_;
        }
    }
    for (std::int32_t i = 0; i < cpuCount_; ++i) {
        const auto& call = ev.cpu[static_cast<std::size_t>(i)];
        if (!call.isApiCall || !isBlockingSync(call.name))
            continue;
        auto it = std::upper_bound(ends.begin(), ends.end(), std::make_pair(call.end, INT32_MAX));
        for (std::size_t scanned = 0; it != ends.begin() && scanned < kBackwardScan; ++scanned) {
            --it;
            const std::int32_t src = it->second;
            if (ev.cpu[static_cast<std::size_t>(launchOf_[static_cast<std::size_t>(src)])].start <
                call.start) {
                into[static_cast<std::size_t>(endOfCpu(i))].push_back(
                    Candidate{endOfGpu(src), PathKind::Sync, i, src, 2});
                ++resolvedSyncs_;
                break;
            }
        }
    }
}

// Weights: the binding candidate (largest source time; among equal ones the larger preference) carries
// the measured lag, never negative; the others weigh 0.
void DependencyGraph::resolve(std::vector<std::vector<Candidate>>&& candidates) {
    std::size_t total = 0;
    for (const auto& c : candidates)
        total += c.size();
    edges_.reserve(total);
    for (std::size_t to = 0; to < candidates.size(); ++to) {
        const auto& cs = candidates[to];
        std::size_t best = 0;
        for (std::size_t k = 1; k < cs.size(); ++k) {
            const Ns a = nodes_[static_cast<std::size_t>(cs[k].from)].ts;
            const Ns b = nodes_[static_cast<std::size_t>(cs[best].from)].ts;
            if (a > b || (a == b && cs[k].preference > cs[best].preference))
                best = k;
        }
        for (std::size_t k = 0; k < cs.size(); ++k) {
            GraphEdge e;
            e.from = cs[k].from;
            e.to = static_cast<std::int32_t>(to);
            e.kind = cs[k].kind;
            e.cpuEvent = cs[k].cpuEvent;
            e.gpuEvent = cs[k].gpuEvent;
            e.binding = k == best;
            e.weight = e.binding && !cs[k].free
                           ? std::max<Ns>(0, nodes_[to].ts - nodes_[static_cast<std::size_t>(e.from)].ts)
                           : 0;
            edges_.push_back(e);
        }
    }
}

// In-edge lists (CSR) and Kahn's order. O(V + E).
void DependencyGraph::sortTopologically() {
    const std::size_t n = nodes_.size();
    inOffsets_.assign(n + 1, 0);
    for (const auto& e : edges_)
        ++inOffsets_[static_cast<std::size_t>(e.to) + 1];
    for (std::size_t i = 0; i < n; ++i)
        inOffsets_[i + 1] += inOffsets_[i];
    inEdges_.assign(edges_.size(), 0);
    std::vector<std::int32_t> fill(inOffsets_.begin(), inOffsets_.end() - 1);
    std::vector<std::int32_t> outOffsets(n + 1, 0), outEdges(edges_.size());
    for (std::size_t k = 0; k < edges_.size(); ++k) {
        inEdges_[static_cast<std::size_t>(fill[static_cast<std::size_t>(edges_[k].to)]++)] =
            static_cast<std::int32_t>(k);
        ++outOffsets[static_cast<std::size_t>(edges_[k].from) + 1];
    }
    for (std::size_t i = 0; i < n; ++i)
        outOffsets[i + 1] += outOffsets[i];
    std::vector<std::int32_t> outFill(outOffsets.begin(), outOffsets.end() - 1);
    for (std::size_t k = 0; k < edges_.size(); ++k)
        outEdges[static_cast<std::size_t>(outFill[static_cast<std::size_t>(edges_[k].from)]++)] =
            static_cast<std::int32_t>(k);

    std::vector<std::int32_t> indegree(n);
    for (std::size_t i = 0; i < n; ++i)
        indegree[i] = inOffsets_[i + 1] - inOffsets_[i];
    order_.clear();
    order_.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        if (indegree[i] == 0)
            order_.push_back(static_cast<std::int32_t>(i));
    for (std::size_t head = 0; head < order_.size(); ++head) {
        const auto u = static_cast<std::size_t>(order_[head]);
        for (std::int32_t k = outOffsets[u]; k < outOffsets[u + 1]; ++k) {
            const auto v = static_cast<std::size_t>(
                edges_[static_cast<std::size_t>(outEdges[static_cast<std::size_t>(k)])].to);
            if (--indegree[v] == 0)
                order_.push_back(static_cast<std::int32_t>(v));
        }
    }
    if (order_.size() != n)
        throw std::runtime_error("the window's event times form a dependency cycle (" +
                                 std::to_string(n - order_.size()) + " points): inconsistent timestamps");
}

} // namespace cnp
