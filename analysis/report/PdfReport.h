#pragma once
// The report as a PDF through cairo (report/PdfLayout): A4 or Letter pages, vector charts (the same
// drawing as the HTML's, report/ChartPainter), Unicode text through Pango with embedded font subsets,
// tables split across pages with repeated headers, long kernel names elided in the middle with the full
// names in an appendix, "page i of n" footers. Reproducible when the model has no timestamp.
#include "report/ReportModel.h"
#include "store/Workspace.h"

#include <ostream>

namespace cnp {

void writePdfReport(const report::ReportModel& model, std::ostream& out, PaperSize paper = PaperSize::A4);
// Builds the model first (buildReportModel's errors: InputError when the workspace has no runs...).
void writePdfReport(const Workspace& ws, std::ostream& out, const ReportOptions& options = {});

} // namespace cnp
