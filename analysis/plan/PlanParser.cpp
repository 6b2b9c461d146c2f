#include "plan/PlanParser.h"

#include "Sha256.h"
#include "core/Utf8.h"
#include "plan/PlanResolver.h"
#include "plan/YamlReader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

namespace cnp::plan {
namespace {

constexpr int kMaxDeepspeedDepth = 32; // a DeepSpeed config is a few levels deep
constexpr double kMaxFabricGBps = 1e6; // far beyond any link; keeps busbw / peak finite and meaningful

// Position of the first byte that is not UTF-8, or {0, 0} when the text is valid. O(n).
SourcePos firstInvalidUtf8(const std::string& text) {
    if (isValidUtf8(text))
        return {};
    int line = 1;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string_view l(text.data() + start, end - start);
        if (!isValidUtf8(l)) {
            // repairUtf8 copies the valid prefix unchanged: the first differing byte is the bad one.
            const std::string fixed = repairUtf8(l);
            std::size_t col = 0;
            while (col < l.size() && l[col] == fixed[col])
                ++col;
            return {line, int(col) + 1};
        }
        start = end + 1;
        ++line;
    }
    return {1, 1};
}

void setPos(std::map<std::string, SourcePos>& positions, const std::string& key, const YAML::Node& value,
            SourcePos keyPos) {
    const SourcePos p = positionOf(value);
    positions[key] = p.line > 0 ? p : keyPos;
}

// Reads `value` into `target` when the conversion succeeds; records its position under `key`.
template <typename T, typename Read>
void readInto(T& target, Read read, const YAML::Node& value, SourcePos keyPos,
              std::map<std::string, SourcePos>& positions, const std::string& key) {
    if (auto v = read(value))
        target = static_cast<std::decay_t<decltype(target)>>(*v);
    setPos(positions, key, value, keyPos);
}

// A YAML value as JSON text (for a DeepSpeed config written inline as a mapping). Plain scalars that
// read as numbers, booleans or null keep that type; quoted ones stay strings. Bounded by depth and budget.
bool toJson(YamlReader& r, const YAML::Node& n, int depth, std::string& out);

void jsonString(const std::string& s, std::string& out) {
    out += '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\')
            out += '\\', out += char(c);
        else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else
            out += char(c);
    }
    out += '"';
}

void jsonScalar(const YAML::Node& n, std::string& out) {
    const std::string& s = n.Scalar();
    const bool plain = n.Tag() != "!";
    double d = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    const bool number = !s.empty() && ec == std::errc() && end == s.data() + s.size();
    if (plain && (s == "true" || s == "false" || s == "null" || number))
        out += s; // a JSON literal or number, as written
    else if (plain && (s == "~" || s.empty()))
        out += "null";
    else
        jsonString(s, out);
}

bool toJson(YamlReader& r, const YAML::Node& n, int depth, std::string& out) {
    if (!r.spend(n))
        return false;
    if (depth > kMaxDeepspeedDepth) {
        r.typeError(n, "deepspeedConfig", "at most " + std::to_string(kMaxDeepspeedDepth) + " levels deep");
        return false;
    }
    if (n.IsNull()) {
        out += "null";
    } else if (n.IsScalar()) {
        jsonScalar(n, out);
    } else if (n.IsSequence()) {
        out += '[';
        for (std::size_t i = 0; i < n.size(); ++i) {
            if (i > 0)
                out += ',';
            if (!toJson(r, n[i], depth + 1, out))
                return false;
        }
        out += ']';
    } else if (n.IsMap()) {
        out += '{';
        bool first = true;
        for (auto it = n.begin(); it != n.end(); ++it) {
            if (!it->first.IsScalar()) {
                r.typeError(it->first, "a deepspeedConfig key", "a name");
                return false;
            }
            if (!first)
                out += ',';
            first = false;
            jsonString(it->first.Scalar(), out);
            out += ':';
            if (!toJson(r, it->second, depth + 1, out))
                return false;
        }
        out += '}';
    }
    return true;
}

class PlanReader {
public:
    PlanReader(Plan& plan, YamlReader& r) : plan_(plan), r_(r) {}

