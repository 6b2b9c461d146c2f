// PlanLint: every rule on small plans, with the exact line:col it must report (counted by hand: line 1
// is the first line of each text), the cases that must stay clean, and the bundled plans lint clean.
#include "TestPaths.h"
#include "plan/PlanLint.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "PlanFindings.h"

using namespace cnp::plan;
using cnp::plan::testing::brief;
using cnp::plan::testing::messages;

namespace {

void addRow(const char* name, const char* text, QStringList expected) {
    QTest::newRow(name) << QString::fromUtf8(text) << expected;
}

} // namespace

class TestPlanLint : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

private slots:
    void rules_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("expected");
        // nccl-socket-ifname
        addRow("ifname wrong for 8 GPUs",
               "workload: {command: [run]}\nresources: {nodes: 2, gpusPerNode: 8}\nconfigurations:\n  - "
               "name: A\n"
               "    env:\n      NCCL_SOCKET_IFNAME: hpn0\n",
               {"6:27: error: nccl-socket-ifname"});
        addRow("ifname wrong for 16 GPUs",
               "workload: {command: [run]}\nresources: {gpusPerNode: 16}\nconfigurations:\n  - name: A\n"
               "    env: {NCCL_SOCKET_IFNAME: eth0}\n",
               {"5:31: error: nccl-socket-ifname"});
        addRow("hpn0 for 16 GPUs is right",
               "workload: {command: [run]}\nresources: {gpusPerNode: 16}\nconfigurations:\n  - name: A\n"
               "    env: {NCCL_SOCKET_IFNAME: hpn0}\n",
               {});
        addRow("eth0 for 4 GPUs is right",
               "workload: {command: [run]}\nresources: {gpusPerNode: 4}\nconfigurations:\n  - name: A\n"
               "    env: {NCCL_SOCKET_IFNAME: eth0}\n",
               {});
        addRow("inherited value reported once where written",
               "workload: {command: [run]}\nresources: {gpusPerNode: 2}\nconfigurations:\n  - name: A\n"
               "    env: {NCCL_SOCKET_IFNAME: hpn0}\n  - name: B\n    extends: A\n",
               {"5:31: error: nccl-socket-ifname"});
        addRow("missing on several nodes",
               "workload: {command: [run]}\nresources: {nodes: 2, gpusPerNode: 8}\nconfigurations:\n  - "
               "name: A\n",
               {"4:11: warning: nccl-socket-ifname"});
        addRow("3 GPUs: no rule",
               "workload: {command: [run]}\nresources: {gpusPerNode: 3}\nconfigurations:\n  - name: A\n"
               "    env: {NCCL_SOCKET_IFNAME: ib0}\n",
               {});
        // reinstall-framework
        addRow("pip install torch in argv",
               "workload: {command: [pip, install, torch==2.5]}\nconfigurations: [{name: A}]\n",
               {"1:22: error: reinstall-framework"});
        addRow("bash -c script",
               "workload: {command: [bash, -c, \"pip install -U deepspeed && python train.py\"]}\n"
               "configurations: [{name: A}]\n",
               {"1:32: error: reinstall-framework"});
        addRow("python -m pip in sh -ec",
               "workload: {command: [sh, -ec, \"cd /w; python3 -m pip install 'torch>=2' x\"]}\n"
               "configurations: [{name: A}]\n",
               {"1:31: error: reinstall-framework"});
        addRow("script from configuration args",
               "workload: {command: [/bin/sh, -c]}\nconfigurations:\n  - name: A\n"
               "    args: ['conda install -y pytorch']\n",
               {"4:12: error: reinstall-framework"});
        addRow("nested shell",
               "workload: {command: [sh, -c, \"bash -c 'pip3 install DeepSpeed[all]'\"]}\n"
               "configurations: [{name: A}]\n",
               {"1:30: error: reinstall-framework"});
        addRow("other packages are fine",
               "workload: {command: [sh, -c, \"pip install transformers torchvision && echo pip install "
               "torch\"]}\n"
               "configurations: [{name: A}]\n",
               {});
        // deepspeed-prefetch-bucket / deepspeed-config
        addRow("inline JSON bucket size",
               "workload: {command: [deepspeed, t.py]}\nconfigurations:\n  - name: A\n"
               "    deepspeedConfig: '{\"zero_optimization\": {\"stage3_prefetch_bucket_size\": 5e8}}'\n",
               {"4:22: error: deepspeed-prefetch-bucket"});
        addRow("YAML mapping bucket size",
               "workload: {command: [deepspeed, t.py]}\nconfigurations:\n  - name: A\n    deepspeedConfig:\n"
               "      zero_optimization:\n        stage: 3\n        stage3_prefetch_bucket_size: 50000000\n",
               {"7:38: error: deepspeed-prefetch-bucket"});
        addRow("auto, empty and null are fine",
               "workload: {command: [deepspeed, t.py]}\nconfigurations:\n"
               "  - {name: A, deepspeedConfig: {zero_optimization: {stage3_prefetch_bucket_size: auto}}}\n"
               "  - {name: B, deepspeedConfig: '{\"zero_optimization\": {\"stage3_prefetch_bucket_size\": "
               "\"\"}}'}\n"
               "  - {name: C, deepspeedConfig: {zero_optimization: {stage3_prefetch_bucket_size: }}}\n",
               {});
        addRow("inline JSON that is not JSON",
               "workload: {command: [deepspeed, t.py]}\nconfigurations:\n  - name: A\n"
               "    deepspeedConfig: '{\"zero_optimization\": '\n",
               {"4:22: error: deepspeed-config"});
        addRow("missing file",
               "workload: {command: [deepspeed, t.py]}\nconfigurations:\n  - name: A\n"
               "    deepspeedConfig: nowhere/ds.json\n",
               {"4:22: error: deepspeed-config"});
        // checkpoint-optimization
        addRow("CHECKPOINT_OPTIMIZATION without DeepSpeed",
               "workload: {command: [python3, train.py]}\nconfigurations:\n  - name: A\n"
               "    env: {CHECKPOINT_OPTIMIZATION: \"true\"}\n",
               {"4:36: warning: checkpoint-optimization"});
        addRow("CHECKPOINT_OPTIMIZATION with deepspeed launcher",
               "workload: {command: [deepspeed, train.py]}\nconfigurations:\n  - name: A\n"
               "    env: {CHECKPOINT_OPTIMIZATION: \"true\"}\n",
               {});
        addRow("CHECKPOINT_OPTIMIZATION declared DeepSpeed",
               "workload: {command: [python3, train.py], deepspeed: true}\nconfigurations:\n  - name: A\n"
               "    env: {CHECKPOINT_OPTIMIZATION: \"1\"}\n",
               {});
        addRow("CHECKPOINT_OPTIMIZATION declared not DeepSpeed",
               "workload: {command: [deepspeed, train.py], deepspeed: false}\nconfigurations:\n  - name: A\n"
               "    env: {CHECKPOINT_OPTIMIZATION: \"on\"}\n",
               {"4:36: warning: checkpoint-optimization"});
        addRow("CHECKPOINT_OPTIMIZATION false",
               "workload: {command: [python3, train.py]}\nconfigurations:\n"
               "  - name: A\n    env: {CHECKPOINT_OPTIMIZATION: \"false\"}\n",
               {});
        // cuda-driver
        addRow(
            "cudaVersion 13.0.2 on driver 575",
            "workload: {command: [run]}\nnodeDriverVersions: [\"575.57.08\"]\nconfigurations:\n  - name: A\n"
            "    image: golden:26.02\n    cudaVersion: \"13.0.2\"\n",
            {"6:18: error: cuda-driver"});
        addRow(
            "image tag 12.8.0 on driver 570",
            "workload: {command: [run]}\nnodeDriverVersions: [\"580.1\", \"570.124.06\"]\nconfigurations:\n"
            "  - name: A\n    image: nvidia/cuda:12.8.0-devel-ubuntu22.04\n",
            {"5:12: warning: collector-cupti", "5:12: error: cuda-driver"});
        addRow("configuration's own nodes",
               "workload: {command: [run]}\nnodeDriverVersions: [\"580.1\"]\nconfigurations:\n  - name: A\n"
               "    image: pytorch:2.9-cuda13.0-cudnn9\n  - name: B\n    extends: A\n    nodeDriverVersion: "
               "575.1\n",
               {"5:12: error: cuda-driver"});
        addRow("new enough driver",
               "workload: {command: [run]}\nnodeDriverVersions: [\"580.65.06\"]\nconfigurations:\n"
               "  - {name: A, image: \"torch:2.9.0-cu130\"}\n",
               {});
        addRow("CUDA below the table is not checked",
               "workload: {command: [run]}\nnodeDriverVersions: [\"535.1\"]\nconfigurations:\n"
               "  - {name: A, image: \"nvidia/cuda:12.4.1-base\"}\n",
               {"4:22: warning: collector-cupti"});
        // collector-cupti: said once where a configuration writes its CUDA (cudaVersion, else its image);
        // nothing for an image whose CUDA is 13 or unknown.
        addRow(
            "CUDA 12 inherited: said where written",
            "workload: {command: [run]}\nconfigurations:\n  - name: A\n    image: ngc:25.01\n"
            "    cudaVersion: \"12.8\"\n  - {name: B, extends: A}\n  - {name: C, extends: A, image: x:1}\n",
            {"5:18: warning: collector-cupti", "7:34: warning: collector-cupti"});
        addRow("CUDA 13 and unknown are fine",
               "workload: {command: [run]}\nconfigurations:\n  - {name: A, image: \"torch:2.9.0-cu130\"}\n"
               "  - {name: B, image: \"nvcr.io/nvidia/pytorch:25.01-py3\"}\n",
               {});
        // collector-glibc: an image whose tag names a distribution older than glibc 2.28; said where written
        addRow("ubuntu18.04 image, inherited",
               "workload: {command: [run]}\nconfigurations:\n  - {name: A, image: "
               "\"nvidia/cuda:13.0.0-base-ubuntu18.04\"}"
               "\n  - {name: B, extends: A}\n",
               {"3:22: warning: collector-glibc"});
        addRow("ubi8 is the floor, ubuntu22.04 newer",
               "workload: {command: [run]}\nconfigurations:\n  - {name: A, image: "
               "\"nvidia/cuda:13.0.0-base-ubi8\"}\n"
               "  - {name: B, image: \"nvidia/cuda:13.0.0-base-ubuntu22.04\"}\n",
               {});
        addRow("NGC tag says nothing",
               "workload: {command: [run]}\nnodeDriverVersions: [\"535.1\"]\nconfigurations:\n"
               "  - {name: A, image: \"nvcr.io/nvidia/pytorch:25.10-py3\"}\n",
               {});
        addRow("bad cudaVersion",
               "workload: {command: [run]}\nconfigurations:\n  - {name: A, cudaVersion: thirteen}\n",
               {"3:28: error: type"});
        // privileged
        addRow("privileged configuration",
               "workload: {command: [run]}\nconfigurations:\n  - name: A\n    privileged: true\n",
               {"4:17: warning: privileged"});
        addRow("privileged in container args",
               "workload: {command: [run]}\ncontainer:\n  extraArgs: [--shm-size=8g, --privileged]\n"
               "configurations: [{name: A}]\n",
               {"3:30: error: privileged"});
        addRow("every capability",
               "workload: {command: [run]}\ncontainer:\n  extraArgs: [--cap-add=ALL]\nconfigurations: "
               "[{name: A}]\n",
               {"3:15: error: privileged"});
        addRow("seccomp unconfined, flag and value in two words",
               "workload: {command: [run]}\ncontainer:\n  extraArgs: [--security-opt, seccomp=unconfined]\n"
               "configurations: [{name: A}]\n",
               {"3:15: error: privileged"});
        addRow("host pid namespace and /dev/mem",
               "workload: {command: [run]}\ncontainer:\n  extraArgs: [--pid=host, --device=/dev/mem]\n"
               "configurations: [{name: A}]\n",
               {"3:15: error: privileged", "3:27: error: privileged"});
        addRow("host root mounted through extraArgs",
               "workload: {command: [run]}\ncontainer:\n  extraArgs: [-v, '/:/host']\nconfigurations: "
               "[{name: A}]\n",
               {"3:15: error: privileged"});
        addRow(
            "privileged as GPU flags",
            "workload: {command: [run]}\ncontainer: {gpuFlags: --privileged}\nconfigurations: [{name: A}]\n",
            {"2:23: error: privileged"});
        addRow("host root as a configuration's mount",
               "workload: {command: [run]}\nconfigurations:\n  - name: A\n    mounts:\n"
               "      - {hostPath: /, containerPath: /host, readOnly: false}\n",
               {"5:9: error: privileged"});
        addRow(
            "GPU, RDMA, shared memory and limits are fine",
            "workload: {command: [run]}\ncontainer:\n  gpuFlags: --device nvidia.com/gpu=all\n"
            "  extraArgs: [--ipc=host, --device=/dev/infiniband/uverbs0, --cap-add=IPC_LOCK, --shm-size=8g]\n"
            "configurations: [{name: A, mounts: [{hostPath: /data, containerPath: /data}]}]\n",
            {});
        // image
        addRow("an image that is an option",
               "workload: {command: [run]}\nconfigurations:\n  - {name: A, image: \"--privileged\"}\n"
               "  - {name: B, image: \"-v=/:/host\"}\n",
               {"3:22: error: image", "4:22: error: image"});
        addRow("an image with a space",
               "workload: {command: [run]}\nconfigurations:\n  - name: A\n    image: 'a b'\n",
               {"4:12: error: image"});
        addRow("a collector image that is an option",
               "workload: {command: [run]}\nkubernetes: {collectorImage: --privileged}\nconfigurations: "
               "[{name: A}]\n",
               {"2:30: error: image"});
        addRow("a cnp image that is an option",
               "workload: {command: [run]}\nkubernetes: {cnpImage: '-v=/:/host'}\nconfigurations: "
               "[{name: A}]\n",
               {"2:24: error: image"});
        addRow("a cnp image that is an image",
               "workload: {command: [run]}\nkubernetes: {cnpImage: 'registry.local/cnp:1'}\nconfigurations: "
               "[{name: A}]\n",
               {});
        // log-regex
        addRow("regex with two groups",
               "workload: {command: [run]}\nlogMetric: {regex: '(\\d+) (\\d+)', unit: tokens/s}\n"
               "configurations: [{name: A}]\n",
               {"2:20: error: log-regex"});
        addRow("invalid regex",
               "workload: {command: [run]}\nlogMetric:\n  regex: '([0-9]+'\nconfigurations: [{name: A}]\n",
               {"3:10: error: log-regex"});
        // capture
        addRow("capture that is no mode",
               "workload: {command: [run]}\ncapture: sometimes\nconfigurations: [{name: A}]\n",
               {"2:10: error: capture"});
        addRow("capture steps without a count",
               "workload: {command: [run]}\ncapture: 'steps:10'\nconfigurations: [{name: A}]\n",
               {"2:10: error: capture"});
        addRow("capture time negative",
               "workload: {command: [run]}\ncapture: time:-5\nconfigurations: [{name: A}]\n",
               {"2:10: error: capture"});
        addRow("capture values that are fine",
               "workload: {command: [run]}\ncapture: steps:10:5:iter\nconfigurations: [{name: A}]\n", {});
        addRow("capture all", "workload: {command: [run]}\ncapture: all\nconfigurations: [{name: A}]\n", {});
        // kubernetes-quantity, kubernetes-label: what the API server would reject (plan/KubernetesValues)
        addRow("memory that is not a quantity",
               "workload: {command: [run]}\nresources: {memory: lots}\nconfigurations: [{name: A}]\n",
               {"2:21: error: kubernetes-quantity"});
        addRow("negative cpu",
               "workload: {command: [run]}\nresources: {cpu: \"-3\"}\nconfigurations: [{name: A}]\n",
               {"2:18: error: kubernetes-quantity"});
        addRow("quantities that are fine",
               "workload: {command: [run]}\nresources: {cpu: 500m, memory: 128Gi}\nconfigurations: [{name: "
               "A}]\n",
               {});
        addRow("node selector key and value",
               "workload: {command: [run]}\nconfigurations:\n  - name: A\n    nodeSelector: {'pool name': x, "
               "ok: 'a b'}\n",
               {"4:33: error: kubernetes-label", "4:40: error: kubernetes-label"});
        addRow("node pool value",
               "workload: {command: [run]}\nconfigurations:\n  - name: A\n    nodePool: 'h200 x8'\n",
               {"4:15: error: kubernetes-label"});
        addRow("node pool label key",
               "workload: {command: [run]}\nkubernetes: {nodePoolLabel: Example.COM/pool}\nconfigurations: "
               "[{name: "
               "A}]\n",
               {"2:29: error: kubernetes-label"});
        addRow("labels that are fine",
               "workload: {command: [run]}\nkubernetes: {nodePoolLabel: cloud.google.com/gke-nodepool}\n"
               "configurations:\n  - name: A\n    nodePool: h200-x8\n    nodeSelector: "
               "{topology.kubernetes.io/zone: "
               "us-east1-b}\n",
               {});
        addRow("cluster admin values the cluster would refuse",
               "workload: {command: [run]}\nkubernetes:\n  shmSizeLimit: big\n  addCapabilities: [IPC_LOCK, "
               "SYS_ADMIN]\n"
               "  extraResources: {rdma/hca: many}\n  tolerations:\n    - {key: gpu, operator: Exists, "
               "value: x}\n"
               "configurations: [{name: A}]\n",
               {"3:17: error: kubernetes-quantity", "4:31: error: privileged",
                "5:30: error: kubernetes-quantity", "7:7: error: kubernetes-value"});
        // the parser's findings come through lint as well, with the rules on what could be read
        addRow("unknown key and a rule",
               "workload: {command: [run]}\nconfigurations:\n  - name: A\n    privileged: yes\n    colour: "
               "blue\n",
               {"4:17: warning: privileged", "5:5: error: unknown-key"});
    }
    void rules() {
        QFETCH(QString, text);
        QFETCH(QStringList, expected);
        const ParseResult r = lintPlanText(text.toStdString(), dir.filePath("plan.yaml").toStdString());
        QVERIFY2(brief(r.findings) == expected, qPrintable(messages(r.findings)));
    }

    void referencedJsonFile_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("number")
            << QByteArray(R"({"zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 1e9}})")
            << QStringList{"4:22: error: deepspeed-prefetch-bucket"};
        QTest::newRow("auto") << QByteArray(
                                     R"({"zero_optimization": {"stage3_prefetch_bucket_size": "auto"}})")
                              << QStringList{};
        QTest::newRow("absent") << QByteArray(R"({"train_batch_size": 8})") << QStringList{};
        QTest::newRow("not an object")
            << QByteArray("[1, 2]") << QStringList{"4:22: error: deepspeed-config"};
        QTest::newRow("deep nesting")
            << QByteArray(100000, '[') << QStringList{"4:22: error: deepspeed-config"};
    }
    void referencedJsonFile() {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, expected);
        QFile f(dir.filePath("conf/ds.json"));
        QVERIFY(QDir(dir.path()).mkpath("conf"));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(json);
        f.close();
        const char* text = "workload: {command: [deepspeed, t.py]}\nconfigurations:\n  - name: A\n"
                           "    deepspeedConfig: conf/ds.json\n";
        const ParseResult r = lintPlanText(text, dir.filePath("plan.yaml").toStdString());
        QVERIFY2(brief(r.findings) == expected, qPrintable(messages(r.findings)));
    }

    void findingFormat() {
        const ParseResult r = lintPlanText(
            "workload: {command: [run]}\nconfigurations:\n  - {name: A, privileged: true}\n", "plans/x.yaml");
        QCOMPARE(r.findings.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(formatFinding(r.findings[0])),
                 QStringLiteral(
                     "plans/x.yaml:3:27: warning: privileged: privileged containers are unnecessary for "
                     "tracing (CUPTI activity tracing needs no extra capability) and are never passed to "
                     "a backend; remove it"));
        QVERIFY(!hasErrors(r.findings));
    }

    void captureFindingNamesTheValidValues() {
        const ParseResult r = lintPlanText(
            "workload: {command: [run]}\ncapture: sometimes\nconfigurations: [{name: A}]\n", "p.yaml");
        QCOMPARE(r.findings.size(), std::size_t(1));
        QCOMPARE(
            QString::fromStdString(formatFinding(r.findings[0])),
            "p.yaml:2:10: error: capture: capture 'sometimes' is not valid (expected all, "
            "time:DELAY[:DURATION] or steps:START:COUNT[:PREFIX]); valid values: all, time:DELAY[:DURATION] "
            "(seconds), steps:START:COUNT[:PREFIX]");
    }

    void syntaxErrorSkipsRules() {
        const ParseResult r = lintPlanText("configurations: [{name: A, privileged: true}\n", "x.yaml");
        QCOMPARE(brief(r.findings), QStringList{"2:1: error: syntax"});
    }

    // Clean but for what is true of them: their stock NGC 25.01 images run CUDA 12.8, which the collector
    // (CUDA 13's CUPTI) cannot trace in a container; said where Base writes it (and Base+ACCL its image).
    void bundledPlansLintClean_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("acs ablation")
            << "acs-ablation-llama3-8b.yaml"
            << QStringList{"47:18: warning: collector-cupti", "55:12: warning: collector-cupti"};
        QTest::newRow("single gpu") << "single-gpu-llama.yaml"
                                    << QStringList{"36:18: warning: collector-cupti"};
    }
    void bundledPlansLintClean() {
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        const ParseResult r =
            lintPlanFile((testpaths::sourceDir() + "/resources/plans/").toStdString() + file.toStdString());
        QCOMPARE(brief(r.findings), expected);
    }
};

QTEST_APPLESS_MAIN(TestPlanLint)
#include "tst_planlint.moc"
