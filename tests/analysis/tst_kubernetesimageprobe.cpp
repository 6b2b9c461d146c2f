// KubernetesImageProbe without a cluster: which images get a probe pod (the traced jobs', each once, with
// its configurations in plan order; none under kubernetes.probeImages: false), the pods' names, the --dry-run
// manifests, and the pod states as the kubelet reports them (`kubectl get pods -o json`): finished,
// an image not pulled, no /bin/sh, a root image under runAsNonRoot, not scheduled, past its deadline,
// hostile text. With the real kubectl against a loopback API server: tst_kubectldriver
// imagesAreProbedBeforeAnyJob.
#include "TestPlans.h"
#include "launch/ImageTraceCheck.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesImageProbe.h"
#include "launch/KubernetesManifests.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <yaml-cpp/yaml.h>

using namespace cnp;
using namespace cnp::launch;

namespace {

// Three configurations: Base and Base+Opt on one image, Other on another; `traced` traced and `untraced`
// untraced repeats each.
plan::Plan threeConfigPlan(int traced, int untraced) {
    auto plan = testing::twoConfigPlan({"python", "train.py"}, traced, untraced);
    plan.kubernetes.namespace_ = "ablation";
    plan.kubernetes.collectorImage = "registry.local/cnp-collector:1";
    auto other = testing::testConfiguration("Other", "", {});
    other.resolved.image = "registry.local/other:2";
    plan.configurations.push_back(other);
    return plan;
}

// A pod status whose probe container is in `state` (waiting, terminated) with `fields` (reason, message,
// exitCode), as the kubelet writes it.
QJsonObject probeContainer(const QString& phase, const QString& state, const QJsonObject& fields) {
    return {{"phase", phase},
            {"containerStatuses",
             QJsonArray{QJsonObject{{"name", "probe"}, {"state", QJsonObject{{state, fields}}}}}}};
}

} // namespace

class TestKubernetesImageProbe : public QObject {
    Q_OBJECT

private slots:
    void targetsAreTheTracedImagesOnce_data() {
        QTest::addColumn<int>("traced");
        QTest::addColumn<int>("untraced");
        QTest::addColumn<bool>("probeImages");
        QTest::addColumn<QStringList>("targets"); // "image: configurations"
        QTest::newRow("two images, three configurations")
            << 2 << 1 << true
            << QStringList{"localhost/cnp-test:1: Base, Base+Opt", "registry.local/other:2: Other"};
        QTest::newRow("untraced only: nothing to probe") << 0 << 2 << true << QStringList{};
        QTest::newRow("probeImages: false") << 1 << 0 << false << QStringList{};
    }
    void targetsAreTheTracedImagesOnce() {
        QFETCH(int, traced);
        QFETCH(int, untraced);
        QFETCH(bool, probeImages);
        QFETCH(QStringList, targets);
        auto plan = threeConfigPlan(traced, untraced);
        plan.kubernetes.probeImages = probeImages;
        const auto jobs = planJobs(plan, {}, "/out");
        QStringList got;
        for (const auto& t : imageProbeTargets(plan, jobs)) {
            QString configs;
            for (const auto& c : t.use.configs)
                configs += (configs.isEmpty() ? "" : ", ") + QString::fromStdString(c);
            got << QString::fromStdString(t.use.image) + ": " + configs;
            QCOMPARE(t.job.image, t.use.image);
            QVERIFY(t.job.traced);
            QCOMPARE(t.job.config, t.use.configs.front()); // the first configuration's pod fields
            QCOMPARE(t.pod, probePodName(plan, t.use.image));
        }
        QCOMPARE(got, targets);
        // --dry-run: one Pod per target, in the same order.
        const auto docs = YAML::LoadAll(imageProbeManifests(plan, jobs));
        QCOMPARE(int(docs.size()), int(targets.size()));
        for (int i = 0; i < int(docs.size()); ++i)
            QCOMPARE(QString::fromStdString(
                         docs[i]["metadata"]["annotations"]["cnp.probe/image"].as<std::string>()),
                     targets[i].section(": ", 0, 0));
    }

