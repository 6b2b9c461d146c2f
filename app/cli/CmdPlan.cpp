// cnp plan show PLAN [--json] · cnp plan lint PLAN
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"

#include "plan/PlanDelta.h"
#include "plan/PlanLint.h"

#include <iostream>

namespace cnp::cli {
namespace {

using plan::Configuration;
using plan::ConfigValues;
using plan::Plan;

void printFindings(const std::vector<plan::Finding>& findings, std::ostream& os) {
    for (const auto& f : findings)
        os << plan::formatFinding(f) << '\n';
}

void printSummary(const std::vector<plan::Finding>& findings) {
    int errors = 0, warnings = 0;
    for (const auto& f : findings)
        (f.severity == plan::Severity::Error ? errors : warnings)++;
    std::cerr << errors << " error(s), " << warnings << " warning(s)\n";
}

// ---- text ------------------------------------------------------------------------------------------

void printValues(const Plan& p, const Configuration& c) {
    const ConfigValues& v = c.resolved;
    auto line = [](const char* label, const std::string& value) {
        if (!value.empty())
            std::cout << "   " << label << std::string(14 - std::string(label).size(), ' ') << value << '\n';
    };
    line("image", v.image.value_or("(none: local backend)"));
    line("cudaVersion", v.cudaVersion.value_or(""));
    line("argv", plan::displayArgv(plan::resolvedArgv(p, c)));
    for (const auto& e : v.env)
        line("env", e.name + "=" + e.value);
    for (const auto& m : v.mounts)
        line("mount", plan::displayMount(m));
    for (const auto& [k, val] : v.nodeSelector)
        line("nodeSelector", k + "=" + val);
    line("deepspeed", v.deepspeedConfig.value_or(""));
    if (v.privileged.value_or(false))
        line("privileged", "true (linted; never passed to a backend)");
    line("ipcHost", v.ipcHost.value_or(true) ? "" : "false");
    for (const auto& [k, val] : plan::podFieldsMap(v.kubernetes))
        line("kubernetes", k + ": " + val);
}

void printDelta(const std::vector<plan::DeltaItem>& delta, const std::string& predecessor) {
    std::cout << "   delta from " << predecessor << ":" << (delta.empty() ? " none\n" : "\n");
    for (const auto& d : delta) {
        if (d.before.empty())
            std::cout << "     + " << d.field << " = " << d.after << '\n';
        else if (d.after.empty())
            std::cout << "     - " << d.field << " (was " << d.before << ")\n";
        else
            std::cout << "     ~ " << d.field << ": " << d.before << " -> " << d.after << '\n';
    }
}

void printPlanText(const Plan& p) {
    std::cout << "plan " << (p.name.empty() ? "(unnamed)" : p.name) << "  " << p.path << "  sha256 "
              << p.hash.substr(0, 12) << '\n';
    if (!p.description.empty())
        std::cout << p.description << '\n';
    const auto& r = p.resources;
    std::cout << "workload    " << plan::displayArgv(p.workload.command) << '\n'
              << "resources   " << r.nodes << " node(s) x " << r.gpusPerNode << " GPU(s)"
              << (r.cpu.empty() ? "" : ", cpu " + r.cpu) << (r.memory.empty() ? "" : ", memory " + r.memory)
              << '\n'
              << "repeats     " << p.repeats.traced << " traced, " << p.repeats.untraced << " untraced"
              << (p.timeoutSeconds ? ", timeout " + std::to_string(p.timeoutSeconds) + " s" : "")
              << ", capture " << (p.capture.empty() ? "all" : p.capture) << '\n';
    if (!p.logMetric.regex.empty())
        std::cout << "log metric  " << p.logMetric.unit << " from /" << p.logMetric.regex << "/\n";
    for (std::size_t i = 0; i < p.configurations.size(); ++i) {
        const Configuration& c = p.configurations[i];
        std::cout << '\n'
                  << i + 1 << ". " << c.name << (c.extends.empty() ? "" : "  (extends " + c.extends + ")")
                  << '\n';
        printValues(p, c);
        if (!c.expect.empty()) // its own (never inherited): what predict-then-measure re-times
            std::cout << "   expect        " << c.expect << '\n';
        if (i == 0)
            std::cout << "   delta: first configuration (the baseline)\n";
        else
            printDelta(plan::configDelta(p.configurations[i - 1].resolved, c.resolved),
                       p.configurations[i - 1].name);
    }
}

// ---- JSON ------------------------------------------------------------------------------------------

void writeStrings(JsonOutput& j, const std::vector<std::string>& v) {
    j.beginArray();
    for (const auto& s : v)
        j.str(s);
    j.endArray();
}

void writeValues(JsonOutput& j, const ConfigValues& v) {
    auto opt = [&](const char* k, const std::optional<std::string>& s) {
        j.key(k);
        s ? j.str(*s) : j.null();
    };
    j.beginObject();
    opt("image", v.image);
    opt("cudaVersion", v.cudaVersion);
    opt("nodeDriverVersion", v.nodeDriverVersion);
    opt("nodePool", v.nodePool);
    opt("deepspeedConfig", v.deepspeedConfig);
    j.key("privileged").boolean(v.privileged.value_or(false));
    j.key("ipcHost").boolean(v.ipcHost.value_or(true));
    j.key("env").beginObject();
    for (const auto& e : v.env)
        j.key(e.name).str(e.value);
    j.endObject().key("args");
    writeStrings(j, v.args);
    j.key("mounts").beginArray();
    for (const auto& m : v.mounts)
        j.beginObject()
            .key("hostPath")
            .str(m.hostPath)
            .key("pvc")
            .str(m.pvc)
            .key("containerPath")
            .str(m.containerPath)
            .key("readOnly")
            .boolean(m.readOnly)
            .endObject();
    j.endArray().key("nodeSelector").beginObject();
    for (const auto& [k, val] : v.nodeSelector)
        j.key(k).str(val);
    j.endObject().key("kubernetes").beginObject(); // the configuration's own pod fields, as text
    for (const auto& [k, val] : plan::podFieldsMap(v.kubernetes))
        j.key(k).str(val);
    j.endObject().endObject();
}

void writeConfiguration(JsonOutput& j, const Plan& p, std::size_t i) {
    const Configuration& c = p.configurations[i];
    j.beginObject().key("name").str(c.name).key("extends");
    c.extends.empty() ? j.null() : j.str(c.extends);
    j.key("line").num(c.pos.line).key("expect");
    c.expect.empty() ? j.null() : j.str(c.expect);
    j.key("argv");
    writeStrings(j, plan::resolvedArgv(p, c));
    j.key("resolved");
    writeValues(j, c.resolved);
    j.key("delta").beginArray();
    if (i > 0)
        for (const auto& d : plan::configDelta(p.configurations[i - 1].resolved, c.resolved))
            j.beginObject()
                .key("field")
                .str(d.field)
                .key("from")
                .str(d.before)
                .key("to")
                .str(d.after)
                .endObject();
    j.endArray().endObject();
}

void printPlanJson(const Plan& p) {
    JsonOutput j;
    j.beginObject().key("name").str(p.name).key("path").str(p.path).key("hash").str(p.hash);
    j.key("description").str(p.description).key("workload").beginObject().key("command");
    writeStrings(j, p.workload.command);
    j.key("workingDir").str(p.workload.workingDir).endObject();
    const auto& r = p.resources;
    j.key("resources").beginObject().key("nodes").num(r.nodes).key("gpusPerNode").num(r.gpusPerNode);
    j.key("cpu").str(r.cpu).key("memory").str(r.memory).key("gpuResource").str(r.gpuResource).endObject();
    j.key("repeats")
        .beginObject()
        .key("traced")
        .num(p.repeats.traced)
        .key("untraced")
        .num(p.repeats.untraced);
    j.endObject().key("capture").str(p.capture).key("tokensPerStep").real(p.tokensPerStep);
    j.key("flopsPerToken").real(p.flopsPerToken).key("timeoutSeconds").num(p.timeoutSeconds);
    j.key("logMetric").beginObject().key("regex").str(p.logMetric.regex).key("unit").str(p.logMetric.unit);
    j.endObject().key("configurations").beginArray();
    for (std::size_t i = 0; i < p.configurations.size(); ++i)
        writeConfiguration(j, p, i);
    j.endArray().endObject();
    std::cout << j.text();
}

// ---- commands --------------------------------------------------------------------------------------

int runShow(const std::vector<std::string>& args) {
    ArgParser a({}, {"--json"});
    a.parse(args);
    a.requirePositionals(1, 1, "PLAN");
    const plan::ParseResult r = plan::parsePlanFile(a.positionals()[0]);
    if (!r.ok()) {
        printFindings(r.findings, std::cerr);
        return InputFailure;
    }
    if (a.has("--json"))
        printPlanJson(r.plan);
    else
        printPlanText(r.plan);
    return Ok;
}

int runLint(const std::vector<std::string>& args) {
    ArgParser a({}, {});
    a.parse(args);
    a.requirePositionals(1, 1, "PLAN");
    const plan::ParseResult r = plan::lintPlanFile(a.positionals()[0]);
    printFindings(r.findings, std::cout);
    printSummary(r.findings);
    return plan::hasErrors(r.findings) ? InputFailure : Ok;
}

int runPlan(const std::vector<std::string>& args) {
    if (args.empty())
        throw UsageFailure{"needs a subcommand: show or lint"};
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "show")
        return runShow(rest);
    if (args[0] == "lint")
        return runLint(rest);
    throw UsageFailure{"unknown subcommand '" + args[0] + "' (show, lint)"};
}

CNP_COMMAND(
    "plan", "show or lint an ablation plan (YAML)",
    "usage: cnp plan show PLAN [--json]\n"
    "       cnp plan lint PLAN\n\n"
    "show  prints every configuration fully resolved (its `extends` chain applied) and what it\n"
    "      changes from its predecessor in plan order. --json: {\"name\", \"hash\", \"workload\",\n"
    "      \"resources\", \"repeats\", ..., \"configurations\": [{\"name\", \"extends\", \"argv\",\n"
    "      \"resolved\", \"delta\": [{\"field\", \"from\", \"to\"}]}]}. Exit 2 when the plan has errors.\n"
    "lint  checks the plan against the image's usage rules (docs/plans.md) and prints one finding\n"
    "      per line: FILE:LINE:COL: SEVERITY: RULE: message. Exit 0 when nothing is an error\n"
    "      (warnings alone), 2 when something is.\n",
    runPlan);

} // namespace
} // namespace cnp::cli
