#pragma once
// Plans built in code for the launcher tests: what the plan parser would produce for a small study
// (resolved configurations; `extends` already applied).
#include "plan/Plan.h"

#include <string>
#include <vector>

namespace cnp::testing {

inline plan::Configuration testConfiguration(const std::string& name, const std::string& extends,
                                             std::vector<plan::EnvVar> env,
                                             std::vector<std::string> args = {}) {
    plan::Configuration c;
    c.name = name;
    c.extends = extends;
    c.resolved.env = std::move(env);
    c.resolved.args = std::move(args);
    c.resolved.image = "localhost/cnp-test:1";
    return c;
}

// Two configurations, Base and Base+Opt (which sets HARNESS_THROUGHPUT=2000 and adds an argument);
// `command` is the workload.
inline plan::Plan twoConfigPlan(std::vector<std::string> command, int traced = 1, int untraced = 0) {
    plan::Plan p;
    p.path = "/plans/test-plan.yaml";
    p.hash = "0123456789abcdef";
    p.name = "test plan";
    p.workload.command = std::move(command);
    p.repeats.traced = traced;
    p.repeats.untraced = untraced;
    p.tokensPerStep = 4096;
    p.flopsPerToken = 1e9;
    p.logMetric.regex = R"(throughput ([0-9.]+) tokens/s)";
    p.logMetric.unit = "tokens/s";
    p.timeoutSeconds = 60;
    p.container.gpuFlags = "";
    p.configurations.push_back(testConfiguration("Base", "", {{"HARNESS_THROUGHPUT", "1000", {}}}));
    auto opt = testConfiguration("Base+Opt", "Base", {{"HARNESS_THROUGHPUT", "2000", {}}}, {"--opt"});
    opt.own.env = {{"HARNESS_THROUGHPUT", "2000", {}}};
    p.configurations.push_back(opt);
    return p;
}

} // namespace cnp::testing
