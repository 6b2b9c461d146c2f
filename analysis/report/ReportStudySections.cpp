// The study's set-up: the configurations (what changed from one to the next, on how many nodes and GPUs,
// how often) and every run's environment with the release-note checks.
#include "core/Units.h"
#include "report/ReportSections.h"
#include "requests/InsightsRequest.h"
#include "store/RankHosts.h"

#include <algorithm>
#include <map>
#include <set>

namespace cnp::report::detail {

namespace {

// Values longer than this are shortened in the change list (a DEEPSPEED_CONFIG document can be long).
constexpr std::size_t kMaxValueChars = 48;

std::string shortValue(const std::string& v) {
    if (v.size() <= kMaxValueChars)
        return v;
    std::size_t cut = kMaxValueChars;
    while (cut > 0 && (static_cast<unsigned char>(v[cut]) & 0xC0) == 0x80)
        --cut; // never split a UTF-8 sequence
    return v.substr(0, cut) + "…";
}

// What a configuration is made of, beyond its trace: image, allow-listed environment and the plan's
// per-configuration attributes (plan.* except the bookkeeping keys), as one key -> value map.
std::map<std::string, std::string> setupOf(const StudyContext& c, const RunRecord& run) {
    std::map<std::string, std::string> s;
    if (!run.info.containerImage.empty())
        s["image"] = run.info.containerImage;
    for (const auto& [k, v] : run.info.env)
        s["env " + k] = v;
    static const std::set<std::string> bookkeeping = {"plan.hash", "plan.path", "plan.name", "plan.config",
                                                      "plan.repeat"};
    for (const auto& [k, v] : c.ws.runAttributes(run.id))
        if (k.rfind("plan.", 0) == 0 && !bookkeeping.count(k))
            s[k] = v;
    return s;
}

// "image: a → b; env +FOO=1; env −BAR; plan.args: x → y" from the previous configuration's set-up.
std::string setupDelta(const std::map<std::string, std::string>& before,
                       const std::map<std::string, std::string>& after) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : after) {
        const auto it = before.find(k);
        if (it == before.end())
            parts.push_back("+" + k + "=" + shortValue(v));
        else if (it->second != v)
            parts.push_back(k + ": " + shortValue(it->second) + " → " + shortValue(v));
    }
    for (const auto& [k, v] : before)
        if (!after.count(k))
            parts.push_back("−" + k);
    std::string s;
    for (const auto& p : parts)
        s += (s.empty() ? "" : "; ") + p;
    return s.empty() ? "no recorded change" : s;
}

// "2 × 8" (nodes × GPUs): nodes from the ranks' hosts (1 when none is recorded), GPUs per node from the
// world size (the larger of the recorded world size and the ranks seen).
Cell nodesTimesGpus(const StudyContext& c, const RunRecord& run) {
    const auto hosts = rankHosts(c.ws, run.id);
    const double nodes = static_cast<double>(std::max<std::size_t>(1, hosts.size()));
    const double gpus = static_cast<double>(std::max(run.info.worldSize, run.rankCount));
    const double perNode = std::ceil(gpus / nodes);
    return numberCell(units::count(static_cast<std::int64_t>(nodes)) + " × " +
                          units::count(static_cast<std::int64_t>(perNode)),
                      {nodes, gpus});
}

} // namespace

Section configurationsSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Configurations);
    s.blocks.push_back(Paragraph{
        "The configurations of the study in report order. Changes are those of the configuration's first "
        "run against the previous configuration's first run: container image, allow-listed environment "
        "variables and the plan's per-configuration settings, as far as the run metadata records them."});
    Table t{"configurations",
            {textColumn("Configuration", "configuration"), numberColumn("Runs", {"runs"}),
             numberColumn("Nodes × GPUs", {"nodes", "gpus"}), textColumn("Image", "image"),
             textColumn("Changes vs previous", "changes"), textColumn("Data", "data")},
            {}};
    std::map<std::string, std::string> previous;
    for (std::size_t i = 0; i < c.order.size(); ++i) {
        const auto& cfg = c.order[i];
        const auto& rep = c.representative(cfg);
        const auto setup = setupOf(c, rep);
        const auto& runs = c.runsOf.at(cfg);
        const bool synthetic =
            std::any_of(runs.begin(), runs.end(), [](const RunRecord* r) { return r->info.synthetic; });
        t.rows.push_back({textCell(cfg, c.colorOf(cfg)),
                          numberCell(std::to_string(runs.size()), {static_cast<double>(runs.size())}),
                          nodesTimesGpus(c, rep),
                          textCell(rep.info.containerImage.empty() ? "–" : rep.info.containerImage),
                          textCell(i == 0 ? "first configuration" : setupDelta(previous, setup)),
                          textCell(synthetic ? "synthetic" : "measured")});
        if (synthetic)
            t.rows.back().back().bold = true;
        previous = setup;
    }
    s.blocks.push_back(std::move(t));
    return s;
}

