#include "metrics/StepDetector.h"

#include "core/InputError.h"
#include "core/NameRegex.h"
#include "metrics/RankTimeOrder.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <tuple>

namespace cnp {

namespace {

// Earliest start / latest end of the GPU activities sharing one correlation id, on one rank.
struct CorrelatedGpuWork {
    std::int64_t correlation;
    Ns start, end;
};

struct StartOf {
    template <class Row> Ns operator()(const Row& r) const { return r.start; }
};
struct CpuTsOf {
    Ns operator()(const Flow& f) const { return f.cpuTs; }
};

// The trace's tables in (rank, time) order, as step detection walks them.
struct OrderedTables {
    explicit OrderedTables(const TraceData& t)
        : kernels(t.kernels, {}), memcpys(t.memcpys, {}), memsets(t.memsets, {}), apiCalls(t.apiCalls, {}),
          flows(t.flows, {}) {}
    RankTimeOrder<KernelEvent, StartOf> kernels;
    RankTimeOrder<MemcpyEvent, StartOf> memcpys;
    RankTimeOrder<MemsetEvent, StartOf> memsets;
    RankTimeOrder<ApiCall, StartOf> apiCalls;
    RankTimeOrder<Flow, CpuTsOf> flows;
};

// The GPU work of one rank by correlation id, sorted, one entry per id. Built per rank, so that its memory
// is one rank's share of the GPU events (at 100M events: ~50 MB instead of 1 GB for the run).
std::vector<CorrelatedGpuWork> correlatedWorkOfRank(const OrderedTables& t, std::int32_t rank) {
    std::vector<CorrelatedGpuWork> w;
    auto add = [&](const auto& e) {
        if (e.correlation != 0)
            w.push_back({e.correlation, e.start, e.end});
    };
    t.kernels.forEachOfRank(rank, add);
    t.memcpys.forEachOfRank(rank, add);
    t.memsets.forEachOfRank(rank, add);
    std::sort(w.begin(), w.end(), [](const auto& a, const auto& b) { return a.correlation < b.correlation; });
    // Merge entries of one id (several activities may share a correlation id).
    std::size_t out = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (out > 0 && w[out - 1].correlation == w[i].correlation) {
            w[out - 1].start = std::min(w[out - 1].start, w[i].start);
            w[out - 1].end = std::max(w[out - 1].end, w[i].end);
        } else {
            w[out++] = w[i];
        }
    }
    w.resize(out);
    return w;
}

// The number a step's name ends with ("ProfilerStep#3" -> 3, "train_step 12" -> 12); -1 when none.
std::int64_t trailingNumber(std::string_view name) {
    std::size_t i = name.size();
    while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9')
        --i;
    if (i == name.size() || name.size() - i > 9)
        return -1;
    std::int64_t v = 0;
    for (; i < name.size(); ++i)
        v = v * 10 + (name[i] - '0');
    return v;
}

// One numbering scheme per run (docs/metrics.md, "Steps and windows"): a step is numbered by its name
// (ProfilerStep#3 is step 3) when every step of the run has a number and each rank's numbers increase
// strictly in time order; otherwise every step keeps its 0-based ordinal. `steps` is grouped by rank, in
// time order within a rank.
// Returns whether the steps are numbered by name.
bool numberSteps(std::vector<StepRange>& steps, const StringTable& strings) {
    std::vector<std::int64_t> numbers;
    numbers.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::int64_t n = trailingNumber(strings.at(steps[i].name));
        if (n < 0 || (i > 0 && steps[i - 1].rank == steps[i].rank && n <= numbers.back()))
            return false;
        numbers.push_back(n);
    }
    for (std::size_t i = 0; i < steps.size(); ++i)
        steps[i].index = static_cast<std::int32_t>(numbers[i]);
    return true;
}

// A CPU range whose name matches a step pattern.
struct Candidate {
    std::int32_t rank;
    Ns start, end;
    StringId name;
};

