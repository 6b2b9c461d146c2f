#pragma once
// Writes the workspace report to a file that appears only when complete: the bytes go to "<path>.part"
// and are renamed over `path`; a failure removes the partial file and leaves an existing report as it
// was. Used by the workbench's File → Export Report… (the same writers as `cnp report`).
#include "report/ReportContent.h"

#include <string>

namespace cnp {

class Workspace;

enum class ReportFormat { Html, Pdf };

// Throws InputError naming `path` when it cannot be written (or when the workspace has no runs).
void writeReportFile(const Workspace& ws, const std::string& path, ReportFormat format,
                     const ReportOptions& options = {});

} // namespace cnp
