// Kubernetes manifests of the launcher: golden files (tests/data/golden/launch/, reviewed by hand, never
// rewritten here) for a 2-node × 8-GPU plan as Indexed Job + headless Service and as a Kubeflow
// PyTorchJob; then every generated document is read back with yaml-cpp and checked for what the cluster
// needs: rendezvous (subdomain = Service, MASTER_ADDR = <job>-0.<job>, WORLD_SIZE, NODE_RANK from the
// completion index), completions = parallelism = nodes, the collector's initContainer and read-only
// emptyDir, traces on the PVC, GPU limits, the node selector, labels, no privileged container and no
// hostPath anywhere, plan values escaped against the kubelet's $(VAR) expansion; mounts without a PVC are
// refused. The bundled plans (resources/plans) have goldens too: the first repeat of each configuration.
// The ingest Job of ingest on the cluster (kubernetes.cnpImage) has its golden and its checks.
#include "ClusterPlans.h"
#include "TestPaths.h"
#include "TestPlans.h"
#include "core/InputError.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesManifests.h"
#include "launch/PlanSource.h"
#include "plan/PlanLint.h"
#include "plan/PlanParser.h"

#include <QtTest>
#include <yaml-cpp/yaml.h>

using namespace cnp;
using namespace cnp::launch;
using cnp::testing::clusterPlan;

namespace {

QString golden(const QString& name) {
    QFile f(testpaths::dataDir() + "/golden/launch/" + name);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString("<missing %1>").arg(name);
}

// Every key of every map, recursively, and every scalar: to look for hostPath / privileged: true.
void walk(const YAML::Node& n, const std::function<void(const std::string&, const YAML::Node&)>& visit) {
    if (n.IsMap())
        for (const auto& kv : n) {
            visit(kv.first.as<std::string>(), kv.second);
            walk(kv.second, visit);
        }
    else if (n.IsSequence())
        for (const auto& item : n)
            walk(item, visit);
}

std::string envValue(const YAML::Node& container, const std::string& name) {
    for (const auto& e : container["env"])
        if (e["name"].as<std::string>() == name)
            return e["value"] ? e["value"].as<std::string>()
                              : "fieldRef:" + e["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>();
    return "<unset>";
}

} // namespace

class TestKubernetesManifests : public QObject {
    Q_OBJECT

private slots:
    void goldenManifests_data() {
        QTest::addColumn<QString>("jobKind");
        QTest::addColumn<QString>("file");
        QTest::newRow("Indexed Job + headless Service") << "IndexedJob"
                                                        << "indexed-job.yaml";
        QTest::newRow("Kubeflow PyTorchJob") << "PyTorchJob"
                                             << "pytorchjob.yaml";
    }
    void goldenManifests() {
        QFETCH(QString, jobKind);
        QFETCH(QString, file);
        const auto plan = clusterPlan(jobKind.toStdString());
        const auto job = planJobs(plan, {}, "/out")[0];
        const QString yaml =
            QString::fromStdString(jobManifests(plan, job) + traceFetcherManifest(plan, job));
        if (yaml != golden(file)) {
            QFile out(QDir::temp().filePath("actual-" + file)); // for review; the golden is updated by hand
            if (out.open(QIODevice::WriteOnly))
                out.write(yaml.toUtf8());
        }
        QCOMPARE(yaml, golden(file));
    }

