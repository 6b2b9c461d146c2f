#include "report/ReportModel.h"

#include "core/InputError.h"
#include "core/Units.h"
#include "core/UtcTime.h"
#include "report/Palette.h"
#include "report/ReportSections.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <set>

namespace cnp::report {

namespace {

struct SectionName {
    ReportSection section;
    std::string_view id, title;
};
constexpr std::array<SectionName, 11> kSectionNames = {{
    {ReportSection::Configurations, "configurations", "Configurations"},
    {ReportSection::Environment, "environment", "Environment"},
    {ReportSection::Ablation, "ablation", "Ablation"},
    {ReportSection::Waterfall, "waterfall", "Incremental gains"},
    {ReportSection::Breakdown, "breakdown", "Where the time went"},
    {ReportSection::Attribution, "attribution", "What each step bought"},
    {ReportSection::Ranks, "ranks", "Ranks"},
    {ReportSection::Kernels, "kernels", "Top kernels"},
    {ReportSection::KernelChanges, "kernel-changes", "Largest kernel changes"},
    {ReportSection::Insights, "insights", "Insights"},
    {ReportSection::Methodology, "methodology", "Methodology"},
}};

// The distinct plan.name attributes of the runs, comma-separated.
std::string planNames(const Workspace& ws, const std::vector<RunRecord>& runs) {
    std::set<std::string> names;
    for (const auto& r : runs)
        if (auto n = ws.runAttribute(r.id, "plan.name"); n && !n->empty())
            names.insert(*n);
    std::string s;
    for (const auto& n : names)
        s += (s.empty() ? "" : ", ") + n;
    return s;
}

// runsOf points into runs: filled last, and moving the context on return keeps the vector's buffer.
detail::StudyContext studyContext(const Workspace& ws, const ReportOptions& options) {
    detail::StudyContext c{ws, options, computeAblation(ws, options.ablation), {}, {}, ws.planOrder(), {}};
    for (const auto& cfg : c.ablation.configs)
        c.order.push_back(cfg.config);
    // The compared study's runs only (a configuration name may recur in another study).
    auto compared = [&](RunId id) {
        return std::any_of(c.ablation.configs.begin(), c.ablation.configs.end(),
                           [&](const AblationConfig& a) {
                               return std::find(a.runIds.begin(), a.runIds.end(), id) != a.runIds.end();
                           });
    };
    for (auto& r : ws.runs())
        if (compared(r.id))
            c.runs.push_back(std::move(r));
    for (const auto& r : c.runs)
        c.runsOf[r.info.config].push_back(&r);
    return c;
}

Section buildSection(ReportSection s, const detail::StudyContext& c) {
    switch (s) {
    case ReportSection::Configurations:
        return detail::configurationsSection(c);
    case ReportSection::Environment:
        return detail::environmentSection(c);
    case ReportSection::Ablation:
        return detail::ablationSection(c);
    case ReportSection::Waterfall:
        return detail::waterfallSection(c);
    case ReportSection::Breakdown:
        return detail::breakdownSection(c);
    case ReportSection::Attribution:
        return detail::attributionSection(c);
    case ReportSection::Ranks:
        return detail::ranksSection(c);
    case ReportSection::Kernels:
        return detail::kernelsSection(c);
    case ReportSection::KernelChanges:
        return detail::kernelChangesSection(c);
    case ReportSection::Insights:
        return detail::insightsSection(c);
    case ReportSection::Methodology:
        return detail::methodologySection(c);
    }
    return detail::methodologySection(c);
}

} // namespace

const std::vector<ReportSection>& allSections() {
    static const std::vector<ReportSection> all = [] {
        std::vector<ReportSection> v;
        v.reserve(std::size(kSectionNames));
        for (const auto& n : kSectionNames)
            v.push_back(n.section);
        return v;
    }();
    return all;
}

std::string_view sectionId(ReportSection s) {
    for (const auto& n : kSectionNames)
        if (n.section == s)
            return n.id;
    return {};
}

std::string_view sectionTitle(ReportSection s) {
    for (const auto& n : kSectionNames)
        if (n.section == s)
            return n.title;
    return {};
}

std::optional<ReportSection> sectionFromId(std::string_view id) {
    for (const auto& n : kSectionNames)
        if (n.id == id)
            return n.section;
    return std::nullopt;
}

std::string ReportModel::metaLine() const {
    std::string s = "Workspace " + workspace;
    if (!study.empty())
        s += " · study " + study;
    if (!plan.empty())
        s += " · plan " + plan;
    if (!generated.empty())
        s += " · generated " + generated;
    return s + " · baseline " + baseline;
}

std::string detail::StudyContext::colorOf(const std::string& config) const {
    return palette::configurationColor(config, plan);
}

ReportModel buildReportModel(const Workspace& ws, const ReportOptions& options, const ProgressSink& sink) {
    if (ws.runs().empty())
        throw InputError(ws.path(), "the workspace has no runs to report on");
    const auto context = studyContext(ws, options);
    ReportModel m;
    m.title = options.title;
    m.generated = options.includeTimestamp ? utcNow("%Y-%m-%d %H:%M UTC") : std::string();
    m.workspace = std::filesystem::path(ws.path()).filename().string();
    m.plan = planNames(ws, context.runs);
    m.baseline = context.ablation.baseline;
    if (context.ablation.studies.size() > 1) // one study: nothing to tell apart
        m.study =
            context.ablation.study.empty() ? std::string("all studies (mixed)") : context.ablation.study;
    m.configurations = context.order;
    // Report order, whatever order the selection lists them in.
    std::vector<ReportSection> selected;
    for (ReportSection s : allSections())
        if (options.sections.empty() ||
            std::find(options.sections.begin(), options.sections.end(), s) != options.sections.end())
            selected.push_back(s);
    sink.report(0.1); // the ablation
    for (std::size_t i = 0; i < selected.size(); ++i) {
        sink.checkCancel();
        m.sections.push_back(buildSection(selected[i], context));
        sink.report(0.1 + 0.9 * static_cast<double>(i + 1) / static_cast<double>(selected.size()));
    }
    return m;
}

std::string ms(Ns ns) {
    return units::durationIn(static_cast<double>(ns), 1e6, 2);
}

std::string ratioText(const RatioWithCi& r) {
    return units::ratioWithCi(r.value, r.hasCi, r.ci95.lo, r.ci95.hi);
}

const char* severityLabel(InsightSeverity s) {
    switch (s) {
    case InsightSeverity::Info:
        return "Info";
    case InsightSeverity::Warning:
        return "Warning";
    case InsightSeverity::Critical:
        return "Critical";
    }
    return "Info";
}

} // namespace cnp::report
