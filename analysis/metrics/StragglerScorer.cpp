#include "metrics/StragglerScorer.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace cnp {

namespace {

constexpr std::string_view kCommunication = "communication";
constexpr std::size_t kSlowerKernels = 5;

// Median (the mean of the two middle values for an even count; integers rounded down); T{} when empty. O(n).
template <class T> T medianOf(std::vector<T> v) {
    if (v.empty())
        return T{};
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2 == 1)
        return *mid;
    const T below = *std::max_element(v.begin(), mid);
    return below + (*mid - below) / 2;
}

// What the collectives say about each rank: its calls, how often it was last, its transfers.
struct CallTally {
    RankStraggling r;
    std::vector<double> transferRatios;
};

void tallyCalls(const CollectiveMatch& match, std::map<std::int32_t, CallTally>& tally, std::int64_t& calls) {
    for (const auto& c : match.calls) {
        if (c.memberCount < 2)
            continue;
        ++calls;
        for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i) {
            const CallMember& m = match.members[i];
            CallTally& t = tally[m.rank];
            t.r.rank = m.rank;
            ++t.r.calls;
            t.r.waitNs += m.waitNs;
            if (c.transferNs > 0)
                t.transferRatios.push_back(static_cast<double>(m.transferNs) /
                                           static_cast<double>(c.transferNs));
            t.r.transferExcessNs += std::max<Ns>(0, m.transferNs - c.transferNs);
            if (m.rank == c.lastRank) {
                ++t.r.lastCount;
                t.r.latenessNs += c.lastArrival - c.medianArrival;
            }
        }
    }
}

// The median rank's view of one kernel name: the median of the ranks' median durations (of the ranks that
// ran it) and of their totals (of every rank, 0 where it did not run).
struct NameReference {
    std::vector<double> medians;
    std::vector<Ns> totals;
    double medianNs = 0;
    Ns totalNs = 0;
};

bool isCommunication(const KernelStatRow& k) {
    return k.category == kCommunication;
}

std::unordered_map<std::string, NameReference>
nameReferences(const std::vector<RankEvidenceInput>& evidence) {
    std::unordered_map<std::string, NameReference> refs;
    for (const auto& e : evidence)
        for (const auto& k : e.kernels)
            if (!isCommunication(k) && k.count > 0) {
                auto& ref = refs[k.name];
                ref.medians.push_back(k.medianNs);
                ref.totals.push_back(k.totalNs);
            }
    for (auto& [name, ref] : refs) {
        // A rank without the kernel spent no time in it: its total counts as 0 for the median rank's.
        ref.totals.resize(evidence.size(), 0);
        ref.medianNs = medianOf(ref.medians);
        ref.totalNs = medianOf(ref.totals);
    }
    return refs;
}

// The time-weighted median of (ratio, weight) pairs: the ratio below and above which half the weight lies.
double weightedMedian(std::vector<std::pair<double, double>> v) {
    std::sort(v.begin(), v.end());
    double total = 0;
    for (const auto& [ratio, weight] : v)
        total += weight;
    double seen = 0;
    for (const auto& [ratio, weight] : v) {
        seen += weight;
        if (seen >= total / 2)
            return ratio;
    }
    return 1.0;
}

// The rank's compute time, its GPU time ratio (the time-weighted median over its kernel names of its
// median duration / the reference median, so a few slow kernels do not make a slow GPU) and its kernels
// with the most time beyond the median rank's.
void scoreKernels(const RankEvidenceInput& e, const std::unordered_map<std::string, NameReference>& refs,
                  RankStraggling& r) {
    std::vector<std::pair<double, double>> ratios;
    std::vector<KernelExcess> excess;
    for (const auto& k : e.kernels) {
        if (isCommunication(k) || k.count <= 0)
            continue;
        r.computeNs += k.totalNs;
        const NameReference& ref = refs.at(k.name);
        const double ratio = ref.medianNs > 0 ? k.medianNs / ref.medianNs : 1.0;
        ratios.emplace_back(ratio, static_cast<double>(k.count) * ref.medianNs);
        if (k.totalNs > ref.totalNs)
            excess.push_back({k.name, k.totalNs - ref.totalNs, ratio});
    }
    r.gpuTimeRatio = ratios.empty() ? 1.0 : weightedMedian(std::move(ratios));
    std::sort(excess.begin(), excess.end(), [](const KernelExcess& a, const KernelExcess& b) {
        return std::tie(b.excessNs, a.name) < std::tie(a.excessNs, b.name);
    });
    if (excess.size() > kSlowerKernels)
        excess.resize(kSlowerKernels);
    r.slowerKernels = std::move(excess);
}

