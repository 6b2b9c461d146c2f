#include "requests/StepDiffRequest.h"

#include "core/InputError.h"
#include "store/StepEventReader.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <algorithm>
#include <unordered_set>

namespace cnp {

namespace {

using Window = StepEventReader::Window;

// The median step by CPU duration (the lower middle for an even count; ties by index), as critical-path.
const Window& medianStep(const std::vector<Window>& steps) {
    std::vector<const Window*> byLength;
    byLength.reserve(steps.size());
    for (const auto& s : steps)
        byLength.push_back(&s);
    std::sort(byLength.begin(), byLength.end(), [](const Window* x, const Window* y) {
        return std::make_pair(x->end - x->start, x->stepIndex) <
               std::make_pair(y->end - y->start, y->stepIndex);
    });
    return *byLength[(byLength.size() - 1) / 2];
}

std::string stepList(const std::vector<Window>& steps) {
    std::string out;
    for (std::size_t i = 0; i < steps.size() && i < 12; ++i)
        out += (i ? ", " : "") + std::to_string(steps[i].stepIndex);
    if (steps.size() > 12)
        out += ", ... (" + std::to_string(steps.size()) + " steps)";
    return out;
}

// The rank the choice names (checked), or the run's first rank.
std::int32_t rankOf(const Workspace& ws, const StepEventReader& reader, const std::string& run,
                    const StepDiffChoice& choice) {
    const auto ranks = reader.ranks();
    if (ranks.empty())
        throw InputError(ws.path(), "run '" + run + "' has no ranks");
    if (!choice.rank)
        return ranks.front();
    if (std::find(ranks.begin(), ranks.end(), *choice.rank) == ranks.end())
        throw InputError(ws.path(), "run '" + run + "' has no rank " + std::to_string(*choice.rank));
    return *choice.rank;
}

// The chosen step of the rank among its steps with GPU work.
Window stepOf(const Workspace& ws, const std::vector<Window>& steps, const std::string& run,
              std::int32_t rank, const StepDiffChoice& choice) {
    const std::string where = "rank " + std::to_string(rank) + " of run '" + run + "'";
    if (steps.empty())
        throw InputError(ws.path(), where +
                                        " has no detected steps with GPU work (docs/metrics.md, \"Steps and "
                                        "windows\"); a step diff needs a step in each run");
    if (!choice.step)
        return medianStep(steps);
    for (const auto& s : steps)
        if (s.stepIndex == *choice.step)
            return s;
    throw InputError(ws.path(), where + " has no step " + std::to_string(*choice.step) +
                                    " with GPU work (its steps: " + stepList(steps) + ")");
}

// The step's GPU work: the activities whose correlation id is that of an API call inside the step.
std::vector<StepGpuEvent> gpuWorkOf(StepEvents ev) {
    std::unordered_set<std::int64_t> launches;
    for (const auto& c : ev.cpu)
        if (c.isApiCall && c.correlation != 0)
            launches.insert(c.correlation);
    std::erase_if(ev.gpu, [&](const StepGpuEvent& g) {
        return g.correlation == 0 || launches.count(g.correlation) == 0;
    });
    return std::move(ev.gpu);
}

std::vector<StepGpuEvent> readSide(const Workspace& ws, const RunRecord& run, const StepDiffChoice& choice,
                                   StepDiffSide& side) {
    StepEventReader reader(ws, run.id);
    side.run = run.info.name;
    side.rank = rankOf(ws, reader, side.run, choice);
    auto steps = reader.steps(side.rank);
    std::erase_if(steps, [](const Window& w) { return w.gpuEnd < 0; });
    side.steps = static_cast<std::int32_t>(steps.size());
    for (const auto& w : steps)
        side.numbers.push_back(w.stepIndex);
    const Window w = stepOf(ws, steps, side.run, side.rank, choice);
    side.step = w.stepIndex;
    side.cpuStart = w.start;
    side.cpuEnd = w.end;
    return gpuWorkOf(reader.read(w));
}

template <class Key>
StepDiffReport diffStepsBy(const Workspace& ws, const Key& runA, const Key& runB,
                           const StepDiffChoice& choice) {
    const auto snapshot = readSnapshot(ws);
    const RunRecord a = ws.runOrThrow(runA), b = ws.runOrThrow(runB);
    StepDiffReport r;
    r.median = !choice.step;
    auto eventsA = readSide(ws, a, choice, r.a);
    auto eventsB = readSide(ws, b, choice, r.b);
    r.alignment = StepAlignment::align(std::move(eventsA), std::move(eventsB), choice.alignment);
    return r;
}

} // namespace

StepDiffReport diffSteps(const Workspace& ws, const std::string& runA, const std::string& runB,
                         const StepDiffChoice& choice) {
    return diffStepsBy(ws, runA, runB, choice);
}

StepDiffReport diffSteps(const Workspace& ws, RunId runA, RunId runB, const StepDiffChoice& choice) {
    return diffStepsBy(ws, runA, runB, choice);
}

} // namespace cnp
