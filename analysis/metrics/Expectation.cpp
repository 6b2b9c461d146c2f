#include "metrics/Expectation.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace cnp {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

bool factorOf(std::string_view text, double& f) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, f);
    return ec == std::errc() && ptr == end && std::isfinite(f) && f >= 0 && f <= kMaxExpectationFactor;
}

// One "key=value" item into `s`; the error names the item, else "".
std::string applyItem(std::string_view key, std::string_view value, WhatIfScenario& s) {
    const std::string item = std::string(key) + "=" + std::string(value);
    double f = 0;
    auto needFactor = [&]() {
        return factorOf(value, f)
                   ? std::string()
                   : "'" + item + "': '" + std::string(value) + "' is not a factor from 0 to 1000";
    };
    if (key == "comm") {
        if (auto e = needFactor(); !e.empty())
            return e;
        s.exposedCommunicationFactor = f;
    } else if (key == "recompute" && value == "drop") {
        s.dropRecomputation = true;
    } else if (key == "recompute" || key.starts_with("scale.") || key.starts_with("scale_kernel.")) {
        if (auto e = needFactor(); !e.empty())
            return e;
        const bool kernel = key.starts_with("scale_kernel.");
        const std::string name =
            key == "recompute" ? std::string("recompute") : std::string(key.substr(kernel ? 13 : 6));
        if (name.empty())
            return "'" + item + "': no name after '" + std::string(key) + "'";
        (kernel ? s.kernelFactors : s.categoryFactors).emplace_back(name, f);
    } else if (key == "launch_overhead") {
        if (value != "remove")
            return "'" + item + "': launch_overhead can only be 'remove'";
        s.removeLaunchOverhead = true;
    } else if (key == "remove_sync") {
        if (value.empty())
            return "'" + item + "': remove_sync needs an API name or 'all'";
        s.removedSyncs.emplace_back(value);
    } else {
        return "'" + item +
               "': unknown transformation (comm, scale.CATEGORY, scale_kernel.NAME, recompute, "
               "launch_overhead, remove_sync)";
    }
    return {};
}

} // namespace

ExpectationParse parseExpectation(std::string_view text) {
    ExpectationParse out;
    while (!text.empty()) {
        const std::size_t semi = text.find(';');
        const std::string_view item = trim(text.substr(0, semi));
        text = semi == std::string_view::npos ? std::string_view() : text.substr(semi + 1);
        if (item.empty())
            continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) {
            out.error = "'" + std::string(item) + "' is not KEY=VALUE";
            return out;
        }
        out.error = applyItem(trim(item.substr(0, eq)), trim(item.substr(eq + 1)), out.scenario);
        if (!out.ok())
            return out;
    }
    if (out.scenario.empty())
        out.error = "no transformation: an expectation names at least one (e.g. comm=0.5)";
    return out;
}

std::string formatExpectation(const WhatIfScenario& s) {
    std::ostringstream o;
    o.precision(10);
    const char* sep = "";
    if (s.exposedCommunicationFactor != 1.0)
        o << sep << "comm=" << s.exposedCommunicationFactor, sep = "; ";
    for (const auto& [c, f] : s.categoryFactors)
        o << sep << "scale." << c << "=" << f, sep = "; ";
    for (const auto& [k, f] : s.kernelFactors)
        o << sep << "scale_kernel." << k << "=" << f, sep = "; ";
    if (s.dropRecomputation)
        o << sep << "recompute=drop", sep = "; ";
    if (s.removeLaunchOverhead)
        o << sep << "launch_overhead=remove", sep = "; ";
    for (const auto& r : s.removedSyncs)
        o << sep << "remove_sync=" << r, sep = "; ";
    return o.str();
}

} // namespace cnp
