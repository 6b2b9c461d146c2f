#include "plan/PlanResolver.h"

#include <algorithm>

namespace cnp::plan {
namespace {

template <typename T> void replaceIfSet(std::optional<T>& target, const std::optional<T>& value) {
    if (value)
        target = value;
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

// "A → B → A" when following `extends` from `start` returns to it; "" otherwise. O(n²) on plan sizes.
std::string cycleThrough(const Plan& plan, const Configuration& start) {
    std::string chain = start.name;
    const Configuration* c = &start;
    for (std::size_t steps = 0; steps <= plan.configurations.size(); ++steps) {
        c = c->extends.empty() ? nullptr : plan.find(c->extends);
        if (!c)
            return {};
        chain += " → " + c->name;
        if (c == &start)
            return chain;
    }
    return {};
}

std::string parentError(const Plan& plan, std::size_t index) {
    const Configuration& c = plan.configurations[index];
    if (c.extends == c.name)
        return "configuration '" + c.name + "' extends itself";
    const std::string cycle = cycleThrough(plan, c);
    if (!cycle.empty())
        return "'extends' forms a cycle: " + cycle;
    const Configuration* parent = plan.find(c.extends);
    if (parent)
        return "'" + c.name + "' extends '" + c.extends +
               "', which is written after it; a parent must come first";
    std::string known;
    for (std::size_t i = 0; i < index; ++i)
        known += (known.empty() ? "" : ", ") + plan.configurations[i].name;
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
    for (const auto& [k, v] : own.nodeSelector)
        r.nodeSelector[k] = v;
    if (r.nodePool && !nodePoolLabel.empty())
        r.nodeSelector[nodePoolLabel] = *r.nodePool;
    for (const auto& [k, pos] : own.positions)
        r.positions[k] = pos;
    return r;
}

void resolveConfigurations(Plan& plan, std::vector<Finding>& findings) {
    for (std::size_t i = 0; i < plan.configurations.size(); ++i) {
        Configuration& c = plan.configurations[i];
        const Configuration* parent = nullptr;
        if (!c.extends.empty()) {
            auto end = plan.configurations.begin() + static_cast<std::ptrdiff_t>(i);
            auto it = std::find_if(plan.configurations.begin(), end,
                                   [&](const Configuration& p) { return p.name == c.extends; });
            if (it != end) {
                parent = &*it;
            } else {
                const auto pos = c.own.positions.count("extends") ? c.own.positions.at("extends") : c.pos;
                findings.push_back(
                    {plan.path, pos.line, pos.column, Severity::Error, "extends", parentError(plan, i)});
            }
        }
        c.resolved =
            overlay(parent ? parent->resolved : ConfigValues{}, c.own, plan.kubernetes.nodePoolLabel);
    }
}

} // namespace cnp::plan
