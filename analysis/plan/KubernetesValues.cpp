#include "plan/KubernetesValues.h"

#include <cctype>

namespace cnp::plan {

namespace {

constexpr std::size_t kMaxNameLength = 63;
constexpr std::size_t kMaxPrefixLength = 253;

bool digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}
bool alnum(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
bool lowerAlnum(char c) {
    return digit(c) || (c >= 'a' && c <= 'z');
}

// Digits from `at`; returns how many.
std::size_t digitsAt(const std::string& s, std::size_t at) {
    std::size_t n = 0;
    while (at + n < s.size() && digit(s[at + n]))
        ++n;
    return n;
}

// <number> ::= <digits> | <digits>.<digits> | <digits>. | .<digits>, from `at`; advances it. False when
// there is no number there.
bool readNumber(const std::string& s, std::size_t& at) {
    const std::size_t whole = digitsAt(s, at);
    at += whole;
    std::size_t fraction = 0;
    if (at < s.size() && s[at] == '.') {
        fraction = digitsAt(s, at + 1);
        at += 1 + fraction;
    }
    return whole + fraction > 0;
}

bool validSuffix(const std::string& suffix) {
    static const char* const suffixes[] = {"",  "m",  "k",  "M",  "G",  "T",  "P",
                                           "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    for (const char* s : suffixes)
        if (suffix == s)
            return true;
    if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) { // a decimal exponent
        std::size_t at = 1;
        if (suffix[at] == '+' || suffix[at] == '-')
            ++at;
        return at < suffix.size() && digitsAt(suffix, at) == suffix.size() - at;
    }
    return false;
}

// A label name: at most 63 characters, alphanumeric at both ends, '-', '_' or '.' inside.
std::string nameProblem(const std::string& name, const char* what) {
    if (name.empty())
        return std::string(what) + " is empty";
    if (name.size() > kMaxNameLength)
        return std::string(what) + " is longer than 63 characters";
    if (!alnum(name.front()) || !alnum(name.back()))
        return std::string(what) + " must begin and end with a letter or digit";
    for (char c : name)
        if (!alnum(c) && c != '-' && c != '_' && c != '.')
            return std::string(what) + " holds '" + std::string(1, c) +
                   "' (only letters, digits, '-', '_' and '.' are allowed)";
    return {};
}

// A DNS subdomain: lower-case alphanumerics, '-' and '.', alphanumeric at both ends of each label.
std::string prefixProblem(const std::string& prefix) {
    if (prefix.empty() || prefix.size() > kMaxPrefixLength)
        return "its prefix (before '/') must be a DNS subdomain of 1 to 253 characters";
    std::size_t start = 0;
    while (start <= prefix.size()) {
        const std::size_t dot = prefix.find('.', start);
        const std::string label =
            prefix.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (label.empty() || !lowerAlnum(label.front()) || !lowerAlnum(label.back()))
            return "its prefix '" + prefix +
                   "' is not a DNS subdomain (lower-case letters, digits, '-' and '.')";
        for (char c : label)
            if (!lowerAlnum(c) && c != '-')
                return "its prefix '" + prefix +
                       "' is not a DNS subdomain (lower-case letters, digits, '-' and '.')";
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    return {};
}

} // namespace

std::string quantityProblem(const std::string& q) {
    std::string shape = "'" + q +
                        "' is not a Kubernetes quantity (a number and an optional suffix: 16, 500m, 128Gi, "
                        "1.5G, 1e3)";
    std::size_t at = 0;
    bool negative = false;
    if (at < q.size() && (q[at] == '+' || q[at] == '-')) {
        negative = q[at] == '-';
        ++at;
    }
    if (!readNumber(q, at) || !validSuffix(q.substr(at)))
        return shape;
    bool zero = true;
    for (char c : q.substr(0, at))
        if (c >= '1' && c <= '9')
            zero = false;
    if (negative && !zero)
        return "'" + q + "' is negative: a request or limit must be at least 0";
    return {};
}

std::string labelKeyProblem(const std::string& key) {
    const auto slash = key.find('/');
    if (slash == std::string::npos)
        return nameProblem(key, ("label key '" + key + "': its name").c_str());
    if (std::string why = prefixProblem(key.substr(0, slash)); !why.empty())
        return "label key '" + key + "': " + why;
    return nameProblem(key.substr(slash + 1), ("label key '" + key + "': its name (after '/')").c_str());
}

std::string labelValueProblem(const std::string& value) {
    return value.empty() ? std::string() : nameProblem(value, ("label value '" + value + "'").c_str());
}

namespace {

void quantity(std::vector<ValueProblem>& out, const std::string& key, const std::string& value,
              bool required) {
    if (value.empty() && !required)
        return;
    if (std::string why = quantityProblem(value); !why.empty())
        out.push_back({key, "kubernetes-quantity", why});
}

void labelKey(std::vector<ValueProblem>& out, const std::string& key, const std::string& value) {
    if (std::string why = labelKeyProblem(value); !why.empty())
        out.push_back({key, "kubernetes-label", why});
}

// What Pod Security "restricted" forbids and the plan asks for as well.
void restrictedConflicts(std::vector<ValueProblem>& out, const KubernetesOptions& k) {
    if (!k.restricted)
        return;
    if (k.hostNetwork)
        out.push_back({"kubernetes.hostNetwork", "kubernetes-value",
                       "Pod Security \"restricted\" (kubernetes.restricted) forbids hostNetwork"});
    if (!k.addCapabilities.empty())
        out.push_back({"kubernetes.addCapabilities", "kubernetes-value",
                       "Pod Security \"restricted\" (kubernetes.restricted) drops every capability: "
                       "addCapabilities cannot be granted"});
    if (k.runAsUser == 0)
        out.push_back(
            {"kubernetes.runAsUser", "kubernetes-value",
             "Pod Security \"restricted\" (kubernetes.restricted) wants a non-root user, not UID 0"});
}

void tolerations(std::vector<ValueProblem>& out, const std::vector<Toleration>& list) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Toleration& t = list[i];
        const std::string key = "kubernetes.tolerations." + std::to_string(i);
        if (!t.key.empty())
            labelKey(out, key, t.key);
        if (t.operator_ != "" && t.operator_ != "Equal" && t.operator_ != "Exists")
            out.push_back({key, "kubernetes-value", "operator '" + t.operator_ + "' is not Equal or Exists"});
        if (t.operator_ == "Exists" && !t.value.empty())
            out.push_back({key, "kubernetes-value", "a toleration with operator Exists takes no value"});
        if (t.effect != "" && t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" &&
            t.effect != "NoExecute")
            out.push_back({key, "kubernetes-value",
                           "effect '" + t.effect + "' is not NoSchedule, PreferNoSchedule or NoExecute"});
    }
}

} // namespace