    void indexedJobCarriesWhatTheClusterNeeds() {
        const auto plan = clusterPlan("IndexedJob");
        const auto job = planJobs(plan, {}, "/out")[0];
        const auto docs = YAML::LoadAll(jobManifests(plan, job));
        QCOMPARE(docs.size(), std::size_t(2));
        const std::string name = job.jobName;
        const YAML::Node svc = docs[0], j = docs[1];
        QCOMPARE(svc["kind"].as<std::string>(), std::string("Service"));
        QCOMPARE(svc["spec"]["clusterIP"].as<std::string>(), std::string("None"));
        QCOMPARE(svc["spec"]["selector"]["cnp.job"].as<std::string>(), name);
        QCOMPARE(j["apiVersion"].as<std::string>(), std::string("batch/v1"));
        QCOMPARE(j["metadata"]["name"].as<std::string>(), name);
        QCOMPARE(j["metadata"]["namespace"].as<std::string>(), std::string("ablation"));
        QCOMPARE(j["metadata"]["labels"]["cnp.config"].as<std::string>(), std::string("base"));
        QCOMPARE(j["metadata"]["labels"]["cnp.repeat"].as<std::string>(), std::string("1"));
        QCOMPARE(j["metadata"]["annotations"]["cnp.config/name"].as<std::string>(), std::string("Base"));
        const YAML::Node spec = j["spec"];
        QCOMPARE(spec["completionMode"].as<std::string>(), std::string("Indexed"));
        QCOMPARE(spec["completions"].as<int>(), 2);
        QCOMPARE(spec["parallelism"].as<int>(), 2);
        QCOMPARE(spec["activeDeadlineSeconds"].as<int>(), 60 + 1800); // timeout + default startup allowance
        const YAML::Node pod = spec["template"]["spec"];
        QCOMPARE(pod["subdomain"].as<std::string>(), name);
        QCOMPARE(pod["restartPolicy"].as<std::string>(), std::string("Never"));
        QCOMPARE(pod["nodeSelector"]["node.kubernetes.io/instance-type"].as<std::string>(),
                 std::string("ac2"));
        QCOMPARE(pod["nodeSelector"]["cloud/gpu"].as<std::string>(), std::string("h200"));
        QCOMPARE(spec["template"]["metadata"]["labels"]["cnp.job"].as<std::string>(), name);
        const YAML::Node init = pod["initContainers"][0];
        QCOMPARE(init["image"].as<std::string>(), std::string("registry.local/cnp-collector:0.1"));
        const YAML::Node c = pod["containers"][0];
        QCOMPARE(c["resources"]["limits"]["nvidia.com/gpu"].as<std::string>(), std::string("8"));
        QCOMPARE(c["resources"]["requests"]["memory"].as<std::string>(), std::string("512Gi"));
        QCOMPARE(c["command"][0].as<std::string>(), std::string("torchrun"));
        QCOMPARE(envValue(c, "MASTER_ADDR"), name + "-0." + name);
        QCOMPARE(envValue(c, "WORLD_SIZE"), std::string("16"));
        QCOMPARE(envValue(c, "NODE_RANK"),
                 std::string("fieldRef:metadata.annotations['batch.kubernetes.io/job-completion-index']"));
        QCOMPARE(envValue(c, "PET_NODE_RANK"), envValue(c, "NODE_RANK"));
        QCOMPARE(envValue(c, "RANK"), std::string("<unset>")); // torchrun sets it per process
        QCOMPARE(envValue(c, "CUDA_INJECTION64_PATH"), std::string("/cnp/collector/libcnp-collector.so"));
        QCOMPARE(envValue(c, "NVTX_INJECTION64_PATH"), std::string("/cnp/collector/libcnp-collector.so"));
        QCOMPARE(envValue(c, "CNP_OUTPUT_DIR"), "/cnp/traces/" + name + "/attempt-1"); // JobSpec::attempt
        QCOMPARE(envValue(c, "CNP_CAPTURE"), std::string("steps:10:5:step"));
        QCOMPARE(envValue(c, "LITERAL"), std::string("$$(HOME) stays")); // the kubelet turns $$ back into $
        bool collectorReadOnly = false, pvc = false, emptyDir = false;
        for (const auto& m : c["volumeMounts"])
            if (m["name"].as<std::string>() == "cnp-collector")
                collectorReadOnly = m["readOnly"].as<bool>();
        for (const auto& v : pod["volumes"]) {
            pvc = pvc || (v["persistentVolumeClaim"] &&
                          v["persistentVolumeClaim"]["claimName"].as<std::string>() == "cnp-traces");
            emptyDir = emptyDir || (v["name"].as<std::string>() == "cnp-collector" && v["emptyDir"]);
        }
        QVERIFY(collectorReadOnly);
        QVERIFY(pvc);
        QVERIFY(emptyDir);
    }

