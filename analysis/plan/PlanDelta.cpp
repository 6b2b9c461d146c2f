#include "plan/PlanDelta.h"

#include <cctype>
#include <map>
#include <string_view>

namespace cnp::plan {
namespace {

std::string text(const std::optional<std::string>& v) {
    return v.value_or("");
}
std::string text(const std::optional<bool>& v) {
    return v ? (*v ? "true" : "false") : "";
}

// Adds one item per key whose value differs between the two maps (keys in sorted order).
void diffMaps(const std::string& prefix, const std::map<std::string, std::string>& a,
              const std::map<std::string, std::string>& b, std::vector<DeltaItem>& out) {
    std::map<std::string, std::pair<std::string, std::string>> all;
    for (const auto& [k, v] : a)
        all[k].first = v;
    for (const auto& [k, v] : b)
        all[k].second = v;
    for (const auto& [k, v] : all)
        if (v.first != v.second || a.count(k) != b.count(k))
            out.push_back({prefix + k, v.first, v.second});
}

std::map<std::string, std::string> envMap(const std::vector<EnvVar>& env) {
    std::map<std::string, std::string> m;
    for (const EnvVar& e : env)
        m[e.name] = e.value;
    return m;
}

std::map<std::string, std::string> mountMap(const std::vector<Mount>& mounts) {
    std::map<std::string, std::string> m;
    for (const Mount& x : mounts)
        m[x.containerPath] = displayMount(x);
    return m;
}

std::string joined(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ",") + i;
    return s;
}

// "key=value:effect", "key Exists", "key=value" (no effect: every effect).
std::string tolerationText(const Toleration& t) {
    std::string s = t.key + (t.operator_ == "Exists" ? " Exists" : "=" + t.value);
    if (!t.effect.empty())
        s += ":" + t.effect;
    if (t.tolerationSeconds)
        s += " for " + std::to_string(*t.tolerationSeconds) + " s";
    return s;
}

} // namespace

std::map<std::string, std::string> podFieldsMap(const KubernetesPodFields& f) {
    std::map<std::string, std::string> m;
    if (f.tolerations) {
        std::vector<std::string> t;
        for (const auto& x : *f.tolerations)
            t.push_back(tolerationText(x));
        m["tolerations"] = joined(t);
    }
    if (f.priorityClassName)
        m["priorityClassName"] = *f.priorityClassName;
    if (f.serviceAccountName)
        m["serviceAccountName"] = *f.serviceAccountName;
    if (f.imagePullSecrets)
        m["imagePullSecrets"] = joined(*f.imagePullSecrets);
    if (f.hostNetwork)
        m["hostNetwork"] = *f.hostNetwork ? "true" : "false";
    if (f.addCapabilities)
        m["addCapabilities"] = joined(*f.addCapabilities);
    for (const auto& [k, v] : f.podAnnotations)
        m["podAnnotations." + k] = v;
    for (const auto& [k, v] : f.extraResources)
        m["extraResources." + k] = v;
    return m;
}

namespace {

bool needsQuotes(const std::string& w) {
    if (w.empty())
        return true;
    for (unsigned char c : w)
        if (!(std::isalnum(c) || std::string_view("@%+=:,./-_").find(char(c)) != std::string_view::npos))
            return true;
    return false;
}

} // namespace

std::vector<DeltaItem> configDelta(const ConfigValues& from, const ConfigValues& to) {
    std::vector<DeltaItem> out;
    auto scalar = [&](const char* field, const std::string& a, const std::string& b) {
        if (a != b)
            out.push_back({field, a, b});
    };
    scalar("image", text(from.image), text(to.image));
    scalar("cudaVersion", text(from.cudaVersion), text(to.cudaVersion));
    scalar("nodeDriverVersion", text(from.nodeDriverVersion), text(to.nodeDriverVersion));
    scalar("nodePool", text(from.nodePool), text(to.nodePool));
    scalar("privileged", text(from.privileged), text(to.privileged));
    scalar("ipcHost", text(from.ipcHost), text(to.ipcHost));
    scalar("deepspeedConfig", text(from.deepspeedConfig), text(to.deepspeedConfig));
    diffMaps("env.", envMap(from.env), envMap(to.env), out);
    scalar("args", from.args.empty() ? "" : displayArgv(from.args),
           to.args.empty() ? "" : displayArgv(to.args));
    diffMaps("mount ", mountMap(from.mounts), mountMap(to.mounts), out);
    diffMaps("nodeSelector.", from.nodeSelector, to.nodeSelector, out);
    diffMaps("kubernetes.", podFieldsMap(from.kubernetes), podFieldsMap(to.kubernetes), out);
    return out;
}

std::vector<std::string> resolvedArgv(const Plan& plan, const Configuration& c) {
    std::vector<std::string> argv = plan.workload.command;
    argv.insert(argv.end(), c.resolved.args.begin(), c.resolved.args.end());
    return argv;
}

std::string displayArgv(const std::vector<std::string>& argv) {
    std::string out;
    for (const std::string& w : argv) {
        if (!out.empty())
            out += ' ';
        if (!needsQuotes(w)) {
            out += w;
            continue;
        }
        out += '\'';
        for (char c : w)
            out += c == '\'' ? std::string("'\\''") : std::string(1, c);
        out += '\'';
    }
    return out;
}

std::string displayMount(const Mount& m) {
    const std::string source = m.pvc.empty() ? m.hostPath : "pvc:" + m.pvc;
    return source + ":" + m.containerPath + (m.readOnly ? ":ro" : ":rw");
}

} // namespace cnp::plan
