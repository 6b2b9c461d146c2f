#include "plan/PlanTextEdit.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string_view>
#include <vector>

namespace cnp::plan {
namespace {

// Byte offset of the start of each line.
std::vector<std::size_t> lineStarts(const std::string& text) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n')
            starts.push_back(i + 1);
    return starts;
}

std::optional<std::size_t> offsetOf(const std::string& text, SourcePos pos) {
    const auto starts = lineStarts(text);
    if (pos.line < 1 || std::size_t(pos.line) > starts.size() || pos.column < 1)
        return std::nullopt;
    const std::size_t o = starts[std::size_t(pos.line) - 1] + std::size_t(pos.column) - 1;
    return o < text.size() ? std::optional(o) : std::nullopt;
}

// End (exclusive) of a quoted scalar starting at `o`, or npos when it does not close.
std::size_t quotedEnd(const std::string& text, std::size_t o) {
    const char q = text[o];
    for (std::size_t i = o + 1; i < text.size(); ++i) {
        const bool backslashEscape = q == '"' && text[i] == '\\';
        const bool doubledQuote = text[i] == q && q == '\'' && i + 1 < text.size() && text[i + 1] == '\'';
        if (backslashEscape || doubledQuote) // \x in "...", '' (an escaped quote) in '...'
            ++i;
        else if (text[i] == q)
            return i + 1;
    }
    return std::string::npos;
}

// Whether `o` lies inside [ ] or { } opened earlier on its line (quotes skipped).
bool inFlow(const std::string& text, std::size_t lineStart, std::size_t o) {
    int depth = 0;
    for (std::size_t i = lineStart; i < o; ++i) {
        if (text[i] == '"' || text[i] == '\'') {
            const std::size_t e = quotedEnd(text, i);
            if (e == std::string::npos || e > o)
                return depth > 0;
            i = e - 1;
        } else if (text[i] == '[' || text[i] == '{')
            ++depth;
        else if (text[i] == ']' || text[i] == '}')
            --depth;
    }
    return depth > 0;
}

// End (exclusive) of a plain scalar at `o`: the line's end, a comment, or (in flow context) , ] }.
std::size_t plainEnd(const std::string& text, std::size_t lineStart, std::size_t o) {
    const bool flow = inFlow(text, lineStart, o);
    std::size_t i = o;
    while (i < text.size() && text[i] != '\n' && !(text[i] == '#' && i > o && text[i - 1] == ' ') &&
           !(flow && (text[i] == ',' || text[i] == ']' || text[i] == '}')))
        ++i;
    while (i > o && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\r'))
        --i;
    return i;
}

bool readsAsNonString(const std::string& v) {
    static const std::vector<std::string> special = {"true", "false", "yes", "no", "on",
                                                     "off",  "null",  "~",   "y",  "n"};
    std::string lower = v;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (std::find(special.begin(), special.end(), lower) != special.end())
        return true;
    return !v.empty() && (std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '.' || v[0] == '+');
}

} // namespace

std::string yamlScalar(const std::string& value) {
    const bool plainSafe =
        !value.empty() && !readsAsNonString(value) &&
        std::string_view("-?:,[]{}#&*!|>'\"%@`").find(value[0]) == std::string_view::npos &&
        std::all_of(value.begin(), value.end(), [](unsigned char c) {
            return std::isalnum(c) || std::string_view("_./+-=@").find(char(c)) != std::string_view::npos;
        });
    if (plainSafe)
        return value;
    std::string out = "\"";
    for (unsigned char c : value) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += char(c);
        }
    }
    return out + "\"";
}

std::optional<std::string> replaceScalar(const std::string& text, SourcePos pos, const std::string& value) {
    const auto o = offsetOf(text, pos);
    if (!o)
        return std::nullopt;
    const char c = text[*o];
    if (c == '|' || c == '>' || c == '[' || c == '{' || c == '\n')
        return std::nullopt;
    const std::size_t lineStart = text.rfind('\n', *o) == std::string::npos ? 0 : text.rfind('\n', *o) + 1;
    const std::size_t end = (c == '"' || c == '\'') ? quotedEnd(text, *o) : plainEnd(text, lineStart, *o);
    if (end == std::string::npos)
        return std::nullopt;
    return text.substr(0, *o) + yamlScalar(value) + text.substr(end);
}

