// cnp history add HISTORY STUDY --release R [--date D] [--commit C] [--driver V] [--cuda V] [--nccl V]
//                  [--image I] [--skip-steps N]
// cnp history show HISTORY [--json] [--html FILE]
// A history is a folder of releases (history/HistoryManifest.h); each release's study is summarised once,
// at `add`, into HISTORY/summaries/RELEASE.json, so `show` and `check` never re-open the studies.
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "TableOutput.h"

#include "core/InputError.h"
#include "core/Units.h"
#include "export/OutputFile.h"
#include "history/HistoryManifest.h"
#include "history/HistoryTrend.h"
#include "history/ReleaseSummaryJson.h"
#include "history/TrendReport.h"
#include "metrics/ReleaseTrend.h"
#include "requests/ReleaseSummaryRequest.h"
#include "store/Workspace.h"

#include <filesystem>
#include <iostream>

namespace cnp::cli {
namespace {

namespace fs = std::filesystem;

int historyAdd(const std::vector<std::string>& args) {
    ArgParser p(
        {"--release", "--date", "--commit", "--driver", "--cuda", "--nccl", "--image", "--skip-steps"}, {});
    p.parse(args);
    p.requirePositionals(2, 2, "HISTORY STUDY");
    if (!p.value("--release"))
        throw UsageFailure{"--release NAME is required"};
    const std::string folder = p.positionals()[0], study = p.positionals()[1];
    HistoryManifest history = HistoryManifest::openOrCreate(folder);
    HistoryEntry e;
    e.release = *p.value("--release");
    if (!HistoryManifest::validReleaseName(e.release))
        throw UsageFailure{"--release must be 1 to 64 of A-Z a-z 0-9 . _ + - (not starting with .)"};
    if (history.entry(e.release))
        throw InputError(history.manifestPath().string(),
                         "release " + e.release + " is already in the history");
    AblationOptions options;
    options.skipFirstSteps = static_cast<int>(p.number("--skip-steps", 0, 1e6).value_or(0));
    ReleaseSummary summary;
    {
        const Workspace ws(study, Workspace::Mode::ReadOnly);
        summary = summarizeWorkspace(ws, options);
    }
    e.date = p.valueOr("--date", "");
    e.commit = p.valueOr("--commit", "");
    e.driver = p.valueOr("--driver", summary.driverVersion);
    e.cuda = p.valueOr("--cuda", summary.cudaVersion);
    e.nccl = p.valueOr("--nccl", "");
    e.image = p.valueOr("--image", summary.containerImage);
    e.study = history.storedStudyPath(study);
    history.add(e);
    const HistoryEntry& added = history.entries().back();
    writeReleaseSummary(summary, history.summaryPath(added).string());
    history.save(); // the manifest last: a failed add leaves at most an unlisted summary file
    std::size_t steps = 0;
    for (const auto& c : summary.configs)
        steps += c.stepCount();
    std::cerr << "history: added " << e.release << " (" << summary.configs.size() << " configurations, "
              << steps << " steps) to " << history.manifestPath().string() << "\n";
    return Ok;
}

std::string pointText(const TrendSeries& s, const TrendPoint& p) {
    if (!p.present)
        return "-";
    if (s.metric == "step_time")
        return units::duration(p.value) + " [" + units::duration(p.lo) + ", " + units::duration(p.hi) + "]";
    if (s.metric == "throughput")
        return units::rate(p.value, s.unit);
    return units::percent(p.value);
}

void showJson(const HistoryManifest& history, const std::vector<TrendSeries>& series) {
    JsonOutput j;
    j.beginObject().key("history").str(history.folder().string()).key("releases").beginArray();
    for (const auto& e : history.entries()) {
        j.beginObject().key("release").str(e.release).key("date").str(e.date).key("commit").str(e.commit);
        j.key("driver").str(e.driver).key("cuda").str(e.cuda).key("nccl").str(e.nccl).key("image").str(
            e.image);
        j.key("study").str(e.study).key("summary").str(e.summary).endObject();
    }
    j.endArray().key("series").beginArray();
    for (const auto& s : series) {
        j.beginObject().key("config").str(s.config).key("metric").str(s.metric).key("unit").str(s.unit);
        j.key("points").beginArray();
        for (const auto& p : s.points) {
            j.beginObject().key("release").str(p.release);
            if (p.present)
                j.key("value").real(p.value).key("ci95").beginArray().real(p.lo).real(p.hi).endArray();
            else
                j.key("value").null().key("ci95").null();
            j.endObject();
        }
        j.endArray().key("change_points").beginArray();
        for (const auto& c : s.changes)
            j.beginObject()
                .key("release")
                .str(s.points[c.index].release)
                .key("index")
                .num(static_cast<std::int64_t>(c.index))
                .key("mean_before")
                .real(c.meanBefore)
                .key("mean_after")
                .real(c.meanAfter)
                .key("p_value")
                .real(c.pValue)
                .endObject();
        j.endArray().endObject();
    }
    j.endArray().endObject();
    std::cout << j.text();
}

void showText(const HistoryManifest& history, const std::vector<TrendSeries>& series) {
    TableOutput releases({"release", "date", "commit", "driver", "cuda", "nccl", "study"});
    for (const auto& e : history.entries())
        releases.addRow({e.release, e.date, e.commit, e.driver, e.cuda, e.nccl, e.study});
    std::cout << history.entries().size() << " releases in " << history.folder().string() << "\n";
    releases.print(std::cout, "  ");
    for (const auto& s : series) {
        if (s.metric == "mfu" &&
            std::none_of(s.points.begin(), s.points.end(), [](const auto& p) { return p.present; }))
            continue;
        std::cout << "\n" << s.config << " " << s.metric << ":\n";
        TableOutput t({"release", ">value [95% CI]", "change"});
        for (std::size_t i = 0; i < s.points.size(); ++i) {
            std::string mark;
            for (const auto& c : s.changes)
                if (c.index == i)
                    mark = "change point: mean " +
                           units::ratio(c.meanBefore > 0 ? c.meanAfter / c.meanBefore : 0) +
                           " (p = " + units::fixed(c.pValue, 3) + ")";
            t.addRow({s.points[i].release, pointText(s, s.points[i]), mark});
        }
        t.print(std::cout, "  ");
    }
}

int historyShow(const std::vector<std::string>& args) {
    ArgParser p({"--html"}, {"--json"});
    p.parse(args);
    p.requirePositionals(1, 1, "HISTORY");
    const HistoryManifest history = HistoryManifest::open(p.positionals()[0]);
    const auto series = releaseTrendOf(history).series();
    if (auto html = p.value("--html")) {
        OutputFile out(*html);
        out.write(
            trendReportHtml(history.entries(), series, "Release history: " + history.folder().string()));
        out.commit();
        std::cerr << "history: trend report written to " << *html << "\n";
    }
    if (p.has("--json"))
        showJson(history, series);
    else
        showText(history, series);
    return Ok;
}

int runHistory(const std::vector<std::string>& args) {
    if (args.empty())
        throw UsageFailure{"expected a subcommand: add or show"};
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "add")
        return historyAdd(rest);
    if (args[0] == "show")
        return historyShow(rest);
    throw UsageFailure{"unknown subcommand '" + args[0] + "' (add or show)"};
}

CNP_COMMAND("history", "a folder of releases' studies: add a release, show the trend with change points",
            "usage: cnp history add HISTORY STUDY --release NAME [--date D] [--commit C] [--driver V]\n"
            "                       [--cuda V] [--nccl V] [--image I] [--skip-steps N]\n"
            "       cnp history show HISTORY [--json] [--html FILE]\n\n"
            "A history is a folder (created by the first add) with a manifest, cnp-history.json, that\n"
            "lists one study (a workspace *.cnpdb or a study folder *.cnpstudy) per image release, and a\n"
            "summary of each release (summaries/NAME.json: per configuration the median step time,\n"
            "throughput, MFU and the per-step samples `cnp check` resamples). `add` reads the study once;\n"
            "`show` and `check` read the summaries only (docs/metrics.md, \"Release history\").\n\n"
            "  add      summarise STUDY (read-only) and append it as release NAME (1 to 64 of\n"
            "           A-Z a-z 0-9 . _ + -). Driver, CUDA and image default to the study's runs'.\n"
            "           STUDY is stored relative to HISTORY when it lies inside it, else absolute.\n"
            "  --skip-steps N  warm-up steps dropped from every run before summarising (default 0)\n"
            "  show     the releases and, per configuration, the median step time [95% CI], throughput\n"
            "           and MFU of every release, with the change points E-divisive finds (p <= 0.05)\n"
            "  --json   the same as JSON (docs/cli.md)\n"
            "  --html FILE  also write the trend report: a chart per configuration and metric with\n"
            "               95% CIs and the change points marked\n",
            runHistory);

} // namespace
} // namespace cnp::cli