    void readRoot(const YAML::Node& root) {
        r_.readMap(root, "the plan",
                   {{"name", str(plan_.name, "name")},
                    {"description", str(plan_.description, "description")},
                    {"workload", [this](const YAML::Node& v, SourcePos) { readWorkload(v); }},
                    {"resources", [this](const YAML::Node& v, SourcePos) { readResources(v); }},
                    {"repeats", [this](const YAML::Node& v, SourcePos k) { readRepeats(v, k); }},
                    {"capture", str(plan_.capture, "capture")},
                    {"tokensPerStep", num(plan_.tokensPerStep, "tokensPerStep")},
                    {"flopsPerToken", num(plan_.flopsPerToken, "flopsPerToken")},
                    {"logMetric", [this](const YAML::Node& v, SourcePos) { readLogMetric(v); }},
                    {"fabric", [this](const YAML::Node& v, SourcePos) { readFabric(v); }},
                    {"timeout", [this](const YAML::Node& v, SourcePos k) { readTimeout(v, k); }},
                    {"kubernetes", [this](const YAML::Node& v, SourcePos) { readKubernetes(v); }},
                    {"container", [this](const YAML::Node& v, SourcePos) { readContainer(v); }},
                    {"nodeDriverVersions",
                     [this](const YAML::Node& v, SourcePos k) {
                         readList(plan_.nodeDriverVersions, v, k, "nodeDriverVersions");
                     }},
                    {"configurations", [this](const YAML::Node& v, SourcePos) { readConfigurations(v); }}});
    }

private:
    Plan& plan_;
    YamlReader& r_;

    YamlReader::KeyHandler str(std::string& target, const std::string& key) {
        return [this, &target, key](const YAML::Node& v, SourcePos k) {
            readInto(
                target, [&](const YAML::Node& n) { return r_.string(n, key); }, v, k, plan_.positions, key);
        };
    }
    YamlReader::KeyHandler num(double& target, const std::string& key) {
        return [this, &target, key](const YAML::Node& v, SourcePos k) {
            readInto(
                target, [&](const YAML::Node& n) { return r_.number(n, key, 0); }, v, k, plan_.positions,
                key);
        };
    }
    YamlReader::KeyHandler count(int& target, const std::string& key, long long lo, long long hi) {
        return [this, &target, key, lo, hi](const YAML::Node& v, SourcePos k) {
            readInto(
                target, [&](const YAML::Node& n) { return r_.integer(n, key, lo, hi); }, v, k,
                plan_.positions, key);
        };
    }

    // A list of text values; item positions under "key.N" (0-based).
    void readList(std::vector<std::string>& target, const YAML::Node& v, SourcePos k, const std::string& key,
                  std::vector<SourcePos>* positions = nullptr) {
        readList(target, v, k, key, plan_.positions, positions);
    }
    // Item positions under "key.N" in `keyed` (and in order in `positions`, when given).
    void readList(std::vector<std::string>& target, const YAML::Node& v, SourcePos k, const std::string& key,
                  std::map<std::string, SourcePos>& keyed, std::vector<SourcePos>* positions = nullptr) {
        setPos(keyed, key, v, k);
        auto items = r_.stringList(v, key);
        if (!items)
            return;
        for (std::size_t i = 0; i < items->size(); ++i) {
            target.push_back((*items)[i].first);
            keyed[key + "." + std::to_string(i)] = (*items)[i].second;
            if (positions)
                positions->push_back((*items)[i].second);
        }
    }

    void readWorkload(const YAML::Node& v) {
        plan_.workload.pos = positionOf(v);
        r_.readMap(v, "workload",
                   {{"command",
                     [this](const YAML::Node& n, SourcePos k) {
                         readList(plan_.workload.command, n, k, "workload.command",
                                  &plan_.workload.commandPos);
                     }},
                    {"workingDir", str(plan_.workload.workingDir, "workload.workingDir")},
                    {"deepspeed", [this](const YAML::Node& n, SourcePos k) {
                         plan_.workload.usesDeepSpeed = r_.boolean(n, "workload.deepspeed");
                         setPos(plan_.positions, "workload.deepspeed", n, k);
                     }}});
    }

    void readResources(const YAML::Node& v) {
        Resources& res = plan_.resources;
        r_.readMap(v, "resources",
                   {{"nodes", count(res.nodes, "resources.nodes", 1, 4096)},
                    {"gpusPerNode", count(res.gpusPerNode, "resources.gpusPerNode", 0, 64)},
                    {"cpu", str(res.cpu, "resources.cpu")},
                    {"memory", str(res.memory, "resources.memory")},
                    {"cpuLimit", str(res.cpuLimit, "resources.cpuLimit")},
                    {"memoryLimit", str(res.memoryLimit, "resources.memoryLimit")},
                    {"gpuResource", str(res.gpuResource, "resources.gpuResource")}});
    }

    void readRepeats(const YAML::Node& v, SourcePos k) {
        if (v.IsScalar()) { // shorthand: `repeats: 3` = traced repeats
            count(plan_.repeats.traced, "repeats.traced", 1, 1000)(v, k);
            return;
        }
        r_.readMap(v, "repeats",
                   {{"traced", count(plan_.repeats.traced, "repeats.traced", 1, 1000)},
                    {"untraced", count(plan_.repeats.untraced, "repeats.untraced", 0, 1000)}});
    }

