#include "plan/PlanResolver.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_map>

namespace cnp::plan {
namespace {

template <typename T> void replaceIfSet(std::optional<T>& target, const std::optional<T>& value) {
    if (value)
        target = value;
}
template <typename T> void assignIfSet(T& target, const std::optional<T>& value) {
    if (value)
        target = *value;
}
// Every entry of `own` set in `target` (a later value of a key wins).
void mergeByKey(std::map<std::string, std::string>& target, const std::map<std::string, std::string>& own) {
    for (const auto& [k, v] : own)
        target[k] = v;
}

void overlayEnv(std::vector<EnvVar>& env, const std::vector<EnvVar>& own) {
    for (const EnvVar& e : own) {
        auto it = std::find_if(env.begin(), env.end(), [&](const EnvVar& x) { return x.name == e.name; });
        if (it != env.end())
            *it = e;
        else
            env.push_back(e);
    }
}

void overlayMounts(std::vector<Mount>& mounts, const std::vector<Mount>& own) {
    for (const Mount& m : own) {
        auto it = std::find_if(mounts.begin(), mounts.end(),
                               [&](const Mount& x) { return x.containerPath == m.containerPath; });
        if (it != mounts.end())
            *it = m;
        else
            mounts.push_back(m);
    }
}

void overlayPodFields(KubernetesPodFields& r, const KubernetesPodFields& own) {
    replaceIfSet(r.tolerations, own.tolerations);
    replaceIfSet(r.priorityClassName, own.priorityClassName);
    replaceIfSet(r.serviceAccountName, own.serviceAccountName);
    replaceIfSet(r.imagePullSecrets, own.imagePullSecrets);
    replaceIfSet(r.hostNetwork, own.hostNetwork);
    replaceIfSet(r.addCapabilities, own.addCapabilities);
    mergeByKey(r.podAnnotations, own.podAnnotations);
    mergeByKey(r.extraResources, own.extraResources);
}

using NameIndex = std::unordered_map<std::string_view, std::size_t>; // a name's first configuration

const Configuration* findByName(const Plan& plan, const NameIndex& names, const std::string& name) {
    const auto it = names.find(name);
    return it == names.end() ? nullptr : &plan.configurations[it->second];
}

// "A → B → A" when following `extends` from `start` returns to it within kMaxExtendsDepth + 1 steps; ""
// otherwise. O(kMaxExtendsDepth).
std::string cycleThrough(const Plan& plan, const NameIndex& names, const Configuration& start) {
    std::string chain = start.name;
    const Configuration* c = &start;
    for (std::size_t steps = 0; steps <= std::min(plan.configurations.size(), kMaxExtendsDepth); ++steps) {
        c = c->extends.empty() ? nullptr : findByName(plan, names, c->extends);
        if (!c)
            return {};
        chain += " → " + c->name;
        if (c == &start)
            return chain;
    }
    return {};
}

std::string parentError(const Plan& plan, const NameIndex& names, std::size_t index) {
    const Configuration& c = plan.configurations[index];
    if (c.extends == c.name)
        return "configuration '" + c.name + "' extends itself";
    const std::string cycle = cycleThrough(plan, names, c);
    if (!cycle.empty())
        return "'extends' forms a cycle: " + cycle;
    const Configuration* parent = findByName(plan, names, c.extends);
    if (parent)
        return "'" + c.name + "' extends '" + c.extends +
               "', which is written after it; a parent must come first";
    constexpr std::size_t kNamed = 8; // the earlier ones named, so the message stays one short line
    std::string known;
    for (std::size_t i = 0; i < std::min(index, kNamed); ++i)
        known += (known.empty() ? "" : ", ") + plan.configurations[i].name;
    if (index > kNamed)
        known += ", and " + std::to_string(index - kNamed) + " more";
    return "no configuration named '" + c.extends + "' before '" + c.name + "'" +
           (known.empty() ? std::string(" (it is the first)") : " (earlier ones: " + known + ")");
}

} // namespace

ConfigValues overlay(const ConfigValues& parent, const ConfigValues& own, const std::string& nodePoolLabel) {
    ConfigValues r = parent;
    replaceIfSet(r.image, own.image);
    replaceIfSet(r.nodePool, own.nodePool);
    replaceIfSet(r.deepspeedConfig, own.deepspeedConfig);
    replaceIfSet(r.privileged, own.privileged);
    replaceIfSet(r.ipcHost, own.ipcHost);
    replaceIfSet(r.cudaVersion, own.cudaVersion);
    replaceIfSet(r.nodeDriverVersion, own.nodeDriverVersion);
    overlayEnv(r.env, own.env);
    r.args.insert(r.args.end(), own.args.begin(), own.args.end());
    r.argsPos.insert(r.argsPos.end(), own.argsPos.begin(), own.argsPos.end());
    overlayMounts(r.mounts, own.mounts);
    overlayPodFields(r.kubernetes, own.kubernetes);
    mergeByKey(r.nodeSelector, own.nodeSelector);
    if (r.nodePool && !nodePoolLabel.empty())
        r.nodeSelector[nodePoolLabel] = *r.nodePool;
    for (const auto& [k, pos] : own.positions)
        r.positions[k] = pos;
    return r;
}

void resolveConfigurations(Plan& plan, std::vector<Finding>& findings) {
    NameIndex all; // every configuration, for the messages
    for (std::size_t i = 0; i < plan.configurations.size(); ++i)
        all.emplace(plan.configurations[i].name, i);
    NameIndex earlier;                                             // the configurations before i
    std::vector<std::size_t> depth(plan.configurations.size(), 0); // extends steps below a root
    for (std::size_t i = 0; i < plan.configurations.size(); ++i) {
        Configuration& c = plan.configurations[i];
        const Configuration* parent = nullptr;
        if (!c.extends.empty()) {
            const auto pos = c.own.positions.count("extends") ? c.own.positions.at("extends") : c.pos;
            const auto it = earlier.find(c.extends);
            if (it == earlier.end()) {
                findings.push_back(
                    {plan.path, pos.line, pos.column, Severity::Error, "extends", parentError(plan, all, i)});
            } else if (depth[it->second] + 1 > kMaxExtendsDepth) {
                findings.push_back({plan.path, pos.line, pos.column, Severity::Error, "extends",
                                    "'" + c.name + "' would be " + std::to_string(depth[it->second] + 1) +
                                        " levels down its 'extends' chain; at most " +
                                        std::to_string(kMaxExtendsDepth) + " are allowed"});
            } else {
                parent = &plan.configurations[it->second];
                depth[i] = depth[it->second] + 1;
            }
        }
        c.resolved =
            overlay(parent ? parent->resolved : ConfigValues{}, c.own, plan.kubernetes.nodePoolLabel);
        earlier.emplace(c.name, i);
    }
}

KubernetesOptions kubernetesFor(const Plan& plan, const std::string& configName) {
    KubernetesOptions k = plan.kubernetes;
    const Configuration* c = plan.find(configName);
    if (!c)
        return k;
    const KubernetesPodFields& f = c->resolved.kubernetes;
    assignIfSet(k.tolerations, f.tolerations);
    assignIfSet(k.priorityClassName, f.priorityClassName);
    assignIfSet(k.serviceAccountName, f.serviceAccountName);
    assignIfSet(k.imagePullSecrets, f.imagePullSecrets);
    assignIfSet(k.hostNetwork, f.hostNetwork);
    assignIfSet(k.addCapabilities, f.addCapabilities);
    mergeByKey(k.podAnnotations, f.podAnnotations);
    mergeByKey(k.extraResources, f.extraResources);
    return k;
}

} // namespace cnp::plan
