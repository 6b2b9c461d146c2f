#pragma once
// The one report model: everything a report says — metadata, section prose, tables (display text plus
// the raw numbers behind it), figures and notes — built once from the metrics of a workspace. Every
// writer (HTML, PDF, CSV bundle, JSON) renders this model and only lays it out, so the formats cannot
// disagree. Strings are UTF-8 and unescaped; writers escape for their format.
#include "history/HistoryTrend.h"
#include "report/Figure.h"
#include "requests/AblationRequest.h"
#include "requests/InsightsRequest.h"
#include "store/Workspace.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cnp {

// Sections in report order; `cnp report --sections` names them by sectionId().
enum class ReportSection {
    Configurations,
    Environment,
    Ablation,
    Waterfall,
    Breakdown,
    Attribution,
    Ranks,
    Kernels,
    KernelChanges,
    Insights,
    Methodology,
};

enum class PaperSize { A4, Letter };

struct ReportOptions {
    AblationOptions ablation;
    std::string title = "CNP Workbench report";
    bool includeTimestamp = true;        // off for reproducible (golden) output
    std::size_t topKernels = 10;         // rows per configuration in "Top kernels"
    std::size_t topKernelChanges = 10;   // rows per configuration pair in "Largest kernel changes"
    std::vector<ReportSection> sections; // empty: all, in report order
    PaperSize paper = PaperSize::A4;     // PDF only
};

namespace report {

const std::vector<ReportSection>& allSections();
std::string_view sectionId(ReportSection s);    // "configurations", "kernel-changes", ...
std::string_view sectionTitle(ReportSection s); // "Configurations", "Largest kernel changes", ...
std::optional<ReportSection> sectionFromId(std::string_view id);

// Display kinds: Text is left-aligned prose, Number right-aligned tabular figures, Kernel a kernel name
// (monospace; writers that must shorten it elide in the middle and keep the full name available).
enum class ColumnKind { Text, Number, Kernel };

struct Column {
    std::string title; // display header, with its unit, e.g. "Median step (ms)"
    ColumnKind kind = ColumnKind::Text;
    // CSV/JSON field names. Text/Kernel columns: one, holding the cell text. Number columns: one per raw
    // value of the cell (e.g. {"speedup", "speedup_ci_lo", "speedup_ci_hi"}), with the unit in the name
    // where it has one ("median_step_ns").
    std::vector<std::string> keys;
};

struct Cell {
    std::string text;           // as displayed
    std::vector<double> values; // Number columns: raw values, one per column key; NaN = unknown
    std::string swatch;         // "#rrggbb" drawn before the text, or empty
    bool muted = false;         // not significant / not applicable: greyed
    bool bold = false;
    int sign = 0; // a delta's direction for colouring: -1 better (faster), +1 worse, 0 neutral
};

struct Table {
    std::string id; // unique in the report; the CSV file name (without ".csv")
    std::vector<Column> columns;
    std::vector<std::vector<Cell>> rows; // every row has columns.size() cells
};

struct Note {
    InsightSeverity severity = InsightSeverity::Info;
    std::string title; // one line
    std::string explanation;
    std::vector<std::string> evidence; // short lines
};

struct Heading {
    std::string text; // a sub-heading inside a section
};
struct Paragraph {
    std::string text;
};
struct NoteList {
    std::vector<Note> notes;
};

using Block = std::variant<Heading, Paragraph, Figure, Table, NoteList>;

struct Section {
    ReportSection id;
    std::string title;
    std::vector<Block> blocks; // in reading order
};

struct ReportModel {
    std::string title;
    std::string generated; // "YYYY-MM-DD HH:MM UTC", empty when the options leave the timestamp out
    std::string workspace; // file name
    std::string plan;      // plan names from the runs' plan.name attributes, or empty
    std::string study;     // the ablation study reported, when the workspace holds several; else empty
    std::string baseline;
    std::vector<std::string> configurations; // in report order
    std::vector<Section> sections;           // the selected ones, in report order
    // `cnp report --history DIR`: the release history's trend (history/HistoryTrend.h), shown by the HTML
    // writer as the trend report's section (history/TrendReport.h); nullopt: none.
    std::optional<HistoryTrend> trend;
    // "Workspace W · study S · plan P · generated T · baseline B" (parts that are unknown left out).
    std::string metaLine() const;
};

// Throws InputError when the workspace has no runs, or when a requested configuration or the baseline
// has none (computeAblation's errors). Cost: the ablation, one insights pass and one kernel diff per
// configuration (summaries only). `sink` hears the fraction done after each section and may cancel
// (throws Cancelled).
ReportModel buildReportModel(const Workspace& ws, const ReportOptions& options,
                             const ProgressSink& sink = {});

// Formatting shared by the model and the writers.
std::string ms(Ns ns);                       // fixed milliseconds with 2 decimals, e.g. 10'000'000 -> "10.00"
std::string ratioText(const RatioWithCi& r); // "1.25× [1.20×, 1.31×]"
const char* severityLabel(InsightSeverity s); // "Info", "Warning", "Critical"

} // namespace report
} // namespace cnp