    // What cluster admins require, written in the plan's kubernetes block (read by the real parser), reaches
    // the pods: tolerations, priority class, service account, pull secrets (workload and fetch pods), pod
    // annotations (Multus), extended resources (RDMA) in requests and limits, host network, IPC_LOCK, CPU and
    // memory limits on the workload container and on every helper container (init, fetch pod), the Job's
    // ttlSecondsAfterFinished, a sizeLimit on /dev/shm, LOCAL_RANK in a one-GPU pod. Before, none was read.
    void clusterAdminFieldsPassThrough_data() {
        QTest::addColumn<QString>("jobKind");
        QTest::newRow("IndexedJob") << "IndexedJob";
        QTest::newRow("PyTorchJob") << "PyTorchJob";
    }
    void clusterAdminFieldsPassThrough() {
        QFETCH(QString, jobKind);
        const std::string text = testing::adminFieldsPlanText(jobKind.toStdString());
        const auto parsed = plan::parsePlanText(text, "/plans/admin.yaml");
        QVERIFY2(parsed.findings.empty(), parsed.findings.empty() ? "" : parsed.findings[0].message.c_str());
        const plan::Plan& plan = parsed.plan;
        const auto job = planJobs(plan, {}, "/out")[0];
        const auto docs = YAML::LoadAll(jobManifests(plan, job) + traceFetcherManifest(plan, job));
        const YAML::Node top = docs[docs.size() - 2], fetch = docs.back();
        const bool indexed = jobKind == "IndexedJob";
        const YAML::Node tmpl =
            indexed ? top["spec"]["template"] : top["spec"]["pytorchReplicaSpecs"]["Master"]["template"];
        const YAML::Node ttl = indexed ? top["spec"]["ttlSecondsAfterFinished"]
                                       : top["spec"]["runPolicy"]["ttlSecondsAfterFinished"];
        QCOMPARE(ttl.as<int>(), 3600);
        QCOMPARE(tmpl["metadata"]["annotations"]["k8s.v1.cni.cncf.io/networks"].as<std::string>(),
                 std::string("rdma-net"));
        for (const YAML::Node& pod : {tmpl["spec"], fetch["spec"]}) {
            QCOMPARE(pod["priorityClassName"].as<std::string>(), std::string("training-high"));
            QCOMPARE(pod["serviceAccountName"].as<std::string>(), std::string("cnp-runner"));
            QCOMPARE(pod["imagePullSecrets"][0]["name"].as<std::string>(), std::string("nvcr-pull"));
            QCOMPARE(pod["tolerations"].size(), std::size_t(2));
            QCOMPARE(pod["tolerations"][0]["operator"].as<std::string>(), std::string("Exists"));
            QVERIFY(!pod["tolerations"][0]["value"]);
            QCOMPARE(pod["tolerations"][1]["tolerationSeconds"].as<int>(), 600);
        }
        const YAML::Node pod = tmpl["spec"];
        QCOMPARE(pod["hostNetwork"].as<bool>(), true);
        QCOMPARE(pod["dnsPolicy"].as<std::string>(), std::string("ClusterFirstWithHostNet"));
        const YAML::Node c = pod["containers"][0];
        QCOMPARE(c["resources"]["requests"]["cpu"].as<std::string>(), std::string("8"));
        QCOMPARE(c["resources"]["limits"]["cpu"].as<std::string>(), std::string("16"));
        QCOMPARE(c["resources"]["limits"]["memory"].as<std::string>(), std::string("96Gi"));
        for (const char* kind : {"requests", "limits"})
            QCOMPARE(c["resources"][kind]["rdma/rdma_shared_device_a"].as<std::string>(), std::string("1"));
        QCOMPARE(c["securityContext"]["capabilities"]["add"][0].as<std::string>(), std::string("IPC_LOCK"));
        QCOMPARE(c["securityContext"]["privileged"].as<bool>(), false);
        QCOMPARE(envValue(c, "LOCAL_RANK"), std::string("0"));
        for (const YAML::Node& helper : {pod["initContainers"][0], fetch["spec"]["containers"][0]})
            for (const char* kind : {"requests", "limits"}) {
                QCOMPARE(helper["resources"][kind]["cpu"].as<std::string>(), std::string("200m"));
                QCOMPARE(helper["resources"][kind]["memory"].as<std::string>(), std::string("64Mi"));
            }
        bool shm = false;
        for (const auto& v : pod["volumes"])
            if (v["name"].as<std::string>() == "cnp-shm")
                shm = v["emptyDir"]["sizeLimit"].as<std::string>() == "32Gi";
        QVERIFY(shm);
    }

    // Per configuration (issue 28.1): a configuration's own `kubernetes:` pod fields replace the plan's for
    // its jobs (tolerations, priorityClassName, ... ; annotations and extra resources merge by key), its
    // children inherit them, and the other configurations keep the plan's.
    void configurationPodFieldsOverThePlans() {
        const std::string text =
            "name: per-config\nworkload: {command: [python, train.py]}\n"
            "kubernetes:\n  collectorImage: registry.local/cnp-collector:0.1\n"
            "  priorityClassName: training-low\n  tolerations: [{key: a, operator: Exists}]\n"
            "  podAnnotations: {k8s.v1.cni.cncf.io/networks: tcp-net, team: perf}\n"
            "configurations:\n"
            "  - {name: Base, image: 'nvcr.io/nvidia/pytorch:25.01-py3'}\n"
            "  - name: ACCL\n    extends: Base\n    kubernetes:\n      priorityClassName: training-high\n"
            "      tolerations: [{key: rdma, operator: Exists, effect: NoSchedule}]\n"
            "      podAnnotations: {k8s.v1.cni.cncf.io/networks: rdma-net}\n"
            "      extraResources: {rdma/rdma_shared_device_a: '1'}\n"
            "      hostNetwork: true\n      addCapabilities: [IPC_LOCK]\n"
            "      serviceAccountName: accl-runner\n      imagePullSecrets: [accl-pull]\n"
            "  - {name: ACCL+Opt, extends: ACCL}\n";
        const auto parsed = plan::parsePlanText(text, "/plans/per-config.yaml");
        QVERIFY2(parsed.findings.empty(), parsed.findings.empty() ? "" : parsed.findings[0].message.c_str());
        for (const auto& f : plan::lintPlan(parsed.plan))
            QVERIFY2(f.severity != plan::Severity::Error, f.message.c_str());
        const auto jobs = planJobs(parsed.plan, {}, "/out");
        QCOMPARE(jobs.size(), std::size_t(3));
        for (const auto& job : jobs) {
            const bool accl = job.config != "Base";
            const auto docs =
                YAML::LoadAll(jobManifests(parsed.plan, job) + traceFetcherManifest(parsed.plan, job));
            const YAML::Node pod = docs[docs.size() - 2]["spec"]["template"]["spec"];
            const YAML::Node meta = docs[docs.size() - 2]["spec"]["template"]["metadata"];
            for (const YAML::Node& p : {pod, docs.back()["spec"]}) { // the workload's pods and the fetch pod
                QCOMPARE(p["priorityClassName"].as<std::string>(),
                         accl ? std::string("training-high") : "training-low");
                QCOMPARE(p["tolerations"].size(), std::size_t(1));
                QCOMPARE(p["tolerations"][0]["key"].as<std::string>(), accl ? std::string("rdma") : "a");
                QCOMPARE(bool(p["serviceAccountName"]), accl);
                QCOMPARE(bool(p["imagePullSecrets"]), accl);
            }
            QCOMPARE(meta["annotations"]["k8s.v1.cni.cncf.io/networks"].as<std::string>(),
                     accl ? std::string("rdma-net") : "tcp-net");
            QCOMPARE(meta["annotations"]["team"].as<std::string>(), std::string("perf")); // merged by key
            QCOMPARE(bool(pod["hostNetwork"]), accl);
            const YAML::Node c = pod["containers"][0];
            QCOMPARE(bool(c["resources"]["limits"]["rdma/rdma_shared_device_a"]), accl);
            const YAML::Node caps = c["securityContext"]["capabilities"];
            QCOMPARE(caps && caps["add"] && caps["add"][0].as<std::string>() == "IPC_LOCK", accl);
        }
    }

