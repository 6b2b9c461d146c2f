#pragma once
// The report as one self-contained HTML file: inline CSS, the charts as inline SVG drawn by the same
// code as the PDF's (report/ChartPainter), no scripts, no external files. Every text of the model is
// escaped; kernel names are shown in full (wrapped).
#include "report/ReportModel.h"
#include "store/Workspace.h"

#include <ostream>
#include <string>

namespace cnp {

void writeHtmlReport(const report::ReportModel& model, std::ostream& out);
// Builds the model first (buildReportModel's errors: InputError when the workspace has no runs...).
void writeHtmlReport(const Workspace& ws, std::ostream& out, const ReportOptions& options = {});

namespace report {
std::string htmlEscape(const std::string& s); // & < > " ' as entities
}

} // namespace cnp