    // The script in the manifest is ImageTraceCheck's, as the kubelet will hand it to /bin/sh.
    void manifestRunsTheTraceProbeScript() {
        const auto plan = threeConfigPlan(1, 0);
        const auto docs = YAML::LoadAll(imageProbeManifests(plan, planJobs(plan, {}, "/out")));
        QCOMPARE(docs.size(), std::size_t(2));
        std::string script = docs[0]["spec"]["containers"][0]["command"][2].as<std::string>();
        for (std::size_t at = 0; (at = script.find("$$", at)) != std::string::npos; ++at)
            script.erase(at, 1); // the kubelet's "$$" -> "$"
        QCOMPARE(script, traceProbeScript());
    }

    void podNames_data() {
        QTest::addColumn<QString>("planHash");
        QTest::addColumn<QString>("image");
        QTest::addColumn<QString>("name");
        // FNV-1a 32 of "<hash>/<image>", computed apart (Python).
        QTest::newRow("test image") << "0123456789abcdef"
                                    << "localhost/cnp-test:1"
                                    << "cnp-probe-f38b0aaf";
        QTest::newRow("same image, another plan") << "fedcba9876543210"
                                                  << "localhost/cnp-test:1"
                                                  << "cnp-probe-09f48d63";
    }
    void podNames() {
        QFETCH(QString, planHash);
        QFETCH(QString, image);
        QFETCH(QString, name);
        plan::Plan plan;
        plan.hash = planHash.toStdString();
        const QString got = QString::fromStdString(probePodName(plan, image.toStdString()));
        QCOMPARE(got, name);
        QCOMPARE(got.size(), 18);
        QVERIFY(QRegularExpression("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$").match(got).hasMatch());
    }
    void podNamesDiffer() {
        plan::Plan a, b;
        a.hash = "0123456789abcdef";
        b.hash = "fedcba9876543210";
        QVERIFY(probePodName(a, "x:1") != probePodName(a, "x:2"));
        QVERIFY(probePodName(a, "x:1") != probePodName(b, "x:1"));
        QCOMPARE(probePodName(a, "x:1"), probePodName(a, "x:1"));
    }

