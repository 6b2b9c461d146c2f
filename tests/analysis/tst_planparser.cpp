// PlanParser: every key read into Plan, `extends` resolved, positions 1-based, problems as findings with
// line:col (never exceptions), plan values kept verbatim, hostile input bounded. Expected positions are
// counted by hand in the plan texts below (line 1 is the first line of the text).
#include "Sha256.h"
#include "TestPaths.h"
#include "plan/PlanDelta.h"
#include "plan/PlanParser.h"

#include <QElapsedTimer>
#include <QtTest>

#include "PlanFindings.h"

using namespace cnp::plan;
using cnp::plan::testing::brief;
using cnp::plan::testing::messages;

namespace {

const char* kFullPlan = R"(name: study
description: all keys
workload:
  command: [python3, train.py, --steps, "20"]
  workingDir: /work
  deepspeed: false
resources:
  nodes: 2
  gpusPerNode: 8
  cpu: "16"
  memory: 128Gi
  gpuResource: nvidia.com/gpu
repeats:
  traced: 3
  untraced: 1
capture: "steps:10:5"
tokensPerStep: 8192
flopsPerToken: 1.5e9
logMetric:
  regex: '([0-9.]+) tokens/s'
  unit: tokens/s
timeout: 90m
kubernetes:
  namespace: perf
  context: lab
  kubeconfig: /etc/kube.conf
  collectorImage: cnp-collector:2
  tracesPvc: traces
  jobKind: PyTorchJob
  nodePoolLabel: pool
container:
  gpuFlags: --device nvidia.com/gpu=all
  extraArgs: [--shm-size, 8g]
nodeDriverVersions: ["580.65.06", 575.57]
configurations:
  - name: Base
    image: img:1
    cudaVersion: "12.8.0"
    nodeDriverVersion: "580.1"
    env: {A: "1", B: two}
    args: [--x]
    mounts:
      - {hostPath: /data, containerPath: /data}
      - {pvc: ckpt, containerPath: /ckpt, readOnly: false}
    nodeSelector: {zone: a}
    nodePool: p1
    deepspeedConfig: ds.json
    privileged: false
    ipcHost: false
  - name: Next
    extends: Base
    image: img:2
    env: {B: three, C: "4"}
    args: [--y]
    mounts:
      - {hostPath: /other, containerPath: /data, readOnly: true}
    nodeSelector: {rack: r2}
    nodePool: p2
)";

} // namespace

class TestPlanParser : public QObject {
    Q_OBJECT
private slots:
    void everyKey() {
        const ParseResult r = parsePlanText(kFullPlan, "full.yaml");
        QVERIFY2(r.ok(), qPrintable(messages(r.findings)));
        QVERIFY(r.findings.empty());
        const Plan& p = r.plan;
        QCOMPARE(p.path, std::string("full.yaml"));
        QCOMPARE(p.hash, cnpt::sha256Hex(kFullPlan));
        QCOMPARE(p.name, std::string("study"));
        QCOMPARE(p.description, std::string("all keys"));
        QCOMPARE(p.workload.command, (std::vector<std::string>{"python3", "train.py", "--steps", "20"}));
        QCOMPARE(p.workload.commandPos.size(), std::size_t(4));
        QCOMPARE(p.workload.commandPos[1].line, 4);
        QCOMPARE(p.workload.commandPos[1].column, 22);
        QCOMPARE(p.workload.workingDir, std::string("/work"));
        QCOMPARE(p.workload.usesDeepSpeed, std::optional<bool>(false));
        QCOMPARE(p.resources.nodes, 2);
        QCOMPARE(p.resources.gpusPerNode, 8);
        QCOMPARE(p.resources.cpu, std::string("16"));
        QCOMPARE(p.resources.memory, std::string("128Gi"));
        QCOMPARE(p.repeats.traced, 3);
        QCOMPARE(p.repeats.untraced, 1);
        QCOMPARE(p.capture, std::string("steps:10:5"));
        QCOMPARE(p.tokensPerStep, 8192.0);
        QCOMPARE(p.flopsPerToken, 1.5e9);
        QCOMPARE(p.logMetric.regex, std::string("([0-9.]+) tokens/s"));
        QCOMPARE(p.logMetric.unit, std::string("tokens/s"));
        QCOMPARE(p.timeoutSeconds, 5400);
        QCOMPARE(p.kubernetes.namespace_, std::string("perf"));
        QCOMPARE(p.kubernetes.context, std::string("lab"));
        QCOMPARE(p.kubernetes.kubeconfig, std::string("/etc/kube.conf"));
        QCOMPARE(p.kubernetes.collectorImage, std::string("cnp-collector:2"));
        QCOMPARE(p.kubernetes.tracesPvc, std::string("traces"));
        QCOMPARE(p.kubernetes.jobKind, std::string("PyTorchJob"));
        QCOMPARE(p.kubernetes.nodePoolLabel, std::string("pool"));
        QCOMPARE(p.container.gpuFlags, std::string("--device nvidia.com/gpu=all"));
        QCOMPARE(p.container.extraArgs, (std::vector<std::string>{"--shm-size", "8g"}));
        QCOMPARE(p.container.pull, std::string("missing")); // the default
        QCOMPARE(p.nodeDriverVersions, (std::vector<std::string>{"580.65.06", "575.57"}));
        QCOMPARE(p.positions.at("resources.gpusPerNode").line, 9);
        QCOMPARE(p.positions.at("resources.gpusPerNode").column, 16);
        QCOMPARE(p.positions.at("logMetric.regex").line, 20);
        QCOMPARE(p.positions.at("logMetric.regex").column, 10);
        QCOMPARE(p.configurations.size(), std::size_t(2));
    }

