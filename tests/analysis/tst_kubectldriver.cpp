// The kubernetes backend driving the REAL kubectl (/usr/bin/kubectl) against a loopback HTTP server in this
// test that answers the part of the Kubernetes API those calls send (found with `kubectl -v=8`): discovery
// (/version, /api, /apis, /api/v1, /apis/batch/v1), create of the Service, the Indexed Job and the trace
// fetch pod, get and watch of the Job (by name: a GET, then `?fieldSelector=metadata.name=<job>&
// resourceVersion=0&watch=true`, whose first event, the current state, kubectl skips) and of the job's
// pods (label selector: a LIST, then a watch from the list's resourceVersion), pod logs, delete. Watches
// are answered as the API server does: a chunked stream of `{"type":"ADDED"|"MODIFIED","object":{...}}`
// events. The server plays the Job controller: pods <job>-<index>-x appear with the Job (Pending) and,
// once both the Job and its pods are watched, turn Running and then Succeeded (or, for the failing rank,
// Failed, and the Job with it), one step per 100 ms tick. The first watch of each Job is ended by the
// server after its first change (as an API server's watch timeout would), so the driver must reconnect to
// see the end. Recorded requests are checked for submission, watching (no status polling), per-rank
// progress, failure handling, cancel and cleanup; the fetched traces (tests/data/gpu-run/capture.cnpt.gz
// as two ranks, 3 x 1260 kernels each) must land as one run.
#include "TestPaths.h"
#include "TestPlans.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesBackend.h"
#include "launch/RunOrchestrator.h"
#include "store/Workspace.h"

#include <QtNetwork>
#include <QtTest>

#include <atomic>
#include <mutex>

using namespace cnp;
using namespace cnp::launch;

namespace {

constexpr const char* kNamespace = "ablation";

struct Request {
    QString method, path; // path without the query
    QUrlQuery query;
    QByteArray body;
};

// The fake API server's state; every access under `mutex` (the server runs on its own thread).
struct ApiState {
    std::mutex mutex;
    std::vector<Request> requests;
    int failingRank = -1;            // that pod fails, and with it the Job
    bool neverFinish = false;        // the Job stays active (for cancel)
    QByteArray fetchLog;             // what the fetch pod prints: a base64 tar of the traces
    QMap<QString, QJsonObject> jobs; // by name, with their status
    QMap<QString, int> stages;       // per Job: 0 pods Pending, 1 Running, 2 ended
    QSet<QString> jobWatchesCut;     // the Jobs whose first watch the server has ended
    QMap<QString, QJsonObject> pods; // by name
    int resourceVersion = 100;       // the last one given out
};

QJsonObject podObject(const QString& name, const QString& job, int index, const QString& phase) {
    return QJsonObject{
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", QJsonObject{{"name", name},
                                 {"namespace", kNamespace},
                                 {"labels", QJsonObject{{"cnp.job", job}}},
                                 {"annotations", QJsonObject{{"batch.kubernetes.io/job-completion-index",
                                                              QString::number(index)}}}}},
        {"spec", QJsonObject{{"containers", QJsonArray{QJsonObject{{"name", "workload"}, {"image", "i"}}}}}},
        {"status", QJsonObject{{"phase", phase}}}};
}

// An open watch: the connection streams events about one Job (by name) or its pods (by cnp.job label).
struct Watcher {
    QTcpSocket* socket = nullptr;
    bool jobs = false; // Jobs, or pods
    QString job;
    QMap<QString, QString> sent; // object name -> the resourceVersion last streamed (or known from a list)
    bool ended = false;
};

class FakeApiServer : public QObject {
public:
    explicit FakeApiServer(ApiState& s) : s_(s) {}

