// SIGKILL of `cnp ingest` at random moments (issue 14, "kill and concurrency tests"): after every kill
// the workspace opens and reads, passes SQLite's integrity check, the run it held is unchanged (same
// `cnp stats` output), and the killed run is either absent or complete - never half there. The kill
// moments are drawn (fixed seed, printed) over the measured length of one ingest.
#include "CliRunner.h"
#include "TestPaths.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <sqlite3.h>

#include <random>

using namespace cnp::testing;

namespace {

const QString kTrace = testpaths::dataDir() + QStringLiteral("/hta/nccl_parser_config/nccl_data.json.gz");

// The run's `cnp runs --json` entry without what names it (name, config label, creation time);
// an empty object when the workspace has no such run.
QJsonObject runEntry(const QString& ws, const QString& name) {
    const CliResult r = runCli({"runs", ws, "--json"});
    if (r.exitCode != 0)
        qFatal("cnp runs failed: %s", r.err.constData());
    for (const auto& v : QJsonDocument::fromJson(r.out).object()["runs"].toArray()) {
        QJsonObject o = v.toObject();
        if (o["name"].toString() != name)
            continue;
        for (const char* k : {"name", "config", "created_at"})
            o.remove(k);
        return o;
    }
    return {};
}

QString integrityCheck(const QString& ws) {
    sqlite3* db = nullptr;
    QString result = "cannot open";
    if (sqlite3_open_v2(ws.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            result = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return result;
}

} // namespace

class TestIngestKill : public QObject {
    Q_OBJECT

private slots:
    void killAtRandomMoments() {
        QTemporaryDir dir;
        const QString ws = dir.filePath("ws.cnpdb");
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(runCli({"ingest", ws, kTrace, "--run", "base", "--quiet"}).exitCode, 0);
        const qint64 ingestMs = std::max<qint64>(clock.elapsed(), 50);
        const QByteArray baseStats = runCli({"stats", ws, "--run", "base", "--json"}).out;
        const QJsonObject reference = runEntry(ws, "base");
        QVERIFY(!reference.isEmpty());

        const unsigned seed = 14;
        std::mt19937 rng(seed);
        std::uniform_int_distribution<qint64> moment(0, ingestMs + ingestMs / 10);
        int completed = 0;
        for (int i = 0; i < 5; ++i) {
            const QString name = QString("killed-%1").arg(i);
            const qint64 delay = moment(rng);
            QProcess p;
            p.start(testpaths::cliPath(), {"ingest", ws, kTrace, "--run", name, "--quiet"});
            QVERIFY(p.waitForStarted());
            QThread::msleep(static_cast<unsigned long>(delay));
            p.kill();
            QVERIFY(p.waitForFinished(60000));
            const bool finished = p.exitStatus() == QProcess::NormalExit;
            qInfo("seed %u, kill %d after %lld of ~%lld ms: %s", seed, i, delay, ingestMs,
                  finished ? "had finished" : "killed");

            QCOMPARE(runCli({"stats", ws, "--run", "base", "--json"}).out, baseStats);
            const QJsonObject killed = runEntry(ws, name);
            if (finished || !killed.isEmpty()) { // committed: the whole run is there
                QCOMPARE(killed, reference);
                ++completed;
            }
            QCOMPARE(integrityCheck(ws), QStringLiteral("ok"));
        }
        // Still a working workspace: one more ingest goes through.
        QCOMPARE(runCli({"ingest", ws, kTrace, "--run", "after", "--quiet"}).exitCode, 0);
        QCOMPARE(runEntry(ws, "after"), reference);
        qInfo("%d of 5 killed ingests had committed", completed);
    }
};

QTEST_GUILESS_MAIN(TestIngestKill)
#include "tst_ingestkill.moc"
