#include "metrics/StepDetector.h"

#include "core/InputError.h"
#include "core/NameRegex.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <tuple>

namespace cnp {

namespace {

// Earliest start / latest end of the GPU activities sharing one (rank, correlation id).
struct CorrelatedGpuWork {
    std::int32_t rank;
    std::int64_t correlation;
    Ns start, end;
};

// One launch on the CPU: (rank, time the launching call started, correlation id).
struct Launch {
    std::int32_t rank;
    Ns ts;
    std::int64_t correlation;
};

std::vector<CorrelatedGpuWork> correlatedWork(const TraceData& t) {
    std::vector<CorrelatedGpuWork> w;
    w.reserve(t.kernels.size() + t.memcpys.size() + t.memsets.size());
    for (const auto& k : t.kernels)
        if (k.correlation != 0)
            w.push_back({k.rank, k.correlation, k.start, k.end});
    for (const auto& m : t.memcpys)
        if (m.correlation != 0)
            w.push_back({m.rank, m.correlation, m.start, m.end});
    for (const auto& m : t.memsets)
        if (m.correlation != 0)
            w.push_back({m.rank, m.correlation, m.start, m.end});
    std::sort(w.begin(), w.end(), [](const auto& a, const auto& b) {
        return std::tie(a.rank, a.correlation) < std::tie(b.rank, b.correlation);
    });
    // Merge entries of one key (several activities may share a correlation id).
    std::size_t out = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
        if (out > 0 && w[out - 1].rank == w[i].rank && w[out - 1].correlation == w[i].correlation) {
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
void numberSteps(std::vector<StepRange>& steps, const StringTable& strings) {
    std::vector<std::int64_t> numbers;
    numbers.reserve(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::int64_t n = trailingNumber(strings.at(steps[i].name));
        if (n < 0 || (i > 0 && steps[i - 1].rank == steps[i].rank && n <= numbers.back()))
            return;
        numbers.push_back(n);
    }
    for (std::size_t i = 0; i < steps.size(); ++i)
        steps[i].index = static_cast<std::int32_t>(numbers[i]);
}

} // namespace

void detectSteps(TraceData& trace, const StepPattern& pattern) {
    trace.steps.clear();
    struct Candidate {
        std::int32_t rank;
        Ns start, end;
        StringId name;
    };
    std::vector<Candidate> candidates;
    for (const auto& p : pattern.patterns) {
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
        return;
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
        if (a.rank != b.rank)
            return a.rank < b.rank;
        if (a.start != b.start)
            return a.start < b.start;
        return a.end > b.end;
    });

    const auto work = correlatedWork(trace);
    std::vector<Launch> launches;
    launches.reserve(trace.apiCalls.size() + trace.flows.size());
    for (const auto& a : trace.apiCalls)
        if (a.correlation != 0)
            launches.push_back({a.rank, a.start, a.correlation});
    for (const auto& f : trace.flows)
        if (f.correlation != 0)
            launches.push_back({f.rank, f.cpuTs, f.correlation});
    std::sort(launches.begin(), launches.end(), [](const Launch& a, const Launch& b) {
        return std::tie(a.rank, a.ts) < std::tie(b.rank, b.ts);
    });

    auto findWork = [&](std::int32_t rank, std::int64_t corr) -> const CorrelatedGpuWork* {
        auto it =
            std::lower_bound(work.begin(), work.end(), std::make_pair(rank, corr),
                             [](const CorrelatedGpuWork& w, const std::pair<std::int32_t, std::int64_t>& k) {
                                 return std::tie(w.rank, w.correlation) < std::tie(k.first, k.second);
                             });
        if (it != work.end() && it->rank == rank && it->correlation == corr)
            return &*it;
        return nullptr;
    };

    std::size_t i = 0;
    while (i < candidates.size()) {
        const std::int32_t rank = candidates[i].rank;
        std::vector<StepRange> steps;
        std::vector<Ns> ownEnd; // latest end of each step's own GPU work
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
            auto lo = std::lower_bound(launches.begin(), launches.end(), std::make_pair(rank, c.start),
                                       [](const Launch& l, const std::pair<std::int32_t, Ns>& k) {
                                           return std::tie(l.rank, l.ts) < std::tie(k.first, k.second);
                                       });
            for (auto it = lo; it != launches.end() && it->rank == rank && it->ts <= c.end; ++it) {
                if (const auto* w = findWork(rank, it->correlation)) {
                    gpuStart = std::min(gpuStart, w->start);
                    gpuEnd = std::max(gpuEnd, w->end);
                }
            }
            if (gpuStart != std::numeric_limits<Ns>::max()) {
                s.gpuStart = gpuStart;
                s.gpuEnd = gpuEnd; // provisional; replaced below for all but the last step with GPU work
            }
            steps.push_back(s);
        }
        // Window i ends where the next step with GPU work starts.
        StepRange* prev = nullptr;
        for (auto& s : steps) {
            if (s.gpuStart < 0)
                continue;
            if (prev)
                prev->gpuEnd = std::max(prev->gpuStart, s.gpuStart);
            prev = &s;
        }
        trace.steps.insert(trace.steps.end(), steps.begin(), steps.end());
    }
    numberSteps(trace.steps, trace.strings);
}

} // namespace cnp
