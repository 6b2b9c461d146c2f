#pragma once
// Writes a report model to a path in one of the four formats, the one place the CLI (`cnp report`) and
// the workbench (File → Export Report…) both call. HTML and PDF go to "PATH.part", renamed over PATH when
// complete; CSV and JSON files appear only when complete (OutputFile). A failure leaves nothing behind.
#include "report/ReportModel.h"

#include <optional>
#include <string>
#include <string_view>

namespace cnp {

enum class ReportFormat { Html, Pdf, Json, Csv };

// "html", "pdf", "json", "csv"; nullopt for anything else.
std::optional<ReportFormat> reportFormatNamed(std::string_view name);
// From a path: .html/.htm, .pdf, .json (any case); an existing folder or a name without extension is
// the CSV bundle; nullopt for any other extension.
std::optional<ReportFormat> reportFormatOf(const std::string& path);

// Throws InputError naming the path on any write failure.
void writeReport(const report::ReportModel& model, ReportFormat format, PaperSize paper,
                 const std::string& path);

} // namespace cnp
