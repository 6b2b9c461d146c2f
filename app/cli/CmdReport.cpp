// cnp report WS --out FILE.html [--baseline LABEL] [--order L1,L2,...] [--tokens-per-step N] [--no-timestamp]
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "core/InputError.h"
#include "report/HtmlReport.h"
#include "store/Workspace.h"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace cnp::cli {
namespace {

int runReport(const std::vector<std::string>& args) {
    ArgParser p({"--out", "--baseline", "--order", "--tokens-per-step", "--title", "--top"},
                {"--no-timestamp"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto out = p.value("--out");
    if (!out)
        throw UsageFailure{"missing --out FILE.html"};
    ReportOptions opt;
    opt.ablation.baseline = p.valueOr("--baseline", "");
    if (auto order = p.value("--order")) {
        std::size_t pos = 0;
        while (pos <= order->size()) {
            auto next = order->find(',', pos);
            if (next == std::string::npos)
                next = order->size();
            if (next > pos)
                opt.ablation.order.push_back(order->substr(pos, next - pos));
            pos = next + 1;
        }
    }
    opt.ablation.tokensPerStep = p.number("--tokens-per-step").value_or(0);
    opt.title = p.valueOr("--title", opt.title);
    opt.topKernels = static_cast<std::size_t>(p.number("--top").value_or(10));
    opt.includeTimestamp = !p.has("--no-timestamp");

    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    // Written to a temporary name and renamed, so an existing report is never left half-written.
    const std::string tmp = *out + ".part";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f)
            throw InputError(*out, "cannot write the report");
        writeHtmlReport(ws, f, opt);
        if (!f.flush())
            throw InputError(*out, "write failed");
    }
    std::filesystem::rename(tmp, *out);
    std::cout << "report written: " << *out << '\n';
    return Ok;
}

CNP_COMMAND("report", "write a self-contained HTML report of the ablation, breakdowns and kernels",
            "usage: cnp report WORKSPACE --out FILE.html [--baseline LABEL] [--order L1,L2,...]\n"
            "                  [--tokens-per-step N] [--title TEXT] [--top N] [--no-timestamp]\n\n"
            "One HTML file with inline SVG charts (no scripts, no external files): runs, throughput per\n"
            "configuration with 95% CIs and speedups, where the time went, what each step bought, and the\n"
            "top N kernels (default 10) of every run. --no-timestamp makes the output reproducible.\n",
            runReport);

} // namespace
} // namespace cnp::cli