    void readFabric(const YAML::Node& v) {
        r_.readMap(v, "fabric",
                   {{"intraNodeGBps", num(plan_.fabric.intraNodeGBps, "fabric.intraNodeGBps")},
                    {"interNodeGBps", num(plan_.fabric.interNodeGBps, "fabric.interNodeGBps")}});
        const std::pair<double*, const char*> values[] = {
            {&plan_.fabric.intraNodeGBps, "fabric.intraNodeGBps"},
            {&plan_.fabric.interNodeGBps, "fabric.interNodeGBps"}};
        for (const auto& [value, key] : values)
            if (*value > kMaxFabricGBps) {
                r_.typeError(v, key, "a bandwidth of at most 1000000 GB/s");
                *value = 0;
            }
    }

    void readLogMetric(const YAML::Node& v) {
        plan_.logMetric.pos = positionOf(v);
        r_.readMap(v, "logMetric",
                   {{"regex", str(plan_.logMetric.regex, "logMetric.regex")},
                    {"unit", [this](const YAML::Node& n, SourcePos k) {
                         static const std::vector<std::string> units = {"tokens/s", "samples/s", "steps/s",
                                                                        "s/step", "ms/step"};
                         str(plan_.logMetric.unit, "logMetric.unit")(n, k);
                         if (n.IsScalar() && std::find(units.begin(), units.end(), n.Scalar()) == units.end())
                             r_.typeError(n, "logMetric.unit",
                                          "one of tokens/s, samples/s, steps/s, s/step, ms/step");
                     }}});
    }

    // `timeout: 5400` (seconds) or `timeout: 90m` / `2h` / `45s`.
    void readTimeout(const YAML::Node& v, SourcePos k) {
        setPos(plan_.positions, "timeout", v, k);
        auto s = r_.string(v, "timeout");
        if (!s)
            return;
        long long n = 0;
        const char* end = s->data() + s->size();
        const auto [p, ec] = std::from_chars(s->data(), end, n);
        const std::string unit(p, end);
        const long long scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 0;
        if (ec != std::errc() || p == s->data() || scale == 0 || n < 0 || n > 30LL * 86400 / scale) {
            r_.typeError(v, "timeout", "seconds, or a number with s, m or h (at most 30 days)");
            return;
        }
        plan_.timeoutSeconds = int(n * scale);
    }

    void readKubernetes(const YAML::Node& v) {
        KubernetesOptions& k8s = plan_.kubernetes;
        r_.readMap(v, "kubernetes",
                   {{"namespace", str(k8s.namespace_, "kubernetes.namespace")},
                    {"context", str(k8s.context, "kubernetes.context")},
                    {"kubeconfig", str(k8s.kubeconfig, "kubernetes.kubeconfig")},
                    {"collectorImage", str(k8s.collectorImage, "kubernetes.collectorImage")},
                    {"cnpImage", str(k8s.cnpImage, "kubernetes.cnpImage")},
                    {"tracesPvc", str(k8s.tracesPvc, "kubernetes.tracesPvc")},
                    {"nodePoolLabel", str(k8s.nodePoolLabel, "kubernetes.nodePoolLabel")},
                    {"priorityClassName", str(k8s.priorityClassName, "kubernetes.priorityClassName")},
                    {"serviceAccountName", str(k8s.serviceAccountName, "kubernetes.serviceAccountName")},
                    {"shmSizeLimit", str(k8s.shmSizeLimit, "kubernetes.shmSizeLimit")},
                    {"helperCpu", str(k8s.helperCpu, "kubernetes.helperCpu")},
                    {"helperMemory", str(k8s.helperMemory, "kubernetes.helperMemory")},
                    {"queueName", str(k8s.queueName, "kubernetes.queueName")},
                    {"runAsUser", count(k8s.runAsUser, "kubernetes.runAsUser", 0, 2147483647)},
                    {"startupAllowanceSeconds",
                     count(k8s.startupAllowanceSeconds, "kubernetes.startupAllowanceSeconds", 0, 86400)},
                    {"probeSeconds", count(k8s.probeSeconds, "kubernetes.probeSeconds", 30, 86400)},
                    {"probeImages",
                     [this](const YAML::Node& n, SourcePos k) {
                         plan_.kubernetes.probeImages =
                             r_.boolean(n, "kubernetes.probeImages").value_or(true);
                         setPos(plan_.positions, "kubernetes.probeImages", n, k);
                     }},
                    {"restricted",
                     [this](const YAML::Node& n, SourcePos k) {
                         plan_.kubernetes.restricted = r_.boolean(n, "kubernetes.restricted").value_or(false);
                         setPos(plan_.positions, "kubernetes.restricted", n, k);
                     }},
                    {"ttlSecondsAfterFinished",
                     count(k8s.ttlSecondsAfterFinished, "kubernetes.ttlSecondsAfterFinished", 0, 31536000)},
                    {"hostNetwork",
                     [this](const YAML::Node& n, SourcePos k) {
                         plan_.kubernetes.hostNetwork =
                             r_.boolean(n, "kubernetes.hostNetwork").value_or(false);
                         setPos(plan_.positions, "kubernetes.hostNetwork", n, k);
                     }},
                    {"imagePullSecrets",
                     [this](const YAML::Node& n, SourcePos k) {
                         readList(plan_.kubernetes.imagePullSecrets, n, k, "kubernetes.imagePullSecrets");
                     }},
                    {"addCapabilities",
                     [this](const YAML::Node& n, SourcePos k) {
                         readList(plan_.kubernetes.addCapabilities, n, k, "kubernetes.addCapabilities");
                     }},
                    {"podAnnotations",
                     [this](const YAML::Node& n, SourcePos k) {
                         readMap(plan_.kubernetes.podAnnotations, n, k, "kubernetes.podAnnotations");
                     }},
                    {"extraResources",
                     [this](const YAML::Node& n, SourcePos k) {
                         readMap(plan_.kubernetes.extraResources, n, k, "kubernetes.extraResources");
                     }},
                    {"tolerations", [this](const YAML::Node& n, SourcePos) { readTolerations(n); }},
                    {"jobKind", [this](const YAML::Node& n, SourcePos k) {
                         str(plan_.kubernetes.jobKind, "kubernetes.jobKind")(n, k);
                         if (n.IsScalar() && n.Scalar() != "IndexedJob" && n.Scalar() != "PyTorchJob")
                             r_.typeError(n, "kubernetes.jobKind", "IndexedJob or PyTorchJob");
                     }}});
    }

