#include "launch/LogFigures.h"

#include "core/InputError.h"

#include <re2/re2.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace cnp::launch {

namespace {

std::optional<double> toNumber(const std::string& text) {
    if (text.empty())
        return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(text.c_str(), &end);
    if (errno != 0 || end != text.c_str() + text.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

} // namespace

LogFigures parseLogFigures(const std::string& logText, const plan::LogMetric& metric,
                           const std::string& planPath) {
    LogFigures out;
    if (metric.regex.empty())
        return out;
    const bool throughput =
        metric.unit == "tokens/s" || metric.unit == "samples/s" || metric.unit == "steps/s";
    const double stepScale = metric.unit == "s/step" ? 1.0 : (metric.unit == "ms/step" ? 1e-3 : 0.0);
    if (!throughput && stepScale == 0)
        throw InputError(planPath, "logMetric unit '" + metric.unit +
                                       "' is none of tokens/s, samples/s, steps/s, s/step, ms/step");
    RE2 re(metric.regex, RE2::Quiet);
    if (!re.ok())
        throw InputError(planPath, "logMetric regex does not compile: " + re.error());
    if (re.NumberOfCapturingGroups() < 1)
        throw InputError(planPath, "logMetric regex needs a capture group around the number");

    std::vector<double> values;
    std::size_t at = 0;
    while (at < logText.size()) {
        std::size_t eol = logText.find('\n', at);
        if (eol == std::string::npos)
            eol = logText.size();
        std::string captured;
        if (RE2::PartialMatch(re2::StringPiece(logText.data() + at, eol - at), re, &captured))
            if (auto v = toNumber(captured))
                values.push_back(*v);
        at = eol + 1;
    }
    out.matches = static_cast<int>(values.size());
    if (values.empty())
        return out;
    const double m = median(std::move(values));
    if (throughput) {
        out.throughput = m;
        out.throughputUnit = metric.unit;
    } else {
        out.stepTimeSeconds = m * stepScale;
    }
    return out;
}

} // namespace cnp::launch