    // On the server thread.
    quint16 listen() {
        server_ = new QTcpServer(this);
        server_->listen(QHostAddress::LocalHost, 0);
        connect(server_, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* c = server_->nextPendingConnection()) {
                connect(c, &QTcpSocket::readyRead, this, [this, c] { serve(c); });
                connect(c, &QTcpSocket::disconnected, this, [this, c] {
                    watchers_.erase(std::remove_if(watchers_.begin(), watchers_.end(),
                                                   [c](const Watcher& w) { return w.socket == c; }),
                                    watchers_.end());
                    buffers_.remove(c);
                    c->deleteLater();
                });
            }
        });
        auto* timer = new QTimer(this);
        connect(timer, &QTimer::timeout, this, [this] { tick(); });
        timer->start(100);
        return server_->serverPort();
    }

private:
    void serve(QTcpSocket* c) {
        QByteArray& buf = buffers_[c];
        buf += c->readAll();
        for (;;) {
            const int end = buf.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QList<QByteArray> lines = buf.left(end).split('\n');
            qsizetype length = 0;
            for (const auto& l : lines)
                if (l.toLower().startsWith("content-length:"))
                    length = l.mid(15).trimmed().toLongLong();
            if (buf.size() < end + 4 + length)
                return;
            const QList<QByteArray> first = lines.first().trimmed().split(' ');
            Request r;
            r.method = QString::fromLatin1(first.value(0));
            const QUrl url(QString::fromLatin1(first.value(1)));
            r.path = url.path();
            r.query = QUrlQuery(url);
            r.body = buf.mid(end + 4, length);
            buf.remove(0, end + 4 + length);
            if (r.method == "GET" && r.query.queryItemValue("watch") == "true") {
                startWatch(c, r);
                return; // the connection now carries the stream
            }
            QByteArray type = "application/json";
            int code = 200;
            const QByteArray body = answer(r, code, type);
            c->write("HTTP/1.1 " + QByteArray::number(code) + " X\r\nContent-Type: " + type +
                     "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
        }
    }

    static QByteArray json(const QJsonObject& o) { return QJsonDocument(o).toJson(QJsonDocument::Compact); }
    static QByteArray status(int code, const QString& reason) {
        return json({{"kind", "Status"},
                     {"apiVersion", "v1"},
                     {"status", code < 300 ? "Success" : "Failure"},
                     {"reason", reason},
                     {"code", code}});
    }
    static QString rv(const QJsonObject& o) { return o["metadata"].toObject()["resourceVersion"].toString(); }
    QJsonObject withNewVersion(QJsonObject o) {
        QJsonObject meta = o["metadata"].toObject();
        meta["resourceVersion"] = QString::number(++s_.resourceVersion);
        o["metadata"] = meta;
        return o;
    }

    QByteArray discovery(const QString& p, int& code) {
        auto resource = [](const char* name, const char* kind) {
            return QJsonObject{{"name", name},
                               {"singularName", QString(name).chopped(1)},
                               {"namespaced", true},
                               {"kind", kind},
                               {"verbs", QJsonArray{"create", "delete", "get", "list", "watch"}}};
        };
        if (p == "/version")
            return json({{"major", "1"}, {"minor", "32"}, {"gitVersion", "v1.32.0"}});
        if (p == "/api")
            return json({{"kind", "APIVersions"}, {"versions", QJsonArray{"v1"}}});
        if (p == "/apis")
            return json(
                {{"kind", "APIGroupList"},
                 {"apiVersion", "v1"},
                 {"groups",
                  QJsonArray{QJsonObject{
                      {"name", "batch"},
                      {"versions", QJsonArray{QJsonObject{{"groupVersion", "batch/v1"}, {"version", "v1"}}}},
                      {"preferredVersion", QJsonObject{{"groupVersion", "batch/v1"}, {"version", "v1"}}}}}}});
        if (p == "/api/v1")
            return json(
                {{"kind", "APIResourceList"},
                 {"groupVersion", "v1"},
                 {"resources", QJsonArray{resource("services", "Service"), resource("pods", "Pod")}}});
        if (p == "/apis/batch/v1")
            return json({{"kind", "APIResourceList"},
                         {"groupVersion", "batch/v1"},
                         {"resources", QJsonArray{resource("jobs", "Job")}}});
        code = 404;
        return status(404, "NotFound");
    }

    // The Job controller: sets the pods' phases and the Job's status for its stage (new resourceVersions
    // for what changed).
    void applyStage(const QString& name) {
        QJsonObject job = s_.jobs[name];
        const int stage = s_.stages[name];
        const int n = job["spec"].toObject()["completions"].toInt();
        const bool ended = stage >= 2;
        for (int i = 0; i < n; ++i) {
            const QString pod = QString("%1-%2-x").arg(name).arg(i);
            QString phase = stage >= 1 ? "Running" : "Pending";
            if (ended)
                phase = i == s_.failingRank ? "Failed" : "Succeeded";
            if (!s_.pods.contains(pod) || s_.pods[pod]["status"].toObject()["phase"].toString() != phase)
                s_.pods[pod] = withNewVersion(podObject(pod, name, i, phase));
        }
        QJsonObject st{{"active", ended ? 0 : n}, {"ready", stage == 1 ? n : 0}};
        if (ended) {
            const bool failed = s_.failingRank >= 0;
            st["succeeded"] = failed ? n - 1 : n;
            st["failed"] = failed ? 1 : 0;
            st["conditions"] =
                QJsonArray{QJsonObject{{"type", failed ? "Failed" : "Complete"}, {"status", "True"}}};
        }
        if (job["status"].toObject() != st) {
            job["status"] = st;
            s_.jobs[name] = withNewVersion(job);
        }
    }

    bool watched(const QString& job, bool jobs) const {
        return std::any_of(watchers_.begin(), watchers_.end(),
                           [&](const Watcher& w) { return w.job == job && w.jobs == jobs && !w.ended; });
    }

    // Every 100 ms: a Job watched with its pods moves one stage on; every watcher gets what changed.
    void tick() {
        std::lock_guard lock(s_.mutex);
        for (const auto& name : s_.jobs.keys())
            if (watched(name, true) && watched(name, false) && s_.stages[name] < (s_.neverFinish ? 1 : 2)) {
                ++s_.stages[name];
                applyStage(name);
            }
        for (auto& w : watchers_)
            stream(w);
    }

    std::vector<QJsonObject> watchedObjects(const Watcher& w) const {
        std::vector<QJsonObject> out;
        if (w.jobs && s_.jobs.contains(w.job))
            out.push_back(s_.jobs[w.job]);
        if (!w.jobs)
            for (const auto& pod : s_.pods)
                if (pod["metadata"].toObject()["labels"].toObject()["cnp.job"].toString() == w.job)
                    out.push_back(pod);
        return out;
    }

    static void writeChunk(QTcpSocket* c, const QByteArray& data) {
        c->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    }

    // Sends the changes since the watcher's last event; the first watch of a Job ends after one change.
    void stream(Watcher& w) {
        if (w.ended)
            return;
        for (const auto& o : watchedObjects(w)) {
            const QString name = o["metadata"].toObject()["name"].toString();
            if (w.sent.value(name) == rv(o))
                continue;
            const char* type = w.sent.contains(name) ? "MODIFIED" : "ADDED";
            w.sent[name] = rv(o);
            writeChunk(w.socket, json({{"type", type}, {"object", o}}) + "\n");
            if (w.jobs && QString(type) == "MODIFIED" && !s_.jobWatchesCut.contains(w.job)) {
                s_.jobWatchesCut.insert(w.job);
                writeChunk(w.socket, {}); // the last chunk: the stream ends, the connection stays
                w.ended = true;
                return;
            }
        }
    }

    // resourceVersion=0 (kubectl's watch of one object): the current state first, as ADDED. From a list's
    // resourceVersion: only what changed after it.
    void startWatch(QTcpSocket* c, const Request& r) {
        std::lock_guard lock(s_.mutex);
        s_.requests.push_back(r);
        Watcher w;
        w.socket = c;
        w.jobs = r.path.endsWith("/jobs");
        const QString selector =
            r.query.queryItemValue(w.jobs ? "fieldSelector" : "labelSelector", QUrl::FullyDecoded);
        w.job = selector.section(',', 0, 0).section('=', 1);
        const int from = r.query.queryItemValue("resourceVersion").toInt();
        for (const auto& o : watchedObjects(w))
            if (from > 0 && rv(o).toInt() <= from)
                w.sent[o["metadata"].toObject()["name"].toString()] = rv(o);
        c->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
        watchers_.push_back(w);
        stream(watchers_.back());
    }

    QByteArray answer(const Request& r, int& code, QByteArray& type) {
        std::lock_guard lock(s_.mutex);
        s_.requests.push_back(r);
        const QString ns = QString("/namespaces/%1/").arg(kNamespace);
        const QString p = r.path;
        if (!p.contains("/namespaces/"))
            return discovery(p, code);
        const QString name = p.section('/', -1);
        if (r.method == "POST") {
            QJsonObject o = QJsonDocument::fromJson(r.body).object();
            const QString n = o["metadata"].toObject()["name"].toString();
            if (p.endsWith(ns + "jobs")) {
                s_.jobs[n] = withNewVersion(o);
                s_.stages[n] = 0;
                applyStage(n);
            } else if (p.endsWith(ns + "pods")) {
                o["status"] = QJsonObject{{"phase", "Succeeded"}};
                s_.pods[n] = withNewVersion(o);
            }
            code = 201;
            return json(o);
        }
        if (r.method == "DELETE") {
            const bool found = s_.jobs.remove(name) + s_.pods.remove(name) > 0 || p.contains("/services/");
            code = found ? 200 : 404;
            return status(code, found ? "" : "NotFound");
        }
        if (p.contains("/jobs/") && s_.jobs.contains(name))
            return json(s_.jobs[name]);
        if (p.endsWith(ns + "pods")) {
            // The driver selects "cnp.job=<job>,cnp.role=workload"; the fake's pods are all workload pods.
            Watcher w;
            w.job = r.query.queryItemValue("labelSelector", QUrl::FullyDecoded)
                        .section(',', 0, 0)
                        .section('=', 1);
            QJsonArray items;
            for (const auto& pod : watchedObjects(w))
                items.append(pod);
            return json({{"kind", "PodList"},
                         {"apiVersion", "v1"},
                         {"metadata", QJsonObject{{"resourceVersion", QString::number(s_.resourceVersion)}}},
                         {"items", items}});
        }
        if (p.endsWith("/log")) {
            type = "text/plain";
            const QString pod = p.section('/', -2, -2);
            if (pod.endsWith("-fetch"))
                return s_.fetchLog;
            const int index = pod.section('-', -2, -2).toInt();
            return QString("rank %1: throughput %2 tokens/s\n").arg(index).arg(1000 + 200 * index).toUtf8();
        }
        if (p.contains("/pods/") && s_.pods.contains(name))
            return json(s_.pods[name]);
        code = 404;
        return status(404, "NotFound");
    }

    ApiState& s_;
    QTcpServer* server_ = nullptr;
    QHash<QTcpSocket*, QByteArray> buffers_;
    std::vector<Watcher> watchers_;
};

} // namespace