    // A mapping of text; each entry's position under "key.ENTRY".
    void readMap(std::map<std::string, std::string>& target, const YAML::Node& v, SourcePos k,
                 const std::string& key) {
        readMap(target, v, k, key, plan_.positions);
    }
    void readMap(std::map<std::string, std::string>& target, const YAML::Node& v, SourcePos k,
                 const std::string& key, std::map<std::string, SourcePos>& positions) {
        setPos(positions, key, v, k);
        if (auto items = r_.stringMap(v, key))
            for (auto& [name, value, pos] : *items) {
                target[name] = value;
                positions[key + "." + name] = pos;
            }
    }

    void readTolerations(const YAML::Node& n) {
        readTolerations(n, plan_.kubernetes.tolerations, plan_.positions);
    }
    // Each toleration's position under "kubernetes.tolerations.N" in `positions`.
    void readTolerations(const YAML::Node& n, std::vector<Toleration>& target,
                         std::map<std::string, SourcePos>& positions) {
        if (!r_.spend(n))
            return;
        if (!n.IsSequence()) {
            r_.typeError(n, "kubernetes.tolerations",
                         "a list of {key, operator, value, effect, tolerationSeconds}");
            return;
        }
        for (std::size_t i = 0; i < n.size(); ++i) {
            Toleration t;
            t.pos = positionOf(n[i]);
            auto text = [this](std::string& target, const std::string& key) {
                return [this, &target, key](const YAML::Node& v, SourcePos) {
                    target = r_.string(v, key).value_or("");
                };
            };
            const std::string what = "toleration " + std::to_string(i + 1);
            if (!r_.readMap(n[i], what,
                            {{"key", text(t.key, "key")},
                             {"operator", text(t.operator_, "operator")},
                             {"value", text(t.value, "value")},
                             {"effect", text(t.effect, "effect")},
                             {"tolerationSeconds", [&](const YAML::Node& v, SourcePos) {
                                  t.tolerationSeconds = r_.integer(v, "tolerationSeconds", 0, 1LL << 40);
                              }}}))
                continue;
            positions["kubernetes.tolerations." + std::to_string(target.size())] = t.pos;
            target.push_back(std::move(t));
        }
    }

    void readContainer(const YAML::Node& v) {
        r_.readMap(v, "container",
                   {{"gpuFlags", str(plan_.container.gpuFlags, "container.gpuFlags")},
                    {"pull",
                     [this](const YAML::Node& n, SourcePos k) {
                         str(plan_.container.pull, "container.pull")(n, k);
                         if (n.IsScalar() && n.Scalar() != "missing" && n.Scalar() != "always" &&
                             n.Scalar() != "never")
                             r_.typeError(n, "container.pull", "missing, always or never");
                     }},
                    {"extraArgs", [this](const YAML::Node& n, SourcePos k) {
                         readList(plan_.container.extraArgs, n, k, "container.extraArgs");
                     }}});
    }

