// cnp report WS --out FILE.html|FILE.pdf|FILE.json|DIR [--format html|pdf|json|csv] [--baseline LABEL]
// [--configs L1,L2,...] [--sections S1,S2,...] [--paper a4|letter] [--tokens-per-step N] [--skip-first N]
// [--title TEXT] [--top N] [--no-timestamp] [--history DIR]
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "core/CommaList.h"
#include "history/HistoryTrend.h"
#include "report/ReportWriter.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <iostream>
#include <optional>
#include <sstream>

namespace cnp::cli {
namespace {

// The format from --format, else from --out (report/ReportWriter); an unknown one is a usage error, so
// a typo never silently writes HTML into "report.pfd".
ReportFormat reportFormat(const std::optional<std::string>& format, const std::string& out) {
    if (format) {
        if (auto f = reportFormatNamed(*format))
            return *f;
        throw UsageFailure{"--format must be html, pdf, json or csv, not '" + *format + "'"};
    }
    if (auto f = reportFormatOf(out))
        return *f;
    throw UsageFailure{"cannot tell the format from '" + out +
                       "': use a .html, .pdf or .json name, a folder, or --format"};
}

std::vector<ReportSection> sections(const std::string& list) {
    std::vector<ReportSection> out;
    for (const auto& id : splitCommaList(list)) {
        const auto s = report::sectionFromId(id);
        if (!s) {
            std::string known;
            for (auto k : report::allSections())
                known += (known.empty() ? "" : ", ") + std::string(report::sectionId(k));
            throw UsageFailure{"unknown section '" + id + "' (sections: " + known + ")"};
        }
        out.push_back(*s);
    }
    return out;
}

PaperSize paper(const std::string& name) {
    if (name == "a4" || name == "A4")
        return PaperSize::A4;
    if (name == "letter" || name == "Letter")
        return PaperSize::Letter;
    throw UsageFailure{"--paper must be a4 or letter, not '" + name + "'"};
}

ReportOptions reportOptions(const ArgParser& p) {
    ReportOptions opt;
    opt.ablation.baseline = p.valueOr("--baseline", "");
    if (auto configs = p.value("--configs"))
        opt.ablation.order = splitCommaList(*configs);
    else if (auto order = p.value("--order"))
        opt.ablation.order = splitCommaList(*order);
    opt.ablation.study = p.valueOr("--study", "");
    opt.ablation.allStudies = p.has("--all-studies");
    if (opt.ablation.allStudies && !opt.ablation.study.empty())
        throw UsageFailure{"give --study NAME or --all-studies, not both"};
    opt.ablation.tokensPerStep = p.number("--tokens-per-step", bounds::kTokensPerStep).value_or(0);
    opt.ablation.skipFirstSteps = static_cast<int>(p.number("--skip-first", 0, 1e9).value_or(0));
    if (opt.ablation.tokensPerStep < 0 || opt.ablation.skipFirstSteps < 0)
        throw UsageFailure{"numeric options must be >= 0"};
    opt.title = p.valueOr("--title", opt.title);
    const double top = p.number("--top", 0, 1e9).value_or(10);
    if (top < 1)
        throw UsageFailure{"--top must be >= 1"};
    opt.topKernels = opt.topKernelChanges = static_cast<std::size_t>(top);
    opt.includeTimestamp = !p.has("--no-timestamp");
    if (auto s = p.value("--sections"))
        opt.sections = sections(*s);
    opt.paper = paper(p.valueOr("--paper", "a4"));
    return opt;
}

int runReport(const std::vector<std::string>& args) {
    ArgParser p({"--out", "--format", "--baseline", "--configs", "--order", "--sections", "--paper",
                 "--tokens-per-step", "--skip-first", "--title", "--top", "--history", "--study"},
                {"--no-timestamp", "--all-studies"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto out = p.value("--out");
    if (!out)
        throw UsageFailure{"missing --out FILE.html|FILE.pdf|FILE.json|DIR"};
    const ReportFormat format = reportFormat(p.value("--format"), *out);
    const ReportOptions opt = reportOptions(p);
    // --history: the release trend (the trend report's section), read before the workspace so that a bad
    // history costs nothing; InputError names the manifest or summary at fault.
    std::optional<HistoryTrend> trend;
    if (auto history = p.value("--history")) {
        if (format != ReportFormat::Html)
            throw UsageFailure{"--history adds the release trend to HTML reports only"};
        trend = loadHistoryTrend(*history);
    }

    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    // The model first, from one snapshot of the workspace (whatever another process ingests or removes
    // meanwhile): a workspace that cannot be reported on leaves no file and no folder behind.
    auto model = [&] {
        const ReadTransaction snapshot = readSnapshot(ws);
        return report::buildReportModel(ws, opt);
    }();
    model.trend = std::move(trend);
    writeReport(model, format, opt.paper, *out);
    std::cout << "report written: " << *out << '\n';
    return Ok;
}

CNP_COMMAND(
    "report", "write the study as an HTML, PDF, JSON report or a CSV bundle",
    "usage: cnp report WORKSPACE --out FILE.html|FILE.pdf|FILE.json|DIR [--format html|pdf|json|csv]\n"
    "                  [--baseline LABEL] [--configs L1,L2,...] [--sections S1,S2,...]\n"
    "                  [--paper a4|letter] [--tokens-per-step N] [--skip-first N] [--title TEXT]\n"
    "                  [--top N] [--no-timestamp] [--history DIR] [--study NAME | --all-studies]\n\n"
    "The whole study: configurations and what changed between them, environment and release-note\n"
    "checks, ablation with 95% CIs and speedups, incremental gains, breakdowns, attribution, ranks,\n"
    "top N kernels (default 10) and their largest changes, insights, methodology. The format follows\n"
    "--out (.html/.htm, .pdf, .json; a folder or a name without extension: one CSV per table) unless\n"
    "--format says otherwise. Sections: configurations, environment, ablation, waterfall, breakdown,\n"
    "attribution, ranks, kernels, kernel-changes, insights, methodology (default all). --configs\n"
    "(alias --order) picks and orders configurations. --no-timestamp makes the output reproducible.\n"
    "--history DIR (HTML only) adds the release trend of a history folder (`cnp history add`): the\n"
    "releases, and per configuration and metric a chart with 95% CIs and the change points, as\n"
    "`cnp history show --html` draws them.\n"
    "A workspace holding several studies (cnp ablation --help) reports one: --study NAME, else the\n"
    "study of the configurations named, else that of the newest run; --all-studies mixes them, warned.\n",
    runReport);

} // namespace
} // namespace cnp::cli