    // The fabric's peaks (GB/s) for `cnp collectives`' efficiency; absent: 0 = unknown.
    void fabric() {
        const ParseResult r =
            parsePlanText("workload: {command: [run]}\nfabric:\n  intraNodeGBps: 450\n  interNodeGBps: 50.5\n"
                          "configurations: [{name: A}]\n",
                          "p.yaml");
        QVERIFY2(r.ok(), qPrintable(messages(r.findings)));
        QCOMPARE(r.plan.fabric.intraNodeGBps, 450.0);
        QCOMPARE(r.plan.fabric.interNodeGBps, 50.5);
        const ParseResult none =
            parsePlanText("workload: {command: [run]}\nconfigurations: [{name: A}]\n", "p.yaml");
        QCOMPARE(none.plan.fabric.intraNodeGBps, 0.0);
        QCOMPARE(none.plan.fabric.interNodeGBps, 0.0);
    }

    // The cnp image of ingest on the cluster (docs/launcher.md); absent: "" = traces fetched and ingested
    // here.
    void cnpImage() {
        const ParseResult r = parsePlanText("workload: {command: [run]}\nkubernetes: {cnpImage: "
                                            "registry.local/cnp:3}\nconfigurations: [{name: A}]\n",
                                            "p.yaml");
        QVERIFY2(r.ok(), qPrintable(messages(r.findings)));
        QCOMPARE(r.plan.kubernetes.cnpImage, std::string("registry.local/cnp:3"));
        const ParseResult none =
            parsePlanText("workload: {command: [run]}\nconfigurations: [{name: A}]\n", "p.yaml");
        QCOMPARE(none.plan.kubernetes.cnpImage, std::string());
    }

    void ownValuesAndPositions() {
        const ParseResult r = parsePlanText(kFullPlan, "full.yaml");
        const Configuration& base = r.plan.configurations[0];
        QCOMPARE(base.name, std::string("Base"));
        QCOMPARE(base.pos.line, 36);
        QCOMPARE(base.pos.column, 11);
        QCOMPARE(base.own.image, std::optional<std::string>("img:1"));
        QCOMPARE(base.own.positions.at("image").line, 37);
        QCOMPARE(base.own.positions.at("image").column, 12);
        QCOMPARE(base.own.cudaVersion, std::optional<std::string>("12.8.0"));
        QCOMPARE(base.own.nodeDriverVersion, std::optional<std::string>("580.1"));
        QCOMPARE(base.own.env.size(), std::size_t(2));
        QCOMPARE(base.own.env[1].name, std::string("B"));
        QCOMPARE(base.own.env[1].value, std::string("two"));
        QCOMPARE(base.own.env[1].pos.line, 40);
        QCOMPARE(base.own.env[1].pos.column, 22);
        QCOMPARE(base.own.mounts.size(), std::size_t(2));
        QCOMPARE(base.own.mounts[0].readOnly, true); // the default
        QCOMPARE(base.own.mounts[1].pvc, std::string("ckpt"));
        QCOMPARE(base.own.mounts[1].readOnly, false);
        QCOMPARE(base.own.deepspeedConfig, std::optional<std::string>("ds.json"));
        QCOMPARE(base.own.privileged, std::optional<bool>(false));
        QCOMPARE(base.own.ipcHost, std::optional<bool>(false));
        QCOMPARE(base.own.positions.at("privileged").line, 48);
    }