    void readConfigurations(const YAML::Node& v) {
        if (!r_.spend(v))
            return;
        if (!v.IsSequence()) {
            r_.typeError(v, "configurations", "a list of configurations");
            return;
        }
        for (std::size_t i = 0; i < v.size(); ++i)
            readConfiguration(v[i], i);
    }

    void readConfiguration(const YAML::Node& v, std::size_t index) {
        Configuration c;
        c.pos = positionOf(v);
        const std::string what = "configuration " + std::to_string(index + 1);
        ConfigValues& o = c.own;
        auto optStr = [this, &o](std::optional<std::string>& target, const std::string& key) {
            return [this, &o, &target, key](const YAML::Node& n, SourcePos k) {
                target = r_.string(n, key);
                setPos(o.positions, key, n, k);
            };
        };
        auto optBool = [this, &o](std::optional<bool>& target, const std::string& key) {
            return [this, &o, &target, key](const YAML::Node& n, SourcePos k) {
                target = r_.boolean(n, key);
                setPos(o.positions, key, n, k);
            };
        };
        const bool isMap = r_.readMap(
            v, what,
            {{"name",
              [&](const YAML::Node& n, SourcePos k) {
                  c.name = r_.string(n, "name").value_or("");
                  setPos(o.positions, "name", n, k);
                  c.pos = o.positions["name"];
              }},
             {"extends",
              [&](const YAML::Node& n, SourcePos k) {
                  c.extends = r_.string(n, "extends").value_or("");
                  setPos(o.positions, "extends", n, k);
              }},
             {"image", optStr(o.image, "image")},
             {"cudaVersion", optStr(o.cudaVersion, "cudaVersion")},
             {"nodeDriverVersion", optStr(o.nodeDriverVersion, "nodeDriverVersion")},
             {"nodePool", optStr(o.nodePool, "nodePool")},
             {"privileged", optBool(o.privileged, "privileged")},
             {"ipcHost", optBool(o.ipcHost, "ipcHost")},
             {"env", [&](const YAML::Node& n, SourcePos) { readEnv(o, n); }},
             {"args", [&](const YAML::Node& n, SourcePos) { readArgs(o, n); }},
             {"mounts", [&](const YAML::Node& n, SourcePos) { readMounts(o, n); }},
             {"nodeSelector", [&](const YAML::Node& n, SourcePos) { readNodeSelector(o, n); }},
             {"deepspeedConfig", [&](const YAML::Node& n, SourcePos k) { readDeepspeed(o, n, k); }},
             {"kubernetes", [&](const YAML::Node& n, SourcePos k) { readConfigKubernetes(o, n, k); }},
             {"expect", [&](const YAML::Node& n, SourcePos k) {
                  c.expect = readExpect(n);
                  setPos(o.positions, "expect", n, k);
              }}});
        if (!isMap)
            return;
        if (c.name.empty())
            r_.report(c.pos, Severity::Error, "required", what + " needs a non-empty 'name'");
        else if (plan_.find(c.name))
            r_.report(c.pos, Severity::Error, "duplicate-name",
                      "configuration name '" + c.name + "' is used twice");
        plan_.configurations.push_back(std::move(c));
    }

    // A configuration's `kubernetes:` block: the pod fields of KubernetesPodFields only (the rest of the
    // plan's block is one cluster's, for every job); positions under "kubernetes.KEY" of the configuration.
    void readConfigKubernetes(ConfigValues& o, const YAML::Node& v, SourcePos k) {
        KubernetesPodFields& f = o.kubernetes;
        auto& at = o.positions;
        setPos(at, "kubernetes", v, k);
        auto text = [this, &at](std::optional<std::string>& target, const std::string& key) {
            return [this, &at, &target, key](const YAML::Node& n, SourcePos p) {
                target = r_.string(n, key);
                setPos(at, key, n, p);
            };
        };
        auto list = [this, &at](std::optional<std::vector<std::string>>& target, const std::string& key) {
            return [this, &at, &target, key](const YAML::Node& n, SourcePos p) {
                target.emplace();
                readList(*target, n, p, key, at);
            };
        };
        r_.readMap(v, "kubernetes",
                   {{"priorityClassName", text(f.priorityClassName, "kubernetes.priorityClassName")},
                    {"serviceAccountName", text(f.serviceAccountName, "kubernetes.serviceAccountName")},
                    {"imagePullSecrets", list(f.imagePullSecrets, "kubernetes.imagePullSecrets")},
                    {"addCapabilities", list(f.addCapabilities, "kubernetes.addCapabilities")},
                    {"hostNetwork",
                     [&](const YAML::Node& n, SourcePos p) {
                         f.hostNetwork = r_.boolean(n, "kubernetes.hostNetwork");
                         setPos(at, "kubernetes.hostNetwork", n, p);
                     }},
                    {"podAnnotations",
                     [&](const YAML::Node& n, SourcePos p) {
                         readMap(f.podAnnotations, n, p, "kubernetes.podAnnotations", at);
                     }},
                    {"extraResources",
                     [&](const YAML::Node& n, SourcePos p) {
                         readMap(f.extraResources, n, p, "kubernetes.extraResources", at);
                     }},
                    {"tolerations", [&](const YAML::Node& n, SourcePos p) {
                         setPos(at, "kubernetes.tolerations", n, p);
                         f.tolerations.emplace();
                         readTolerations(n, *f.tolerations, at);
                     }}});
    }