namespace {

std::string orDash(const std::string& s) {
    return s.empty() ? "–" : s;
}

Table runEnvironmentTable(const StudyContext& c) {
    Table t{"environment",
            {textColumn("Run", "run"), textColumn("Configuration", "configuration"), textColumn("GPU", "gpu"),
             textColumn("Driver", "driver"), textColumn("CUDA", "cuda"), textColumn("CUPTI", "cupti"),
             textColumn("Image", "image"), numberColumn("Ranks", {"ranks"})},
            {}};
    for (const auto& r : c.runs)
        t.rows.push_back({textCell(r.info.name), textCell(r.info.config, c.colorOf(r.info.config)),
                          textCell(r.info.gpuModels.empty() ? "–" : r.info.gpuModels.front()),
                          textCell(orDash(r.info.driverVersion)), textCell(orDash(r.info.cudaVersion)),
                          textCell(orDash(r.info.cuptiVersion)), textCell(orDash(r.info.containerImage)),
                          numberCell(std::to_string(r.rankCount), {static_cast<double>(r.rankCount)})});
    return t;
}

Table envVariablesTable(const StudyContext& c) {
    Table t{"environment-variables",
            {textColumn("Run", "run"), textColumn("Variable", "variable"), textColumn("Value", "value")},
            {}};
    // At most kMaxEnvRows per run (issue 33.5: a workspace's huge environment made the PDF take minutes);
    // the allow-list records a few dozen.
    constexpr std::size_t kMaxEnvRows = 256;
    for (const auto& r : c.runs) {
        std::size_t shown = 0;
        for (const auto& [k, v] : r.info.env) {
            if (shown++ == kMaxEnvRows) {
                t.rows.push_back({textCell(shortValue(r.info.name)), textCell("…"),
                                  textCell("and " + std::to_string(r.info.env.size() - kMaxEnvRows) +
                                           " more variables, not shown")});
                break;
            }
            t.rows.push_back(
                {textCell(shortValue(r.info.name)), textCell(shortValue(k)), textCell(shortValue(v))});
        }
    }
    return t;
}

Table checksTable(const StudyContext& c) {
    Table t{"environment-checks",
            {textColumn("Run", "run"), textColumn("Check", "check"), textColumn("Requirement", "requirement"),
             textColumn("Verdict", "verdict"), textColumn("Observed", "observed")},
            {}};
    for (const auto& r : c.runs) {
        const auto checks = checkEnvironment(c.ws, r);
        // A run that recorded none of what the checks need is one row, not one "not checked" per check
        // (issue 32.10: every release-note check listed as "not checked").
        if (!checks.empty() && std::all_of(checks.begin(), checks.end(), [](const auto& check) {
                return check.verdict == CheckVerdict::NotChecked;
            })) {
            Cell verdict = textCell(toString(CheckVerdict::NotChecked));
            verdict.muted = true;
            t.rows.push_back({textCell(r.info.name), textCell("all " + std::to_string(checks.size())),
                              textCell("–"), std::move(verdict),
                              textCell("the run recorded none of what the checks need")});
            continue;
        }
        for (const auto& check : checks) {
            Cell verdict = textCell(toString(check.verdict));
            verdict.bold = check.verdict == CheckVerdict::Failed;
            verdict.sign = check.verdict == CheckVerdict::Failed   ? 1
                           : check.verdict == CheckVerdict::Passed ? -1
                                                                   : 0;
            verdict.muted = check.verdict == CheckVerdict::NotChecked;
            t.rows.push_back({textCell(r.info.name), textCell(check.id), textCell(check.requirement),
                              std::move(verdict), textCell(orDash(check.observed))});
        }
    }
    return t;
}

} // namespace

Section environmentSection(const StudyContext& c) {
    Section s = makeSection(ReportSection::Environment);
    s.blocks.push_back(
        Paragraph{"What every run recorded about where it ran. Environment variables are the "
                  "allow-listed ones only (analysis/core/EnvAllowList.cpp); nothing else is stored."});
    s.blocks.push_back(runEnvironmentTable(c));
    auto vars = envVariablesTable(c);
    if (!vars.rows.empty()) {
        s.blocks.push_back(Heading{"Recorded environment variables"});
        s.blocks.push_back(std::move(vars));
    }
    s.blocks.push_back(Heading{"Release-note checks"});
    s.blocks.push_back(
        Paragraph{"The training image's release notes as checks on each run's metadata (docs/metrics.md, "
                  "\"Insights\"). \"not checked\" means the run did not record what the check needs."});
    s.blocks.push_back(checksTable(c));
    return s;
}

} // namespace cnp::report::detail
