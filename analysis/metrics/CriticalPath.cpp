#include "metrics/CriticalPath.h"

#include <algorithm>
#include <limits>

namespace cnp {

namespace {

constexpr Ns kUnreached = std::numeric_limits<Ns>::min() / 4;
// Distances saturate here: re-weighted hostile windows (times up to +-3e18 ns, factors up to 1000) cannot
// overflow.
constexpr Ns kSaturated = std::numeric_limits<Ns>::max();

// Longest distances in topological order; `via[v]` the in-edge that achieved dist[v] (-1 none). Among equal
// distances the binding edge wins, so the measured graph's path follows the dependencies satisfied last.
void longest(const DependencyGraph& g, const std::vector<Ns>& w, std::vector<Ns>& dist,
             std::vector<std::int32_t>* via) {
    const auto& nodes = g.nodes();
    dist.assign(nodes.size(), kUnreached);
    if (via)
        via->assign(nodes.size(), -1);
    const auto& off = g.inEdgeOffsets();
    const auto& in = g.inEdges();
    for (std::int32_t v : g.topologicalOrder()) {
        const auto vi = static_cast<std::size_t>(v);
        if (v == DependencyGraph::sourceNode() || off[vi] == off[vi + 1]) {
            dist[vi] = v == DependencyGraph::sourceNode() ? 0 : kUnreached;
            continue;
        }
        Ns best = kUnreached;
        std::int32_t bestEdge = -1;
        for (std::int32_t k = off[vi]; k < off[vi + 1]; ++k) {
            const auto e = static_cast<std::size_t>(in[static_cast<std::size_t>(k)]);
            if (w[e] < 0)
                continue;
            const Ns from = dist[static_cast<std::size_t>(g.edges()[e].from)];
            if (from == kUnreached)
                continue;
            Ns d = 0;
            if (__builtin_add_overflow(from, w[e], &d))
                d = kSaturated;
            if (d > best || (d == best && bestEdge >= 0 && g.edges()[e].binding &&
                             !g.edges()[static_cast<std::size_t>(bestEdge)].binding)) {
                best = d;
                bestEdge = static_cast<std::int32_t>(e);
            }
        }
        dist[vi] = best;
        if (via)
            (*via)[vi] = bestEdge;
    }
}

std::vector<Ns> graphWeights(const DependencyGraph& g) {
    std::vector<Ns> w;
    w.reserve(g.edges().size());
    for (const auto& e : g.edges())
        w.push_back(e.weight);
    return w;
}

// The farthest node; ties: the later measured time, then the higher index.
std::size_t farthest(const DependencyGraph& g, const std::vector<Ns>& dist) {
    std::size_t end = 0;
    for (std::size_t v = 1; v < dist.size(); ++v) {
        if (dist[v] == kUnreached)
            continue;
        if (dist[v] > dist[end] || (dist[v] == dist[end] && g.nodes()[v].ts >= g.nodes()[end].ts))
            end = v;
    }
    return end;
}

} // namespace

CriticalPathResult CriticalPath::of(const DependencyGraph& graph) {
    return of(graph, graphWeights(graph));
}

CriticalPathResult CriticalPath::of(const DependencyGraph& graph, const std::vector<Ns>& weights) {
    std::vector<Ns> dist;
    std::vector<std::int32_t> via;
    longest(graph, weights, dist, &via);
    CriticalPathResult r;
    const std::size_t end = farthest(graph, dist);
    r.length = dist[end];
    r.start = graph.nodes()[0].ts;
    r.end = graph.nodes()[end].ts;
    std::size_t v = end;
    r.nodesOnPath = 1;
    while (via[v] >= 0) {
        const GraphEdge& e = graph.edges()[static_cast<std::size_t>(via[v])];
        const Ns w = weights[static_cast<std::size_t>(via[v])];
        ++r.edgesOnPath;
        ++r.nodesOnPath;
        r.byKind[static_cast<std::size_t>(e.kind)] += w;
        if (w > 0) {
            PathSegment s;
            s.end = graph.nodes()[static_cast<std::size_t>(e.to)].ts;
            s.start = s.end - w;
            s.weight = w;
            s.kind = e.kind;
            s.cpuEvent = e.cpuEvent;
            s.gpuEvent = e.gpuEvent;
            s.onGpu = graph.nodes()[static_cast<std::size_t>(e.to)].gpu;
            r.segments.push_back(s);
        }
        v = static_cast<std::size_t>(e.from);
    }
    std::reverse(r.segments.begin(), r.segments.end());
    return r;
}

Ns CriticalPath::lengthOf(const DependencyGraph& graph, const std::vector<Ns>& weights) {
    std::vector<Ns> dist;
    longest(graph, weights, dist, nullptr);
    return dist[farthest(graph, dist)];
}

void CriticalPath::numberCollectives(CriticalPathResult& path, const std::vector<std::int32_t>& ordinalOf,
                                     const StepEvents& events) {
    for (PathSegment& s : path.segments) {
        if (s.kind != PathKind::Communication || s.gpuEvent < 0)
            continue;
        const auto g = static_cast<std::size_t>(s.gpuEvent);
        s.collective = ordinalOf[g];
        s.arrival = events.gpu[g].start;
    }
}

void CriticalPath::splitCollectiveWaits(CriticalPathResult& path, const std::vector<Ns>& lastArrival,
                                        const std::vector<std::int32_t>& lastRank) {
    std::vector<PathSegment> out;
    out.reserve(path.segments.size());
    for (const PathSegment& s : path.segments) {
        const std::int32_t k = s.kind == PathKind::Communication ? s.collective : -1;
        if (k < 0 || static_cast<std::size_t>(k) >= lastArrival.size()) {
            out.push_back(s);
            continue;
        }
        // The wait lies at the start of the kernel's time on the path.
        const Ns wait = std::clamp<Ns>(lastArrival[static_cast<std::size_t>(k)] - s.arrival, 0, s.weight);
        if (wait == 0) {
            out.push_back(s);
            continue;
        }
        PathSegment w = s;
        w.kind = PathKind::CollectiveWait;
        w.weight = wait;
        w.end = s.start + wait;
        w.waitedOnRank = lastRank[static_cast<std::size_t>(k)];
        out.push_back(w);
        path.byKind[static_cast<std::size_t>(PathKind::CollectiveWait)] += wait;
        path.byKind[static_cast<std::size_t>(PathKind::Communication)] -= wait;
        if (wait < s.weight) {
            PathSegment rest = s;
            rest.start = w.end;
            rest.weight = s.weight - wait;
            out.push_back(rest);
        }
    }
    path.segments = std::move(out);
}

} // namespace cnp