    void readEnv(ConfigValues& o, const YAML::Node& n) {
        auto vars = r_.stringMap(n, "env");
        if (!vars)
            return;
        for (auto& [name, value, pos] : *vars) {
            const bool valid = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
                               std::all_of(name.begin(), name.end(),
                                           [](unsigned char ch) { return std::isalnum(ch) || ch == '_'; });
            if (!valid)
                r_.report(pos, Severity::Error, "type",
                          "env name '" + name +
                              "' must be letters, digits and '_', not starting with a digit");
            else
                o.env.push_back({name, value, pos});
        }
    }

    void readArgs(ConfigValues& o, const YAML::Node& n) {
        if (auto items = r_.stringList(n, "args"))
            for (auto& [s, pos] : *items) {
                o.args.push_back(s);
                o.argsPos.push_back(pos);
            }
    }

    // A what-if factor of `expect:` (0 to 1000) from its text, canonical; nullopt after a finding at `pos`.
    std::optional<std::string> expectFactor(const std::string& text, SourcePos pos, const std::string& what) {
        double f = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, f);
        if (ec != std::errc() || ptr != end || !std::isfinite(f) || f < 0 || f > 1000) {
            r_.report(pos, Severity::Error, "type",
                      what + " is '" + text + "', expected a factor from 0 to 1000");
            return std::nullopt;
        }
        std::ostringstream o;
        o.precision(10);
        o << f;
        return o.str();
    }
    std::optional<std::string> expectFactor(const YAML::Node& n, const std::string& what) {
        if (!r_.spend(n))
            return std::nullopt;
        if (!n.IsScalar()) {
            r_.typeError(n, what, "a factor from 0 to 1000");
            return std::nullopt;
        }
        return expectFactor(n.Scalar(), positionOf(n), what);
    }

    // A name inside an expectation (a category, a kernel-name part, an API): not empty, no ';' or '='
    // (the expectation text's separators).
    bool expectName(const std::string& name, SourcePos pos, const std::string& what) {
        if (!name.empty() && name.find_first_of(";=") == std::string::npos)
            return true;
        r_.report(pos, Severity::Error, "type",
                  what + " '" + name + "' must be a non-empty name without ';' or '='");
        return false;
    }

    // NAME: factor mappings of expect.scale / expect.scale_kernel, as "KEY.NAME=F" items.
    bool readExpectFactors(const YAML::Node& n, const std::string& key, std::vector<std::string>& items) {
        const auto entries = r_.stringMap(n, "expect." + key);
        if (!entries)
            return false;
        bool ok = true;
        for (const auto& [name, value, pos] : *entries) {
            if (!expectName(name, pos, "expect." + key)) {
                ok = false;
                continue;
            }
            if (auto f = expectFactor(value, pos, "expect." + key + "." + name))
                items.push_back(key + "." + name + "=" + *f);
            else
                ok = false;
        }
        return ok;
    }

    // expect.remove_sync: one API name or a list of them.
    bool readExpectSyncs(const YAML::Node& v, std::vector<std::string>& items) {
        using Names = std::vector<std::pair<std::string, SourcePos>>;
        const std::optional<Names> list = v.IsScalar()
                                              ? std::optional<Names>(Names{{v.Scalar(), positionOf(v)}})
                                              : r_.stringList(v, "expect.remove_sync");
        if (!list)
            return false;
        bool ok = true;
        for (const auto& [api, pos] : *list) {
            if (expectName(api, pos, "expect.remove_sync"))
                items.push_back("remove_sync=" + api);
            else
                ok = false;
        }
        return ok;
    }

    // `expect:` (docs/plans.md): the what-if transformations this configuration is expected to make, as
    // the expectation text (metrics/Expectation.h); "" after a finding.
    std::string readExpect(const YAML::Node& n) {
        std::vector<std::string> items;
        bool ok = true;
        auto factor = [&](const char* key, const char* prefix) {
            return [&, key, prefix](const YAML::Node& v, SourcePos) {
                if (auto f = expectFactor(v, std::string("expect.") + key))
                    items.push_back(std::string(prefix) + "=" + *f);
                else
                    ok = false;
            };
        };
        const bool isMap = r_.readMap(
            n, "expect",
            {{"comm", factor("comm", "comm")},
             {"recompute",
              [&](const YAML::Node& v, SourcePos k) {
                  if (v.IsScalar() && v.Scalar() == "drop")
                      items.push_back("recompute=drop");
                  else
                      factor("recompute", "scale.recompute")(v, k);
              }},
             {"launch_overhead",
              [&](const YAML::Node& v, SourcePos) {
                  if (v.IsScalar() && v.Scalar() == "remove") {
                      items.push_back("launch_overhead=remove");
                  } else {
                      r_.typeError(v, "expect.launch_overhead", "remove");
                      ok = false;
                  }
              }},
             {"scale",
              [&](const YAML::Node& v, SourcePos) { ok = readExpectFactors(v, "scale", items) && ok; }},
             {"scale_kernel", [&](const YAML::Node& v,
                                  SourcePos) { ok = readExpectFactors(v, "scale_kernel", items) && ok; }},
             {"remove_sync", [&](const YAML::Node& v, SourcePos) { ok = readExpectSyncs(v, items) && ok; }}});
        if (!isMap || !ok)
            return {};
        if (items.empty() && n.size() == 0) { // (an unknown key alone is its own finding)
            r_.report(
                positionOf(n), Severity::Error, "type",
                "expect names no transformation (comm, scale, scale_kernel, recompute, launch_overhead, "
                "remove_sync)");
            return {};
        }
        std::string text;
        for (const auto& item : items)
            text += (text.empty() ? "" : "; ") + item;
        return text;
    }

    void readNodeSelector(ConfigValues& o, const YAML::Node& n) {
        if (auto items = r_.stringMap(n, "nodeSelector"))
            for (auto& [k, value, pos] : *items) {
                o.nodeSelector[k] = value;
                o.positions["nodeSelector." + k] = pos; // for the label lint
            }
    }

    void readMounts(ConfigValues& o, const YAML::Node& n) {
        if (!r_.spend(n))
            return;
        if (!n.IsSequence()) {
            r_.typeError(n, "mounts", "a list of {hostPath, containerPath, readOnly, pvc}");
            return;
        }
        for (std::size_t i = 0; i < n.size(); ++i) {
            Mount m;
            m.pos = positionOf(n[i]);
            const std::string what = "mount " + std::to_string(i + 1);
            auto text = [this](std::string& target, const std::string& key) {
                return [this, &target, key](const YAML::Node& v, SourcePos) {
                    target = r_.string(v, key).value_or("");
                };
            };
            if (!r_.readMap(n[i], what,
                            {{"hostPath", text(m.hostPath, "hostPath")},
                             {"containerPath", text(m.containerPath, "containerPath")},
                             {"pvc", text(m.pvc, "pvc")},
                             {"readOnly", [&](const YAML::Node& v, SourcePos) {
                                  m.readOnly = r_.boolean(v, "readOnly").value_or(true);
                              }}}))
                continue;
            if (m.containerPath.empty() || m.containerPath[0] != '/')
                r_.report(m.pos, Severity::Error, "required", what + " needs an absolute 'containerPath'");
            else if (m.hostPath.empty() && m.pvc.empty())
                r_.report(m.pos, Severity::Error, "required", what + " needs a 'hostPath' or a 'pvc'");
            else
                o.mounts.push_back(std::move(m));
        }
    }

    // A path / inline JSON text, or a YAML mapping converted to JSON text.
    void readDeepspeed(ConfigValues& o, const YAML::Node& n, SourcePos k) {
        setPos(o.positions, "deepspeedConfig", n, k);
        if (!n.IsMap()) {
            o.deepspeedConfig = r_.string(n, "deepspeedConfig");
            return;
        }
        std::string json;
        if (!toJson(r_, n, 0, json))
            return;
        o.deepspeedConfig = json;
        const YAML::Node zero = n["zero_optimization"];
        if (zero && zero.IsMap() && zero["stage3_prefetch_bucket_size"])
            setPos(o.positions, "deepspeedConfig.stage3_prefetch_bucket_size",
                   zero["stage3_prefetch_bucket_size"], positionOf(zero));
    }
};

