#include "report/ReportWriter.h"

#include "core/InputError.h"
#include "export/OutputFile.h"
#include "report/HtmlReport.h"
#include "report/PdfReport.h"
#include "report/ReportData.h"

#include <cctype>
#include <filesystem>
#include <sstream>

namespace cnp {

std::optional<ReportFormat> reportFormatNamed(std::string_view name) {
    if (name == "html")
        return ReportFormat::Html;
    if (name == "pdf")
        return ReportFormat::Pdf;
    if (name == "json")
        return ReportFormat::Json;
    if (name == "csv")
        return ReportFormat::Csv;
    return std::nullopt;
}

std::optional<ReportFormat> reportFormatOf(const std::string& path) {
    if (std::filesystem::is_directory(path))
        return ReportFormat::Csv;
    std::string ext = std::filesystem::path(path).extension().string();
    for (auto& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".html" || ext == ".htm")
        return ReportFormat::Html;
    if (ext == ".pdf")
        return ReportFormat::Pdf;
    if (ext == ".json")
        return ReportFormat::Json;
    if (ext.empty())
        return ReportFormat::Csv;
    return std::nullopt;
}

namespace {

// HTML and PDF are rendered into memory first, then written through OutputFile: an exclusive temporary
// next to the target renamed into place (a planted file or symlink is never written through).
void writeDocument(const report::ReportModel& model, ReportFormat format, PaperSize paper,
                   const std::string& path) {
    std::ostringstream doc;
    if (format == ReportFormat::Pdf)
        writePdfReport(model, doc, paper);
    else
        writeHtmlReport(model, doc);
    OutputFile f(path);
    f.write(doc.view());
    f.commit();
}

} // namespace

void writeReport(const report::ReportModel& model, ReportFormat format, PaperSize paper,
                 const std::string& path) {
    switch (format) {
    case ReportFormat::Csv:
        writeCsvBundle(model, path);
        return;
    case ReportFormat::Json: {
        OutputFile f(path);
        writeJsonReport(model, f);
        f.commit();
        return;
    }
    case ReportFormat::Html:
    case ReportFormat::Pdf:
        writeDocument(model, format, paper, path);
        return;
    }
}

} // namespace cnp