    // A configuration's own pod fields are linted where they are written, as the plan's are, and refused by
    // the backend: lint names the configuration and the line of the bad value.
    void configurationPodFieldsAreChecked() {
        const std::string text = "name: bad\nworkload: {command: [python, train.py]}\n"
                                 "kubernetes: {collectorImage: registry.local/cnp-collector:0.1}\n"
                                 "configurations:\n"
                                 "  - {name: Base, image: 'nvcr.io/nvidia/pytorch:25.01-py3'}\n"
                                 "  - name: Wide\n    extends: Base\n    kubernetes:\n"
                                 "      addCapabilities: [SYS_ADMIN]\n"
                                 "      extraResources: {rdma/dev: lots}\n";
        const auto parsed = plan::parsePlanText(text, "/plans/bad.yaml");
        QVERIFY(parsed.findings.empty());
        QStringList got;
        for (const auto& f : plan::lintPlan(parsed.plan))
            if (f.severity == plan::Severity::Error)
                got << QString("%1:%2 %3 %4")
                           .arg(f.line)
                           .arg(f.column)
                           .arg(QString::fromStdString(f.rule), QString::fromStdString(f.message));
        QCOMPARE(got.size(), 2);
        QVERIFY2(got.filter(QRegularExpression(
                                "^9:\\d+ privileged configuration 'Wide': kubernetes.addCapabilities.0: "
                                "capability SYS_ADMIN grants privilege"))
                         .size() == 1,
                 qPrintable(got.join('\n')));
        QVERIFY2(got.filter(QRegularExpression("^10:\\d+ kubernetes-quantity configuration 'Wide': "
                                               "kubernetes.extraResources.rdma/dev: 'lots'"))
                         .size() == 1,
                 qPrintable(got.join('\n')));
        const auto jobs = planJobs(parsed.plan, {}, "/out");
        jobManifests(parsed.plan, jobs[0]); // Base is fine
        QVERIFY_THROWS_EXCEPTION(InputError, jobManifests(parsed.plan, jobs[1]));
    }

    // Kueue gang scheduling and Pod Security "restricted" (issue 28.1, 28.2): the queue label on the job
    // object only, created suspended; the deadline is the timeout plus the startup allowance; every pod
    // non-root with seccomp RuntimeDefault, every container (workload, collector, fetch) dropping all
    // capabilities.
    void gangSchedulingAndRestricted_data() {
        QTest::addColumn<QString>("jobKind");
        QTest::newRow("IndexedJob") << "IndexedJob";
        QTest::newRow("PyTorchJob") << "PyTorchJob";
    }
    void gangSchedulingAndRestricted() {
        QFETCH(QString, jobKind);
        auto plan = clusterPlan(jobKind.toStdString());
        plan.kubernetes.queueName = "team-a";
        plan.kubernetes.restricted = true;
        plan.kubernetes.runAsUser = 1000;
        plan.kubernetes.startupAllowanceSeconds = 900;
        plan.timeoutSeconds = 3600;
        const auto job = planJobs(plan, {}, "/out")[0];
        const auto docs = YAML::LoadAll(jobManifests(plan, job) + traceFetcherManifest(plan, job));
        const bool indexed = jobKind == "IndexedJob";
        const YAML::Node top = docs[docs.size() - 2], fetch = docs.back();
        for (const auto& d : docs) // the queue label on the job object, nowhere else
            QCOMPARE(bool(d["metadata"]["labels"]["kueue.x-k8s.io/queue-name"]), d == top);
        QCOMPARE(top["metadata"]["labels"]["kueue.x-k8s.io/queue-name"].as<std::string>(),
                 std::string("team-a"));
        const YAML::Node policy = indexed ? top["spec"] : top["spec"]["runPolicy"];
        QCOMPARE(policy["suspend"].as<bool>(), true);
        QCOMPARE(policy["activeDeadlineSeconds"].as<int>(), 3600 + 900);
        const YAML::Node tmpl =
            indexed ? top["spec"]["template"] : top["spec"]["pytorchReplicaSpecs"]["Master"]["template"];
        QVERIFY(!tmpl["metadata"]["labels"]["kueue.x-k8s.io/queue-name"]);
        for (const YAML::Node& pod : {tmpl["spec"], fetch["spec"]}) {
            QCOMPARE(pod["securityContext"]["runAsNonRoot"].as<bool>(), true);
            QCOMPARE(pod["securityContext"]["runAsUser"].as<int>(), 1000);
            QCOMPARE(pod["securityContext"]["seccompProfile"]["type"].as<std::string>(),
                     std::string("RuntimeDefault"));
        }
        const YAML::Node containers[] = {tmpl["spec"]["containers"][0], tmpl["spec"]["initContainers"][0],
                                         fetch["spec"]["containers"][0]};
        for (const YAML::Node& c : containers) {
            const YAML::Node sc = c["securityContext"];
            QCOMPARE(sc["allowPrivilegeEscalation"].as<bool>(), false);
            QCOMPARE(sc["privileged"].as<bool>(), false);
            QCOMPARE(sc["capabilities"]["drop"][0].as<std::string>(), std::string("ALL"));
            QVERIFY(!sc["capabilities"]["add"]);
        }
    }

