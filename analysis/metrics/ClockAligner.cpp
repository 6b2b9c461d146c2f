#include "metrics/ClockAligner.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace cnp {

namespace {

Ns medianOf(std::vector<Ns>& v) {
    const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    if (v.size() % 2 == 1)
        return *mid;
    const Ns below = *std::max_element(v.begin(), mid);
    return below + (*mid - below) / 2;
}

// One host's (t - t0, difference) samples, ns.
struct Samples {
    std::vector<double> t, d;
};

// Least-squares offset + drift x t (t centred on its mean for precision); sets offset (at t = 0), drift,
// residual and the largest |difference|. s holds at least one sample.
void fit(const Samples& s, HostClockEstimate& e) {
    const auto n = static_cast<double>(s.t.size());
    double tMean = 0, dMean = 0;
    for (std::size_t i = 0; i < s.t.size(); ++i) {
        tMean += s.t[i] / n;
        dMean += s.d[i] / n;
    }
    double stt = 0, std_ = 0;
    for (std::size_t i = 0; i < s.t.size(); ++i) {
        stt += (s.t[i] - tMean) * (s.t[i] - tMean);
        std_ += (s.t[i] - tMean) * (s.d[i] - dMean);
    }
    const double slope = stt > 0 ? std_ / stt : 0.0;
    const double intercept = dMean - slope * tMean;
    e.offsetNs = static_cast<Ns>(std::llround(intercept));
    e.driftPpm = slope * 1e6;
    std::vector<Ns> residuals;
    residuals.reserve(s.t.size());
    for (std::size_t i = 0; i < s.t.size(); ++i) {
        residuals.push_back(static_cast<Ns>(std::llround(std::abs(s.d[i] - (intercept + slope * s.t[i])))));
        e.maxAbsDifferenceNs =
            std::max(e.maxAbsDifferenceNs, static_cast<Ns>(std::llround(std::abs(s.d[i]))));
    }
    std::sort(residuals.begin(), residuals.end());
    const auto at95 = static_cast<std::size_t>(0.95 * static_cast<double>(residuals.size()));
    e.residualNs = residuals[std::min(residuals.size() - 1, at95)];
}

} // namespace

ClockAlignment estimateClockAlignment(const CollectiveMatch& match,
                                      const std::vector<std::pair<std::int32_t, std::string>>& hostOfRank) {
    ClockAlignment out;
    if (hostOfRank.empty())
        return out;
    // Hosts numbered by name; the reference is the lowest rank's.
    std::map<std::string, std::size_t> hostIndex;
    for (const auto& [rank, host] : hostOfRank)
        hostIndex.emplace(host, 0);
    std::vector<std::string> names;
    for (auto& [host, index] : hostIndex) {
        index = names.size();
        names.push_back(host);
    }
    std::unordered_map<std::int32_t, std::size_t> hostOf;
    std::vector<std::int32_t> ranksOf(names.size(), 0);
    for (const auto& [rank, host] : hostOfRank) {
        hostOf[rank] = hostIndex[host];
        ++ranksOf[hostIndex[host]];
    }
    const auto lowest = std::min_element(hostOfRank.begin(), hostOfRank.end());
    const std::size_t ref = hostIndex[lowest->second];
    out.referenceHost = names[ref];

    std::vector<Samples> samples(names.size());
    std::vector<std::vector<Ns>> departures(names.size());
    bool haveT0 = false;
    for (const auto& c : match.calls) {
        for (auto& d : departures)
            d.clear();
        for (std::size_t i = c.firstMember; i < c.firstMember + c.memberCount; ++i)
            if (const auto it = hostOf.find(match.members[i].rank); it != hostOf.end())
                departures[it->second].push_back(match.members[i].departure);
        if (departures[ref].empty())
            continue;
        const Ns refDeparture = medianOf(departures[ref]);
        if (!haveT0) {
            out.t0 = refDeparture;
            haveT0 = true;
        }
        for (std::size_t h = 0; h < names.size(); ++h)
            if (h != ref && !departures[h].empty()) {
                samples[h].t.push_back(static_cast<double>(refDeparture - out.t0));
                samples[h].d.push_back(static_cast<double>(medianOf(departures[h]) - refDeparture));
            }
    }
    HostClockEstimate reference;
    reference.host = names[ref];
    reference.ranks = ranksOf[ref];
    out.hosts.push_back(reference);
    for (std::size_t h = 0; h < names.size(); ++h) {
        if (h == ref || samples[h].t.empty())
            continue;
        HostClockEstimate e;
        e.host = names[h];
        e.ranks = ranksOf[h];
        e.calls = static_cast<std::int64_t>(samples[h].t.size());
        fit(samples[h], e);
        out.storedErrorNs = std::max(out.storedErrorNs, e.maxAbsDifferenceNs);
        out.fittedErrorNs = std::max(out.fittedErrorNs, e.residualNs);
        out.hosts.push_back(std::move(e));
    }
    return out;
}

} // namespace cnp
