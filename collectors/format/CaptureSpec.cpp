#include "CaptureSpec.h"

#include <cstdlib>
#include <vector>

namespace cnp::collector {

namespace {

std::vector<std::string> split(std::string_view s, char sep) {
    std::vector<std::string> out;
    std::size_t b = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.emplace_back(s.substr(b, i - b));
            b = i + 1;
        }
    return out;
}

bool toDouble(const std::string& s, double& v) {
    if (s.empty())
        return false;
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return end && *end == '\0' && v >= 0;
}

bool toLong(const std::string& s, long& v) {
    if (s.empty())
        return false;
    char* end = nullptr;
    v = std::strtol(s.c_str(), &end, 10);
    return end && *end == '\0' && v >= 0;
}

} // namespace

CaptureSpec CaptureSpec::parse(std::string_view text) {
    CaptureSpec c;
    if (text.empty() || text == "all")
        return c;
    const auto parts = split(text, ':');
    auto refuse = [&](const char* why) {
        CaptureSpec bad;
        bad.error = "CNP_CAPTURE='" + std::string(text) + "': " + why;
        return bad;
    };
    if (parts[0] == "time") {
        if (parts.size() < 2 || parts.size() > 3)
            return refuse("expected time:DELAY[:DURATION] in seconds");
        c.mode = Mode::Time;
        if (!toDouble(parts[1], c.delaySeconds) ||
            (parts.size() == 3 && !toDouble(parts[2], c.durationSeconds)))
            return refuse("delay and duration must be non-negative numbers of seconds");
        return c;
    }
    if (parts[0] == "steps") {
        if (parts.size() < 3 || parts.size() > 4)
            return refuse("expected steps:START:COUNT[:PREFIX]");
        c.mode = Mode::Steps;
        if (!toLong(parts[1], c.startStep) || !toLong(parts[2], c.stepCount))
            return refuse("START and COUNT must be non-negative integers");
        if (parts.size() == 4) {
            if (parts[3].empty())
                return refuse("empty step name prefix");
            c.stepPrefix = parts[3];
        }
        return c;
    }
    return refuse("expected all, time:DELAY[:DURATION] or steps:START:COUNT[:PREFIX]");
}

std::string CaptureSpec::describe() const {
    auto num = [](double d) {
        std::string s = std::to_string(d);
        while (!s.empty() && s.back() == '0')
            s.pop_back();
        if (!s.empty() && s.back() == '.')
            s.pop_back();
        return s;
    };
    switch (mode) {
    case Mode::All:
        return "all";
    case Mode::Time:
        return "time:" + num(delaySeconds) + ":" + num(durationSeconds);
    case Mode::Steps:
        return "steps:" + std::to_string(startStep) + ":" + std::to_string(stepCount) + ":" + stepPrefix;
    }
    return "all";
}

bool CaptureSpec::matchStep(std::string_view name, std::string_view prefix, long& step) {
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix)
        return false;
    std::size_t i = prefix.size();
    while (i < name.size() && (name[i] == ' ' || name[i] == '#' || name[i] == '_'))
        ++i;
    if (i == name.size())
        return false;
    long v = 0;
    for (; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9')
            return false;
        v = v * 10 + (name[i] - '0');
        if (v > 1000000000L)
            return false;
    }
    step = v;
    return true;
}

} // namespace cnp::collector
