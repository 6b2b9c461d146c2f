// The kubernetes backend driving the REAL kubectl (/usr/bin/kubectl) against a loopback HTTP server in this
// test that answers the part of the Kubernetes API those calls send (found with `kubectl -v=8`): discovery
// (/version, /api, /apis, /api/v1, /apis/batch/v1), create of the Service, the Indexed Job and the trace
// fetch pod, get and watch of the Job (by name: a GET, then `?fieldSelector=metadata.name=<job>&
// resourceVersion=0&watch=true`, whose first event, the current state, kubectl skips) and of the job's
// pods (label selector: a LIST, then a watch from the list's resourceVersion), pod logs, delete. Watches
// are answered as the API server does: a chunked stream of `{"type":"ADDED"|"MODIFIED","object":{...}}`
// events. The server plays the Job controller: pods <job>-<index>-x appear with the Job (Pending) and,
// once both the Job and its pods are watched, turn Running and then Succeeded (or, for the failing rank,
// Failed, and the Job with it), one step per 100 ms tick (or, as a detached job does, with nobody watching).
// The first watch of each Job is ended by the server after its first change (as an API server's watch timeout
// would), so the driver must reconnect to see the end. Recorded requests are checked for submission, watching
// (no status polling), per-rank progress, failure handling, cancel and cleanup; the fetched traces
// (tests/data/gpu-run/capture.cnpt.gz as two ranks, 3 x 1260 kernels each) must land as one run. Traces: a
// folder of the test plays the PVC. When a Job is created, the server copies the test's rank files (traces
// and the checksum files the collector's own writeChecksumFile made) into the folder the Job's CNP_OUTPUT_DIR
// names there, as its ranks would. `kubectl exec` into the fetch pod is served the way kubectl 1.32 speaks it
// (client-go tools/remotecommand/websocket.go and v4.go): a WebSocket upgrade of GET
// .../pods/<pod>/exec?command=...&container=...&stdout=true&stderr=true with subprotocol v5.channel.k8s.io;
// binary messages whose first byte is the channel (1 stdout, 2 stderr, 3 the metav1.Status: Success, or
// Failure with reason NonZeroExitCode and the code in details.causes[reason= ExitCode]), then a normal close.
// `cat` is served from the volume folder (one file may be made to stall once); any other command runs here
// for real with /cnp/traces mapped to that folder (the listing script). Image probe pods (label
// cnp.role=probe, launch/KubernetesImageProbe) are created ended, as a kubelet leaves them: Succeeded with
// the test's probe output for their image as their log, Pending on ErrImagePull, or Failed to start (an
// image without /bin/sh: StartError); listed by that label.
#include "CliRunner.h"
#include "TestPaths.h"
#include "TestPlans.h"
#include "core/EventsElsewhere.h"
#include "core/InputError.h"
#include "launch/ClusterEventFetch.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesBackend.h"
#include "launch/KubernetesImageProbe.h"
#include "launch/RunOrchestrator.h"
#include "launch/TraceFetch.h"
#include "store/Workspace.h"

#include "Crc32.h"
#include "Sha256.h"
#include "TraceChecksum.h"

#include <QtNetwork>
#include <QtTest>
#include <QtWebSockets>

#include <atomic>
#include <csignal>
#include <mutex>
#include <thread>

using namespace cnp;
using namespace cnp::launch;

