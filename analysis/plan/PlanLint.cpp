#include "plan/PlanLint.h"

#include "plan/ContainerPrivilege.h"
#include "plan/CudaDriver.h"
#include "plan/ImageGlibc.h"
#include "plan/ImageReference.h"
#include "plan/KubernetesValues.h"
#include "plan/PlanResolver.h"

#include "CaptureSpec.h"
#include "core/RapidJson.h"
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cnp::plan {
namespace {

constexpr std::size_t kMaxDeepspeedBytes = std::size_t(4) << 20;
constexpr int kMaxShellNesting = 4; // sh -c "bash -c '...'" levels looked into

struct Linter {
    const Plan& plan;
    std::vector<Finding>& out;

    void add(SourcePos pos, Severity s, const char* rule, std::string message) const {
        out.push_back({plan.path, pos.line, pos.column, s, rule, std::move(message)});
    }
};

SourcePos positionIn(const ConfigValues& v, const std::string& key, SourcePos fallback) {
    auto it = v.positions.find(key);
    return it != v.positions.end() ? it->second : fallback;
}

const EnvVar* findEnv(const ConfigValues& v, const std::string& name) {
    auto it = std::find_if(v.env.begin(), v.env.end(), [&](const EnvVar& e) { return e.name == name; });
    return it == v.env.end() ? nullptr : &*it;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string baseName(const std::string& program) {
    const std::size_t slash = program.rfind('/');
    return slash == std::string::npos ? program : program.substr(slash + 1);
}

// ---- nccl-socket-ifname ---------------------------------------------------------------------------

void checkNcclSocketIfname(const Linter& l) {
    const int gpus = l.plan.resources.gpusPerNode;
    const char* expected = gpus == 16                                           ? "hpn0"
                           : (gpus == 1 || gpus == 2 || gpus == 4 || gpus == 8) ? "eth0"
                                                                                : nullptr;
    if (!expected)
        return;
    for (const Configuration& c : l.plan.configurations) {
        const EnvVar* e = findEnv(c.resolved, "NCCL_SOCKET_IFNAME");
        if (e && e->value != expected)
            l.add(e->pos, Severity::Error, "nccl-socket-ifname",
                  "NCCL_SOCKET_IFNAME is '" + e->value + "' but a pod with " + std::to_string(gpus) +
                      " GPU(s) must use " + expected + " (the image's release notes)");
        else if (!e && l.plan.resources.nodes > 1)
            l.add(c.pos, Severity::Warning, "nccl-socket-ifname",
                  "configuration '" + c.name + "' runs on " + std::to_string(l.plan.resources.nodes) +
                      " nodes without NCCL_SOCKET_IFNAME; pods with " + std::to_string(gpus) +
                      " GPU(s) must use " + expected);
    }
}

// ---- reinstall-framework --------------------------------------------------------------------------

// Splits a shell script into simple commands (words after quote removal), separated by ; & | && || ( )
// and newlines. Expansions are not performed: `$(...)` stays one literal word. O(n).
std::vector<std::vector<std::string>> shellCommands(const std::string& script) {
    std::vector<std::vector<std::string>> commands(1);
    std::string word;
    bool inWord = false;
    auto endWord = [&]() {
        if (inWord)
            commands.back().push_back(word);
        word.clear();
        inWord = false;
    };
    auto endCommand = [&]() {
        endWord();
        if (!commands.back().empty())
            commands.emplace_back();
    };
    for (std::size_t i = 0; i < script.size(); ++i) {
        const char c = script[i];
        if (c == '\'' || c == '"') {
            const std::size_t close = script.find(c, i + 1);
            const std::size_t end = close == std::string::npos ? script.size() : close;
            word += script.substr(i + 1, end - i - 1);
            inWord = true;
            i = end;
        } else if (c == '\\' && i + 1 < script.size()) {
            word += script[++i];
            inWord = true;
        } else if (c == '#' && !inWord) {
            i = std::min(script.find('\n', i), script.size()) - 1;
        } else if (c == ';' || c == '&' || c == '|' || c == '\n' || c == '(' || c == ')') {
            endCommand();
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            endWord();
        } else {
            word += c;
            inWord = true;
        }
    }
    endCommand();
    commands.pop_back();
    return commands;
}

// The package a requirement names: "torch==2.5" -> "torch", "DeepSpeed[all]>=0.14" -> "deepspeed".
std::string requirementName(const std::string& req) {
    const std::size_t end = req.find_first_of("=<>!~[;@ ,");
    return lower(req.substr(0, end));
}

// Index of the first word after the installer's `install` subcommand, or npos when `words[at..]` is not
// an install by pip (pip, pip3, python -m pip, uv pip) or conda (conda, mamba, micromamba).
std::size_t installArgsStart(const std::vector<std::string>& w, std::size_t at, bool& conda) {
    if (at >= w.size())
        return std::string::npos;
    const std::string prog = baseName(w[at]);
    std::size_t sub = std::string::npos;
    conda = prog == "conda" || prog == "mamba" || prog == "micromamba";
    if (prog.rfind("pip", 0) == 0 || conda)
        sub = at + 1;
    else if (prog.rfind("python", 0) == 0 && at + 2 < w.size() && w[at + 1] == "-m" &&
             w[at + 2].rfind("pip", 0) == 0)
        sub = at + 3;
    else if (prog == "uv" && at + 1 < w.size() && w[at + 1] == "pip")
        sub = at + 2;
    while (sub < w.size() && w[sub].size() > 1 && w[sub][0] == '-')
        ++sub; // global options (pip -q install, conda -y install is unusual but harmless)
    return sub < w.size() && w[sub] == "install" ? sub + 1 : std::string::npos;
}

// The torch/deepspeed packages a command installs ("" when it installs neither).
std::string reinstalledFramework(const std::vector<std::string>& words) {
    std::size_t at = 0;
    while (at < words.size() && (words[at] == "sudo" || words[at] == "env" || words[at] == "exec" ||
                                 (words[at].find('=') != std::string::npos && words[at][0] != '-')))
        ++at; // env assignments and wrappers before the program
    bool conda = false;
    const std::size_t start = installArgsStart(words, at, conda);
    if (start == std::string::npos)
        return {};
    for (std::size_t i = start; i < words.size(); ++i) {
        if (words[i].empty() || words[i][0] == '-')
            continue;
        std::string name = requirementName(words[i]); // not const: returned by move
        if (name == "torch" || name == "deepspeed" || (conda && name == "pytorch"))
            return name;
    }
    return {};
}

// The script of a `sh -c SCRIPT` (bash, dash, zsh too; combined flags like -ec, -lc), or nullptr.
const std::string* shellScript(const std::vector<std::string>& words, std::size_t at) {
    if (at >= words.size())
        return nullptr;
    const std::string prog = baseName(words[at]);
    if (prog != "sh" && prog != "bash" && prog != "dash" && prog != "zsh")
        return nullptr;
    for (std::size_t i = at + 1; i + 1 < words.size(); ++i) {
        const std::string& w = words[i];
        if (w.size() < 2 || w[0] != '-' || w[1] == '-')
            return nullptr;
        if (w.find('c') != std::string::npos)
            return &words[i + 1];
    }
    return nullptr;
}

// Wrappers that run the next word as the program.
std::size_t programIndex(const std::vector<std::string>& words) {
    std::size_t at = 0;
    while (at < words.size() && (words[at] == "env" || words[at] == "exec" || words[at] == "sudo"))
        ++at;
    return at;
}

// Searches `words` (a command) and the scripts it runs through a shell; returns the package found.
std::string findReinstall(const std::vector<std::string>& words, int nesting) {
    if (std::string pkg = reinstalledFramework(words); !pkg.empty())
        return pkg;
    if (nesting >= kMaxShellNesting)
        return {};
    if (const std::string* script = shellScript(words, programIndex(words)))
        for (const auto& cmd : shellCommands(*script))
            if (std::string pkg = findReinstall(cmd, nesting + 1); !pkg.empty())
                return pkg;
    return {};
}

void checkReinstallFramework(const Linter& l) {
    for (const Configuration& c : l.plan.configurations) {
        std::vector<std::string> argv = l.plan.workload.command;
        std::vector<SourcePos> pos = l.plan.workload.commandPos;
        argv.insert(argv.end(), c.resolved.args.begin(), c.resolved.args.end());
        pos.insert(pos.end(), c.resolved.argsPos.begin(), c.resolved.argsPos.end());
        const std::string pkg = findReinstall(argv, 0);
        if (pkg.empty())
            continue;
        // Reported at the script when one runs it (the word after -c), else at the program.
        const std::string* script = shellScript(argv, programIndex(argv));
        const std::size_t word = script ? std::size_t(script - argv.data()) : programIndex(argv);
        l.add(word < pos.size() ? pos[word] : c.pos, Severity::Error, "reinstall-framework",
              "the command reinstalls " + pkg +
                  "; the image carries modified builds of torch and deepspeed: use the ones it has");
    }
}

// ---- deepspeed-prefetch-bucket / deepspeed-config -------------------------------------------------

// The JSON text of a configuration's DeepSpeed config: inline when it starts with '{', else the file it
// names (relative to the plan's folder). Empty + *error on failure.
std::string deepspeedJson(const Plan& plan, const std::string& value, std::string* error) {
    const std::size_t first = value.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && value[first] == '{')
        return value;
    std::filesystem::path p(value);
    if (p.is_relative())
        p = std::filesystem::path(plan.path).parent_path() / p;
    std::error_code ec;
    const auto size = std::filesystem::file_size(p, ec);
    if (ec || size > kMaxDeepspeedBytes) {
        *error = ec ? "cannot read DeepSpeed config " + p.string() + ": " + ec.message()
                    : "DeepSpeed config " + p.string() + " is larger than 4 MiB";
        return {};
    }
    std::ifstream in(p, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

void checkDeepspeedConfig(const Linter& l) {
    for (const Configuration& c : l.plan.configurations) {
        if (!c.own.deepspeedConfig)
            continue;
        const SourcePos at = positionIn(c.own, "deepspeedConfig", c.pos);
        std::string error;
        const std::string json = deepspeedJson(l.plan, *c.own.deepspeedConfig, &error);
        if (!error.empty()) {
            l.add(at, Severity::Error, "deepspeed-config", error);
            continue;
        }
        rapidjson::Document doc; // iterative: a deeply nested file cannot exhaust the stack
        doc.Parse<rapidjson::kParseIterativeFlag>(json.data(), json.size());
        if (doc.HasParseError() || !doc.IsObject()) {
            l.add(
                at, Severity::Error, "deepspeed-config",
                std::string("the DeepSpeed config is not a JSON object: ") +
                    (doc.HasParseError() ? rapidjson::GetParseError_En(doc.GetParseError()) : "wrong type") +
                    " at offset " + std::to_string(doc.GetErrorOffset()));
            continue;
        }
        // Const iterators on both sides: RapidJSON 1.1's mixed iterator == is ambiguous in C++20 (clang).
        const rapidjson::Value& root = doc;
        const auto zero = root.FindMember("zero_optimization");
        if (zero == root.MemberEnd() || !zero->value.IsObject())
            continue;
        const auto bucket = zero->value.FindMember("stage3_prefetch_bucket_size");
        if (bucket == zero->value.MemberEnd())
            continue;
        const auto& v = bucket->value;
        const bool allowed =
            v.IsNull() ||
            (v.IsString() && (v.GetStringLength() == 0 || std::string(v.GetString()) == "auto"));
        if (!allowed)
            l.add(positionIn(c.own, "deepspeedConfig.stage3_prefetch_bucket_size", at), Severity::Error,
                  "deepspeed-prefetch-bucket",
                  "zero_optimization.stage3_prefetch_bucket_size must be empty or \"auto\" with this image");
    }
}

// ---- checkpoint-optimization ----------------------------------------------------------------------

bool enabled(const std::string& value) {
    const std::string v = lower(value);
    return !(v.empty() || v == "0" || v == "false" || v == "no" || v == "off");
}

void checkCheckpointOptimization(const Linter& l) {
    for (const Configuration& c : l.plan.configurations) {
        const EnvVar* e = findEnv(c.resolved, "CHECKPOINT_OPTIMIZATION");
        if (e && enabled(e->value) && !usesDeepSpeed(l.plan, c))
            l.add(e->pos, Severity::Warning, "checkpoint-optimization",
                  "CHECKPOINT_OPTIMIZATION only works with DeepSpeed, and '" + c.name +
                      "' does not use it (set workload.deepspeed: true if it does)");
    }
}

// ---- cuda-driver ----------------------------------------------------------------------------------

// A configuration's CUDA: its `cudaVersion` when written (nullopt when that does not parse), else what its
// image's name says (plan/CudaDriver.h).
std::optional<CudaVersion> cudaOf(const ConfigValues& v) {
    if (v.cudaVersion)
        return parseCudaVersion(*v.cudaVersion);
    return v.image ? cudaVersionFromImage(*v.image) : std::nullopt;
}

void checkCudaDriver(const Linter& l) {
    for (const Configuration& c : l.plan.configurations) {
        const ConfigValues& v = c.resolved;
        const std::optional<CudaVersion> cuda = cudaOf(v);
        const SourcePos at = positionIn(v, v.cudaVersion ? "cudaVersion" : "image", c.pos);
        if (v.cudaVersion && !cuda) {
            l.add(at, Severity::Error, "type",
                  "cudaVersion must read MAJOR.MINOR[.PATCH], not '" + *v.cudaVersion + "'");
            continue;
        }
        const std::optional<int> required = cuda ? requiredDriverMajor(*cuda) : std::nullopt;
        if (!required)
            continue;
        const std::vector<std::string> drivers =
            v.nodeDriverVersion ? std::vector<std::string>{*v.nodeDriverVersion} : l.plan.nodeDriverVersions;
        for (const std::string& d : drivers) {
            const std::optional<int> major = driverMajor(d);
            if (major && *major < *required) {
                l.add(at, Severity::Error, "cuda-driver",
                      "the image's CUDA " + toString(*cuda) + " needs driver ≥ " + std::to_string(*required) +
                          ", but '" + c.name + "' runs on nodes with driver " + d);
                break;
            }
        }
    }
}

// ---- collector-cupti ------------------------------------------------------------------------------

// The collector reads CUDA 13's CUPTI records and refuses another CUDA's CUPTI where it runs (it finds
// CUPTI at run time, docs/collector.md): an image whose CUDA is known to be older has no libcupti.so.13, so
// its traced jobs would run untraced and come back without traces. Said before launching (issue 28); a
// warning, as an image may carry CUDA 13's CUPTI beside an older toolkit (`cnp run` probes the image).
void checkCollectorCupti(const Linter& l) {
    for (const Configuration& c : l.plan.configurations) { // every plan traces (repeats.traced >= 1)
        if (!c.extends.empty() && !c.own.image && !c.own.cudaVersion)
            continue; // inherited: said once, where the ancestor wrote it
        const std::optional<CudaVersion> cuda = cudaOf(c.resolved);
        // Where this configuration says it: its own cudaVersion, else its own image.
        const SourcePos at = positionIn(c.own, c.own.cudaVersion ? "cudaVersion" : "image", c.pos);
        if (cuda && cuda->major < 13)
            l.add(at, Severity::Warning, "collector-cupti",
                  "'" + c.name + "' runs CUDA " + toString(*cuda) +
                      ": the collector reads CUDA 13's CUPTI records (libcupti.so.13) and refuses another "
                      "CUDA's CUPTI, so its traced jobs would come back without traces (container and "
                      "kubernetes backends; the local backend uses this machine's CUDA)");
    }
}

// ---- collector-glibc ------------------------------------------------------------------------------

// The collector loads on glibc 2.28 and newer: an image whose tag names an older distribution
// (plan/ImageGlibc: ubuntu18.04, centos7, ...) runs its traced jobs untraced. A warning, like
// collector-cupti: the local backend ignores the image; the container backends refuse it after probing
// it (launch/ImageTraceCheck). Said where the configuration writes its image.
void checkCollectorGlibc(const Linter& l) {
    for (const Configuration& c : l.plan.configurations) {
        if (!c.own.image)
            continue; // inherited: said once, where the ancestor wrote it
        const std::optional<ImageGlibc> glibc = glibcFromImage(*c.own.image);
        if (glibc && glibc->minor < 28)
            l.add(positionIn(c.own, "image", c.pos), Severity::Warning, "collector-glibc",
                  "'" + c.name + "' runs " + glibc->distribution + " (glibc 2." +
                      std::to_string(glibc->minor) +
                      "): the collector needs glibc 2.28 or newer and cannot load there, so its traced jobs "
                      "would come back without traces; use an image on a newer distribution");
    }
}

// ---- privileged -----------------------------------------------------------------------------------

SourcePos planPosition(const Plan& plan, const std::string& key) {
    auto it = plan.positions.find(key);
    return it != plan.positions.end() ? it->second : SourcePos{};
}

std::vector<std::string> words(const std::string& flags) {
    std::vector<std::string> out;
    std::istringstream in(flags);
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

// `privileged: true` is a warning (it never reaches a backend); every flag or mount that would grant
// privilege on the way to the engine is an error (ContainerPrivilege: the container backend refuses the
// same), wherever it is written.
void checkPrivileged(const Linter& l) {
    for (const Configuration& c : l.plan.configurations) {
        if (c.own.privileged.value_or(false))
            l.add(positionIn(c.own, "privileged", c.pos), Severity::Warning, "privileged",
                  "privileged containers are unnecessary for tracing (CUPTI activity tracing needs no extra "
                  "capability) and are never passed to a backend; remove it");
        for (const Mount& m : c.own.mounts)
            if (m.pvc.empty())
                if (std::string why = hostPathProblem(m.hostPath); !why.empty())
                    l.add(m.pos, Severity::Error, "privileged", why + "; the backends refuse it");
    }
    const auto& extra = l.plan.container.extraArgs;
    for (const FlagProblem& p : privilegeGrantingFlags(extra))
        l.add(planPosition(l.plan, "container.extraArgs." + std::to_string(p.word)), Severity::Error,
              "privileged",
              "container.extraArgs: " + p.message +
                  "; unnecessary for tracing, and the container "
                  "backends refuse it");
    for (const FlagProblem& p : privilegeGrantingFlags(words(l.plan.container.gpuFlags)))
        l.add(planPosition(l.plan, "container.gpuFlags"), Severity::Error, "privileged",
              "container.gpuFlags: " + p.message +
                  "; GPUs need only --gpus or a CDI --device, and the container "
                  "backends refuse it");
}

// ---- image ----------------------------------------------------------------------------------------

void checkImages(const Linter& l) {
    for (const Configuration& c : l.plan.configurations)
        if (c.own.image)
            if (std::string why = imageReferenceProblem(*c.own.image); !why.empty())
                l.add(positionIn(c.own, "image", c.pos), Severity::Error, "image", why);
    if (std::string why = imageReferenceProblem(l.plan.kubernetes.collectorImage); !why.empty())
        l.add(planPosition(l.plan, "kubernetes.collectorImage"), Severity::Error, "image",
              "kubernetes.collectorImage: " + why);
    if (!l.plan.kubernetes.cnpImage.empty())
        if (std::string why = imageReferenceProblem(l.plan.kubernetes.cnpImage); !why.empty())
            l.add(planPosition(l.plan, "kubernetes.cnpImage"), Severity::Error, "image",
                  "kubernetes.cnpImage: " + why);
}

// ---- log-regex ------------------------------------------------------------------------------------

void checkLogRegex(const Linter& l) {
    const std::string& pattern = l.plan.logMetric.regex;
    if (pattern.empty())
        return;
    auto it = l.plan.positions.find("logMetric.regex");
    const SourcePos at = it != l.plan.positions.end() ? it->second : l.plan.logMetric.pos;
    RE2::Options options;
    options.set_log_errors(false);
    const RE2 re(pattern, options);
    if (!re.ok())
        l.add(at, Severity::Error, "log-regex",
              "logMetric.regex is not a valid RE2 expression: " + re.error());
    else if (re.NumberOfCapturingGroups() != 1)
        l.add(at, Severity::Error, "log-regex",
              "logMetric.regex must have exactly one capture group (the number); it has " +
                  std::to_string(re.NumberOfCapturingGroups()));
}

// ---- capture --------------------------------------------------------------------------------------

void checkCapture(const Linter& l) {
    const std::string why = captureProblem(l.plan.capture);
    if (why.empty())
        return;
    auto it = l.plan.positions.find("capture");
    l.add(it != l.plan.positions.end() ? it->second : SourcePos{}, Severity::Error, "capture", why);
}

// A configuration's own `kubernetes:` pod fields, checked as its jobs' pods get them (plan::kubernetesFor):
// the problems its parent's (or the plan's block alone) do not have, at the configuration's line for the
// key (or its `kubernetes:` key, or its name).
void checkConfigurationPodFields(const Linter& l, const Configuration& c) {
    if (!c.own.positions.count("kubernetes"))
        return;
    Plan with = l.plan;
    with.kubernetes = kubernetesFor(l.plan, c.extends); // the plan's own when it extends nothing
    std::vector<std::string> inherited;
    for (const ValueProblem& p : kubernetesValueProblems(with))
        inherited.push_back(p.key + p.message);
    with.kubernetes = kubernetesFor(l.plan, c.name);
    for (const ValueProblem& p : kubernetesValueProblems(with)) {
        if (std::find(inherited.begin(), inherited.end(), p.key + p.message) != inherited.end())
            continue;
        SourcePos at = positionIn(c.own, p.key, {});
        if (at.line == 0)
            at = positionIn(c.own, p.key.substr(0, p.key.rfind('.')), positionIn(c.own, "kubernetes", c.pos));
        l.add(at, Severity::Error, p.rule, "configuration '" + c.name + "': " + p.key + ": " + p.message);
    }
}

// What reaches the cluster as a quantity or a label, checked as the API server would (plan/KubernetesValues):
// a bad one was only found when the Job was rejected, or when no node matched the selector.
void checkKubernetesValues(const Linter& l) {
    for (const ValueProblem& p : kubernetesValueProblems(l.plan)) {
        SourcePos at = planPosition(l.plan, p.key);
        if (at.line == 0) // a list item's own entry (tolerations) or a default: the block's key
            at = planPosition(l.plan, p.key.substr(0, p.key.rfind('.')));
        l.add(at, Severity::Error, p.rule, p.key + ": " + p.message);
    }
    for (const auto& c : l.plan.configurations)
        checkConfigurationPodFields(l, c);
    for (const auto& c : l.plan.configurations) {
        for (const auto& [k, v] : c.own.nodeSelector) {
            const SourcePos at = positionIn(c.own, "nodeSelector." + k, c.pos);
            for (const std::string& why : {labelKeyProblem(k), labelValueProblem(v)})
                if (!why.empty())
                    l.add(at, Severity::Error, "kubernetes-label", "nodeSelector: " + why);
        }
        if (c.own.nodePool)
            if (std::string why = labelValueProblem(*c.own.nodePool); !why.empty())
                l.add(positionIn(c.own, "nodePool", c.pos), Severity::Error, "kubernetes-label",
                      "nodePool: " + why);
    }
}

bool structurallyBroken(const std::vector<Finding>& findings) {
    return std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
        return f.rule == "read" || f.rule == "encoding" || f.rule == "too-large" || f.rule == "syntax";
    });
}

} // namespace

bool usesDeepSpeed(const Plan& plan, const Configuration& c) {
    if (plan.workload.usesDeepSpeed)
        return *plan.workload.usesDeepSpeed;
    if (c.resolved.deepspeedConfig)
        return true;
    auto mentions = [](const std::string& w) { return lower(w).find("deepspeed") != std::string::npos; };
    return std::any_of(plan.workload.command.begin(), plan.workload.command.end(), mentions) ||
           std::any_of(c.resolved.args.begin(), c.resolved.args.end(), mentions);
}

std::string captureProblem(const std::string& capture) {
    const collector::CaptureSpec spec = collector::CaptureSpec::parse(capture);
    if (spec.error.empty())
        return {};
    const std::size_t colon = spec.error.find("': "); // "CNP_CAPTURE='TEXT': WHY"
    const std::string why = colon == std::string::npos ? spec.error : spec.error.substr(colon + 3);
    return "capture '" + capture + "' is not valid (" + why +
           "); valid values: all, time:DELAY[:DURATION] (seconds), steps:START:COUNT[:PREFIX]";
}

std::vector<Finding> lintPlan(const Plan& plan) {
    std::vector<Finding> out;
    const Linter l{plan, out};
    checkNcclSocketIfname(l);
    checkReinstallFramework(l);
    checkDeepspeedConfig(l);
    checkCheckpointOptimization(l);
    checkCudaDriver(l);
    checkCollectorCupti(l);
    checkCollectorGlibc(l);
    checkPrivileged(l);
    checkImages(l);
    checkLogRegex(l);
    checkCapture(l);
    checkKubernetesValues(l);
    return out;
}

namespace {
ParseResult withLint(ParseResult r) {
    if (!structurallyBroken(r.findings)) {
        std::vector<Finding> more = lintPlan(r.plan);
        r.findings.insert(r.findings.end(), more.begin(), more.end());
    }
    sortFindings(r.findings);
    return r;
}
} // namespace

ParseResult lintPlanText(const std::string& text, const std::string& path) {
    return withLint(parsePlanText(text, path));
}

ParseResult lintPlanFile(const std::string& path) {
    return withLint(parsePlanFile(path));
}

} // namespace cnp::plan