void checkRequired(const Plan& plan, YamlReader& r) {
    if (plan.workload.command.empty())
        r.report({1, 1}, Severity::Error, "required",
                 "the plan needs 'workload: {command: [PROGRAM, ARG...]}'");
    if (plan.configurations.empty())
        r.report({1, 1}, Severity::Error, "required",
                 "the plan needs at least one entry in 'configurations'");
}

// Where the second YAML document of `text` starts, if it has one. yaml-cpp 0.7.0's YAML::LoadAll is not
// used: on input as small as "," it never returns (it keeps yielding empty documents while memory
// grows; found by the plan fuzzer, tests/data/fuzz-regressions/plan/), so this scans at most two
// documents, as events only (no nodes are built). Throws YAML::Exception on a syntax error in either.
std::optional<SourcePos> secondDocumentStart(const std::string& text) {
    // Per document, the mark of its first node (where YAML::Node::Mark() of the document points).
    class DocumentStarts final : public YAML::EventHandler {
    public:
        std::vector<YAML::Mark> starts;
        void OnDocumentStart(const YAML::Mark& mark) override {
            starts.push_back(mark);
            first_ = true;
        }
        void OnDocumentEnd() override {}
        void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
        void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
        void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override {
            node(m);
        }
        void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                             YAML::EmitterStyle::value) override {
            node(m);
        }
        void OnSequenceEnd() override {}
        void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t,
                        YAML::EmitterStyle::value) override {
            node(m);
        }
        void OnMapEnd() override {}

    private:
        void node(const YAML::Mark& m) {
            if (first_ && !starts.empty())
                starts.back() = m;
            first_ = false;
        }
        bool first_ = false;
    };
    std::istringstream in(text);
    YAML::Parser parser(in);
    DocumentStarts handler;
    for (int i = 0; i < 2 && parser.HandleNextDocument(handler); ++i) {
    }
    if (handler.starts.size() < 2)
        return std::nullopt;
    return SourcePos{handler.starts[1].line + 1, handler.starts[1].column + 1};
}

} // namespace

