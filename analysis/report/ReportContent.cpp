#include "report/ReportContent.h"

#include "core/Units.h"
#include "report/Palette.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>

namespace cnp::report {

const std::vector<std::string>& runsHeaders() {
    static const std::vector<std::string> h = {"Run", "Configuration", "Format",        "Ranks",
                                               "GPU", "Kernels",       "Skipped events"};
    return h;
}

const std::vector<std::string>& ablationHeaders() {
    static const std::vector<std::string> h = {"Configuration",
                                               "Runs",
                                               "Steps",
                                               "Median step (ms)",
                                               "95% CI (ms)",
                                               "Throughput",
                                               "MFU",
                                               "Speedup vs baseline [95% CI]",
                                               "Gain vs previous [95% CI]"};
    return h;
}

const std::vector<std::string>& breakdownHeaders() {
    static const std::vector<std::string> h = {"Configuration", "Mean step (ms)", "Compute", "Exposed comm.",
                                               "Overlap",       "Exposed memory", "Idle"};
    return h;
}

const std::vector<std::string>& kernelHeaders() {
    static const std::vector<std::string> h = {"Kernel", "Category", "Count",           "Total",
                                               "Mean",   "Median",   "% of kernel time"};
    return h;
}

std::string metaLine(const Workspace& ws, const ReportOptions& options, const std::string& baseline) {
    std::string s = "Workspace " + std::filesystem::path(ws.path()).filename().string();
    if (options.includeTimestamp) {
        const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
        std::tm tm{};
        gmtime_r(&t, &tm);
        char buf[40];
        std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
        s += std::string(" · generated ") + buf;
    }
    return s + " · baseline " + baseline;
}

std::string ms(Ns ns) {
    return units::durationIn(static_cast<double>(ns), 1e6, 2);
}

std::pair<double, double> throughputBounds(const AblationConfig& c) {
    return {c.throughputCiLo, c.throughputCiHi};
}

std::string ratioText(const RatioWithCi& r) {
    return units::ratio(r.value) + " [" + units::ratio(r.ci95.lo) + ", " + units::ratio(r.ci95.hi) + "]";
}

std::string configurationColor(const std::string& config, const std::vector<std::string>& plan) {
    return palette::configurationColor(config, plan);
}

Ns attributionOf(const AblationConfig& c, const std::string& category) {
    Ns v = 0;
    if (c.attributionVsPreviousNs)
        for (const auto& [name, ns] : *c.attributionVsPreviousNs)
            if (name == category)
                v = ns;
    return v;
}

std::vector<Bar> ablationBars(const AblationResult& a, const std::vector<std::string>& plan) {
    const std::string unit = a.configs.empty() ? "steps/s" : a.configs.front().throughputUnit;
    std::vector<Bar> bars;
    for (const auto& c : a.configs) {
        const auto [lo, hi] = throughputBounds(c);
        Bar b;
        b.label = c.config;
        b.value = c.throughput;
        b.errLo = lo;
        b.errHi = hi;
        b.color = configurationColor(c.config, plan);
        b.annotation = units::ratio(c.speedupVsBaseline.value) +
                       (c.speedupVsBaseline.significant || c.config == a.baseline ? "" : " (n.s.)");
        b.tooltip =
            c.config + ": " + units::rate(c.throughput, unit) + ", median step " + ms(c.medianStepNs) + " ms";
        bars.push_back(b);
    }
    return bars;
}

std::vector<StackedBar> breakdownBars(const AblationResult& a) {
    std::vector<StackedBar> bars;
    for (const auto& c : a.configs) {
        const auto& b = c.breakdownMeanNs;
        bars.push_back({c.config,
                        {{"compute", static_cast<double>(b.compute), palette::categoryColor("compute")},
                         {"exposed communication", static_cast<double>(b.communication),
                          palette::categoryColor("communication")},
                         {"exposed memory", static_cast<double>(b.memory), palette::categoryColor("memory")},
                         {"idle", static_cast<double>(b.idle), palette::categoryColor("idle")}}});
    }
    return bars;
}

double niceStep(double maxValue, int ticks) {
    if (maxValue <= 0)
        return 1;
    const double raw = maxValue / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

namespace {
std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}
} // namespace

std::string tickLabel(double v) {
    if (v == 0)
        return "0";
    const double a = std::fabs(v);
    if (a >= 1e6)
        return fixed(v / 1e6, a >= 1e7 ? 0 : 1) + "M";
    if (a >= 1e3)
        return fixed(v / 1e3, a >= 1e4 ? 0 : 1) + "k";
    return fixed(v, a >= 10 ? 0 : a >= 1 ? 1 : 2);
}

} // namespace cnp::report
