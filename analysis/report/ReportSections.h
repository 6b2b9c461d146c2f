#pragma once
// Internal to the report model: the context every section builder reads, the section builders
// (ReportStudySections.cpp, ReportAblationSections.cpp, ReportDetailSections.cpp) and small cell helpers.
#include "report/ReportModel.h"

#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace cnp::report::detail {

struct StudyContext {
    const Workspace& ws;
    const ReportOptions& options;
    AblationResult ablation;
    std::vector<RunRecord> runs;    // every run of the reported configurations, in plan order
    std::vector<std::string> order; // the reported configurations, in report order
    std::vector<std::string> plan;  // the workspace's plan order (palette positions)
    std::map<std::string, std::vector<const RunRecord*>> runsOf; // configuration -> its runs
    // The configuration's first run: the one whose environment stands for it (kernels pool every run).
    const RunRecord& representative(const std::string& config) const { return *runsOf.at(config).front(); }
    std::string colorOf(const std::string& config) const;
};

Section configurationsSection(const StudyContext& c);
Section environmentSection(const StudyContext& c);
Section ablationSection(const StudyContext& c);
Section waterfallSection(const StudyContext& c);
Section breakdownSection(const StudyContext& c);
Section attributionSection(const StudyContext& c);
Section ranksSection(const StudyContext& c);
Section kernelsSection(const StudyContext& c);
Section kernelChangesSection(const StudyContext& c);
Section insightsSection(const StudyContext& c);
Section methodologySection(const StudyContext& c);

inline Section makeSection(ReportSection id) {
    return {id, std::string(sectionTitle(id)), {}};
}

inline constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

inline Cell textCell(std::string text, std::string swatch = {}) {
    Cell c;
    c.text = std::move(text);
    c.swatch = std::move(swatch);
    return c;
}
inline Cell numberCell(std::string text, std::vector<double> values) {
    Cell c;
    c.text = std::move(text);
    c.values = std::move(values);
    return c;
}
inline Cell nsCell(Ns ns) {
    return numberCell(ms(ns), {static_cast<double>(ns)});
}
inline Column textColumn(std::string title, std::string key) {
    return {std::move(title), ColumnKind::Text, {std::move(key)}};
}
inline Column numberColumn(std::string title, std::vector<std::string> keys) {
    return {std::move(title), ColumnKind::Number, std::move(keys)};
}

} // namespace cnp::report::detail