    void nothingPrivilegedNoHostPath_data() {
        QTest::addColumn<QString>("jobKind");
        QTest::newRow("IndexedJob") << "IndexedJob";
        QTest::newRow("PyTorchJob") << "PyTorchJob";
    }
    void nothingPrivilegedNoHostPath() {
        QFETCH(QString, jobKind);
        auto plan = clusterPlan(jobKind.toStdString());
        plan.configurations[0].resolved.privileged = true; // linted, never passed on
        const auto job = planJobs(plan, {}, "/out")[0];
        int docs = 0;
        for (const auto& d : YAML::LoadAll(jobManifests(plan, job) + traceFetcherManifest(plan, job))) {
            ++docs;
            QVERIFY(d["apiVersion"] && d["kind"] && d["metadata"]["name"] &&
                    d["metadata"]["labels"]["cnp.job"]);
            walk(d, [&](const std::string& key, const YAML::Node& value) {
                QVERIFY2(key != "hostPath", "no hostPath");
                if (key == "privileged")
                    QVERIFY(!value.as<bool>());
            });
        }
        QCOMPARE(docs, jobKind == "PyTorchJob" ? 2 : 3);
    }

    void bundledPlans_data() {
        QTest::addColumn<QString>("plan");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("jobs"); // configurations
        QTest::newRow("acs-ablation-llama3-8b") << "acs-ablation-llama3-8b" << 2 << 5;
        QTest::newRow("single-gpu-llama") << "single-gpu-llama" << 1 << 4;
    }
    void bundledPlans() {
        QFETCH(QString, plan);
        QFETCH(int, nodes);
        QFETCH(int, jobs);
        const auto p = loadPlanOrThrow((testpaths::sourceDir() + "/resources/plans/").toStdString() +
                                       plan.toStdString() + ".yaml");
        std::string yaml;
        int count = 0;
        for (const auto& job : planJobs(p, {}, "/out"))
            if (job.repeat == 1) {
                yaml += jobManifests(p, job);
                ++count;
            }
        QCOMPARE(count, jobs);
        for (const auto& d : YAML::LoadAll(yaml)) {
            QVERIFY(d["apiVersion"] && d["kind"] && d["metadata"]["name"] &&
                    d["metadata"]["labels"]["cnp.job"]);
            walk(d, [&](const std::string& key, const YAML::Node& value) {
                QVERIFY(key != "hostPath");
                if (key == "privileged")
                    QVERIFY(!value.as<bool>());
            });
            if (d["kind"].as<std::string>() == "Job")
                QCOMPARE(d["spec"]["completions"].as<int>(), nodes);
        }
        const QString file = "bundled-" + plan + ".yaml";
        if (QString::fromStdString(yaml) != golden(file)) {
            QFile out(QDir::temp().filePath("actual-" + file));
            if (out.open(QIODevice::WriteOnly))
                out.write(yaml.c_str());
        }
        QCOMPARE(QString::fromStdString(yaml), golden(file));
    }

    // Ingest on the cluster (kubernetes.cnpImage): the golden Indexed Job <job>-ingest of the 2-node plan
    // (reviewed by hand), then what its pods need read back: one pod per node, each running cnp
    // ingest-shard of its block of the attempt's folder without a shell ($(JOB_COMPLETION_INDEX) from the
    // completion index, expanded by the kubelet; the plan's names escaped), the PVC read-write at /data,
    // 1 GiB, and the admin fields the helper pods get (service account, priority, pull secrets,
    // tolerations; restricted: non-root, seccomp, all capabilities dropped), no GPU and no node selector.
    void ingestJobGolden() {
        auto plan = clusterPlan("IndexedJob");
        plan.kubernetes.cnpImage = "registry.local/cnp:0.1";
        const auto job = planJobs(plan, {}, "/out")[0];
        const QString yaml = QString::fromStdString(ingestJobManifest(plan, job, 2, 7, 3600));
        if (yaml != golden("ingest-job.yaml")) {
            QFile out(QDir::temp().filePath("actual-ingest-job.yaml"));
            if (out.open(QIODevice::WriteOnly))
                out.write(yaml.toUtf8());
        }
        QCOMPARE(yaml, golden("ingest-job.yaml"));
    }