    void extendsOverlay() {
        const ParseResult r = parsePlanText(kFullPlan, "full.yaml");
        const Configuration& next = r.plan.configurations[1];
        QCOMPARE(next.extends, std::string("Base"));
        const ConfigValues& v = next.resolved;
        QCOMPARE(v.image, std::optional<std::string>("img:2"));
        QCOMPARE(v.cudaVersion, std::optional<std::string>("12.8.0")); // inherited
        QCOMPARE(v.ipcHost, std::optional<bool>(false));               // inherited
        // env by name: B keeps its place with the new value, C appended.
        QCOMPARE(v.env.size(), std::size_t(3));
        QCOMPARE(v.env[0].name + "=" + v.env[0].value, std::string("A=1"));
        QCOMPARE(v.env[1].name + "=" + v.env[1].value, std::string("B=three"));
        QCOMPARE(v.env[1].pos.line, 53); // where the child writes it
        QCOMPARE(v.env[2].name + "=" + v.env[2].value, std::string("C=4"));
        QCOMPARE(v.args, (std::vector<std::string>{"--x", "--y"}));
        QCOMPARE(v.argsPos.size(), std::size_t(2));
        // mounts by container path: /data replaced, /ckpt kept.
        QCOMPARE(v.mounts.size(), std::size_t(2));
        QCOMPARE(v.mounts[0].hostPath, std::string("/other"));
        QCOMPARE(v.mounts[1].containerPath, std::string("/ckpt"));
        // nodeSelector merged; nodePool sets the pool label.
        QCOMPARE(v.nodeSelector,
                 (std::map<std::string, std::string>{{"zone", "a"}, {"rack", "r2"}, {"pool", "p2"}}));
        QCOMPARE(next.own.env.size(), std::size_t(2)); // the delta as written
        QCOMPARE(r.plan.configurations[0].resolved.nodeSelector.at("pool"), std::string("p1"));
    }

    // A configuration's `kubernetes:` pod fields (issue 28.1): each one set replaces the parent's,
    // annotations and extra resources merge by key; the delta names them; a plan-wide key there is refused.
    void configurationPodFields() {
        const std::string text =
            "workload: {command: [run]}\nconfigurations:\n"
            "  - name: A\n    kubernetes:\n      tolerations: [{key: t1, operator: Exists}]\n"
            "      podAnnotations: {a1: x}\n"
            "  - name: B\n    extends: A\n    kubernetes:\n      priorityClassName: high\n"
            "      podAnnotations: {a2: y}\n"
            "  - name: C\n    extends: B\n    kubernetes:\n"
            "      tolerations: [{key: t2, value: v, effect: NoSchedule}]\n"
            "      hostNetwork: true\n";
        const ParseResult r = parsePlanText(text, "pods.yaml");
        QVERIFY2(r.findings.empty(), r.findings.empty() ? "" : r.findings[0].message.c_str());
        const KubernetesPodFields& b = r.plan.configurations[1].resolved.kubernetes;
        QCOMPARE(b.tolerations->size(), std::size_t(1));
        QCOMPARE(b.tolerations->at(0).key, std::string("t1"));
        QCOMPARE(b.priorityClassName, std::optional<std::string>("high"));
        QCOMPARE(b.podAnnotations, (std::map<std::string, std::string>{{"a1", "x"}, {"a2", "y"}}));
        const KubernetesPodFields& c = r.plan.configurations[2].resolved.kubernetes;
        QCOMPARE(c.tolerations->size(), std::size_t(1)); // replaced, not appended
        QCOMPARE(c.tolerations->at(0).key, std::string("t2"));
        QCOMPARE(c.hostNetwork, std::optional<bool>(true));
        QCOMPARE(c.priorityClassName, std::optional<std::string>("high")); // inherited
        QCOMPARE(r.plan.configurations[2].own.positions.at("kubernetes.tolerations.0").line, 15);
        const auto delta = configDelta(r.plan.configurations[1].resolved, r.plan.configurations[2].resolved);
        QStringList got;
        for (const auto& d : delta)
            got << QString::fromStdString(d.field + ": " + d.before + " -> " + d.after);
        QCOMPARE(got, (QStringList{"kubernetes.hostNetwork:  -> true",
                                   "kubernetes.tolerations: t1 Exists -> t2=v:NoSchedule"}));
        const ParseResult wide = parsePlanText("workload: {command: [run]}\nconfigurations:\n  - name: A\n"
                                               "    kubernetes: {namespace: other}\n",
                                               "wide.yaml");
        QCOMPARE(wide.findings.size(), std::size_t(1));
        QCOMPARE(wide.findings[0].line, 4);
        QVERIFY2(wide.findings[0].message.find("namespace") != std::string::npos,
                 wide.findings[0].message.c_str());
    }