namespace {

constexpr const char* kNamespace = "ablation";

struct Request {
    QString method, path; // path without the query
    QUrlQuery query;
    QByteArray body;
};

// Probe pods the fake API server has deleted, and how many had been when the test's own SIGINT handler ran:
// read in a signal handler, so lock-free atomics outside ApiState.
std::atomic<int> gProbePodsDeleted{0};
std::atomic<int> gSigintsAfterDelete{-1};
extern "C" void countSigint(int) {
    gSigintsAfterDelete.store(gProbePodsDeleted.load());
}

// The fake API server's state; every access under `mutex` (the server runs on its own thread).
struct ApiState {
    std::mutex mutex;
    std::vector<Request> requests;
    int failingRank = -1;               // that pod fails, and with it the Job
    bool neverFinish = false;           // the Job stays active (for cancel)
    bool ingestNeverFinishes = false;   // an ingest Job stays active (for cancel while it runs)
    bool runUnwatched = false;          // Jobs move on with nobody watching (a detached job's life)
    QString volume;                     // the traces PVC: /cnp/traces in the pods
    QString rankFiles;                  // what a created Job's ranks write into their CNP_OUTPUT_DIR
    QMap<QString, qint64> stallOnce;    // file name -> bytes sent before its first transfer stalls
    QMap<QString, QJsonObject> jobs;    // by name, with their status
    QMap<QString, int> stages;          // per Job: 0 pods Pending, 1 Running, 2 ended
    QSet<QString> jobWatchesCut;        // the Jobs whose first watch the server has ended
    QMap<QString, QJsonObject> pods;    // by name
    QMap<QString, QString> probeLogs;   // image -> what its probe pod prints (launch/KubernetesImageProbe)
    QMap<QString, QString> pullErrors;  // image -> the kubelet's ErrImagePull message for its probe pod
    QMap<QString, QString> startErrors; // image -> the runtime's StartError message (no /bin/sh in it)
    QSet<QString> hanging;              // images whose probe pod stays Pending
    int resourceVersion = 100;          // the last one given out
    QString cli;                        // the built cnp: what an ingest Job's pods run
    int failingIngestPod = -1;          // that ingest pod fails (its command is not run)
    QMap<QString, int> ingestExits;     // per ingest pod: the exit code of its cnp ingest-shard
    QMap<QString, QByteArray> logs;     // per pod with a log of its own (ingest pods): its output
};

// The Job a pod selector names: "cnp.job=<job>,cnp.role=workload" the workload's, "...,cnp.role=ingest" the
// ingest Job <job>-ingest (whose pods the fake labels with that name).
QString selectedJob(const QString& selector) {
    const QString job = selector.section(',', 0, 0).section('=', 1);
    return selector.contains("cnp.role=ingest") ? job + "-ingest" : job;
}

// A query's values as Go's url.Values.Encode wrote them: '+' is a space (a literal '+' comes as %2B).
QStringList formValues(const QUrlQuery& q, const QString& key) {
    QStringList out;
    for (QString v : q.allQueryItemValues(key, QUrl::FullyEncoded))
        out << QUrl::fromPercentEncoding(v.replace('+', ' ').toUtf8());
    return out;
}

// The image as the kubelet reports it in a pod's containerStatuses (a node that pulled it by digest).
constexpr const char* kImageId =
    "registry.local/train@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

QJsonObject podObject(const QString& name, const QString& job, int index, const QString& phase) {
    const QString container = job.endsWith("-ingest") ? "ingest" : "workload"; // the ingest Job's pods'
    return QJsonObject{
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", QJsonObject{{"name", name},
                                 {"namespace", kNamespace},
                                 {"labels", QJsonObject{{"cnp.job", job}}},
                                 {"annotations", QJsonObject{{"batch.kubernetes.io/job-completion-index",
                                                              QString::number(index)}}}}},
        {"spec", QJsonObject{{"containers", QJsonArray{QJsonObject{{"name", container}, {"image", "i"}}}}}},
        {"status",
         QJsonObject{{"phase", phase},
                     {"containerStatuses",
                      QJsonArray{QJsonObject{{"name", container}, {"imageID", QString(kImageId)}}}}}}};
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
        ws_ = new QWebSocketServer("fake-kubelet", QWebSocketServer::NonSecureMode, this);
        ws_->setSupportedSubprotocols({"v5.channel.k8s.io"});
        connect(ws_, &QWebSocketServer::newConnection, this, [this] {
            while (QWebSocket* w = ws_->nextPendingConnection())
                exec(w);
        });
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
    // A connection whose next request is an exec upgrade goes to the WebSocket server whole (peeked, not
    // read); true when it did, or when that request has not fully arrived yet.
    bool upgrade(QTcpSocket* c) {
        if (!buffers_.value(c).isEmpty())
            return false;
        const QByteArray head = c->peek(c->bytesAvailable());
        if (!head.startsWith("GET ") || !head.left(head.indexOf('\n')).contains("/exec?"))
            return false;
        if (!head.contains("\r\n\r\n"))
            return true;
        disconnect(c, nullptr, this, nullptr);
        buffers_.remove(c);
        ws_->handleConnection(c);
        return true;
    }

    void serve(QTcpSocket* c) {
        if (upgrade(c))
            return;
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
            if (ended && name.endsWith("-ingest"))
                phase = s_.ingestExits.value(pod, 1) == 0 ? "Succeeded" : "Failed";
            else if (ended)
                phase = i == s_.failingRank ? "Failed" : "Succeeded";
            if (!s_.pods.contains(pod) || s_.pods[pod]["status"].toObject()["phase"].toString() != phase)
                s_.pods[pod] = withNewVersion(podObject(pod, name, i, phase));
        }
        QJsonObject st{{"active", ended ? 0 : n}, {"ready", stage == 1 ? n : 0}};
        if (ended) {
            bool failed = s_.failingRank >= 0;
            if (name.endsWith("-ingest")) {
                failed = false;
                for (int i = 0; i < n; ++i)
                    failed = failed || s_.ingestExits.value(QString("%1-%2-x").arg(name).arg(i), 1) != 0;
            }
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
            if ((s_.runUnwatched || (watched(name, true) && watched(name, false))) &&
                s_.stages[name] <
                    (s_.neverFinish || (s_.ingestNeverFinishes && name.endsWith("-ingest")) ? 1 : 2)) {
                if (++s_.stages[name] == 2 && name.endsWith("-ingest"))
                    runIngestPods(name);
                applyStage(name);
            }
        for (auto& w : watchers_)
            stream(w);
    }

    // The ingest Job's pods' work, done for real: each pod's command (the cnp image's program replaced by
    // the built cnp, $(JOB_COMPLETION_INDEX) by its index, $$ by $, /data by the volume folder), its exit
    // code and output kept for the pod's phase and log.
    void runIngestPods(const QString& name) {
        const QJsonValue job = s_.jobs[name];
        const int n = job["spec"]["completions"].toInt();
        const QJsonArray command = job["spec"]["template"]["spec"]["containers"][0]["command"].toArray();
        for (int i = 0; i < n; ++i) {
            const QString pod = QString("%1-%2-x").arg(name).arg(i);
            if (i == s_.failingIngestPod) {
                s_.ingestExits[pod] = 2;
                s_.logs[pod] = "cnp ingest-shard: /data/x.cnpt: not a trace (planted failure)\n";
                continue;
            }
            QStringList args;
            for (qsizetype a = 1; a < command.size(); ++a) {
                QString arg = command[a].toString().replace("$(JOB_COMPLETION_INDEX)", QString::number(i));
                arg.replace("$$", "$");
                args << (arg.startsWith("/data/") ? s_.volume + arg.mid(5) : arg);
            }
            QProcess p;
            p.setProcessChannelMode(QProcess::MergedChannels);
            p.start(s_.cli, args);
            p.waitForFinished(120000);
            s_.ingestExits[pod] = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : 1;
            s_.logs[pod] = p.readAll();
        }
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
        w.job = w.jobs ? selector.section(',', 0, 0).section('=', 1) : selectedJob(selector);
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
                writeRankFiles(o);
            } else if (p.endsWith(ns + "pods")) {
                o["status"] = isProbe(o) ? probeStatus(o) // ended, or waiting on an image it cannot pull
                                         : QJsonObject{{"phase", "Running"}}; // the fetch pod sleeps
                s_.pods[n] = withNewVersion(o);
            }
            code = 201;
            return json(o);
        }
        if (r.method == "DELETE") {
            if (s_.pods.contains(name) && isProbe(s_.pods[name]))
                gProbePodsDeleted.fetch_add(1);
            const bool found = s_.jobs.remove(name) + s_.pods.remove(name) > 0 || p.contains("/services/");
            code = found ? 200 : 404;
            return status(code, found ? "" : "NotFound");
        }
        if (p.contains("/jobs/") && s_.jobs.contains(name))
            return json(s_.jobs[name]);
        const QString selector = r.query.queryItemValue("labelSelector", QUrl::FullyDecoded);
        if (p.endsWith(ns + "pods") && selector.startsWith("cnp.role=probe,"))
            return probeList();
        if (p.endsWith(ns + "pods")) {
            // The driver selects "cnp.job=<job>,cnp.role=workload"; the fake's pods are all workload pods.
            Watcher w;
            w.job = selectedJob(r.query.queryItemValue("labelSelector", QUrl::FullyDecoded));
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
            if (s_.pods.contains(pod) && isProbe(s_.pods[pod]))
                return s_.probeLogs.value(probeImage(s_.pods[pod])).toUtf8();
            if (s_.logs.contains(pod))
                return s_.logs[pod];
            const int index = pod.section('-', -2, -2).toInt();
            return QString("rank %1: throughput %2 tokens/s\n").arg(index).arg(1000 + 200 * index).toUtf8();
        }
        if (p.contains("/pods/") && s_.pods.contains(name))
            return json(s_.pods[name]);
        code = 404;
        return status(404, "NotFound");
    }

    static bool isProbe(const QJsonObject& pod) {
        return pod["metadata"].toObject()["labels"].toObject()["cnp.role"].toString() == "probe";
    }
    static QString probeImage(const QJsonObject& pod) {
        return pod["spec"].toObject()["containers"].toArray().first().toObject()["image"].toString();
    }

    // A probe pod as the kubelet leaves it: Succeeded (its script printed the image's probeLogs entry), or
    // Pending on ErrImagePull with the image's pullErrors message, or Failed to start (StartError) with its
    // startErrors message.
    QJsonObject probeStatus(const QJsonObject& pod) const {
        const QString image = probeImage(pod);
        if (s_.pullErrors.contains(image))
            return {
                {"phase", "Pending"},
                {"containerStatuses",
                 QJsonArray{QJsonObject{
                     {"name", "probe"},
                     {"image", image},
                     {"state", QJsonObject{{"waiting", QJsonObject{{"reason", "ErrImagePull"},
                                                                   {"message", s_.pullErrors[image]}}}}}}}}};
        if (s_.hanging.contains(image))
            return {{"phase", "Pending"}};
        if (s_.startErrors.contains(image))
            return {{"phase", "Failed"},
                    {"containerStatuses",
                     QJsonArray{QJsonObject{
                         {"name", "probe"},
                         {"image", image},
                         {"state",
                          QJsonObject{{"terminated", QJsonObject{{"reason", "StartError"},
                                                                 {"exitCode", 128},
                                                                 {"message", s_.startErrors[image]}}}}}}}}};
        return {
            {"phase", "Succeeded"},
            {"containerStatuses",
             QJsonArray{QJsonObject{{"name", "probe"},
                                    {"image", image},
                                    {"state", QJsonObject{{"terminated", QJsonObject{{"reason", "Completed"},
                                                                                     {"exitCode", 0}}}}}}}}};
    }

    QByteArray probeList() const {
        QJsonArray items;
        for (const auto& pod : s_.pods)
            if (isProbe(pod))
                items.append(pod);
        return json({{"kind", "PodList"},
                     {"apiVersion", "v1"},
                     {"metadata", QJsonObject{{"resourceVersion", QString::number(s_.resourceVersion)}}},
                     {"items", items}});
    }

    // What the Job's ranks write: the test's rank files, copied into the volume folder CNP_OUTPUT_DIR names.
    void writeRankFiles(const QJsonObject& job) {
        const QJsonArray containers =
            job["spec"].toObject()["template"].toObject()["spec"].toObject()["containers"].toArray();
        QString dir;
        for (const auto& e : containers.first().toObject()["env"].toArray())
            if (e.toObject()["name"].toString() == "CNP_OUTPUT_DIR")
                dir = onVolume(e.toObject()["value"].toString());
        if (dir.isEmpty() || s_.rankFiles.isEmpty())
            return;
        QDir().mkpath(dir);
        for (const auto& f : QDir(s_.rankFiles).entryList(QDir::Files | QDir::Hidden))
            QFile::copy(s_.rankFiles + "/" + f, dir + "/" + f);
    }

    QString onVolume(const QString& podPath) const {
        return podPath.startsWith("/cnp/traces") ? s_.volume + podPath.mid(11) : podPath;
    }

    static void send(QWebSocket* w, char channel, const QByteArray& data) {
        w->sendBinaryMessage(QByteArray(1, channel) + data);
    }

    // The end of an exec as the API server reports it: the Status on channel 3, then a normal close.
    static void finish(QWebSocket* w, int exitCode) {
        QJsonObject st{{"metadata", QJsonObject{}}, {"status", exitCode == 0 ? "Success" : "Failure"}};
        if (exitCode != 0) {
            st["message"] = QString("command terminated with non-zero exit code: %1").arg(exitCode);
            st["reason"] = "NonZeroExitCode";
            st["details"] = QJsonObject{
                {"causes",
                 QJsonArray{QJsonObject{{"reason", "ExitCode"}, {"message", QString::number(exitCode)}}}}};
        }
        send(w, 3, json(st));
        w->close();
    }

    // `cat FILE` from the volume in 1 MiB messages; a file in stallOnce sends its first bytes and then
    // nothing more (the connection stays open) the first time.
    void cat(QWebSocket* w, const QString& path) {
        QFile f(onVolume(path));
        if (!f.open(QIODevice::ReadOnly)) {
            send(w, 2, ("cat: " + path + ": No such file or directory\n").toUtf8());
            return finish(w, 1);
        }
        const QString name = QFileInfo(path).fileName();
        qint64 limit = -1;
        if (s_.stallOnce.contains(name))
            limit = s_.stallOnce.take(name);
        qint64 sent = 0;
        while (!f.atEnd() && (limit < 0 || sent < limit)) {
            const QByteArray piece = f.read(limit < 0 ? (1 << 20) : std::min<qint64>(1 << 20, limit - sent));
            send(w, 1, piece);
            sent += piece.size();
        }
        if (limit < 0)
            finish(w, 0);
    }

    // An exec: recorded as a GET of .../exec with its query; answered 100 ms later, as a real exec's
    // process start would be: kubectl 1.32 reads the connection before it has set up its streams and
    // drops what arrives for one not yet there ("Unknown stream id 1, discarding message"; client-go's
    // websocket.go later waits for them).
    void exec(QWebSocket* w) {
        connect(w, &QWebSocket::disconnected, w, &QObject::deleteLater);
        const QUrl url = w->requestUrl();
        Request r;
        r.method = "GET";
        r.path = url.path();
        r.query = QUrlQuery(url);
        const QStringList command = formValues(r.query, "command");
        {
            std::lock_guard lock(s_.mutex);
            s_.requests.push_back(r);
        }
        QTimer::singleShot(100, w, [this, w, command] { respond(w, command); });
    }

    // `cat` served from the volume; anything else run here.
    void respond(QWebSocket* w, const QStringList& command) {
        std::lock_guard lock(s_.mutex);
        if (command.value(0) == "cat" && command.size() == 2)
            return cat(w, command[1]);
        QStringList args;
        for (const auto& a : command.mid(1))
            args << onVolume(a);
        QProcess p;
        p.start(command.value(0), args);
        p.waitForFinished(30000);
        send(w, 1, p.readAllStandardOutput());
        send(w, 2, p.readAllStandardError());
        finish(w, p.exitStatus() == QProcess::NormalExit ? p.exitCode() : 1);
    }

    ApiState& s_;
    QWebSocketServer* ws_ = nullptr;
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
    QString capture_;              // the capture fixture as a plain .cnpt (the collector writes no .gz)
    int stallSeconds_ = 60;        // KubectlOptions::stallSeconds of the next run
    QString wsName_ = "k8s.cnpdb"; // the workspace of the next run, in dir_
    bool detach_ = false;          // RunOrchestrator::setDetach of the next run

    // A trace as the collector names it (CollectorConfig::outputPath).
    static QString traceName(int rank) { return QString("host%1-17-r%1.cnpt").arg(rank); }

    // Rank files in a fresh folder: the capture fixture per rank (rank 0 grown to `rank0Bytes` with chunks
    // of an unknown type, which readers skip), each with the checksum file the collector's code writes.
    QString makeRankFiles(const QString& name, int ranks, qint64 rank0Bytes = 0) {
        const QString dir = dir_.filePath("ranks-" + name);
        QDir().mkpath(dir);
        QFile in(capture_);
        if (!in.open(QIODevice::ReadOnly))
            return {};
        const QByteArray trace = in.readAll();
        for (int r = 0; r < ranks; ++r) {
            QByteArray bytes = trace;
            while (r == 0 && bytes.size() < rank0Bytes) {
                QByteArray chunk;
                const quint32 type = 99, length = 1 << 20;
                chunk.append(reinterpret_cast<const char*>(&type), 4)
                    .append(reinterpret_cast<const char*>(&length), 4);
                chunk.append(QByteArray(length, char('a' + bytes.size() % 26)));
                const quint32 crc =
                    cnpt::Crc32::of(chunk.constData(), static_cast<std::size_t>(chunk.size()));
                chunk.append(reinterpret_cast<const char*>(&crc), 4);
                bytes.insert(8, chunk); // after the magic
            }
            const QString path = dir + "/" + traceName(r);
            QFile out(path);
            if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
                return {};
            out.close();
            const std::string hex = cnpt::sha256Hex(std::string_view(bytes.constData(), bytes.size()));
            if (!cnpt::writeChecksumFile(path.toStdString(), hex, static_cast<std::uint64_t>(bytes.size())))
                return {};
        }
        return dir;
    }

    // The local copy of a job's trace, and the SHA-256 of a file.
    static QString sha256(const QString& path) {
        const auto d = cnpt::sha256File(path.toStdString());
        return d ? QString::fromStdString(d->hex) : QString("<unreadable>");
    }

    QStringList localFiles(const plan::Plan& plan) {
        const std::string job = planJobs(plan, {}, "/x")[0].jobName;
        return QDir(dir_.filePath("runs/" + QString::fromStdString(job))).entryList(QDir::Files, QDir::Name);
    }

    QString localPath(const plan::Plan& plan, const QString& file) {
        return dir_.filePath("runs/" + QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName) + "/" +
                             file);
    }

    // The run ingested last (the highest id).
    std::optional<RunRecord> lastRun() {
        Workspace ws(dir_.filePath("k8s.cnpdb").toStdString(), Workspace::Mode::ReadOnly);
        std::optional<RunRecord> last;
        for (const auto& r : ws.runs())
            if (!last || r.id.value() > last->id.value())
                last = r;
        return last;
    }

    // The exec requests of the run: each command's arguments joined by spaces.
    QStringList execs() {
        QStringList out;
        for (const auto& r : requests())
            if (r.path.endsWith("/exec"))
                out << formValues(r.query, "command").join(' ');
        return out;
    }

    // Where the Job's ranks wrote (its CNP_OUTPUT_DIR), as the pods see it.
    QString podOutputDir() {
        for (const auto& r : requests())
            if (r.method == "POST" && r.path.endsWith("/jobs"))
                for (const auto& e :
                     QJsonDocument::fromJson(r.body)["spec"]["template"]["spec"]["containers"][0]["env"]
                         .toArray())
                    if (e.toObject()["name"].toString() == "CNP_OUTPUT_DIR")
                        return e.toObject()["value"].toString();
        return {};
    }

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
        Workspace ws(dir_.filePath(wsName_).toStdString(), Workspace::Mode::CreateIfMissing);
        KubectlOptions k;
        k.program = "/usr/bin/kubectl";
        k.kubeconfig = kubeconfig_.toStdString();
        k.pollMs = 50;
        k.fetchTimeoutSeconds = 10;
        k.stallSeconds = stallSeconds_;
        k.ingestTimeoutSeconds = 120; // a test that waits this long has failed
        KubernetesBackend backend(plan, k);
        RunOrchestrator orch(plan, ws, backend, [&](const ProgressEvent& e) {
            events.push_back(e);
            if (also)
                also(e);
        });
        orch.setPollInterval(20);
        orch.setDetach(detach_);
        return orch.run(planJobs(plan, {}, dir_.filePath("runs").toStdString()), cancel);
    }

    // Runs `plan` detached: the job is submitted and left.
    RunSummary runDetached(const plan::Plan& plan) {
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        detach_ = true;
        const RunSummary s = run(plan, cancel, events);
        detach_ = false;
        return s;
    }

    QStringList deletes() {
        QStringList out;
        for (const auto& c : calls("/"))
            if (c.startsWith("DELETE "))
                out << c.mid(7);
        return out;
    }

    // Waits (at most 10 s) until the fake cluster has ended the Job.
    bool jobEnds(const QString& job) {
        for (int i = 0; i < 200; ++i) {
            {
                std::lock_guard lock(state_.mutex);
                if (state_.stages.value(job) >= 2)
                    return true;
            }
            QThread::msleep(50);
        }
        return false;
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
        state_.volume = dir_.filePath("pvc");
        QVERIFY(QDir().mkpath(state_.volume));
        QProcess gunzip;
        gunzip.start("gzip", {"-dc", testpaths::dataDir() + "/gpu-run/capture.cnpt.gz"});
        QVERIFY(gunzip.waitForFinished());
        capture_ = dir_.filePath("capture.cnpt");
        QFile out(capture_);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(gunzip.readAllStandardOutput());
        out.close();
        state_.rankFiles = makeRankFiles("two", 2);
        QVERIFY(!state_.rankFiles.isEmpty());
        state_.cli = testpaths::cliPath();
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
        // One more GET first: is there a job an earlier run left to attach to (Backend::attach)?
        const int jobWatches = watches("jobs", "metadata.name=" + job);
        QVERIFY2(jobWatches >= 2, qPrintable(QString::number(jobWatches)));
        QCOMPARE(calls("/jobs/" + job).count("GET jobs/" + job), jobWatches + 1);
        QVERIFY(watches("pods", "cnp.job=" + job + ",cnp.role=workload") >= 1);
        QStringList ranks;
        for (const auto& e : events)
            if (e.rank)
                ranks << QString("%1:%2").arg(*e.rank).arg(stateName(e.state));
        QVERIFY2(ranks.contains("0:running") && ranks.contains("1:running") && ranks.contains("0:done") &&
                     ranks.contains("1:done"),
                 qPrintable(ranks.join(' ')));
        // Pod logs kept; the ranks wrote into this attempt's own folder; the fetch pod listed that folder and
        // printed each trace and checksum file; everything deleted afterwards.
        QVERIFY(calls("/log").contains(QString("GET pods/%1-0-x/log").arg(job)));
        const QString attemptDir = podOutputDir();
        QVERIFY2(QRegularExpression("^/cnp/traces/" + job + "/attempt-1-[0-9a-f]{8}$")
                     .match(attemptDir)
                     .hasMatch(),
                 qPrintable(attemptDir));
        QStringList expected = {"sh -c " + QString::fromStdString(listingCommand("x")[2]) + " " + attemptDir};
        for (const char* f :
             {"host0-17-r0.cnpt.sha256", "host1-17-r1.cnpt.sha256", "host0-17-r0.cnpt", "host1-17-r1.cnpt"})
            expected << "cat " + attemptDir + "/" + f;
        QCOMPARE(execs(), expected);
        QCOMPARE(calls("/exec"), QStringList(5, QString("GET pods/%1-fetch/exec").arg(job)));
        QCOMPARE(localFiles(clusterPlan(true)),
                 QStringList({"host0-17-r0.cnpt", "host0-17-r0.cnpt.sha256", "host1-17-r1.cnpt",
                              "host1-17-r1.cnpt.sha256", "kubectl.txt", "node0.log", "node1.log"}));
        QCOMPARE(sha256(localPath(clusterPlan(true), "host1-17-r1.cnpt")),
                 sha256(state_.rankFiles + "/host1-17-r1.cnpt"));
        QStringList collecting;
        for (const auto& e : events)
            if (e.state == JobState::Collecting && !e.rank)
                collecting << QString::fromStdString(e.message);
        QVERIFY2(collecting.filter(QRegularExpression("^traces: 4 files, .*; 0 already here .*; 0 problems$"))
                         .size() == 1,
                 qPrintable(collecting.join('\n')));
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
        // The fetch's figures: four files (two traces, two checksums), their bytes as on the cluster.
        std::uint64_t remoteBytes = 0;
        for (const char* f :
             {"host0-17-r0.cnpt.sha256", "host1-17-r1.cnpt.sha256", "host0-17-r0.cnpt", "host1-17-r1.cnpt"})
            remoteBytes += static_cast<std::uint64_t>(QFileInfo(state_.rankFiles + "/" + f).size());
        QCOMPARE(QString::fromStdString(a.at("launch.image_digest")), QString(kImageId)); // provenance
        QCOMPARE(QString::fromStdString(a.at("fetch.transport")), "kubectl-exec");
        QCOMPARE(QString::fromStdString(a.at("fetch.files")), "4");
        QCOMPARE(QString::fromStdString(a.at("fetch.bytes")), QString::number(remoteBytes));
        QCOMPARE(QString::fromStdString(a.at("fetch.transferred_bytes")), QString::number(remoteBytes));
        QVERIFY(std::stod(a.at("fetch.seconds")) >= 0);
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
        const QStringList deleted = deletes();
        QVERIFY(deleted.contains("jobs/" + job));
        QVERIFY(deleted.contains("services/" + job));
        for (const auto& d : deleted)
            QVERIFY2(d.section('/', 1).startsWith(job), qPrintable(d)); // nothing but its own objects
    }

    // A 30 MiB trace (the old `kubectl logs` path got 3 of 10 MiB) comes back byte for byte and ingests.
    void bigTraceComesBackWhole() {
        auto plan = clusterPlan(true);
        plan.hash = "big";
        const QString ranks = makeRankFiles("big", 2, 30 << 20);
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = ranks;
        }
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events);
        QCOMPARE(s.done, 1);
        const QString local = localPath(plan, traceName(0));
        QVERIFY(QFileInfo(local).size() >= (30 << 20));
        QCOMPARE(QFileInfo(local).size(), QFileInfo(ranks + "/" + traceName(0)).size());
        QCOMPARE(sha256(local), sha256(ranks + "/" + traceName(0)));
        const auto runRec = lastRun();
        QVERIFY(runRec);
        QCOMPARE(runRec->rankCount, 2);
        QCOMPARE(runRec->kernelCount, 2 * 3 * 1260);
    }

    // A damaged rank fails the run with a message naming the rank and the file; the good rank's trace and
    // checksum file stay on disk, as does whatever of the damaged one arrived.
    void damagedTraceFailsTheRun_data() {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("message");
        QTest::newRow("corrupt") << "corrupt"
                                 << "rank 1: host1-17-r1.cnpt: checksum mismatch";
        QTest::newRow("short") << "short"
                               << "rank 1: host1-17-r1.cnpt is short: 2000 of the";
        QTest::newRow("missing rank") << "missing"
                                      << "rank 1: no trace (*-r1.cnpt) in /cnp/traces/";
        QTest::newRow("not closed") << "unclosed"
                                    << "rank 1: host1-17-r1.cnpt: no checksum file host1-17-r1.cnpt.sha256";
    }
    void damagedTraceFailsTheRun() {
        QFETCH(QString, damage);
        QFETCH(QString, message);
        const QString ranks = makeRankFiles(damage, 2);
        const QString trace = ranks + "/" + traceName(1);
        QFile f(trace);
        if (damage == "corrupt") {
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(1000);
            const char c = f.read(1)[0];
            f.seek(1000);
            f.write(QByteArray(1, static_cast<char>(c ^ 0x40)));
        } else if (damage == "short") {
            QVERIFY(f.resize(2000));
        } else if (damage == "missing") {
            QVERIFY(f.remove() && QFile::remove(trace + ".sha256"));
        } else {
            QVERIFY(QFile::remove(trace + ".sha256"));
        }
        f.close();
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = ranks;
        }
        auto plan = clusterPlan(true);
        plan.hash = "damaged-" + damage.toStdString();
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events);
        QCOMPARE(s.failed, 1);
        QCOMPARE(s.done, 0);
        const QString last = QString::fromStdString(events.back().message);
        QCOMPARE(events.back().state, JobState::Failed);
        QVERIFY2(last.contains(message) && last.contains("1 trace problem(s)"), qPrintable(last));
        QCOMPARE(sha256(localPath(plan, traceName(0))), sha256(ranks + "/" + traceName(0)));
        QVERIFY(QFile::exists(localPath(plan, traceName(0) + ".sha256")));
        QCOMPARE(QFile::exists(localPath(plan, traceName(1))), damage != "missing");
        QFile notes(localPath(plan, "kubectl.txt"));
        QVERIFY(notes.open(QIODevice::ReadOnly));
        QVERIFY(notes.readAll().contains(message.toUtf8()));
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        QVERIFY(calls("pods/" + job + "-fetch").contains("DELETE pods/" + job + "-fetch"));
    }

    // Rank files made by `cnp synth` (2 nodes x 1 GPU, each on its own host), named as the collector names
    // them, each with its checksum file.
    QString synthRankFiles() {
        const QString out = dir_.filePath("synth");
        if (QFileInfo::exists(dir_.filePath("ranks-synth")))
            return dir_.filePath("ranks-synth");
        QProcess synth;
        synth.start(testpaths::cliPath(), {"synth", "--out", out, "--nodes", "2", "--gpus-per-node", "1",
                                           "--steps", "3", "--layers", "1", "--configs", "Base", "--quiet"});
        if (!synth.waitForFinished(120000) || synth.exitCode() != 0)
            return {};
        const QString run = QDir(out).entryList(QDir::Dirs | QDir::NoDotAndDotDot).value(0);
        const QString dir = dir_.filePath("ranks-synth");
        QDir().mkpath(dir);
        static const QRegularExpression number("(\\d+)\\.cnpt$");
        for (const QString& f : QDir(out + "/" + run).entryList({"*.cnpt"}, QDir::Files, QDir::Name)) {
            const QString to = dir + "/" + traceName(number.match(f).captured(1).toInt());
            const auto d = cnpt::sha256File((out + "/" + run + "/" + f).toStdString());
            if (!d || !QFile::copy(out + "/" + run + "/" + f, to) ||
                !cnpt::writeChecksumFile(to.toStdString(), d->hex, d->size))
                return {};
        }
        return dir;
    }

    // The Chrome export of run Base-r1 of `ws` (of one rank unless `rank` is empty); the error on failure.
    QByteArray exportOf(const QString& ws, const QString& rank) {
        const QString out = dir_.filePath("export.json");
        QFile::remove(out);
        QStringList args = {"export", ws, "--run", "Base-r1", "--out", out};
        if (!rank.isEmpty())
            args << "--rank" << rank;
        const auto r = cnp::testing::runCli(args);
        QFile f(out);
        if (r.exitCode != 0 || !f.open(QIODevice::ReadOnly))
            return "cnp export failed: " + r.err;
        return f.readAll();
    }

    // `cnp ARGS` (stdout, with "created_at" values blanked: when each copy was ingested); "" on failure.
    static QString cliJson(const QStringList& args) {
        QProcess p;
        p.start(testpaths::cliPath(), args);
        if (!p.waitForFinished(120000) || p.exitCode() != 0)
            return "cnp " + args.join(' ') + " failed: " + QString::fromUtf8(p.readAllStandardError());
        static const QRegularExpression createdAt(QStringLiteral("\"created_at\": \"[^\"]*\""));
        return QString::fromUtf8(p.readAllStandardOutput()).replace(createdAt, "created_at");
    }

    // Ingest on the cluster (kubernetes.cnpImage; docs/launcher.md): the traces are checked on the volume
    // (sha256sum there) and never fetched; the Indexed Job <job>-ingest runs one pod per node, each the
    // real `cnp ingest-shard --block K/2 --summary-out` (the fake cluster plays the pods by running the
    // pod's command here on the volume folder); only the two summary files come back, checksummed; the
    // run lands in the workspace and answers `cnp ablation --json` and `cnp stats --json` as the same
    // traces fetched and ingested here do.
    void ingestOnTheClusterFetchesSummariesOnly() {
        const QString ranks = synthRankFiles();
        QVERIFY(!ranks.isEmpty());
        QCOMPARE(QDir(ranks).entryList({"*.cnpt"}).size(), 2);
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = ranks;
        }
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> here, there;
        auto plan = clusterPlan(true);
        plan.hash = "synth-fetched";
        wsName_ = "fetched.cnpdb";
        QCOMPARE(run(plan, cancel, here).done, 1);
        plan.hash = "synth-on-cluster";
        plan.kubernetes.cnpImage = "registry.local/cnp:1";
        wsName_ = "cluster.cnpdb";
        const RunSummary s = run(plan, cancel, there);
        wsName_ = "k8s.cnpdb";
        QVERIFY2(s.done == 1, there.empty() ? "" : there.back().message.c_str());
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        const QString ingestJob = job + "-ingest";
        // The ingest Job: two indexes, each pod's command its block of the attempt's folder.
        QJsonDocument created;
        for (const auto& r : requests())
            if (r.method == "POST" && r.path.endsWith("/jobs") && r.body.contains(ingestJob.toUtf8()))
                created = QJsonDocument::fromJson(r.body);
        QCOMPARE(created["metadata"]["name"].toString(), ingestJob);
        QCOMPARE(created["spec"]["completions"].toInt(), 2);
        QCOMPARE(created["spec"]["completionMode"].toString(), "Indexed");
        QStringList command;
        for (const auto& a : created["spec"]["template"]["spec"]["containers"][0]["command"].toArray())
            command << a.toString();
        const QString attemptDir = podOutputDir(); // /cnp/traces/<job>/<attempt> in the fetch pod
        const QString data = "/data" + attemptDir.mid(11);
        QStringList tokens; // the plan's tokens per step, as a local ingest is given them
        if (plan.tokensPerStep > 0)
            tokens << "--tokens-per-step" << QString::number(plan.tokensPerStep, 'g', 17);
        QCOMPARE(command, QStringList({"/opt/cnp/bin/cnp",
                                       "ingest-shard",
                                       data + "/shards/shard-$(JOB_COMPLETION_INDEX).cnpdb",
                                       data,
                                       "--block",
                                       "$(JOB_COMPLETION_INDEX)/2",
                                       "--run",
                                       "Base-r1",
                                       "--run-id",
                                       "1",
                                       "--config",
                                       "Base",
                                       "--repeat",
                                       "1",
                                       "--summary-out",
                                       data + "/shards/shard-$(JOB_COMPLETION_INDEX).summary.cnpdb",
                                       "--jobs",
                                       "1",
                                       "--quiet",
                                       "--again"}) +
                              tokens);
        // Watched as the workload is, each pod's completion reported.
        QVERIFY(watches("jobs", "metadata.name=" + ingestJob) >= 1);
        QVERIFY(watches("pods", "cnp.job=" + job + ",cnp.role=ingest") >= 1);
        QStringList collecting;
        for (const auto& e : there)
            if (e.state == JobState::Collecting && !e.rank)
                collecting << QString::fromStdString(e.message);
        for (const char* m : {"ingest: shard 0: Succeeded", "ingest: shard 1: Succeeded"})
            QVERIFY2(collecting.filter(m).size() == 1, qPrintable(collecting.join('\n')));
        QVERIFY2(collecting
                         .filter(QRegularExpression("^traces: 2 checked in place \\(.*, not fetched\\); 0 "
                                                    "problems$"))
                         .size() == 1,
                 qPrintable(collecting.join('\n')));
        QVERIFY2(collecting.filter(QRegularExpression("^summaries: 2 files, .*; 0 problems$")).size() == 1,
                 qPrintable(collecting.join('\n')));
        // What moved: the listings, sha256sum on the volume, the checksum files and the summaries; no
        // trace and no shard.
        const QString shards = attemptDir + "/shards";
        QStringList expected = {
            "sh -c " + QString::fromStdString(listingCommand("x")[2]) + " " + attemptDir,
            "sh -c " + QString::fromStdString(checksumCommand("x", {"*.cnpt", "*.cnpt.gz"})[2]) + " " +
                attemptDir,
            "cat " + attemptDir + "/host0-17-r0.cnpt.sha256",
            "cat " + attemptDir + "/host1-17-r1.cnpt.sha256",
            // No summary there yet (an earlier pass's would be fetched as they are): the ingest Job runs.
            "sh -c " + QString::fromStdString(listingCommand("x")[2]) + " " + shards,
            "sh -c " + QString::fromStdString(listingCommand("x")[2]) + " " + shards,
            "sh -c " + QString::fromStdString(checksumCommand("x", {"*.summary.cnpdb"})[2]) + " " + shards,
            "cat " + shards + "/shard-0.summary.cnpdb", "cat " + shards + "/shard-1.summary.cnpdb"};
        QCOMPARE(execs(), expected);
        QCOMPARE(localFiles(plan),
                 QStringList({"host0-17-r0.cnpt.sha256", "host1-17-r1.cnpt.sha256", "ingest-0.txt",
                              "ingest-1.txt", "kubectl.txt", "node0.log", "node1.log"}));
        const QString volumeShards = state_.volume + shards.mid(11);
        std::uint64_t summaryBytes = 0;
        for (int k = 0; k < 2; ++k) {
            const QString name = QString("shard-%1.summary.cnpdb").arg(k);
            QCOMPARE(sha256(localPath(plan, "summaries/" + name)), sha256(volumeShards + "/" + name));
            summaryBytes += static_cast<std::uint64_t>(QFileInfo(volumeShards + "/" + name).size());
            // The shard with the events stays on the volume, larger than what came back.
            QVERIFY(QFileInfo(volumeShards + QString("/shard-%1.cnpdb").arg(k)).size() >
                    QFileInfo(volumeShards + "/" + name).size());
        }
        QVERIFY(calls("jobs/" + ingestJob).contains("DELETE jobs/" + ingestJob));
        // The run, its figures, and the same answers as the traces ingested here.
        {
            Workspace ws(dir_.filePath("cluster.cnpdb").toStdString(), Workspace::Mode::ReadOnly);
            const auto runRec = ws.findRun("Base-r1");
            QVERIFY(runRec);
            QCOMPARE(runRec->rankCount, 2);
            const auto a = ws.runAttributes(runRec->id);
            QCOMPARE(QString::fromStdString(a.at("ingest.location")), "cluster");
            QCOMPARE(QString::fromStdString(a.at("ingest.shards")), "2");
            QCOMPARE(QString::fromStdString(a.at("ingest.events")), "traces:" + shards.mid(12));
            QCOMPARE(QString::fromStdString(a.at("fetch.files")), "2");
            QCOMPARE(QString::fromStdString(a.at("fetch.bytes")), QString::number(summaryBytes));
            QCOMPARE(QString::fromStdString(a.at("ingest.trace_bytes")),
                     QString::number(QFileInfo(ranks + "/" + traceName(0)).size() +
                                     QFileInfo(ranks + "/" + traceName(1)).size()));
            QCOMPARE(QString::fromStdString(a.at("log.throughput")), "1100");
            QCOMPARE(QString::fromStdString(a.at("plan.hash")), "synth-on-cluster");
            // The two hosts' clock fit, from the kernels the summary files keep, as from every event here.
            Workspace fetched(dir_.filePath("fetched.cnpdb").toStdString(), Workspace::Mode::ReadOnly);
            const auto clocks = fetched.runAttribute(fetched.findRun("Base-r1")->id, "clock.alignment");
            QVERIFY(clocks && clocks->find("synth-node1") != std::string::npos);
            QCOMPARE(QString::fromStdString(a.at("clock.alignment")), QString::fromStdString(*clocks));
        }
        // (`runs --json` differs as it should: the plan hash, the source files' paths, fetch.* and ingest.*.)
        for (const QStringList& args : {QStringList{"ablation", "WS", "--json"},
                                        QStringList{"stats", "WS", "--run", "Base-r1", "--json"}}) {
            QStringList a = args, b = args;
            a[1] = dir_.filePath("fetched.cnpdb");
            b[1] = dir_.filePath("cluster.cnpdb");
            const QString fetched = cliJson(a), cluster = cliJson(b);
            QVERIFY2(fetched.size() > 100, qPrintable(fetched));
            QCOMPARE(cluster, fetched);
        }
    }

    // Events on demand (launch/ClusterEventFetch.h): the run ingested on the cluster above reads its events
    // once their shards are fetched, shard by shard (the fetch pod's `cat` of that shard only, checksummed
    // on the volume, the pod deleted afterwards), and then answers as the traces ingested here: rank 1's
    // Chrome export once shard 1 is linked, with rank 0's refused naming shard 0 and the command that
    // fetches it; collectives and the whole export once both are. A second fetch moves nothing.
    void eventsComeOnDemand() {
        const QString cluster = dir_.filePath("cluster.cnpdb"), fetched = dir_.filePath("fetched.cnpdb");
        if (!QFileInfo::exists(cluster))
            ingestOnTheClusterFetchesSummariesOnly();
        QVERIFY(QFileInfo::exists(cluster));
        auto plan = clusterPlan(true);
        plan.hash = "synth-on-cluster";
        plan.kubernetes.cnpImage = "registry.local/cnp:1";
        KubectlOptions k;
        k.program = "/usr/bin/kubectl";
        k.kubeconfig = kubeconfig_.toStdString();
        k.namespace_ = kNamespace;
        k.pollMs = 50;
        k.fetchTimeoutSeconds = 10;
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        auto clearRequests = [&] {
            std::lock_guard lock(state_.mutex);
            state_.requests.clear();
        };
        Workspace ws(cluster.toStdString(), Workspace::Mode::ReadWrite);
        const RunId id = ws.findRun("Base-r1")->id;
        QCOMPARE(QString::fromStdString(*ws.runAttribute(id, "events.shard_ranks")), QString("0;1"));
        try {
            ws.eventStoreOf(id, 1, "kernels");
            QFAIL("rank 1's events were read before they were fetched");
        } catch (const EventsElsewhere& e) {
            QCOMPARE(e.missingShards(), std::vector<int>{1});
            QVERIFY2(QString(e.what()).contains("--fetch-events 'Base-r1'"), e.what());
        }
        clearRequests();
        EventFetchOutcome got = fetchRunEvents(ws, id, plan, k, {1});
        QCOMPARE(got.linked, std::vector<int>{1});
        QStringList cats = execs().filter(QRegularExpression("^cat "));
        QCOMPARE(cats.size(), 1);
        QVERIFY2(cats[0].endsWith("/shards/shard-1.cnpdb"), qPrintable(cats.join('\n')));
        QVERIFY(calls("pods/" + job + "-fetch").contains("DELETE pods/" + job + "-fetch"));
        QVERIFY(QFileInfo::exists(cluster + ".events/run-1/shard-1.cnpdb"));
        const cnp::testing::CliResult r0 = cnp::testing::runCli(
            {"export", cluster, "--run", "Base-r1", "--rank", "0", "--out", dir_.filePath("r0.json")});
        QCOMPARE(r0.exitCode, 2);
        QVERIFY2(r0.err.contains(
                     "the events of shard 0 (ranks 0) stayed with its shards (on the cluster, traces:") &&
                     r0.err.contains("--fetch-events 'Base-r1'"),
                 r0.err.constData());
        QCOMPARE(exportOf(cluster, "1"), exportOf(fetched, "1"));
        clearRequests();
        got = fetchRunEvents(ws, id, plan, k, {});
        QCOMPARE(got.linked, std::vector<int>{0});
        QCOMPARE(got.already, std::vector<int>{1});
        QCOMPARE(QString::fromStdString(*ws.runAttribute(id, "events.fetched")), QString("0,1"));
        QCOMPARE(exportOf(cluster, ""), exportOf(fetched, ""));
        const QString a = cliJson({"collectives", fetched, "--run", "Base-r1", "--json"});
        QVERIFY2(a.size() > 100, qPrintable(a));
        QCOMPARE(cliJson({"collectives", cluster, "--run", "Base-r1", "--json"}), a);
        clearRequests();
        got = fetchRunEvents(ws, id, plan, k, {0, 1});
        QCOMPARE(got.summary, std::string("nothing to fetch"));
        QCOMPARE(execs(), QStringList());
    }

    // Ctrl-C while the ingest Job runs on the cluster: cnp stops waiting at once (not after
    // ingestTimeoutSeconds), deletes the ingest Job with its pods, says so, and adds no run; the traces stay
    // on the volume for the next cnp run.
    void cancelStopsTheIngestJob() {
        const QString ranks = synthRankFiles();
        QVERIFY(!ranks.isEmpty());
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = ranks;
            state_.ingestNeverFinishes = true;
        }
        auto plan = clusterPlan(true);
        plan.hash = "synth-cancelled";
        plan.kubernetes.cnpImage = "registry.local/cnp:1";
        wsName_ = "cancelled.cnpdb";
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events, [&](const ProgressEvent& e) {
            if (e.state == JobState::Collecting && e.message.find("ingest: shard 1: Running") == 0)
                cancel = true;
        });
        wsName_ = "k8s.cnpdb";
        {
            std::lock_guard lock(state_.mutex);
            state_.ingestNeverFinishes = false;
        }
        QCOMPARE(s.done, 0);
        QVERIFY(!events.empty());
        QVERIFY2(events.back().message.find("was stopped on request; the traces stay on the volume") !=
                     std::string::npos,
                 events.back().message.c_str());
        const QString ingestJob = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName) + "-ingest";
        QVERIFY(calls("jobs/" + ingestJob).contains("DELETE jobs/" + ingestJob));
    }

    // On the cluster as here: a damaged trace fails the run naming the rank and file, found by sha256sum
    // on the volume, with no trace fetched and no ingest Job started; a failed ingest pod fails the run
    // naming its shard and the last line of its log, kept as ingest-K.txt.
    void ingestOnTheClusterFailures_data() {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("message");
        QTest::newRow("corrupt trace") << "corrupt"
                                       << "1 trace problem(s): rank 1: host1-17-r1.cnpt: checksum mismatch";
        QTest::newRow("short trace") << "short"
                                     << "1 trace problem(s): rank 1: host1-17-r1.cnpt is short: 2000 of the";
        QTest::newRow("failed ingest pod")
            << "pod"
            << "-ingest failed (shard 1: cnp ingest-shard: /data/x.cnpt: not a "
               "trace (planted failure))";
    }
    void ingestOnTheClusterFailures() {
        QFETCH(QString, damage);
        QFETCH(QString, message);
        // The capture fixture's header states no rank (ingest-shard --block refuses it): a failed pod is
        // planted among ranks cnp synth made.
        const QString ranks = damage == "pod" ? synthRankFiles() : makeRankFiles("cluster-" + damage, 2);
        QFile f(ranks + "/" + traceName(1));
        if (damage == "corrupt") {
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(1000);
            const char c = f.read(1)[0];
            f.seek(1000);
            f.write(QByteArray(1, static_cast<char>(c ^ 0x40)));
            f.close();
        } else if (damage == "short") {
            QVERIFY(f.resize(2000));
        }
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = ranks;
            state_.failingIngestPod = damage == "pod" ? 1 : -1;
        }
        auto plan = clusterPlan(true);
        plan.hash = "cluster-" + damage.toStdString();
        plan.kubernetes.cnpImage = "registry.local/cnp:1";
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events);
        {
            std::lock_guard lock(state_.mutex);
            state_.failingIngestPod = -1;
        }
        QCOMPARE(s.failed, 1);
        const QString last = QString::fromStdString(events.back().message);
        QVERIFY2(last.contains(message), qPrintable(last));
        QVERIFY2(execs().filter(QRegularExpression("^cat .*\\.cnpt$")).isEmpty(),
                 qPrintable(execs().join('\n')));
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        bool ingestCreated = false;
        for (const auto& r : requests())
            ingestCreated =
                ingestCreated || (r.method == "POST" && r.body.contains((job + "-ingest").toUtf8()));
        QCOMPARE(ingestCreated, damage == "pod");
        if (damage == "pod") {
            QFile log(localPath(plan, "ingest-1.txt"));
            QVERIFY(log.open(QIODevice::ReadOnly));
            QVERIFY(log.readAll().contains("planted failure"));
            QVERIFY(calls("jobs/" + job + "-ingest").contains("DELETE jobs/" + job + "-ingest"));
        }
        QVERIFY(calls("pods/" + job + "-fetch").contains("DELETE pods/" + job + "-fetch"));
    }

    // A transfer that stalls is stopped and tried again; the trace that came whole is not fetched twice.
    void stalledTransferIsTriedAgain() {
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = makeRankFiles("stall", 2);
            state_.stallOnce[traceName(1)] = 4096;
        }
        stallSeconds_ = 1;
        auto plan = clusterPlan(true);
        plan.hash = "stall";
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events);
        stallSeconds_ = 60;
        QCOMPARE(s.done, 1);
        const QStringList cats = execs().filter(QRegularExpression("^cat .*\\.cnpt$"));
        QCOMPARE(cats.filter(traceName(0)).size(), 1);
        QCOMPARE(cats.filter(traceName(1)).size(), 2);
        bool triedAgain = false;
        for (const auto& e : events)
            triedAgain = triedAgain || QString::fromStdString(e.message).startsWith(
                                           "traces: " + traceName(1) + ": try 1 failed (stalled");
        QVERIFY(triedAgain);
        QCOMPARE(sha256(localPath(plan, traceName(1))), sha256(state_.rankFiles + "/" + traceName(1)));
        QVERIFY(!QFile::exists(localPath(plan, traceName(1) + ".part")));
    }

    // An earlier attempt's folder on the volume (8 ranks' worth) is never listed nor fetched.
    void earlierAttemptIsNotTaken() {
        auto plan = clusterPlan(true);
        plan.hash = "attempts";
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        const QString earlier = state_.volume + "/" + job + "/attempt-1-0badf00d";
        QVERIFY(QDir().mkpath(earlier));
        const QString eight = makeRankFiles("eight", 8);
        for (const auto& f : QDir(eight).entryList(QDir::Files))
            QVERIFY(QFile::copy(eight + "/" + f, earlier + "/" + f));
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = makeRankFiles("attempt", 2);
        }
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events);
        QCOMPARE(s.done, 1);
        QVERIFY(!podOutputDir().endsWith("/attempt-1-0badf00d"));
        for (const auto& e : execs())
            QVERIFY2(!e.contains("0badf00d"), qPrintable(e));
        QCOMPARE(localFiles(plan).filter(QRegularExpression("\\.cnpt$")).size(), 2);
        const auto runRec = lastRun();
        QVERIFY(runRec);
        QCOMPARE(runRec->rankCount, 2);
    }

    // `cnp run --detach` submits and leaves: nothing is deleted, waited for or fetched, and the job's
    // annotations name its attempt. Running again attaches to it, whether it still runs or ended meanwhile:
    // nothing is created again, and the traces come from the attempt the job was started with.
    void detachedJobIsAttachedToLater_data() {
        QTest::addColumn<bool>("endsMeanwhile");
        QTest::newRow("still running") << false;
        QTest::newRow("ended while nobody watched") << true;
    }
    void detachedJobIsAttachedToLater() {
        QFETCH(bool, endsMeanwhile);
        {
            std::lock_guard lock(state_.mutex);
            state_.rankFiles = makeRankFiles("detach", 2);
        }
        auto plan = clusterPlan(true);
        plan.hash = endsMeanwhile ? "detach-ended" : "detach-running";
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        const RunSummary first = runDetached(plan);
        QCOMPARE(first.detached, 1);
        QCOMPARE(first.done + first.failed, 0);
        QVERIFY2(deletes().filter(QRegularExpression("^jobs/")).isEmpty(), qPrintable(deletes().join(' ')));
        QVERIFY(execs().isEmpty()); // nothing fetched
        const QString attemptDir = podOutputDir();
        QJsonObject created;
        {
            std::lock_guard lock(state_.mutex);
            QVERIFY(state_.jobs.contains(job));
            created = state_.jobs[job];
            state_.runUnwatched = endsMeanwhile;
        }
        QCOMPARE(created["metadata"].toObject()["annotations"].toObject()["cnp.job/attempt"].toString(),
                 attemptDir.section('/', -1));
        if (endsMeanwhile)
            QVERIFY(jobEnds(job));

        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary second = run(plan, cancel, events);
        {
            std::lock_guard lock(state_.mutex);
            state_.runUnwatched = false;
        }
        QCOMPARE(second.done, 1);
        QVERIFY2(!calls("/jobs").contains("POST jobs"), qPrintable(calls("/jobs").join(' ')));
        bool attached = false;
        for (const auto& e : events)
            attached = attached || QString::fromStdString(e.message).startsWith("attached to the job");
        QVERIFY(attached);
        for (const auto& e : execs())
            if (e.startsWith("cat "))
                QVERIFY2(e.startsWith("cat " + attemptDir + "/"), qPrintable(e));
        QCOMPARE(localFiles(plan).filter(QRegularExpression("\\.cnpt$")).size(), 2);
        const auto runRec = lastRun();
        QVERIFY(runRec);
        QCOMPARE(runRec->rankCount, 2);
        QCOMPARE(runRec->kernelCount, 2 * 3 * 1260);
        QVERIFY(deletes().contains("jobs/" + job)); // collected: now it goes
    }

    // A job of the same name that this plan did not start (another version of it: another hash in its
    // annotations) is never deleted nor taken over, even after a crash: the run says so and fails.
    void foreignJobIsLeftAlone() {
        auto plan = clusterPlan(false);
        plan.hash = "foreign";
        const QString job = QString::fromStdString(planJobs(plan, {}, "/x")[0].jobName);
        QCOMPARE(runDetached(plan).detached, 1);
        {
            std::lock_guard lock(state_.mutex);
            QJsonObject o = state_.jobs[job], meta = o["metadata"].toObject();
            QJsonObject notes = meta["annotations"].toObject();
            notes["cnp.plan/hash"] = "someone-else";
            meta["annotations"] = notes;
            o["metadata"] = meta;
            state_.jobs[job] = o;
        }
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events);
        QCOMPARE(s.failed, 1);
        const QString last = QString::fromStdString(events.back().message);
        QVERIFY2(last.contains("exists but was not started by this plan") && last.contains("left alone"),
                 qPrintable(last));
        QVERIFY2(deletes().isEmpty(), qPrintable(deletes().join(' ')));
        QVERIFY(!calls("/jobs").contains("POST jobs"));
        std::lock_guard lock(state_.mutex);
        QVERIFY(state_.jobs.contains(job));
        state_.jobs.remove(job);
    }

    // Issue 28 on a cluster (launch/KubernetesImageProbe): before any job, the backend's prepare() runs one
    // probe pod per traced image, reads its log (the probe outputs tst_imagetracecheck reads: Ubuntu 18.04's
    // glibc 2.27, Debian 12 with CUDA 13) and deletes it. An untraceable image, or one the kubelet cannot
    // pull, refuses the study with the message podman's check gives, and no Job is created; a good image
    // passes, and the study's Job is created after the probe pod was deleted, and runs; an image the probe
    // cannot run in (no /bin/sh) is noted as not checked, and its job runs.
    void imagesAreProbedBeforeAnyJob_data() {
        QTest::addColumn<QString>("kubelet"); // the probe pod: "ran" (printed `output`), "pull", "start",
                                              // "hang" (stays Pending), "interrupt" (the same, and a Ctrl-C)
        QTest::addColumn<QString>("output");  // what it printed
        QTest::addColumn<QString>("refused"); // the InputError's what(); "" = the study runs
        QTest::addColumn<QString>("note");    // the start of what prepare() noted; "" = nothing
        QTest::addColumn<QString>("noteEnd"); // and its end
        const QString cupti13 = "cupti: /usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13\n";
        const QString notChecked =
            "image localhost/cnp-test:1 could not be checked for tracing (its probe pod "
            "cnp-probe-";
        QTest::newRow("Ubuntu 18.04: glibc 2.27")
            << "ran"
            << "libc: ldd (Ubuntu GLIBC 2.27-3ubuntu1.6) 2.27\n" + cupti13 + "end\n"
            << "/plans/test-plan.yaml: 1 image cannot be traced, so no job was started: image "
               "localhost/cnp-test:1 (Base): glibc 2.27 is older than the 2.28 the collector needs"
            << ""
            << "";
        QTest::newRow("Debian 12, CUDA 13: traceable") << "ran"
                                                       << "libc: glibc 2.36\n" + cupti13 + "end\n"
                                                       << ""
                                                       << ""
                                                       << "";
        QTest::newRow("image not found")
            << "pull"
            << ""
            << "/plans/test-plan.yaml: 1 image cannot be traced, so no job was started: image "
               "localhost/cnp-test:1 (Base): the cluster could not pull it (ErrImagePull: rpc error: code = "
               "NotFound desc = failed to pull and unpack image \"localhost/cnp-test:1\": not found)"
            << ""
            << "";
        QTest::newRow("no /bin/sh: noted, and the study runs")
            << "start"
            << ""
            << "" << notChecked
            << " ended without the script's output (StartError: failed to create containerd task: exec: "
               "\"/bin/sh\": stat /bin/sh: no such file or directory: unknown)); its jobs run as they are";
        QTest::newRow("not ended in time: noted, and the study runs")
            << "hang"
            << ""
            << "" << notChecked << " did not end within 1 s (Pending)); its jobs run as they are";
        QTest::newRow("Ctrl-C: the probe pod deleted, then the signal acts")
            << "interrupt"
            << ""
            << "/plans/test-plan.yaml: interrupted while the images were checked for tracing: the probe pods "
               "were deleted and no job was started"
            << ""
            << "";
    }
    void imagesAreProbedBeforeAnyJob() {
        QFETCH(QString, kubelet);
        QFETCH(QString, output);
        QFETCH(QString, refused);
        QFETCH(QString, note);
        QFETCH(QString, noteEnd);
        auto plan = clusterPlan(true);
        plan.hash = std::string("probe-") + QTest::currentDataTag();
        plan.kubernetes.probeSeconds = kubelet == "hang" ? 1 : 60;
        const QString image = QString::fromStdString(plan.configurations[0].resolved.image.value());
        {
            std::lock_guard lock(state_.mutex);
            state_.requests.clear();
            state_.rankFiles = makeRankFiles("probe", 2);
            state_.probeLogs.clear();
            state_.pullErrors.clear();
            state_.startErrors.clear();
            state_.hanging.clear();
            if (kubelet == "hang" || kubelet == "interrupt")
                state_.hanging.insert(image);
            else if (kubelet == "pull")
                state_.pullErrors[image] =
                    "rpc error: code = NotFound desc = failed to pull and unpack image \"" + image +
                    "\": not found";
            else if (kubelet == "start")
                state_.startErrors[image] =
                    "failed to create containerd task: exec: \"/bin/sh\": stat /bin/sh: "
                    "no such file or directory: unknown";
            else
                state_.probeLogs[image] = output;
        }
        KubectlOptions k;
        k.program = "/usr/bin/kubectl";
        k.kubeconfig = kubeconfig_.toStdString();
        k.pollMs = 50;
        KubernetesBackend backend(plan, k);
        const auto jobs = planJobs(plan, {}, dir_.filePath("runs").toStdString());
        QString error;
        std::vector<std::string> notes;
        // A Ctrl-C half a second in, to a handler of the test's that counts the probe pods deleted by then.
        struct sigaction counting = {}, previous = {};
        counting.sa_handler = countSigint;
        sigemptyset(&counting.sa_mask);
        gProbePodsDeleted.store(0);
        gSigintsAfterDelete.store(-1);
        if (kubelet == "interrupt")
            sigaction(SIGINT, &counting, &previous);
        std::thread ctrlC([&] {
            if (kubelet == "interrupt") {
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
                kill(getpid(), SIGINT);
            }
        });
        try {
            backend.prepare(jobs, [&](const std::string& n) { notes.push_back(n); });
        } catch (const InputError& e) {
            error = QString::fromUtf8(e.what());
        }
        ctrlC.join();
        if (kubelet == "interrupt") {
            sigaction(SIGINT, &previous, nullptr);
            QCOMPARE(gSigintsAfterDelete.load(), 1); // delivered once the probe pod was deleted
        }
        QCOMPARE(error, refused);
        QStringList noted;
        for (const auto& n : notes)
            if (QString::fromStdString(n).startsWith("image "))
                noted << QString::fromStdString(n);
        QCOMPARE(noted.size(), note.isEmpty() ? 0 : 1);
        if (!note.isEmpty())
            QVERIFY2(noted[0].startsWith(note) && noted[0].endsWith(noteEnd), qPrintable(noted[0]));
        const QString pod = QString::fromStdString(probePodName(plan, image.toStdString()));
        const QStringList probed = calls("pods");
        QCOMPARE(probed.filter(QRegularExpression("^POST pods$")).size(), 1);
        QVERIFY2(probed.contains("DELETE pods/" + pod), qPrintable(probed.join(' ')));
        // An ended pod's log is read.
        QCOMPARE(probed.contains("GET pods/" + pod + "/log"), kubelet == "ran" || kubelet == "start");
        QVERIFY(calls("/jobs").isEmpty()); // nothing but the probe
        {
            std::lock_guard lock(state_.mutex);
            QVERIFY(!state_.pods.contains(pod));
        }
        if (!refused.isEmpty())
            return;
        std::atomic<bool> cancel{false};
        std::vector<ProgressEvent> events;
        const RunSummary s = run(plan, cancel, events); // what cnp run does after prepare()
        QCOMPARE(s.done, 1);
        QVERIFY(calls("/jobs").contains("POST jobs"));
    }
};

QTEST_GUILESS_MAIN(TestKubectlDriver)
#include "tst_kubectldriver.moc"
