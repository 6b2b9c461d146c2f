#include "history/JUnitReport.h"

#include <cstdio>
#include <sstream>

namespace cnp {

std::string xmlEscape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f ? '?' : c;
        }
    }
    return out;
}

namespace {

std::string percent(double ratio) {
    char b[32];
    std::snprintf(b, sizeof b, "%+.2f%%", (ratio - 1) * 100);
    return b;
}

// One line per check: the change, its CI and the categories and kernels that moved most.
std::string describe(const ConfigCheck& c) {
    std::ostringstream m;
    const auto& o = c.outcome;
    if (o.verdict == GateVerdict::CannotJudge)
        return c.config + " " + c.metric.name() + ": cannot judge: " + o.reason;
    m << c.config << " " << c.metric.name() << " " << percent(o.ratio) << " (ratio " << o.ratio << ", 95% CI "
      << o.ci.lo << " .. " << o.ci.hi << ", " << o.baselineSteps << " vs " << o.candidateSteps << " steps)";
    if (!c.moved.empty()) {
        m << "; moved most:";
        for (const auto& mv : c.moved)
            m << " " << mv.category << " " << (mv.deltaNs() >= 0 ? "+" : "") << mv.deltaNs() / 1e6
              << " ms/step";
    }
    if (!c.kernelsMoved.empty()) {
        m << "; kernels moved most:";
        for (const auto& k : c.kernelsMoved) {
            m << " " << k.kernel << " " << (k.deltaNs() >= 0 ? "+" : "") << k.deltaNs() / 1e6 << " ms/step";
            if (k.hasShare)
                m << " (" << k.share * 100 << "% of the step-time change)";
            m << ";";
        }
    }
    return m.str();
}

} // namespace

std::string junitReport(const ReleaseCheck& check, const std::string& baselineRelease,
                        const std::string& candidate) {
    std::size_t failures = 0, errors = check.problems.empty() ? 0 : 1;
    for (const auto& c : check.checks) {
        failures += c.outcome.verdict == GateVerdict::Regression;
        errors += c.outcome.verdict == GateVerdict::CannotJudge;
    }
    const std::size_t tests = check.checks.size() + (check.problems.empty() ? 0 : 1);
    std::ostringstream x;
    x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x << "<testsuites>\n";
    x << "  <testsuite name=\"cnp check\" tests=\"" << tests << "\" failures=\"" << failures << "\" errors=\""
      << errors << "\" skipped=\"0\">\n";
    x << "    <properties>\n";
    x << "      <property name=\"baseline\" value=\"" << xmlEscape(baselineRelease) << "\"/>\n";
    x << "      <property name=\"candidate\" value=\"" << xmlEscape(candidate) << "\"/>\n";
    x << "    </properties>\n";
    if (!check.problems.empty()) {
        x << "    <testcase classname=\"cnp.check\" name=\"plan\">\n";
        for (const auto& p : check.problems)
            x << "      <error type=\"cannot-judge\" message=\"" << xmlEscape(p) << "\"/>\n";
        x << "    </testcase>\n";
    }
    for (const auto& c : check.checks) {
        x << "    <testcase classname=\"cnp.check." << xmlEscape(c.config) << "\" name=\""
          << xmlEscape(c.metric.name()) << "\">\n";
        const std::string text = xmlEscape(describe(c));
        if (c.outcome.verdict == GateVerdict::Regression)
            x << "      <failure type=\"regression\" message=\"" << text << "\"/>\n";
        else if (c.outcome.verdict == GateVerdict::CannotJudge)
            x << "      <error type=\"cannot-judge\" message=\"" << text << "\"/>\n";
        else
            x << "      <system-out>" << toString(c.outcome.verdict) << ": " << text << "</system-out>\n";
        x << "    </testcase>\n";
    }
    x << "  </testsuite>\n</testsuites>\n";
    return x.str();
}

} // namespace cnp