    void ingestJobCarriesWhatItsPodsNeed_data() {
        QTest::addColumn<QString>("plan"); // "cluster" or "admin" (restricted too)
        QTest::addColumn<int>("groups");
        QTest::newRow("2-node plan, one group per node") << "cluster" << 2;
        QTest::newRow("admin fields, restricted, 3 groups") << "admin" << 3;
    }
    void ingestJobCarriesWhatItsPodsNeed() {
        QFETCH(QString, plan);
        QFETCH(int, groups);
        plan::Plan p = clusterPlan("IndexedJob");
        if (plan == "admin") {
            const auto parsed =
                plan::parsePlanText(testing::adminFieldsPlanText("IndexedJob"), "/plans/a.yaml");
            QVERIFY(parsed.findings.empty());
            p = parsed.plan;
            p.kubernetes.restricted = true;
            p.kubernetes.runAsUser = 1000;
        }
        p.kubernetes.cnpImage = "registry.local/cnp:0.1";
        auto job = planJobs(p, {}, "/out")[0];
        job.attempt = "attempt-2-0a1b2c3d";
        job.runName = "Base-r1 $(HOME)";
        const auto docs = YAML::LoadAll(ingestJobManifest(p, job, groups, 42, 900));
        QCOMPARE(docs.size(), std::size_t(1));
        const YAML::Node j = docs[0], spec = j["spec"];
        const std::string name = job.jobName + "-ingest";
        QCOMPARE(j["kind"].as<std::string>(), std::string("Job"));
        QCOMPARE(j["metadata"]["name"].as<std::string>(), name);
        QCOMPARE(j["metadata"]["labels"]["cnp.role"].as<std::string>(), std::string("ingest"));
        QCOMPARE(j["metadata"]["labels"]["cnp.job"].as<std::string>(), job.jobName);
        QCOMPARE(spec["completionMode"].as<std::string>(), std::string("Indexed"));
        QCOMPARE(spec["completions"].as<int>(), groups);
        QCOMPARE(spec["parallelism"].as<int>(), groups);
        QCOMPARE(spec["backoffLimit"].as<int>(), 1);
        QCOMPARE(spec["activeDeadlineSeconds"].as<int>(), 900);
        QVERIFY(!spec["suspend"]); // not the workload: Kueue does not gate it
        QCOMPARE(spec["template"]["metadata"]["labels"]["cnp.role"].as<std::string>(), std::string("ingest"));
        const YAML::Node pod = spec["template"]["spec"];
        QCOMPARE(pod["restartPolicy"].as<std::string>(), std::string("Never"));
        QVERIFY(!pod["nodeSelector"]);
        QVERIFY(!pod["subdomain"]);
        const YAML::Node c = pod["containers"][0];
        QCOMPARE(c["image"].as<std::string>(), std::string("registry.local/cnp:0.1"));
        std::vector<std::string> command;
        for (const auto& a : c["command"])
            command.push_back(a.as<std::string>());
        const std::string folder = "/data/" + job.jobName + "/attempt-2-0a1b2c3d";
        const std::string shard = folder + "/shards/shard-$(JOB_COMPLETION_INDEX)";
        std::vector<std::string> expected = {"/opt/cnp/bin/cnp",
                                             "ingest-shard",
                                             shard + ".cnpdb",
                                             folder,
                                             "--block",
                                             "$(JOB_COMPLETION_INDEX)/" + std::to_string(groups),
                                             "--run",
                                             "Base-r1 $$(HOME)",
                                             "--run-id",
                                             "42",
                                             "--config",
                                             "Base",
                                             "--repeat",
                                             "1",
                                             "--summary-out",
                                             shard + ".summary.cnpdb",
                                             "--jobs",
                                             "1",
                                             "--quiet",
                                             "--again"};
        if (plan == "cluster") // the plan's tokens per step, as a local ingest is given them
            expected.insert(expected.end(), {"--tokens-per-step", "4096"});
        QCOMPARE(command, expected);
        QCOMPARE(envValue(c, "JOB_COMPLETION_INDEX"),
                 std::string("fieldRef:metadata.annotations['batch.kubernetes.io/job-completion-index']"));
        for (const char* kind : {"requests", "limits"}) {
            QCOMPARE(c["resources"][kind]["memory"].as<std::string>(), std::string("1Gi"));
            QCOMPARE(c["resources"][kind]["cpu"].as<std::string>(), std::string("1"));
            QVERIFY(!c["resources"][kind]["nvidia.com/gpu"]);
        }
        QCOMPARE(c["volumeMounts"][0]["mountPath"].as<std::string>(), std::string("/data"));
        QCOMPARE(c["volumeMounts"][0]["readOnly"].as<bool>(), false);
        QCOMPARE(pod["volumes"][0]["persistentVolumeClaim"]["claimName"].as<std::string>(),
                 p.kubernetes.tracesPvc);
        QCOMPARE(c["securityContext"]["privileged"].as<bool>(), false);
        QCOMPARE(c["securityContext"]["allowPrivilegeEscalation"].as<bool>(), false);
        if (plan == "admin") {
            QCOMPARE(pod["serviceAccountName"].as<std::string>(), std::string("cnp-runner"));
            QCOMPARE(pod["priorityClassName"].as<std::string>(), std::string("training-high"));
            QCOMPARE(pod["imagePullSecrets"][0]["name"].as<std::string>(), std::string("nvcr-pull"));
            QCOMPARE(pod["tolerations"].size(), std::size_t(2));
            QCOMPARE(spec["ttlSecondsAfterFinished"].as<int>(), 3600);
            QCOMPARE(pod["securityContext"]["runAsNonRoot"].as<bool>(), true);
            QCOMPARE(pod["securityContext"]["runAsUser"].as<int>(), 1000);
            QCOMPARE(c["securityContext"]["capabilities"]["drop"][0].as<std::string>(), std::string("ALL"));
            QVERIFY(!pod["hostNetwork"]); // the workload's, not the helpers'
        }
    }

