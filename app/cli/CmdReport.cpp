// cnp report WS --out FILE.html|FILE.pdf [--format html|pdf] [--baseline LABEL] [--order L1,L2,...]
// [--tokens-per-step N] [--no-timestamp]
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "core/CommaList.h"
#include "export/OutputFile.h"
#include "report/HtmlReport.h"
#include "report/PdfReport.h"
#include "store/Workspace.h"

#include <cctype>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>

namespace cnp::cli {
namespace {

// The format from --format, else from the extension of --out (case-insensitive); anything else is a usage
// error, so a typo never silently writes HTML into "report.pfd".
std::string reportFormat(const std::optional<std::string>& format, const std::string& out) {
    if (format) {
        if (*format != "html" && *format != "pdf")
            throw UsageFailure{"--format must be html or pdf, not '" + *format + "'"};
        return *format;
    }
    std::string ext = std::filesystem::path(out).extension().string();
    for (auto& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == ".html" || ext == ".htm")
        return "html";
    if (ext == ".pdf")
        return "pdf";
    throw UsageFailure{"cannot tell the format from '" + out + "': use a .html or .pdf name or --format"};
}

int runReport(const std::vector<std::string>& args) {
    ArgParser p({"--out", "--format", "--baseline", "--order", "--tokens-per-step", "--title", "--top"},
                {"--no-timestamp"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto out = p.value("--out");
    if (!out)
        throw UsageFailure{"missing --out FILE.html|FILE.pdf"};
    const std::string format = reportFormat(p.value("--format"), *out);
    ReportOptions opt;
    opt.ablation.baseline = p.valueOr("--baseline", "");
    if (auto order = p.value("--order"))
        opt.ablation.order = splitCommaList(*order);
    opt.ablation.tokensPerStep = p.number("--tokens-per-step").value_or(0);
    opt.title = p.valueOr("--title", opt.title);
    opt.topKernels = static_cast<std::size_t>(p.number("--top").value_or(10));
    opt.includeTimestamp = !p.has("--no-timestamp");

    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    // The report shows the workspace as it was when it started, whatever another process ingests or
    // removes meanwhile.
    const ReadTransaction snapshot(ws.db());
    std::ostringstream report;
    if (format == "pdf")
        writePdfReport(ws, report, opt);
    else
        writeHtmlReport(ws, report, opt);
    // A temporary file renamed into place (OutputFile): an existing report is never left half-written.
    OutputFile file(*out);
    file.write(report.view());
    file.commit();
    std::cout << "report written: " << *out << '\n';
    return Ok;
}

CNP_COMMAND("report", "write an HTML or PDF report of the ablation, breakdowns and kernels",
            "usage: cnp report WORKSPACE --out FILE.html|FILE.pdf [--format html|pdf] [--baseline LABEL]\n"
            "                  [--order L1,L2,...] [--tokens-per-step N] [--title TEXT] [--top N]\n"
            "                  [--no-timestamp]\n\n"
            "Runs, throughput per configuration with 95% CIs and speedups, where the time went, what each\n"
            "step bought, and the top N kernels (default 10) of every run. The format follows the extension\n"
            "of --out (.html/.htm or .pdf) unless --format says otherwise. HTML: one file with inline SVG\n"
            "charts (no scripts, no external files). PDF: A4 pages, standard fonts, vector charts, long\n"
            "kernel names shortened with \"…\". --no-timestamp makes the output reproducible.\n",
            runReport);

} // namespace
} // namespace cnp::cli
