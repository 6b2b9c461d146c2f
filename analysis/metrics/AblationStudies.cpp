#include "metrics/AblationStudies.h"

#include "core/InputError.h"

#include <algorithm>
#include <filesystem>

namespace cnp {

const char* toString(StudyOrigin origin) {
    switch (origin) {
    case StudyOrigin::Explicit:
        return "explicit";
    case StudyOrigin::Plan:
        return "plan";
    case StudyOrigin::Synthetic:
        return "synthetic";
    case StudyOrigin::Implicit:
        break;
    }
    return "implicit";
}

std::string implicitStudyName(const RunRecord& run) {
    const std::int32_t ranks = std::max(run.info.worldSize, run.rankCount);
    std::string gpu = run.info.gpuModels.empty() ? std::string("unknown GPU") : run.info.gpuModels.front();
    if (gpu.size() > kMaxStudyNameBytes / 2)
        gpu.resize(kMaxStudyNameBytes / 2);
    return std::to_string(std::max(ranks, 1)) + "x " + gpu + (run.info.synthetic ? " (synthetic)" : "");
}

namespace {

// A non-empty attribute value, cut to kMaxStudyNameBytes; empty when absent or empty.
std::string nameAttribute(const std::map<std::string, std::string>& attributes, const char* key) {
    const auto it = attributes.find(key);
    if (it == attributes.end())
        return {};
    std::string v = it->second;
    if (v.size() > kMaxStudyNameBytes)
        v.resize(kMaxStudyNameBytes);
    return v;
}

constexpr std::string_view kSyntheticImagePrefix = "synthetic:"; // synth/StudyGenerator's image label

} // namespace

RunStudy studyOfRun(const RunRecord& run, const std::map<std::string, std::string>& attributes) {
    if (auto s = nameAttribute(attributes, kStudyAttribute); !s.empty())
        return {s, StudyOrigin::Explicit};
    if (auto s = nameAttribute(attributes, "plan.name"); !s.empty())
        return {s, StudyOrigin::Plan};
    if (auto p = nameAttribute(attributes, "plan.path"); !p.empty()) {
        auto stem = std::filesystem::path(p).stem().string();
        if (!stem.empty())
            return {stem, StudyOrigin::Plan};
    }
    const auto& image = run.info.containerImage;
    if (run.info.synthetic && image.starts_with(kSyntheticImagePrefix) &&
        image.size() > kSyntheticImagePrefix.size())
        return {image.substr(kSyntheticImagePrefix.size(),
                             std::min(kMaxStudyNameBytes, image.size() - kSyntheticImagePrefix.size())),
                StudyOrigin::Synthetic};
    return {implicitStudyName(run), StudyOrigin::Implicit};
}

StudyMember studyMemberOf(const RunRecord& run, const std::map<std::string, std::string>& attributes) {
    return {run.id, run.info.config, std::max(run.info.worldSize, run.rankCount), run.info.synthetic,
            studyOfRun(run, attributes)};
}

std::vector<AblationStudy> groupStudies(const std::vector<StudyMember>& members) {
    std::vector<AblationStudy> out;
    std::map<std::string, std::size_t> index; // name -> position in `out`
    for (const auto& m : members) {
        auto [it, added] = index.emplace(m.study.name, out.size());
        if (added) {
            AblationStudy s;
            s.name = m.study.name;
            s.origin = m.study.origin;
            s.latest = m.run;
            s.minWorldSize = s.maxWorldSize = m.worldSize;
            out.push_back(std::move(s));
        }
        auto& s = out[it->second];
        s.origin = std::min(s.origin, m.study.origin); // the strongest origin among its runs
        s.runs.push_back(m.run);
        if (std::find(s.configs.begin(), s.configs.end(), m.config) == s.configs.end())
            s.configs.push_back(m.config);
        s.latest = std::max(s.latest, m.run);
        s.minWorldSize = std::min(s.minWorldSize, m.worldSize);
        s.maxWorldSize = std::max(s.maxWorldSize, m.worldSize);
        s.synthetic = s.synthetic || m.synthetic;
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const AblationStudy& a, const AblationStudy& b) { return b.latest < a.latest; });
    return out;
}

namespace {

bool holds(const AblationStudy& s, const std::string& config) {
    return std::find(s.configs.begin(), s.configs.end(), config) != s.configs.end();
}

std::string studyList(const std::vector<AblationStudy>& studies) {
    std::string names;
    for (const auto& s : studies)
        names += (names.empty() ? "'" : ", '") + s.name + "'";
    return names;
}

} // namespace

const AblationStudy& chooseStudy(const std::vector<AblationStudy>& studies, const std::string& requested,
                                 const std::vector<std::string>& namedConfigs, const std::string& path) {
    if (studies.empty())
        throw InputError(path, "the workspace has no runs");
    if (!requested.empty()) {
        for (const auto& s : studies)
            if (s.name == requested)
                return s;
        throw InputError(path, "no study named '" + requested + "' (studies: " + studyList(studies) + ")");
    }
    std::vector<std::string> known; // the named configurations that have runs somewhere
    for (const auto& c : namedConfigs)
        if (std::any_of(studies.begin(), studies.end(), [&](const AblationStudy& s) { return holds(s, c); }))
            known.push_back(c);
    if (known.empty())
        return studies.front();
    for (const auto& s : studies) // newest first
        if (std::all_of(known.begin(), known.end(), [&](const std::string& c) { return holds(s, c); }))
            return s;
    std::string where;
    for (const auto& c : known)
        for (const auto& s : studies)
            if (holds(s, c)) {
                where += (where.empty() ? "'" : ", '") + c + "' in '" + s.name + "'";
                break;
            }
    throw InputError(path, "the configurations named are in different studies (" + where +
                               "); name one study with --study, or compare across studies with "
                               "--all-studies");
}

std::vector<std::string> mergeStudyOrder(const std::vector<std::string>& global,
                                         const std::vector<std::string>& studyConfigs,
                                         const std::vector<std::string>& reordered) {
    auto inStudy = [&](const std::string& c) {
        return std::find(studyConfigs.begin(), studyConfigs.end(), c) != studyConfigs.end() ||
               std::find(reordered.begin(), reordered.end(), c) != reordered.end();
    };
    std::vector<std::string> out;
    std::size_t next = 0; // the next configuration of `reordered` to place
    for (const auto& c : global) {
        if (!inStudy(c)) {
            out.push_back(c);
            continue;
        }
        if (next < reordered.size())
            out.push_back(reordered[next++]);
    }
    for (; next < reordered.size(); ++next)
        out.push_back(reordered[next]);
    return out;
}

} // namespace cnp
