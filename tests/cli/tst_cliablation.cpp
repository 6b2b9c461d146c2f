// `cnp ablation` end to end on the real H200 ablation (resources/demo): the JSON contract of docs/cli.md,
// the ranking against the unprofiled medians of demo_summary.json, exact attribution, options, errors.
#include "CliRunner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

class TestCliAblation : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;
    QJsonObject doc;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("abl.cnpdb");
        for (const char* c : {"base", "ckpt", "compile", "compile_ckpt"}) {
            const auto r =
                runCli({"ingest", ws, QStringLiteral(CNP_SOURCE_DIR "/resources/demo/demo_%1.json.gz").arg(c),
                        "--run", c, "--config", c});
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        // 4 x 2 = 8192 tokens per step (batch 4 x seq 2048, fixtures/README).
        const auto r = runCli({"ablation", ws, "--json", "--tokens-per-step", "8192"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        doc = QJsonDocument::fromJson(r.out).object();
    }

    void shape() {
        QCOMPARE(doc["baseline"].toString(), QStringLiteral("base"));
        const auto configs = doc["configs"].toArray();
        QCOMPARE(configs.size(), 4);
        for (const auto& v : configs) {
            const auto c = v.toObject();
            for (const char* k :
                 {"config", "runs", "steps", "step_time_ns", "throughput", "speedup_vs_baseline",
                  "gain_vs_previous", "breakdown_ns", "exclusive_ns", "attribution_vs_previous_ns"})
                QVERIFY2(c.contains(k), k);
            QCOMPARE(c["runs"].toInt(), 1);
            QCOMPARE(c["steps"].toInt(), 3);
            const auto st = c["step_time_ns"].toObject();
            const auto ci = st["ci95"].toArray();
            QVERIFY(ci[0].toInteger() <= st["median"].toInteger() &&
                    st["median"].toInteger() <= ci[1].toInteger());
            QCOMPARE(c["throughput"].toObject()["unit"].toString(), QStringLiteral("tokens/s"));
            QCOMPARE(c["throughput"].toObject()["value"].toDouble(),
                     8192.0 / (st["median"].toDouble() / 1e9));
            const auto sp = c["speedup_vs_baseline"].toObject();
            QVERIFY(sp.contains("value") && sp.contains("ci95") && sp.contains("significant"));
            // Exclusive parts sum to the mean step window exactly.
            qint64 sum = 0;
            for (const auto& x : c["exclusive_ns"].toObject())
                sum += x.toInteger();
            QCOMPARE(sum, st["mean"].toInteger());
        }
        QVERIFY(configs[0].toObject()["gain_vs_previous"].isNull());
        QVERIFY(configs[0].toObject()["attribution_vs_previous_ns"].isNull());
    }

    void rankingMatchesUnprofiled() {
        QFile f(CNP_SOURCE_DIR "/resources/demo/demo_summary.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto ref = QJsonDocument::fromJson(f.readAll())["configs"].toObject();
        QList<QPair<double, QString>> ours, theirs;
        for (const auto& v : doc["configs"].toArray()) {
            const auto c = v.toObject();
            ours.append({c["step_time_ns"].toObject()["median"].toDouble(), c["config"].toString()});
            theirs.append({ref[c["config"].toString()].toObject()["median_step_ms"].toDouble(),
                           c["config"].toString()});
        }
        std::sort(ours.begin(), ours.end());
        std::sort(theirs.begin(), theirs.end());
        for (int i = 0; i < ours.size(); ++i)
            QCOMPARE(ours[i].second, theirs[i].second);
        // Fastest: compile (41.9 ms unprofiled), slowest: ckpt (71.9 ms).
        QCOMPARE(ours.front().second, QStringLiteral("compile"));
        QCOMPARE(ours.back().second, QStringLiteral("ckpt"));
    }

    void attributionIsExact() {
        const auto configs = doc["configs"].toArray();
        for (int i = 1; i < configs.size(); ++i) {
            const auto c = configs[i].toObject();
            const auto a = c["attribution_vs_previous_ns"].toObject();
            qint64 sum = 0;
            for (auto it = a.begin(); it != a.end(); ++it)
                if (it.key() != "total")
                    sum += it.value().toInteger();
            QCOMPARE(sum, a["total"].toInteger());
            QCOMPARE(a["total"].toInteger(),
                     c["step_time_ns"].toObject()["mean"].toInteger() -
                         configs[i - 1].toObject()["step_time_ns"].toObject()["mean"].toInteger());
        }
    }

    void orderAndBaseline() {
        const auto r = runCli({"ablation", ws, "--json", "--order", "compile,base", "--baseline", "compile"});
        QCOMPARE(r.exitCode, 0);
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["baseline"].toString(), QStringLiteral("compile"));
        const auto c = d["configs"].toArray();
        QCOMPARE(c.size(), 2);
        QCOMPARE(c[1].toObject()["config"].toString(), QStringLiteral("base"));
        const auto sp = c[1].toObject()["speedup_vs_baseline"].toObject();
        QVERIFY(sp["value"].toDouble() < 1.0);
        QVERIFY(sp["significant"].toBool());
        QCOMPARE(c[1].toObject()["throughput"].toObject()["unit"].toString(), QStringLiteral("steps/s"));
    }

    void human() {
        const auto r = runCli({"ablation", ws});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("compile_ckpt"));
        QVERIFY(r.out.contains("attribution"));
    }

    void errors() {
        auto r = runCli({"ablation", ws, "--order", "base,nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("nope"));
        r = runCli({"ablation", ws, "--resamples", "10"});
        QCOMPARE(r.exitCode, 1);
        r = runCli({"ablation"});
        QCOMPARE(r.exitCode, 1);
    }
};

QTEST_GUILESS_MAIN(TestCliAblation)
#include "tst_cliablation.moc"