    void ingestJobRefusesABadCnpImage() {
        auto plan = clusterPlan("IndexedJob");
        plan.kubernetes.cnpImage = "--privileged";
        const auto job = planJobs(plan, {}, "/out")[0];
        QVERIFY_THROWS_EXCEPTION(InputError, ingestJobManifest(plan, job, 2, 1, 60));
    }

    void imageThatIsAnOptionIsRefused_data() {
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("collectorImage");
        QTest::newRow("workload image --privileged") << "--privileged"
                                                     << "cnp-collector:latest";
        QTest::newRow("workload image -v=/:/host") << "-v=/:/host"
                                                   << "cnp-collector:latest";
        QTest::newRow("collector image with a space") << "localhost/cnp-test:1"
                                                      << "cnp collector";
    }
    void imageThatIsAnOptionIsRefused() {
        QFETCH(QString, image);
        QFETCH(QString, collectorImage);
        auto plan = clusterPlan("IndexedJob");
        plan.configurations[0].resolved.image = image.toStdString();
        plan.kubernetes.collectorImage = collectorImage.toStdString();
        const auto job = planJobs(plan, {}, "/out")[0];
        QVERIFY_THROWS_EXCEPTION(InputError, jobManifests(plan, job));
    }

    void writableHostRootIsRefused() {
        auto plan = clusterPlan("IndexedJob");
        plan.configurations[0].resolved.mounts.push_back({"/", "/host", false, "", {}});
        const auto job = planJobs(plan, {}, "/out")[0];
        QVERIFY_THROWS_EXCEPTION(InputError, jobManifests(plan, job));
    }

    // The backend refuses what the lint reports as kubernetes-quantity / kubernetes-label (a plan run
    // without lint, or an edited one): the API server would reject the Job, or no node would match.
    void clusterValuesAreChecked_data() {
        QTest::addColumn<QString>("cpu");
        QTest::addColumn<QString>("memory");
        QTest::addColumn<QString>("selectorKey");
        QTest::addColumn<QString>("refused"); // "" = accepted
        QTest::newRow("fine") << "16"
                              << "128Gi"
                              << "pool"
                              << "";
        QTest::newRow("memory: lots") << "16"
                                      << "lots"
                                      << "pool"
                                      << "resources.memory: 'lots' is not a Kubernetes quantity";
        QTest::newRow("cpu: -3") << "-3"
                                 << ""
                                 << "pool"
                                 << "resources.cpu: '-3' is negative";
        QTest::newRow("bad selector key") << ""
                                          << ""
                                          << "my pool"
                                          << "nodeSelector: label key 'my pool'";
    }
    void clusterValuesAreChecked() {
        QFETCH(QString, cpu);
        QFETCH(QString, memory);
        QFETCH(QString, selectorKey);
        QFETCH(QString, refused);
        auto plan = clusterPlan("IndexedJob");
        plan.resources.cpu = cpu.toStdString();
        plan.resources.memory = memory.toStdString();
        plan.configurations[0].resolved.nodeSelector = {{selectorKey.toStdString(), "h200"}};
        const auto job = planJobs(plan, {}, "/out")[0];
        try {
            jobManifests(plan, job);
            QVERIFY2(refused.isEmpty(), "accepted");
        } catch (const InputError& e) {
            QVERIFY2(!refused.isEmpty() && QString::fromStdString(e.message()).contains(refused), e.what());
        }
    }