std::vector<ValueProblem> kubernetesValueProblems(const Plan& plan) {
    std::vector<ValueProblem> out;
    const Resources& r = plan.resources;
    const KubernetesOptions& k = plan.kubernetes;
    quantity(out, "resources.cpu", r.cpu, false);
    quantity(out, "resources.memory", r.memory, false);
    quantity(out, "resources.cpuLimit", r.cpuLimit, false);
    quantity(out, "resources.memoryLimit", r.memoryLimit, false);
    quantity(out, "kubernetes.shmSizeLimit", k.shmSizeLimit, false);
    quantity(out, "kubernetes.helperCpu", k.helperCpu, true);
    quantity(out, "kubernetes.helperMemory", k.helperMemory, true);
    labelKey(out, "resources.gpuResource", r.gpuResource);
    labelKey(out, "kubernetes.nodePoolLabel", k.nodePoolLabel);
    for (const auto& [name, count] : k.extraResources) {
        labelKey(out, "kubernetes.extraResources." + name, name);
        quantity(out, "kubernetes.extraResources." + name, count, true);
    }
    for (const auto& [name, value] : k.podAnnotations)
        labelKey(out, "kubernetes.podAnnotations." + name, name);
    tolerations(out, k.tolerations);
    if (std::string why = labelValueProblem(k.queueName); !why.empty())
        out.push_back({"kubernetes.queueName", "kubernetes-label", why});
    restrictedConflicts(out, k);
    for (std::size_t i = 0; i < k.addCapabilities.size(); ++i)
        if (k.addCapabilities[i] != "IPC_LOCK" && k.addCapabilities[i] != "SYS_NICE")
            out.push_back({"kubernetes.addCapabilities." + std::to_string(i), "privileged",
                           "capability " + k.addCapabilities[i] +
                               " grants privilege over the host (only IPC_LOCK and SYS_NICE may be added)"});
    return out;
}

} // namespace cnp::plan
