#include "metrics/ReleaseSummary.h"

#include <algorithm>
#include <span>

namespace cnp {

std::size_t ConfigReleaseSummary::stepCount() const {
    std::size_t n = 0;
    for (const auto& r : stepTimesByRun)
        n += r.size();
    return n;
}

double ConfigReleaseSummary::categoryMeanNs(std::size_t c) const {
    if (c >= categorySteps.size())
        return 0;
    double sum = 0;
    std::size_t n = 0;
    for (const auto& run : categorySteps[c])
        for (Ns v : run) {
            sum += static_cast<double>(v);
            ++n;
        }
    return n == 0 ? 0 : sum / static_cast<double>(n);
}

std::size_t ConfigReleaseSummary::categoryIndex(const std::string& category) const {
    return static_cast<std::size_t>(std::find(categories.begin(), categories.end(), category) -
                                    categories.begin());
}

const ConfigReleaseSummary* ReleaseSummary::config(const std::string& name) const {
    for (const auto& c : configs)
        if (c.config == name)
            return &c;
    return nullptr;
}

namespace {

// The kept steps of one run: warm-up skipped (never the one whole-trace sample), at most
// kMaxSummaryStepsPerRun.
std::span<const AblationStepSample> keptSteps(const AblationRunSamples& s, int skipFirst) {
    const std::size_t first =
        s.wholeTrace ? 0 : std::min(s.steps.size(), static_cast<std::size_t>(std::max(0, skipFirst)));
    const std::size_t count = std::min(s.steps.size() - first, kMaxSummaryStepsPerRun);
    return std::span<const AblationStepSample>(s.steps).subspan(first, count);
}

void addRunSamples(ConfigReleaseSummary& cs, const AblationRun& run, int skipFirst) {
    const auto steps = keptSteps(run.samples, skipFirst);
    std::vector<Ns> times;
    times.reserve(steps.size());
    for (std::size_t c = 0; c < cs.categories.size(); ++c)
        cs.categorySteps[c].emplace_back(steps.size(), 0);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        times.push_back(steps[i].time);
        for (const auto& [cat, ns] : steps[i].exclusive) {
            const std::size_t c = cs.categoryIndex(cat);
            if (c < cs.categories.size())
                cs.categorySteps[c].back()[i] = ns;
        }
    }
    cs.stepTimesByRun.push_back(std::move(times));
}

} // namespace

ReleaseSummary summarizeRelease(const AblationInputs& inputs, const AblationResult& result,
                                int skipFirstSteps) {
    ReleaseSummary out;
    for (const auto& r : inputs.runs) {
        out.synthetic = out.synthetic || r.run.info.synthetic;
        if (out.driverVersion.empty())
            out.driverVersion = r.run.info.driverVersion;
        if (out.cudaVersion.empty())
            out.cudaVersion = r.run.info.cudaVersion;
        if (out.containerImage.empty())
            out.containerImage = r.run.info.containerImage;
    }
    for (const auto& ac : result.configs) {
        ConfigReleaseSummary cs;
        cs.config = ac.config;
        cs.worldSize = ac.worldSize;
        cs.runs = ac.runs;
        cs.medianStepNs = ac.medianStepNs;
        cs.hasCi = ac.hasCi;
        cs.ciLoNs = ac.ciLoNs;
        cs.ciHiNs = ac.ciHiNs;
        cs.throughput = ac.throughput;
        cs.throughputCiLo = ac.throughputCiLo;
        cs.throughputCiHi = ac.throughputCiHi;
        cs.throughputUnit = ac.throughputUnit;
        cs.mfu = ac.mfu;
        cs.categories = result.categories;
        cs.categorySteps.resize(cs.categories.size());
        for (const auto& run : inputs.runs)
            if (std::find(ac.runIds.begin(), ac.runIds.end(), run.run.id) != ac.runIds.end() &&
                !run.samples.steps.empty())
                addRunSamples(cs, run, skipFirstSteps);
        out.configs.push_back(std::move(cs));
    }
    return out;
}

} // namespace cnp