    // The image probe pod (issue 28, launch/KubernetesImageProbe): the script under /bin/sh -c with every
    // '$' doubled against the kubelet's $(VAR) expansion, the configuration's pod policy and node selector,
    // the helpers' requests = limits and no GPU, restricted where the plan is, bounded by probeSeconds,
    // labelled as a probe and naming its image; no volume, no host network, no service account token.
    void imageProbePod_data() {
        QTest::addColumn<bool>("admin"); // the plan with every cluster-admin field, else the 2-node plan
        QTest::addColumn<bool>("restricted");
        QTest::newRow("every cluster-admin field") << true << false;
        QTest::newRow("node pool, restricted") << false << true;
    }
    void imageProbePod() {
        QFETCH(bool, admin);
        QFETCH(bool, restricted);
        plan::Plan plan =
            admin ? plan::parsePlanText(testing::adminFieldsPlanText("IndexedJob"), "/p.yaml").plan
                  : clusterPlan("IndexedJob");
        plan.kubernetes.restricted = restricted;
        plan.kubernetes.probeSeconds = 900;
        const auto job = planJobs(plan, {}, "/out")[0];
        const std::string script = "echo \"libc: $(getconf GNU_LIBC_VERSION)\"\necho end\n";
        const auto docs = YAML::LoadAll(imageProbeManifest(plan, job, "cnp-probe-0123abcd", script));
        QCOMPARE(docs.size(), std::size_t(1));
        const YAML::Node pod = docs[0], spec = pod["spec"], c = spec["containers"][0];
        QCOMPARE(pod["kind"].as<std::string>(), std::string("Pod"));
        QCOMPARE(pod["metadata"]["name"].as<std::string>(), std::string("cnp-probe-0123abcd"));
        QCOMPARE(pod["metadata"]["labels"]["cnp.role"].as<std::string>(), std::string("probe"));
        QCOMPARE(pod["metadata"]["annotations"]["cnp.probe/image"].as<std::string>(), job.image);
        QCOMPARE(spec["restartPolicy"].as<std::string>(), std::string("Never"));
        QCOMPARE(spec["activeDeadlineSeconds"].as<int>(), 900);
        QCOMPARE(spec["automountServiceAccountToken"].as<bool>(), false);
        QCOMPARE(spec["containers"].size(), std::size_t(1));
        QCOMPARE(c["image"].as<std::string>(), job.image);
        QCOMPARE(c["command"].size(), std::size_t(3));
        QCOMPARE(c["command"][0].as<std::string>(), std::string("/bin/sh"));
        QCOMPARE(c["command"][1].as<std::string>(), std::string("-c"));
        QCOMPARE(c["command"][2].as<std::string>(),
                 std::string("echo \"libc: $$(getconf GNU_LIBC_VERSION)\"\necho end\n"));
        for (const char* kind : {"requests", "limits"}) {
            QCOMPARE(c["resources"][kind]["cpu"].as<std::string>(), std::string(admin ? "200m" : "100m"));
            QCOMPARE(c["resources"][kind]["memory"].as<std::string>(), std::string(admin ? "64Mi" : "128Mi"));
            QCOMPARE(c["resources"][kind].size(), std::size_t(2)); // no GPU, no RDMA device
        }
        QCOMPARE(c["securityContext"]["privileged"].as<bool>(), false);
        QCOMPARE(c["securityContext"]["allowPrivilegeEscalation"].as<bool>(), false);
        // Capabilities only under restricted, and then all dropped (the workload's IPC_LOCK is not the
        // probe's).
        const YAML::Node caps = c["securityContext"]["capabilities"];
        QCOMPARE(bool(caps), restricted);
        if (restricted) {
            QVERIFY(!caps["add"]);
            QCOMPARE(caps["drop"][0].as<std::string>(), std::string("ALL"));
            QCOMPARE(spec["securityContext"]["runAsNonRoot"].as<bool>(), true);
        } else {
            QVERIFY(!spec["securityContext"]);
        }
        QVERIFY(!spec["volumes"] && !c["volumeMounts"] && !spec["hostNetwork"] && !spec["initContainers"]);
        if (admin) {
            QCOMPARE(spec["priorityClassName"].as<std::string>(), std::string("training-high"));
            QCOMPARE(spec["serviceAccountName"].as<std::string>(), std::string("cnp-runner"));
            QCOMPARE(spec["imagePullSecrets"][0]["name"].as<std::string>(), std::string("nvcr-pull"));
            QCOMPARE(spec["tolerations"].size(), std::size_t(2));
        } else {
            QCOMPARE(spec["nodeSelector"]["node.kubernetes.io/instance-type"].as<std::string>(),
                     std::string("ac2"));
            QCOMPARE(spec["nodeSelector"]["cloud/gpu"].as<std::string>(), std::string("h200"));
        }
    }

    void mountWithoutPvcIsRefused() {
        auto plan = clusterPlan("IndexedJob");
        plan.configurations[0].resolved.mounts.push_back({"/host/data", "/data2", true, "", {}});
        const auto job = planJobs(plan, {}, "/out")[0];
        QVERIFY_THROWS_EXCEPTION(InputError, jobManifests(plan, job));
    }
};

QTEST_GUILESS_MAIN(TestKubernetesManifests)
#include "tst_kubernetesmanifests.moc"
