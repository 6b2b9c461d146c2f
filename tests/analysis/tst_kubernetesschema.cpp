// Every Kubernetes object the launcher emits is valid against the API's own models (issue 28.3): Debian's
// python3-kubernetes reads each one strictly through tests/common/validate-k8s-objects.py (unknown
// fields, wrong types, missing required fields and the client's enumerations fail; Kubeflow's PyTorchJob,
// which the client does not model, field by field with its pod templates as V1PodTemplateSpec). Emitted:
// both job kinds of the 2-node plan, the plan with every cluster-admin field, every job of the bundled
// plans, the trace fetcher pod, the image probe pods (launch/KubernetesImageProbe) and the ingest Job of
// ingest on the cluster (kubernetes.cnpImage). The validator is shown to fail on objects broken one way
// each, so a pass means something. Without /usr/bin/python3 and python3-kubernetes the test fails and says
// what to install.
#include "ClusterPlans.h"
#include "TestPaths.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesImageProbe.h"
#include "launch/KubernetesManifests.h"
#include "launch/PlanSource.h"
#include "plan/PlanParser.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <yaml-cpp/yaml.h>

using namespace cnp;
using namespace cnp::launch;

namespace {

struct Verdict {
    int code = -1;
    QString out, err;
};

// The validator's verdict on `yaml` (written to a file of `dir`).
Verdict validate(const QTemporaryDir& dir, const std::string& yaml) {
    const QString file = dir.filePath("objects.yaml");
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {-1, {}, "cannot write " + file};
    f.write(yaml.data(), qint64(yaml.size()));
    f.close();
    QProcess p;
    p.start("/usr/bin/python3", {testpaths::sourceDir() + "/tests/common/validate-k8s-objects.py", file});
    if (!p.waitForFinished(120000))
        return {-1, {}, "the validator did not finish: " + p.errorString()};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// The image probe pods of `plan`'s traced images, then every job (each configuration and repeat) with its
// trace fetcher pod; with `ingest` (a cnp image set) each traced job's ingest Job too (launch/ClusterIngest).
std::string manifestsOf(plan::Plan plan, bool ingest = false) {
    if (ingest)
        plan.kubernetes.cnpImage = "registry.local/cnp:1";
    const auto jobs = planJobs(plan, {}, "/out");
    std::string yaml = imageProbeManifests(plan, jobs);
    for (const auto& job : jobs) {
        yaml += jobManifests(plan, job) + traceFetcherManifest(plan, job);
        if (ingest && job.traced)
            yaml += ingestJobManifest(plan, job, job.nodes, 7, 3600);
    }
    return yaml;
}

// Writes `n` keeping what was quoted quoted (yaml-cpp's own emitter writes the text "1" of a quoted label
// as the number 1): a scalar read from quotes carries the non-specific tag "!".
void put(YAML::Emitter& e, const YAML::Node& n) {
    if (n.IsMap()) {
        e << YAML::BeginMap;
        for (const auto& kv : n) {
            e << YAML::Key << kv.first.Scalar() << YAML::Value;
            put(e, kv.second);
        }
        e << YAML::EndMap;
    } else if (n.IsSequence()) {
        e << YAML::BeginSeq;
        for (const auto& item : n)
            put(e, item);
        e << YAML::EndSeq;
    } else if (n.IsNull()) {
        e << YAML::Null;
    } else if (n.Tag() == "!") {
        e << YAML::DoubleQuoted << n.Scalar();
    } else {
        e << n.Scalar();
    }
}

std::string yamlText(const YAML::Node& n) {
    YAML::Emitter e;
    put(e, n);
    return std::string("---\n") + e.c_str() + "\n";
}

} // namespace

class TestKubernetesSchema : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        QProcess p;
        p.start("/usr/bin/python3", {"-c", "import kubernetes, yaml"});
        QVERIFY2(p.waitForFinished(60000) && p.exitCode() == 0,
                 "python3-kubernetes is missing (scripts/install-deps installs it)");
    }

    void emittedObjectsAreValid_data() {
        QTest::addColumn<QString>("source"); // cluster:KIND, gang:KIND, admin:KIND or a bundled plan's name
        QTest::newRow("2-node IndexedJob") << "cluster:IndexedJob";
        QTest::newRow("2-node PyTorchJob") << "cluster:PyTorchJob";
        QTest::newRow("admin fields IndexedJob") << "admin:IndexedJob";
        QTest::newRow("admin fields PyTorchJob") << "admin:PyTorchJob";
        QTest::newRow("Kueue, restricted IndexedJob") << "gang:IndexedJob";
        QTest::newRow("Kueue, restricted PyTorchJob") << "gang:PyTorchJob";
        // With kubernetes.cnpImage: the ingest Job of each traced job (docs/launcher.md).
        QTest::newRow("2-node ingest Job") << "cluster:IndexedJob+ingest";
        QTest::newRow("admin fields ingest Job") << "admin:IndexedJob+ingest";
        QTest::newRow("Kueue, restricted ingest Job") << "gang:IndexedJob+ingest";
        QTest::newRow("bundled acs-ablation-llama3-8b") << "acs-ablation-llama3-8b";
        QTest::newRow("bundled single-gpu-llama") << "single-gpu-llama";
    }
    void emittedObjectsAreValid() {
        QFETCH(QString, source);
        const bool ingest = source.endsWith("+ingest");
        source.remove("+ingest");
        const std::string kind = source.section(':', 1).toStdString();
        std::string yaml;
        if (source.startsWith("cluster:")) {
            yaml = manifestsOf(testing::clusterPlan(kind), ingest);
        } else if (source.startsWith("gang:")) {
            auto plan = testing::clusterPlan(kind);
            plan.kubernetes.queueName = "team-a";
            plan.kubernetes.restricted = true;
            plan.kubernetes.runAsUser = 1000;
            plan.timeoutSeconds = 3600;
            yaml = manifestsOf(plan, ingest);
        } else if (source.startsWith("admin:")) {
            const auto parsed = plan::parsePlanText(testing::adminFieldsPlanText(kind), "/plans/admin.yaml");
            QVERIFY(parsed.findings.empty());
            yaml = manifestsOf(parsed.plan, ingest);
        } else {
            yaml = manifestsOf(loadPlanOrThrow(
                (testpaths::sourceDir() + "/resources/plans/" + source + ".yaml").toStdString()));
        }
        const auto docs = YAML::LoadAll(yaml);
        QVERIFY(docs.size() >= 2);
        const Verdict v = validate(dir_, yaml);
        QVERIFY2(v.code == 0, qPrintable(v.out + v.err));
        // Every document was read as an object (none skipped as empty).
        QVERIFY2(v.err.contains(QString("%1 object(s), 0 problem(s)").arg(docs.size())), qPrintable(v.err));
    }

    // The validator refuses an object broken in one way, and names where.
    void brokenObjectsAreRefused_data() {
        QTest::addColumn<QString>("breakage");
        QTest::addColumn<QString>("expected"); // part of the problem line
        QTest::newRow("unknown pod field") << "podField"
                                           << "spec.template.spec: unknown field 'hostNetwrk'";
        QTest::newRow("completions as text") << "completionsText"
                                             << "spec.completions: expected an integer";
        QTest::newRow("tolerations as a map") << "tolerationsMap"
                                              << "tolerations: expected a list";
        QTest::newRow("no containers") << "noContainers"
                                       << "containers";
        QTest::newRow("unknown kind") << "unknownKind"
                                      << "is not a kind the API models know";
        QTest::newRow("PyTorchJob unknown spec field") << "pytorchField"
                                                       << "spec: unknown field 'workers'";
        QTest::newRow("limits as a list") << "limitsList"
                                          << "limits: expected a map";
    }
    void brokenObjectsAreRefused() {
        QFETCH(QString, breakage);
        QFETCH(QString, expected);
        const bool pytorch = breakage == "pytorchField";
        const auto parsed = plan::parsePlanText(
            testing::adminFieldsPlanText(pytorch ? "PyTorchJob" : "IndexedJob"), "/p.yaml");
        const auto job = planJobs(parsed.plan, {}, "/out")[0];
        auto docs = YAML::LoadAll(jobManifests(parsed.plan, job));
        YAML::Node top = docs.back(); // the Job, or the PyTorchJob
        YAML::Node pod = pytorch ? top["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]
                                 : top["spec"]["template"]["spec"];
        if (breakage == "podField")
            pod["hostNetwrk"] = true;
        else if (breakage == "completionsText")
            top["spec"]["completions"] = YAML::Load("'1'"); // quoted: text
        else if (breakage == "tolerationsMap")
            pod["tolerations"] = YAML::Load("{key: a, operator: Exists}");
        else if (breakage == "noContainers")
            pod.remove("containers");
        else if (breakage == "unknownKind")
            top["kind"] = "Jobb";
        else if (breakage == "pytorchField")
            top["spec"]["workers"] = 3;
        else if (breakage == "limitsList")
            pod["containers"][0]["resources"]["limits"] = YAML::Load("[cpu, memory]");
        const Verdict v = validate(dir_, yamlText(top));
        QCOMPARE(v.code, 1);
        QVERIFY2(v.out.contains(expected), qPrintable(v.out + v.err));
    }
};

QTEST_GUILESS_MAIN(TestKubernetesSchema)
#include "tst_kubernetesschema.moc"