    void pullPolicy_data() {
        QTest::addColumn<QString>("pull");
        QTest::newRow("missing") << "missing";
        QTest::newRow("always") << "always";
        QTest::newRow("never") << "never";
    }
    void pullPolicy() {
        QFETCH(QString, pull);
        const auto r = parsePlanText(
            ("workload: {command: [run]}\ncontainer: {pull: " + pull + "}\nconfigurations: [{name: A}]\n")
                .toStdString(),
            "p.yaml");
        QVERIFY(r.findings.empty());
        QCOMPARE(QString::fromStdString(r.plan.container.pull), pull);
    }

    // kubernetes.probeImages / probeSeconds (launch/KubernetesImageProbe): probing is on by default, for
    // 600 s; either may be set.
    void imageProbeKeys_data() {
        QTest::addColumn<QString>("kubernetes");
        QTest::addColumn<bool>("probeImages");
        QTest::addColumn<int>("probeSeconds");
        QTest::newRow("defaults") << "{}" << true << 600;
        QTest::newRow("off") << "{probeImages: false}" << false << 600;
        QTest::newRow("longer, for big images") << "{probeImages: true, probeSeconds: 1800}" << true << 1800;
    }
    void imageProbeKeys() {
        QFETCH(QString, kubernetes);
        QFETCH(bool, probeImages);
        QFETCH(int, probeSeconds);
        const auto r = parsePlanText(
            ("workload: {command: [run]}\nkubernetes: " + kubernetes + "\nconfigurations: [{name: A}]\n")
                .toStdString(),
            "p.yaml");
        QVERIFY(r.findings.empty());
        QCOMPARE(r.plan.kubernetes.probeImages, probeImages);
        QCOMPARE(r.plan.kubernetes.probeSeconds, probeSeconds);
    }