class TestKubectlDriver : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    ApiState state_;
    QThread thread_;
    FakeApiServer* server_ = nullptr;
    QString kubeconfig_;

    plan::Plan clusterPlan(bool traced) {
        auto plan = testing::twoConfigPlan({"python", "train.py"}, traced ? 1 : 0, traced ? 0 : 1);
        plan.configurations.resize(1);
        plan.resources.nodes = 2;
        plan.kubernetes.namespace_ = kNamespace;
        plan.kubernetes.collectorImage = "registry.local/cnp-collector:1";
        plan.kubernetes.tracesPvc = "traces";
        return plan;
    }

    std::vector<Request> requests() {
        std::lock_guard lock(state_.mutex);
        return state_.requests;
    }

    // The watch requests (?watch=true) on `resource` whose field or label selector is `selector`.
    int watches(const QString& resource, const QString& selector) {
        int n = 0;
        for (const auto& r : requests())
            n += r.query.queryItemValue("watch") == "true" && r.path.endsWith("/" + resource) &&
                 (r.query.queryItemValue("fieldSelector", QUrl::FullyDecoded) == selector ||
                  r.query.queryItemValue("labelSelector", QUrl::FullyDecoded) == selector);
        return n;
    }

    // "METHOD RESOURCE/NAME[/SUB]" of the namespaced requests whose path contains `pathPart`.
    QStringList calls(const QString& pathPart) {
        const QString ns = QString("/namespaces/%1/").arg(kNamespace);
        QStringList out;
        for (const auto& r : requests())
            if (r.path.contains(pathPart) && r.path.contains(ns))
                out << r.method + " " + r.path.mid(r.path.indexOf(ns) + ns.size());
        return out;
    }

    RunSummary run(const plan::Plan& plan, const std::atomic<bool>& cancel,
                   std::vector<ProgressEvent>& events, const ProgressListener& also = {}) {
        {
            std::lock_guard lock(state_.mutex);
            state_.requests.clear();
        }
        Workspace ws(dir_.filePath("k8s.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        KubectlOptions k;
        k.program = "/usr/bin/kubectl";
        k.kubeconfig = kubeconfig_.toStdString();
        k.pollMs = 50;
        k.fetchTimeoutSeconds = 10;
        KubernetesBackend backend(plan, k);
        RunOrchestrator orch(plan, ws, backend, [&](const ProgressEvent& e) {
            events.push_back(e);
            if (also)
                also(e);
        });
        orch.setPollInterval(20);
        return orch.run(planJobs(plan, {}, dir_.filePath("runs").toStdString()), cancel);
    }

private slots:
    void initTestCase() {
        if (!QFile::exists("/usr/bin/kubectl"))
            QSKIP("no /usr/bin/kubectl here");
        qputenv("HOME", dir_.path().toUtf8()); // kubectl's discovery cache goes to $HOME/.kube
        server_ = new FakeApiServer(state_);
        server_->moveToThread(&thread_);
        thread_.start();
        quint16 port = 0;
        QMetaObject::invokeMethod(
            server_, [&] { port = server_->listen(); }, Qt::BlockingQueuedConnection);
        QVERIFY(port != 0);
        kubeconfig_ = dir_.filePath("kubeconfig");
        QFile f(kubeconfig_);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QString("apiVersion: v1\nkind: Config\nclusters: [{name: t, cluster: {server: "
                        "\"http://127.0.0.1:%1\"}}]\n"
                        "users: [{name: t, user: {token: test}}]\ncontexts: [{name: t, context: {cluster: t, "
                        "user: t}}]\n"
                        "current-context: t\n")
                    .arg(port)
                    .toUtf8());
        // What the fetch pod prints: the capture fixture as the traces of two ranks, tar'ed and base64'd.
        const QString traces = dir_.filePath("pvc");
        QDir().mkpath(traces);
        for (const char* n : {"pod-0-1.cnpt.gz", "pod-1-1.cnpt.gz"})
            QVERIFY(QFile::copy(testpaths::dataDir() + "/gpu-run/capture.cnpt.gz", traces + "/" + n));
        QProcess tar;
        tar.start("tar", {"-cf", "-", "-C", traces, "."});
        QVERIFY(tar.waitForFinished());
        state_.fetchLog = tar.readAllStandardOutput().toBase64() + "\n";
    }

    void cleanupTestCase() {
        if (server_)
            server_->deleteLater();
        thread_.quit();
        thread_.wait();
    }

    void submissionStatusTracesAndCleanup() {
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(clusterPlan(true), cancel, events);
        QCOMPARE(s.done, 1);
        const QString job = QString::fromStdString(planJobs(clusterPlan(true), {}, "/x")[0].jobName);
        // Submission: Service and Indexed Job created as the manifests say.
        QVERIFY(calls("/services").contains("POST services"));
        Request created;
        for (const auto& r : requests())
            if (r.method == "POST" && r.path.endsWith("/jobs"))
                created = r;
        const QJsonObject spec = QJsonDocument::fromJson(created.body).object()["spec"].toObject();
        QCOMPARE(spec["completionMode"].toString(), "Indexed");
        QCOMPARE(spec["completions"].toInt(), 2);
        QCOMPARE(spec["template"].toObject()["spec"].toObject()["subdomain"].toString(), job);
        // Status watched, not polled: the Job's first watch was ended by the server after one change, so
        // the driver watched it again; each of kubectl's watches of one object starts with one GET of it.
        const int jobWatches = watches("jobs", "metadata.name=" + job);
        QVERIFY2(jobWatches >= 2, qPrintable(QString::number(jobWatches)));
        QCOMPARE(calls("/jobs/" + job).count("GET jobs/" + job), jobWatches);
        QVERIFY(watches("pods", "cnp.job=" + job + ",cnp.role=workload") >= 1);
        QStringList ranks;
        for (const auto& e : events)
            if (e.rank)
                ranks << QString("%1:%2").arg(*e.rank).arg(stateName(e.state));
        QVERIFY2(ranks.contains("0:running") && ranks.contains("1:running") && ranks.contains("0:done") &&
                     ranks.contains("1:done"),
                 qPrintable(ranks.join(' ')));
        // Pod logs kept, traces fetched by the fetch pod, everything deleted afterwards.
        QVERIFY(calls("/log").contains(QString("GET pods/%1-0-x/log").arg(job)));
        QVERIFY(calls("/log").contains(QString("GET pods/%1-fetch/log").arg(job)));
        for (const QString& gone : {"jobs/" + job, "services/" + job, "pods/" + job + "-fetch"})
            QVERIFY2(calls(gone).contains("DELETE " + gone), qPrintable(gone));
        Workspace ws(dir_.filePath("k8s.cnpdb").toStdString(), Workspace::Mode::ReadOnly);
        const auto runRec = ws.findRun("Base-r1");
        QVERIFY(runRec);
        QCOMPARE(runRec->rankCount, 2);
        QCOMPARE(runRec->kernelCount, 2 * 3 * 1260);
        const auto a = ws.runAttributes(runRec->id);
        QCOMPARE(QString::fromStdString(a.at("launch.backend")), "kubernetes");
        QCOMPARE(QString::fromStdString(a.at("log.throughput")), "1100"); // median of 1000 and 1200
    }

    void failedPodFailsTheJobAndCleansUp() {
        {
            std::lock_guard lock(state_.mutex);
            state_.failingRank = 1;
        }
        auto plan = clusterPlan(false);
        plan.hash = "failing";
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events);
        {
            std::lock_guard lock(state_.mutex);
            state_.failingRank = -1;
        }
        QCOMPARE(s.failed, 1);
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        bool rankFailed = false;
        for (const auto& e : events)
            rankFailed = rankFailed || (e.rank == 1 && e.state == JobState::Failed);
        QVERIFY(rankFailed);
        QVERIFY(QString::fromStdString(events.back().message).startsWith("exit code 1"));
        QVERIFY(
            calls("/log").contains(QString("GET pods/%1-1-x/log").arg(job))); // the failed rank's log kept
        QVERIFY(calls("jobs/" + job).contains("DELETE jobs/" + job));
        QVERIFY(calls("services/" + job).contains("DELETE services/" + job));
    }

    void cancelDeletesOnlyItsOwnJob() {
        {
            std::lock_guard lock(state_.mutex);
            state_.neverFinish = true;
        }
        auto plan = clusterPlan(false);
        plan.hash = "cancelled";
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events, [&](const ProgressEvent& e) {
            if (e.rank && e.state == JobState::Running)
                cancel.store(true);
        });
        {
            std::lock_guard lock(state_.mutex);
            state_.neverFinish = false;
        }
        QCOMPARE(s.cancelled, 1);
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        QStringList deletes;
        for (const auto& c : calls("/"))
            if (c.startsWith("DELETE "))
                deletes << c.mid(7);
        QVERIFY(deletes.contains("jobs/" + job));
        QVERIFY(deletes.contains("services/" + job));
        for (const auto& d : deletes)
            QVERIFY2(d.section('/', 1).startsWith(job), qPrintable(d)); // nothing but its own objects
    }
};

QTEST_GUILESS_MAIN(TestKubectlDriver)
#include "tst_kubectldriver.moc"