// The ranges matching the first pattern that matches any, by rank and start (enclosing ranges first);
// `used`: that pattern's index, -1 when none matches.
std::vector<Candidate> stepCandidates(const TraceData& trace, const StepPattern& pattern, int& used) {
    std::vector<Candidate> candidates;
    used = -1;
    for (const auto& p : pattern.patterns) {
        ++used;
        const NameRegex re(p, NameRegex::Case::Sensitive);
        if (!re.valid())
            throw InputError("step pattern", "invalid regex '" + p + "': " + re.error());
        std::vector<std::int8_t> matches(trace.strings.size(), -1); // per name id: -1 unknown, 0 no, 1 yes
        for (const auto& r : trace.cpuRanges) {
            if (r.kind == CpuRangeKind::PythonFunction)
                continue;
            auto& m = matches[r.name];
            if (m < 0)
                m = re.search(trace.strings.at(r.name)) ? 1 : 0;
            if (m == 1)
                candidates.push_back({r.rank, r.start, r.end, r.name});
        }
        if (!candidates.empty())
            break;
    }
    if (candidates.empty())
        used = -1;
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        if (a.rank != b.rank)
            return a.rank < b.rank;
        if (a.start != b.start)
            return a.start < b.start;
        return a.end > b.end;
    });
    return candidates;
}

// The steps of the rank of candidates[i], consuming that rank's candidates (i moves past them): a step per
// outermost candidate, its GPU span from the work its launches started, each step's window ending where
// the next step with GPU work starts.
std::vector<StepRange> stepsOfRank(const std::vector<Candidate>& candidates, std::size_t& i,
                                   const OrderedTables& tables) {
    const std::int32_t rank = candidates[i].rank;
    const auto work = correlatedWorkOfRank(tables, rank);
    auto findWork = [&](std::int64_t corr) -> const CorrelatedGpuWork* {
        auto it =
            std::lower_bound(work.begin(), work.end(), corr,
                             [](const CorrelatedGpuWork& w, std::int64_t c) { return w.correlation < c; });
        return it != work.end() && it->correlation == corr ? &*it : nullptr;
    };
    std::vector<StepRange> steps;
    Ns maxEnd = std::numeric_limits<Ns>::min();
    for (; i < candidates.size() && candidates[i].rank == rank; ++i) {
        const auto& c = candidates[i];
        if (c.end <= maxEnd)
            continue; // nested inside an earlier matching range
        maxEnd = c.end;
        StepRange s;
        s.rank = rank;
        s.index = static_cast<std::int32_t>(steps.size());
        s.name = c.name;
        s.cpuStart = c.start;
        s.cpuEnd = c.end;
        Ns gpuStart = std::numeric_limits<Ns>::max(), gpuEnd = std::numeric_limits<Ns>::min();
        // Every launch (runtime/driver call or flow) made during the step's CPU range widens its GPU span.
        auto widen = [&](const auto& launch) {
            if (launch.correlation == 0)
                return;
            if (const auto* w = findWork(launch.correlation)) {
                gpuStart = std::min(gpuStart, w->start);
                gpuEnd = std::max(gpuEnd, w->end);
            }
        };
        tables.apiCalls.forEachIn(rank, c.start, c.end, widen);
        tables.flows.forEachIn(rank, c.start, c.end, widen);
        if (gpuStart != std::numeric_limits<Ns>::max()) {
            s.gpuStart = gpuStart;
            s.gpuEnd = gpuEnd; // provisional; replaced below for all but the last step with GPU work
        }
        steps.push_back(s);
    }
    StepRange* prev = nullptr;
    for (auto& s : steps) {
        if (s.gpuStart < 0)
            continue;
        if (prev)
            prev->gpuEnd = std::max(prev->gpuStart, s.gpuStart);
        prev = &s;
    }
    return steps;
}

} // namespace

StepScheme detectSteps(TraceData& trace, const StepPattern& pattern) {
    trace.steps.clear();
    StepScheme scheme;
    const auto candidates = stepCandidates(trace, pattern, scheme.pattern);
    if (candidates.empty())
        return scheme;
    const OrderedTables tables(trace);
    for (std::size_t i = 0; i < candidates.size();) {
        const auto steps = stepsOfRank(candidates, i, tables);
        trace.steps.insert(trace.steps.end(), steps.begin(), steps.end());
    }
    scheme.numberedByName = !pattern.ordinalNumbers && numberSteps(trace.steps, trace.strings);
    return scheme;
}

} // namespace cnp
