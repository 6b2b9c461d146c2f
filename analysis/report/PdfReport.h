#pragma once
// The workspace report as a PDF (A4 portrait, standard fonts, vector charts; report/PdfWriter): the same
// sections, numbers and colours as the HTML report (report/ReportContent supplies both), laid out with
// automatic page breaks (tables break between rows and repeat their header) and "page i of n" footers.
#include "report/ReportContent.h"
#include "store/Workspace.h"

#include <ostream>

namespace cnp {

// Throws InputError when the workspace has no runs. options.compressPdf off writes plain-text page
// streams (for tests). Output is reproducible when options.includeTimestamp is off.
void writePdfReport(const Workspace& ws, std::ostream& out, const ReportOptions& options = {});

} // namespace cnp