    void findings_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QStringList>("expected");
        const QByteArray head = "workload: {command: [run]}\n";
        QTest::newRow("unknown top-level key") << head + "configurations: [{name: A}]\nrepeat: 3\n"
                                               << QStringList{"3:1: error: unknown-key"};
        QTest::newRow("unknown configuration key") << head + "configurations:\n  - name: A\n    imag: x\n"
                                                   << QStringList{"4:5: error: unknown-key"};
        QTest::newRow("duplicate key") << head + "name: a\nname: b\nconfigurations: [{name: A}]\n"
                                       << QStringList{"3:1: error: duplicate-key"};
        QTest::newRow("integer expected") << head + "resources:\n  nodes: two\nconfigurations: [{name: A}]\n"
                                          << QStringList{"3:10: error: type"};
        QTest::newRow("integer out of range")
            << head + "resources: {gpusPerNode: 65}\nconfigurations: [{name: A}]\n"
            << QStringList{"2:26: error: type"};
        QTest::newRow("probeSeconds too short to pull")
            << head + "kubernetes: {probeSeconds: 5}\nconfigurations: [{name: A}]\n"
            << QStringList{"2:28: error: type"};
        QTest::newRow("probeImages not a bool")
            << head + "kubernetes: {probeImages: sometimes}\nconfigurations: [{name: A}]\n"
            << QStringList{"2:27: error: type"};
        QTest::newRow("pull policy") << head + "container: {pull: sometimes}\nconfigurations: [{name: A}]\n"
                                     << QStringList{"2:19: error: type"};
        QTest::newRow("bool expected") << head + "configurations:\n  - name: A\n    privileged: maybe\n"
                                       << QStringList{"4:17: error: type"};
        QTest::newRow("list expected") << head + "configurations:\n  - name: A\n    args: --x\n"
                                       << QStringList{"4:11: error: type"};
        QTest::newRow("mapping expected for env") << head + "configurations:\n  - name: A\n    env: [A=1]\n"
                                                  << QStringList{"4:10: error: type"};
        QTest::newRow("bad env name") << head + "configurations:\n  - name: A\n    env: {1X: v}\n"
                                      << QStringList{"4:15: error: type"};
        QTest::newRow("unit not known")
            << head + "logMetric: {regex: '(x)', unit: furlongs}\nconfigurations: [{name: A}]\n"
            << QStringList{"2:33: error: type"};
        QTest::newRow("fabric beyond any link")
            << head + "fabric: {intraNodeGBps: 2e6}\nconfigurations: [{name: A}]\n"
            << QStringList{"2:9: error: type"};
        QTest::newRow("fabric negative")
            << head + "fabric: {interNodeGBps: -5}\nconfigurations: [{name: A}]\n"
            << QStringList{"2:25: error: type"};
        QTest::newRow("fabric unknown key") << head + "fabric: {nvlink: 900}\nconfigurations: [{name: A}]\n"
                                            << QStringList{"2:10: error: unknown-key"};
        QTest::newRow("timeout unit") << head + "timeout: 3d\nconfigurations: [{name: A}]\n"
                                      << QStringList{"2:10: error: type"};
        QTest::newRow("extends unknown")
            << head + "configurations:\n  - name: A\n  - name: B\n    extends: Z\n"
            << QStringList{"5:14: error: extends"};
        QTest::newRow("extends later") << head + "configurations:\n  - name: A\n    extends: B\n  - name: B\n"
                                       << QStringList{"4:14: error: extends"};
        QTest::newRow("extends itself") << head + "configurations:\n  - {name: A, extends: A}\n"
                                        << QStringList{"3:24: error: extends"};
        QTest::newRow("cycle")
            << head + "configurations:\n  - {name: A, extends: B}\n  - {name: B, extends: A}\n"
            << QStringList{"3:24: error: extends"};
        QTest::newRow("duplicate name") << head + "configurations:\n  - name: A\n  - name: A\n"
                                        << QStringList{"4:11: error: duplicate-name"};
        QTest::newRow("missing name") << head + "configurations:\n  - image: x\n"
                                      << QStringList{"3:5: error: required"};
        QTest::newRow("no configurations") << head << QStringList{"1:1: error: required"};
        QTest::newRow("no command") << QByteArray("configurations: [{name: A}]\n")
                                    << QStringList{"1:1: error: required"};
        QTest::newRow("mount without container path")
            << head + "configurations:\n  - name: A\n    mounts: [{hostPath: /a, containerPath: rel}]\n"
            << QStringList{"4:14: error: required"};
        QTest::newRow("syntax error") << head + "configurations: [{name: A}\n"
                                      << QStringList{"3:1: error: syntax"};
        QTest::newRow("empty") << QByteArray() << QStringList{"1:1: error: required"};
        QTest::newRow("two documents") << head + "configurations: [{name: A}]\n---\nname: b\n"
                                       << QStringList{"4:1: error: syntax"};
        QTest::newRow("not UTF-8")
            << QByteArray("workload: {command: [run]}\nname: caf\xe9\nconfigurations: [{name: A}]\n")
            << QStringList{"2:10: error: encoding"};
        QTest::newRow("expect factor") << head + "configurations:\n  - name: A\n    expect: {comm: fast}\n"
                                       << QStringList{"4:20: error: type"};
        QTest::newRow("expect factor range")
            << head + "configurations:\n  - name: A\n    expect:\n      scale: {gemm: 2000}\n"
            << QStringList{"5:21: error: type"};
        QTest::newRow("expect unknown") << head + "configurations:\n  - name: A\n    expect: {speed: 2}\n"
                                        << QStringList{"4:14: error: unknown-key"};
        QTest::newRow("expect launch")
            << head + "configurations:\n  - name: A\n    expect: {launch_overhead: half}\n"
            << QStringList{"4:31: error: type"};
        QTest::newRow("expect separator in a name")
            << head + "configurations:\n  - name: A\n    expect: {remove_sync: 'a;b'}\n"
            << QStringList{"4:27: error: type"};
        QTest::newRow("expect nothing") << head + "configurations:\n  - name: A\n    expect: {}\n"
                                        << QStringList{"4:13: error: type"};
        QTest::newRow("plan is a list")
            << QByteArray("[1, 2]\n")
            << QStringList{"1:1: error: required", "1:1: error: required", "1:1: error: type"};
    }
    void findings() {
        QFETCH(QByteArray, text);
        QFETCH(QStringList, expected);
        const ParseResult r = parsePlanText(text.toStdString(), "p.yaml");
        QCOMPARE(brief(r.findings), expected);
        for (const auto& f : r.findings)
            QCOMPARE(f.file, std::string("p.yaml"));
    }

    // `expect:` becomes the expectation text of metrics/Expectation.h, in the order written, not inherited.
    void expectation() {
        const ParseResult r =
            parsePlanText("workload: {command: [run]}\nconfigurations:\n  - name: A\n"
                          "  - name: B\n    extends: A\n    expect:\n      comm: 0.5128\n"
                          "      scale: {gemm: 0.8, memory: 1}\n      recompute: drop\n"
                          "      launch_overhead: remove\n      remove_sync: [cudaDeviceSynchronize]\n"
                          "  - name: C\n    extends: B\n",
                          "p.yaml");
        QVERIFY(r.findings.empty());
        QCOMPARE(r.plan.configurations[0].expect, std::string());
        QCOMPARE(r.plan.configurations[1].expect,
                 std::string("comm=0.5128; scale.gemm=0.8; scale.memory=1; recompute=drop; "
                             "launch_overhead=remove; remove_sync=cudaDeviceSynchronize"));
        QCOMPARE(r.plan.configurations[2].expect, std::string());
    }

    // Plan values are text: nothing is expanded or interpreted, whatever a shell would do with it.
    void valuesVerbatim_data() {
        QTest::addColumn<QString>("yamlValue");
        QTest::addColumn<QString>("value");
        QTest::newRow("command substitution") << "'$(rm -rf ~)'"
                                              << "$(rm -rf ~)";
        QTest::newRow("backticks") << "'`id`'"
                                   << "`id`";
        QTest::newRow("separator") << "'a; rm -rf /'"
                                   << "a; rm -rf /";
        QTest::newRow("variable") << "\"${HOME}\""
                                  << "${HOME}";
        QTest::newRow("glob") << "'*'"
                              << "*";
        QTest::newRow("newline escape") << "\"a\\nb\""
                                        << "a\nb";
    }
    void valuesVerbatim() {
        QFETCH(QString, yamlValue);
        QFETCH(QString, value);
        const std::string text = "workload: {command: [run, " + yamlValue.toStdString() +
                                 "]}\nconfigurations:\n  - name: A\n    args: [" + yamlValue.toStdString() +
                                 "]\n    env: {V: " + yamlValue.toStdString() + "}\n";
        const ParseResult r = parsePlanText(text, "p.yaml");
        QVERIFY2(r.ok(), qPrintable(messages(r.findings)));
        const std::string v = value.toStdString();
        QCOMPARE(r.plan.workload.command.at(1), v);
        QCOMPARE(r.plan.configurations[0].resolved.args.at(0), v);
        QCOMPARE(r.plan.configurations[0].resolved.env.at(0).value, v);
    }

    void deepspeedMappingBecomesJson() {
        const char* text = "workload: {command: [run]}\nconfigurations:\n  - name: A\n    deepspeedConfig:\n"
                           "      train_batch_size: 16\n      zero_optimization:\n        stage: 3\n"
                           "        stage3_prefetch_bucket_size: auto\n      tag: \"007\"\n";
        const ParseResult r = parsePlanText(text, "p.yaml");
        QVERIFY2(r.ok(), qPrintable(messages(r.findings)));
        const ConfigValues& v = r.plan.configurations[0].own;
        QCOMPARE(*v.deepspeedConfig, std::string(R"({"train_batch_size":16,"zero_optimization":{"stage":3,)"
                                                 R"("stage3_prefetch_bucket_size":"auto"},"tag":"007"})"));
        QCOMPARE(v.positions.at("deepspeedConfig.stage3_prefetch_bucket_size").line, 8);
        QCOMPARE(v.positions.at("deepspeedConfig.stage3_prefetch_bucket_size").column, 38);
    }

    // Hostile input: each returns quickly with an error finding, never a crash or a hang.
    void hostile_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("rule");
        QTest::newRow("deep flow nesting") << QByteArray(200000, '[') << "syntax";
        QByteArray block;
        for (int i = 0; i < 1200; ++i)
            block += QByteArray(i, ' ') + "k:\n";
        QTest::newRow("deep block nesting") << block << "syntax";
        QTest::newRow("too large") << QByteArray(int(kMaxPlanBytes) + 1, '#') << "too-large";
        QByteArray binary;
        for (int i = 0; i < 4096; ++i)
            binary += char((i * 7919) & 0xff);
        QTest::newRow("binary") << binary << "encoding";
        QTest::newRow("tabs and controls") << QByteArray("workload:\n\t- \x01\x02\n") << "syntax";
        // yaml-cpp's LoadAll never returned on this one byte (endless empty documents, memory grew until
        // bad_alloc); the plan fuzzer's input tests/data/fuzz-regressions/plan/yaml-loadall-stray-comma.yaml.
        QTest::newRow("stray comma") << QByteArray(",") << "syntax";
    }
    void hostile() {
        QFETCH(QByteArray, text);
        QFETCH(QString, rule);
        QElapsedTimer t;
        t.start();
        const ParseResult r = parsePlanText(text.toStdString(), "h.yaml");
        QVERIFY(!r.ok());
        QVERIFY2(t.elapsed() < 5000, "parsing hostile input took too long");
        QVERIFY2(!r.findings.empty() && r.findings.front().rule == rule.toStdString(),
                 qPrintable(messages(r.findings)));
    }

    void aliasBombStopsAtBudget() {
        // 10^8 leaves through aliases: the walk must stop at the node budget with a too-large finding.
        std::string defs = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
        for (int i = 1; i <= 8; ++i) {
            defs += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
            for (int k = 0; k < 10; ++k)
                defs += (k ? ", *l" : "*l") + std::to_string(i - 1);
            defs += "]\n";
        }
        const std::string text = defs + "workload: {command: [run]}\nconfigurations:\n  - name: A\n"
                                        "    deepspeedConfig: {a: *l8}\n";
        QElapsedTimer t;
        t.start();
        const ParseResult r = parsePlanText(text, "bomb.yaml");
        QVERIFY(t.elapsed() < 5000);
        QStringList rules;
        for (const auto& f : r.findings)
            rules << QString::fromStdString(f.rule);
        QVERIFY2(rules.contains("too-large"), qPrintable(messages(r.findings)));
    }

    // Issue 33.5: a 243 KB chain of `extends` (3,639 configurations, each adding an env var and an arg)
    // took 38 s, 2.6 GB and 514 MB of `plan show --json`: each configuration held every ancestor's values.
    // Chains are at most kMaxExtendsDepth (32) deep: the 33rd level is an "extends" error and resolves as
    // a root, so what resolution holds is at most 33 values per configuration here (counted, not timed).
    void extendsChainBounded_data() {
        QTest::addColumn<int>("configurations");
        QTest::addColumn<int>("errors");
        QTest::addColumn<int>("maxResolvedEnv"); // the most env entries one configuration resolves to
        QTest::newRow("33 deep (32 levels)") << 33 << 0 << 33;
        QTest::newRow("34 deep") << 34 << 1 << 33;
        QTest::newRow("3,639 deep") << 3639 << 110 << 33;
    }
    void extendsChainBounded() {
        QFETCH(int, configurations);
        QFETCH(int, errors);
        QFETCH(int, maxResolvedEnv);
        std::string text =
            "workload: {command: [python, train.py]}\nconfigurations:\n  - {name: c0, env: {V0: x}}\n";
        for (int i = 1; i < configurations; ++i)
            text += "  - {name: c" + std::to_string(i) + ", extends: c" + std::to_string(i - 1) +
                    ", env: {V" + std::to_string(i) + ": x}, args: [--a" + std::to_string(i) + "]}\n";
        const ParseResult r = parsePlanText(text, "chain.yaml");
        int found = 0;
        for (const auto& f : r.findings) {
            QCOMPARE(QString::fromStdString(f.rule), QStringLiteral("extends"));
            ++found;
        }
        QCOMPARE(found, errors);
        if (errors > 0)
            QCOMPARE(
                QString::fromStdString(r.findings[0].message),
                QStringLiteral("'c33' would be 33 levels down its 'extends' chain; at most 32 are allowed"));
        std::size_t most = 0, total = 0;
        for (const auto& c : r.plan.configurations) {
            most = std::max(most, c.resolved.env.size());
            total += c.resolved.env.size() + c.resolved.args.size();
        }
        QCOMPARE(int(most), maxResolvedEnv);
        QVERIFY(total <= std::size_t(configurations) * 66); // linear in the plan, not quadratic
    }

    void readsFiles() {
        const ParseResult missing = parsePlanFile("/nonexistent/plan.yaml");
        QCOMPARE(brief(missing.findings), QStringList{"0:0: error: read"});
        QCOMPARE(missing.findings[0].message, std::string("no such file"));
        for (const char* name : {"acs-ablation-llama3-8b.yaml", "single-gpu-llama.yaml"}) {
            const ParseResult r =
                parsePlanFile((testpaths::sourceDir() + "/resources/plans/").toStdString() + name);
            QVERIFY2(r.ok(), qPrintable(messages(r.findings)));
            QCOMPARE(r.plan.hash.size(), std::size_t(64));
        }
    }

    void bundledStudy() {
        const ParseResult r = parsePlanFile(
            (testpaths::sourceDir() + "/resources/plans/acs-ablation-llama3-8b.yaml").toStdString());
        QVERIFY2(r.ok(), qPrintable(messages(r.findings)));
        const Plan& p = r.plan;
        QStringList names;
        for (const auto& c : p.configurations)
            names << QString::fromStdString(c.name);
        QCOMPARE(names, (QStringList{"Base", "Base+ACCL", "AC2+ACCL", "AC2+ACCL+CompilerOpt",
                                     "AC2+ACCL+CompilerOpt+CkptOpt"}));
        QCOMPARE(p.workload.command,
                 (std::vector<std::string>{"ljperf", "benchmark", "--model", "deepspeed/llama3-8b"}));
        QCOMPARE(p.resources.nodes, 2);
        QCOMPARE(p.resources.gpusPerNode, 8);
        const ConfigValues& last = p.configurations.back().resolved;
        QCOMPARE(*last.image, std::string("egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/egslingjun/"
                                          "training-nv-pytorch:26.02"));
        QCOMPARE(last.env.size(), std::size_t(2));
        QCOMPARE(last.env[0].value, std::string("eth0"));
        QCOMPARE(last.env[1].name + "=" + last.env[1].value, std::string("CHECKPOINT_OPTIMIZATION=true"));
        QCOMPARE(p.configurations[2].resolved.args.size(), std::size_t(0)); // AC2+ACCL: nothing switched on
        QCOMPARE(last.args,
                 (std::vector<std::string>{"--torch_compile", "--bf16", "--gradient_checkpointing"}));
    }
};

QTEST_APPLESS_MAIN(TestPlanParser)
#include "tst_planparser.moc"
