#include "metrics/StragglerEvidence.h"

#include "core/Units.h"

namespace cnp {

namespace {

std::string dur(Ns ns) {
    return units::duration(static_cast<double>(ns));
}

} // namespace

std::string stragglerCausesText(const RankStraggling& s) {
    std::string out;
    for (const auto c : s.causes)
        out += (out.empty() ? "" : ", ") + std::string(stragglerCauseName(c));
    return out.empty() ? "-" : out;
}

std::vector<std::string> stragglerEvidenceLines(const RankStraggling& s, std::size_t nameWidth) {
    std::vector<std::string> lines;
    lines.push_back("rank " + std::to_string(s.rank) + ": last at " + units::count(s.lastCount) + " of " +
                    units::count(s.calls) + " calls, " + dur(s.latenessNs) +
                    " later than the median arrival in all; causes: " + stragglerCausesText(s));
    lines.push_back("compute " + dur(s.computeNs) + " (median rank " + dur(s.medianComputeNs) +
                    "), GPU time at " + units::ratio(s.gpuTimeRatio) + " the median rank's");
    lines.push_back("idle while the host was busy " + dur(s.hostIdleNs) + " (median rank " +
                    dur(s.medianHostIdleNs) + ")");
    lines.push_back("transfer " + units::ratio(s.transferRatio) + " the call's median (" +
                    dur(s.transferExcessNs) + " longer in all)");
    for (const auto& k : s.slowerKernels) {
        const std::string name =
            k.name.size() > nameWidth && nameWidth > 3 ? k.name.substr(0, nameWidth - 3) + "..." : k.name;
        lines.push_back("+" + dur(k.excessNs) + " " + name + " (" + units::ratio(k.ratio) +
                        " the median duration)");
    }
    return lines;
}

} // namespace cnp