// The causes whose evidence passes its threshold, strongest (most excess time) first.
void decideCauses(RankStraggling& r, Ns medianWindowNs, const StragglerThresholds& t) {
    std::vector<std::pair<Ns, StragglerCause>> found;
    const Ns floorNs = static_cast<Ns>(t.excessShare * static_cast<double>(medianWindowNs));
    Ns gpuExcess = 0;
    if (r.gpuTimeRatio >= t.slowerGpuRatio) {
        gpuExcess = r.computeNs - static_cast<Ns>(static_cast<double>(r.computeNs) / r.gpuTimeRatio);
        found.emplace_back(gpuExcess, StragglerCause::SlowerGpu);
    }
    const Ns computeResidual = r.computeNs - r.medianComputeNs - gpuExcess;
    if (computeResidual > 0 && computeResidual >= floorNs)
        found.emplace_back(computeResidual, StragglerCause::LongerCompute);
    const Ns idleExcess = r.hostIdleNs - r.medianHostIdleNs;
    if (idleExcess > 0 && idleExcess >= floorNs)
        found.emplace_back(idleExcess, StragglerCause::HostIdle);
    if (r.transferRatio >= t.slowLinkRatio)
        found.emplace_back(r.transferExcessNs, StragglerCause::SlowLink);
    std::stable_sort(found.begin(), found.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& f : found)
        r.causes.push_back(f.second);
}

} // namespace

std::string_view stragglerCauseName(StragglerCause cause) {
    switch (cause) {
    case StragglerCause::LongerCompute:
        return "longer-compute";
    case StragglerCause::HostIdle:
        return "host-idle";
    case StragglerCause::SlowerGpu:
        return "slower-gpu";
    case StragglerCause::SlowLink:
        return "slow-link";
    }
    return "unknown";
}

StragglerReport scoreStragglers(const CollectiveMatch& match, const std::vector<RankEvidenceInput>& evidence,
                                const StragglerThresholds& thresholds) {
    StragglerReport out;
    std::map<std::int32_t, CallTally> tally;
    tallyCalls(match, tally, out.calls);
    for (const auto& e : evidence)
        tally[e.rank].r.rank = e.rank;

    const auto refs = nameReferences(evidence);
    std::vector<Ns> computes, idles, windows;
    for (const auto& e : evidence) {
        RankStraggling& r = tally[e.rank].r;
        scoreKernels(e, refs, r);
        r.hostIdleNs = e.dataWaitNs + e.launchBoundNs;
        computes.push_back(r.computeNs);
        idles.push_back(r.hostIdleNs);
        windows.push_back(e.windowNs);
    }
    out.medianWindowNs = medianOf(windows);
    const Ns medianCompute = medianOf(computes), medianIdle = medianOf(idles);
    const bool haveEvidence = !evidence.empty();
    for (auto& [rank, t] : tally) {
        RankStraggling& r = t.r;
        r.lastShare = r.calls > 0 ? static_cast<double>(r.lastCount) / static_cast<double>(r.calls) : 0.0;
        r.transferRatio = t.transferRatios.empty() ? 1.0 : medianOf(std::move(t.transferRatios));
        if (haveEvidence) {
            r.medianComputeNs = medianCompute;
            r.medianHostIdleNs = medianIdle;
        }
        decideCauses(r, out.medianWindowNs, thresholds);
        out.ranks.push_back(std::move(r));
    }
    std::sort(out.ranks.begin(), out.ranks.end(), [](const RankStraggling& a, const RankStraggling& b) {
        return std::tie(b.lastCount, b.latenessNs, a.rank) < std::tie(a.lastCount, a.latenessNs, b.rank);
    });
    return out;
}

} // namespace cnp
