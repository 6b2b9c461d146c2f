#pragma once
// A self-contained HTML report of a workspace (inline CSS and SVG, no scripts, no external files):
// runs, the ablation (throughput with 95% CIs, speedups, significance), where the time went (mean
// per-step breakdown), what each step bought (attribution vs the previous configuration) and the top
// kernels of every run. Every number comes from analysis/metrics; this file only formats.
#include "report/ReportContent.h"
#include "store/Workspace.h"

#include <ostream>
#include <string>

namespace cnp {

// ReportOptions: report/ReportContent.h (shared with the PDF report).
// Throws InputError when the workspace has no runs.
void writeHtmlReport(const Workspace& ws, std::ostream& out, const ReportOptions& options = {});

} // namespace cnp