std::optional<std::string> setConfigurationKey(const std::string& text, const Configuration& c,
                                               const std::string& key, const std::string& value) {
    if (auto it = c.own.positions.find(key); it != c.own.positions.end())
        return replaceScalar(text, it->second, value);
    auto namePos = c.own.positions.find("name");
    if (namePos == c.own.positions.end())
        return std::nullopt;
    const auto o = offsetOf(text, namePos->second);
    if (!o)
        return std::nullopt;
    const std::size_t lineStart = text.rfind('\n', *o) == std::string::npos ? 0 : text.rfind('\n', *o) + 1;
    const std::size_t keyAt = text.rfind("name", *o);
    if (keyAt == std::string::npos || keyAt < lineStart || inFlow(text, lineStart, keyAt))
        return std::nullopt;
    std::size_t lineEnd = text.find('\n', *o);
    const std::string line = std::string(keyAt - lineStart, ' ') + key + ": " + yamlScalar(value);
    if (lineEnd == std::string::npos)
        return text + "\n" + line + "\n";
    return text.substr(0, lineEnd + 1) + line + "\n" + text.substr(lineEnd + 1);
}

std::optional<std::string> renameConfiguration(const std::string& text, const Plan& plan, std::size_t index,
                                               const std::string& newName) {
    if (index >= plan.configurations.size())
        return std::nullopt;
    const std::string& old = plan.configurations[index].name;
    std::vector<SourcePos> sites; // the name and every reference to it
    for (std::size_t i = 0; i < plan.configurations.size(); ++i) {
        const Configuration& c = plan.configurations[i];
        const char* key = i == index ? "name" : (c.extends == old ? "extends" : nullptr);
        if (auto it = key ? c.own.positions.find(key) : c.own.positions.end(); it != c.own.positions.end())
            sites.push_back(it->second);
    }
    // Last site first: an edit never moves the positions written before it.
    std::sort(sites.begin(), sites.end(), [](SourcePos a, SourcePos b) {
        return std::pair(a.line, a.column) > std::pair(b.line, b.column);
    });
    std::optional<std::string> out = text;
    for (const SourcePos& p : sites)
        if (!(out = replaceScalar(*out, p, newName)))
            return std::nullopt;
    return out;
}

std::optional<std::string> appendConfiguration(const std::string& text, const std::string& name,
                                               const std::string& parent) {
    const auto starts = lineStarts(text);
    std::size_t keyLine = starts.size();
    for (std::size_t l = 0; l < starts.size(); ++l)
        if (text.compare(starts[l], 15, "configurations:") == 0)
            keyLine = l;
    if (keyLine == starts.size())
        return std::nullopt;
    const std::size_t keyEnd = text.find('\n', starts[keyLine]);
    const std::string rest =
        text.substr(starts[keyLine] + 15,
                    keyEnd == std::string::npos ? std::string::npos : keyEnd - starts[keyLine] - 15);
    if (rest.find_first_not_of(" \t\r") != std::string::npos && rest[rest.find_first_not_of(" \t\r")] != '#')
        return std::nullopt; // flow style: `configurations: [...]`
    // The list runs until the next line that starts a top-level key; items take the first item's indent.
    std::size_t indent = std::string::npos, insertAt = text.size();
    for (std::size_t l = keyLine + 1; l < starts.size(); ++l) {
        const std::size_t s = starts[l];
        if (s >= text.size())
            break;
        const std::size_t first = text.find_first_not_of(' ', s);
        if (first == std::string::npos || text[first] == '\n' || text[first] == '#')
            continue;
        if (first == s && text[s] != '-') {
            insertAt = s;
            break;
        }
        if (indent == std::string::npos && text[first] == '-')
            indent = first - s;
    }
    const std::string pad(indent == std::string::npos ? 2 : indent, ' ');
    std::string block = pad + "- name: " + yamlScalar(name) + "\n";
    if (!parent.empty())
        block += pad + "  extends: " + yamlScalar(parent) + "\n";
    std::string head = text.substr(0, insertAt);
    if (!head.empty() && head.back() != '\n')
        head += '\n';
    return head + block + text.substr(insertAt);
}

} // namespace cnp::plan