    // Pod states as kubelets report them (containerd 1.7 and 2.0 messages).
    void podStates_data() {
        QTest::addColumn<QJsonObject>("status"); // the pod's status object
        QTest::addColumn<QString>("phase");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("pullFailure");
        QTest::addColumn<bool>("startFailure");
        QTest::newRow("finished") << probeContainer("Succeeded", "terminated",
                                                    {{"reason", "Completed"}, {"exitCode", 0}})
                                  << "Succeeded"
                                  << "Completed"
                                  << "" << false << false;
        const QString notFound =
            "rpc error: code = NotFound desc = failed to pull and unpack image "
            "\"registry.local/nope:1\": failed to resolve reference \"registry.local/nope:1\": "
            "registry.local/nope:1: not found";
        QTest::newRow("image not found")
            << probeContainer("Pending", "waiting", {{"reason", "ErrImagePull"}, {"message", notFound}})
            << "Pending"
            << "ErrImagePull" << notFound << true << false;
        const QString backOff = "Back-off pulling image \"registry.local/nope:1\"";
        QTest::newRow("pull backing off")
            << probeContainer("Pending", "waiting", {{"reason", "ImagePullBackOff"}, {"message", backOff}})
            << "Pending"
            << "ImagePullBackOff" << backOff << true << false;
        const QString noShell = "failed to create containerd task: failed to create shim task: OCI runtime "
                                "create failed: runc create failed: unable to start container process: exec: "
                                "\"/bin/sh\": stat /bin/sh: no such file or directory: unknown";
        QTest::newRow("no /bin/sh") << probeContainer("Failed", "terminated",
                                                      {{"reason", "StartError"},
                                                       {"exitCode", 128},
                                                       {"message", noShell}})
                                    << "Failed"
                                    << "StartError" << noShell << false << true;
        const QString root = "container has runAsNonRoot and image will run as root (pod: "
                             "\"cnp-probe-0123abcd_ablation(0f1e)\", container: probe)";
        QTest::newRow("a root image under runAsNonRoot")
            << probeContainer("Pending", "waiting",
                              {{"reason", "CreateContainerConfigError"}, {"message", root}})
            << "Pending"
            << "CreateContainerConfigError" << root << false << true;
        QTest::newRow("not scheduled")
            << QJsonObject{{"phase", "Pending"},
                           {"conditions", QJsonArray{QJsonObject{
                                              {"type", "PodScheduled"},
                                              {"status", "False"},
                                              {"reason", "Unschedulable"},
                                              {"message", "0/4 nodes are available: 4 Insufficient cpu."}}}}}
            << "Pending"
            << "Unschedulable"
            << "0/4 nodes are available: 4 Insufficient cpu." << false << false;
        QTest::newRow("past its deadline")
            << QJsonObject{{"phase", "Failed"},
                           {"reason", "DeadlineExceeded"},
                           {"message", "Pod was active on the node longer than the specified deadline"}}
            << "Failed"
            << "DeadlineExceeded"
            << "Pod was active on the node longer than the specified deadline" << false << false;
        QJsonObject hostile =
            probeContainer("Failed", "terminated", {{"reason", "Error\x1b[2J"}, {"message", "a\nb"}});
        QJsonArray containers = hostile["containerStatuses"].toArray();
        containers.prepend(QJsonObject{
            {"name", "other"}, {"state", QJsonObject{{"waiting", QJsonObject{{"reason", "ErrImagePull"}}}}}});
        hostile["containerStatuses"] = containers;
        QTest::newRow("hostile: escape sequences, another container's state ignored")
            << hostile << "Failed"
            << "Error?[2J"
            << "a?b" << false << false;
        QTest::newRow("no status yet") << QJsonObject{} << ""
                                       << ""
                                       << "" << false << false;
    }
    void podStates() {
        QFETCH(QJsonObject, status);
        QFETCH(QString, phase);
        QFETCH(QString, reason);
        QFETCH(QString, message);
        QFETCH(bool, pullFailure);
        QFETCH(bool, startFailure);
        const QJsonObject list{
            {"kind", "PodList"},
            {"items", QJsonArray{QJsonObject{{"metadata", QJsonObject{{"name", "cnp-probe-0123abcd"}}},
                                             {"status", status}}}}};
        const auto pods = parseProbePods(QJsonDocument(list).toJson().toStdString());
        QCOMPARE(pods.size(), std::size_t(1));
        const ProbePodStatus& s = pods.at("cnp-probe-0123abcd");
        QCOMPARE(QString::fromStdString(s.phase), phase);
        QCOMPARE(QString::fromStdString(s.reason), reason);
        QCOMPARE(QString::fromStdString(s.message), message);
        QCOMPARE(isPullFailure(s.reason), pullFailure);
        QCOMPARE(isStartFailure(s.reason), startFailure);
    }

    void notAPodList_data() {
        QTest::addColumn<QString>("json");
        QTest::newRow("empty") << "";
        QTest::newRow("an error") << R"({"kind":"Status","status":"Failure"})";
        QTest::newRow("items not a list") << R"({"items":{"a":1}})";
        QTest::newRow("a pod without a name") << R"({"items":[{"metadata":{},"status":{"phase":"Failed"}}]})";
    }
    void notAPodList() {
        QFETCH(QString, json);
        QVERIFY(parseProbePods(json.toStdString()).empty());
    }
};

QTEST_GUILESS_MAIN(TestKubernetesImageProbe)
#include "tst_kubernetesimageprobe.moc"
