#include "report/ReportFile.h"

#include "core/InputError.h"
#include "report/HtmlReport.h"
#include "report/PdfReport.h"

#include <filesystem>
#include <fstream>

namespace cnp {

void writeReportFile(const Workspace& ws, const std::string& path, ReportFormat format,
                     const ReportOptions& options) {
    const std::string tmp = path + ".part";
    try {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f)
            throw InputError(path, "cannot write the report");
        if (format == ReportFormat::Pdf)
            writePdfReport(ws, f, options);
        else
            writeHtmlReport(ws, f, options);
        if (!f.flush())
            throw InputError(path, "write failed");
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw InputError(path, "cannot replace the file");
    }
}

} // namespace cnp