ParseResult parsePlanText(const std::string& text, const std::string& path) {
    ParseResult result;
    Plan& plan = result.plan;
    plan.path = path;
    plan.hash = cnpt::sha256Hex(text);
    YamlReader r(path, result.findings, kMaxPlanNodes);
    if (text.size() > kMaxPlanBytes) {
        r.report({}, Severity::Error, "too-large",
                 "the plan is " + std::to_string(text.size()) + " bytes; at most " +
                     std::to_string(kMaxPlanBytes));
        return result;
    }
    if (const SourcePos bad = firstInvalidUtf8(text); bad.line > 0) {
        r.report(bad, Severity::Error, "encoding", "the plan is not valid UTF-8 here");
        return result;
    }
    try {
        const YAML::Node doc = YAML::Load(text); // the first document (Null when there is none)
        if (const auto second = secondDocumentStart(text))
            r.report(*second, Severity::Error, "syntax",
                     "a plan is one YAML document; another one starts here");
        if (!doc.IsDefined() || doc.IsNull()) {
            r.report({1, 1}, Severity::Error, "required", "the plan is empty");
            return result;
        }
        PlanReader(plan, r).readRoot(doc);
    } catch (const YAML::Exception& e) {
        const SourcePos pos = e.mark.line >= 0 ? SourcePos{e.mark.line + 1, e.mark.column + 1} : SourcePos{};
        r.report(pos, Severity::Error, "syntax", e.msg);
        sortFindings(result.findings);
        return result;
    }
    checkRequired(plan, r);
    resolveConfigurations(plan, result.findings);
    sortFindings(result.findings);
    return result;
}

ParseResult parsePlanFile(const std::string& path) {
    std::error_code ec;
    auto fail = [&](const std::string& why) {
        ParseResult r;
        r.plan.path = path;
        r.findings.push_back({path, 0, 0, Severity::Error, "read", why});
        return r;
    };
    if (!std::filesystem::is_regular_file(path, ec))
        return fail(std::filesystem::exists(path, ec) ? "not a regular file" : "no such file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return fail("cannot read: " + ec.message());
    if (size > kMaxPlanBytes)
        return fail("the plan is " + std::to_string(size) + " bytes; at most " +
                    std::to_string(kMaxPlanBytes));
    if (size == 0)
        return parsePlanText({}, path);
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buf;
    if (!in || !(buf << in.rdbuf()))
        return fail(std::string("cannot read: ") + std::strerror(errno));
    return parsePlanText(buf.str(), path);
}

} // namespace cnp::plan
