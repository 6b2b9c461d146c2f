// `cnp ablation` end to end on the real H200 ablation (resources/demo): the JSON contract of docs/cli.md,
// the ranking against the unprofiled medians of demo_summary.json, exact attribution, options, errors.
#include "CliRunner.h"
#include "TestPaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

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
        const QByteArray err = ingestDemoRuns(ws, {"base", "ckpt", "compile", "compile_ckpt"});
        QVERIFY2(err.isEmpty(), err.constData());
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
            // 3 profiled steps per configuration: below the minimum of 5 for a CI.
            QVERIFY(st["ci95"].isNull());
            QCOMPARE(st["ci_missing_reason"].toString(), QStringLiteral("too few steps (3 < 5)"));
            QCOMPARE(st["traced_median"].toInteger(), st["median"].toInteger());
            QVERIFY(c["log"].isNull());
            QCOMPARE(c["throughput"].toObject()["unit"].toString(), QStringLiteral("tokens/s"));
            QCOMPARE(c["throughput"].toObject()["value"].toDouble(),
                     8192.0 / (st["median"].toDouble() / 1e9));
            const auto sp = c["speedup_vs_baseline"].toObject();
            QVERIFY(sp.contains("value") && sp["ci95"].isNull() && !sp["significant"].toBool());
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
        QFile f(testpaths::sourceDir() + "/resources/demo/demo_summary.json");
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
        QVERIFY(!sp["significant"].toBool()); // 3 steps a side: no CI, so never significant
        QCOMPARE(c[1].toObject()["throughput"].toObject()["unit"].toString(), QStringLiteral("steps/s"));
    }

    // Profiler overhead on the demo: ckpt (eager + checkpointing under torch.profiler) has 110595835 ns of
    // launch-bound idle in its 305755797 ns of counted steps (36.2%), base none: figures from
    // scripts/checks/kineto_launch_bound.py over the JSON. The speedup ckpt vs base, s = 53550885 /
    // 104041065 (medians) = 0.515, lies unprofiled in [s (1 - 0), s / (1 - 0.362)] = [0.515, 0.807]; the
    // unprofiled one is 0.769 (inside). Only ckpt has launch-bound idle, so the traced speedup can only
    // understate.
    void profilerOverheadWarnings() {
        const double share = 110595835.0 / 305755797.0;
        const double s = 53550885.0 / 104041065.0;
        bool sawShare = false, sawBound = false;
        for (const auto& v : doc["warnings"].toArray()) {
            const auto w = v.toObject();
            if (w["kind"].toString() != "profiler-overhead")
                continue;
            QCOMPARE(w["config"].toString(), QStringLiteral("ckpt"));
            QVERIFY(!w.contains("bounded_speedup")); // never one corrected figure
            if (w["speedup_range"].isNull()) {
                sawShare = true;
                QVERIFY2(w["message"].toString().contains("36.2%"), qPrintable(w["message"].toString()));
            } else {
                sawBound = true;
                const auto range = w["speedup_range"].toObject();
                QCOMPARE(range["low"].toDouble(), s);
                QCOMPARE(range["high"].toDouble(), s / (1 - share));
                // Ratios read as everywhere else (core/Units): "0.81×", never "0.81x".
                const QString m = w["message"].toString();
                QVERIFY2(m.contains(QString::fromUtf8("0.51× vs base is biased by profiler overhead: "
                                                      "unprofiled it lies between 0.51× and 0.81×")),
                         qPrintable(m));
                QVERIFY2(m.contains("can only understate"), qPrintable(m));
            }
        }
        QVERIFY(sawShare && sawBound);
        for (const auto& v : doc["configs"].toArray()) {
            const auto c = v.toObject();
            const auto o = c["profiler_overhead"].toObject();
            QCOMPARE(o["profiler"].toString(), QStringLiteral("kineto"));
            QCOMPARE(o["launch_bound_share"].toDouble(), c["config"].toString() == "ckpt" ? share : 0.0);
        }
    }

    // A configuration's throughput in tokens/s beside another's in steps/s is refused, not charted.
    void mixedUnitsRefused() {
        const QString mixed = dir.filePath("mixed.cnpdb");
        auto r = runCli({"ingest", mixed, (testpaths::sourceDir() + "/resources/demo/demo_base.json.gz"),
                         "--run", "base", "--config", "base", "--tokens-per-step", "8192"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"ingest", mixed, (testpaths::sourceDir() + "/resources/demo/demo_compile.json.gz"),
                    "--run", "compile", "--config", "compile"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"ablation", mixed, "--json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("different units") && r.err.contains("tokens/s") && r.err.contains("steps/s"),
                 r.err.constData());
        // One figure for all: accepted.
        QCOMPARE(runCli({"ablation", mixed, "--json", "--tokens-per-step", "8192"}).exitCode, 0);
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

    // Log figures: the demo's unprofiled throughputs (demo_summary.json tokens_per_s) entered as the runs'
    // log figures. With --source log the ablation compares them: step = 8192 tokens / throughput, speedup
    // ckpt vs base = 113953.6 / 148190.3 = 0.769 (the wall clock's, where the traced one is 0.515); one
    // run per configuration gives no CI. The trace source keeps the traced medians and shows the log's
    // figure beside them.
    void logSource() {
        const std::map<QString, double> thr{
            {"base", 148190.3}, {"ckpt", 113953.6}, {"compile", 195555.0}, {"compile_ckpt", 160516.8}};
        for (const auto& [run, t] : thr) {
            const auto r = runCli(
                {"edit", ws, "--throughput", QString::number(t, 'f', 1), "--unit", "tokens/s", "--run", run});
            QVERIFY2(r.exitCode == 0, r.err.constData());
        }
        auto r = runCli({"ablation", ws, "--json", "--tokens-per-step", "8192", "--source", "log"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["source"].toString(), QStringLiteral("log"));
        for (const auto& v : d["configs"].toArray()) {
            const auto c = v.toObject();
            const double t = thr.at(c["config"].toString());
            QCOMPARE(c["step_time_ns"].toObject()["median"].toInteger(), qRound64(8192.0 / t * 1e9));
            QVERIFY(c["step_time_ns"].toObject()["ci95"].isNull());
            QCOMPARE(c["throughput"].toObject()["value"].toDouble(), t);
            QCOMPARE(c["log"].toObject()["source"].toString(), QStringLiteral("user"));
            if (c["config"].toString() == "ckpt")
                QCOMPARE(c["speedup_vs_baseline"].toObject()["value"].toDouble(),
                         double(qRound64(8192.0 / 148190.3 * 1e9)) /
                             double(qRound64(8192.0 / 113953.6 * 1e9)));
        }
        r = runCli({"ablation", ws, "--json", "--tokens-per-step", "8192"});
        d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["source"].toString(), QStringLiteral("trace"));
        const auto base = d["configs"].toArray()[0].toObject();
        QCOMPARE(base["step_time_ns"].toObject()["median"].toInteger(), 53550885);
        QCOMPARE(base["log"].toObject()["step_time_ns"].toInteger(), qRound64(8192.0 / 148190.3 * 1e9));
        // The workspace's choice is the default; a step time in an unknown unit is refused.
        QCOMPARE(runCli({"edit", ws, "--ablation-source", "log"}).exitCode, 0);
        r = runCli({"ablation", ws, "--json", "--tokens-per-step", "8192"});
        QCOMPARE(QJsonDocument::fromJson(r.out)["source"].toString(), QStringLiteral("log"));
        QCOMPARE(runCli({"edit", ws, "--ablation-source", "trace"}).exitCode, 0);
        QCOMPARE(runCli({"edit", ws, "--throughput", "5", "--unit", "bogus/s", "--run", "base"}).exitCode, 1);
    }

    // Only the plan's configurations take part; the others are listed, never silently charted.
    void planOrderOnly() {
        QCOMPARE(runCli({"edit", ws, "--plan", "base,compile"}).exitCode, 0);
        const auto r = runCli({"ablation", ws, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto d = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(d["configs"].toArray().size(), 2);
        QCOMPARE(d["not_in_plan"].toArray(), (QJsonArray{"ckpt", "compile_ckpt"}));
        const auto human = runCli({"ablation", ws});
        QVERIFY(human.out.contains("not in the plan (not compared): [ckpt] [compile_ckpt]"));
    }

    // Issue 32, "studies kept apart": the demo's two studies in one workspace, a real single-GPU H200
    // ablation (base, compile) and a synthetic 2 x 2-GPU study (Base, Base+ACCL, ingested last). Before
    // studies, `cnp ablation` set the 4-GPU synthetic Base against the real runs ("+CompilerOpt 40.6 ms,
    // 32.53x vs baseline"); now it compares one study, the newest by default, and mixes only when asked.
    void studiesKeptApart() {
        QTemporaryDir d;
        const QString two = d.filePath("two.cnpdb");
        QByteArray err = ingestDemoRuns(two, {"base", "compile"});
        QVERIFY2(err.isEmpty(), err.constData());
        auto r =
            runCli({"synth", "--out", d.filePath("synth"), "--nodes", "2", "--gpus-per-node", "2", "--steps",
                    "6", "--layers", "1", "--configs", "Base,Base+ACCL", "--ingest", two, "--quiet"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"ablation", two, "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        auto doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc["study"].toString(), QStringLiteral("acs-llama3-8b"));
        auto configs = doc["configs"].toArray();
        QCOMPARE(configs.size(), 2);
        for (const auto& v : configs)
            QVERIFY(v.toObject()["synthetic"].toBool());
        const auto studies = doc["studies"].toArray();
        QCOMPARE(studies.size(), 2);
        QCOMPARE(studies[0].toObject()["name"].toString(), QStringLiteral("acs-llama3-8b"));
        QCOMPARE(studies[0].toObject()["origin"].toString(), QStringLiteral("explicit"));
        QCOMPARE(studies[0].toObject()["max_world_size"].toInt(), 4);
        const auto real = studies[1].toObject();
        QCOMPARE(real["origin"].toString(), QStringLiteral("implicit"));
        QCOMPARE(real["configs"].toArray(), (QJsonArray{"base", "compile"}));
        QCOMPARE(real["max_world_size"].toInt(), 1);
        // The real study on its own: its own baseline, the speedup of the single-GPU runs only.
        r = runCli({"ablation", two, "--json", "--study", real["name"].toString()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        doc = QJsonDocument::fromJson(r.out).object();
        configs = doc["configs"].toArray();
        QCOMPARE(configs.size(), 2);
        QCOMPARE(doc["baseline"].toString(), QStringLiteral("base"));
        const double speedup = configs[1].toObject()["speedup_vs_baseline"].toObject()["value"].toDouble();
        QVERIFY2(speedup > 1.0 && speedup < 2.0, QByteArray::number(speedup)); // compile vs base, not ~30x
        // Named configurations choose their study; spread over two they are refused, naming the way out.
        r = runCli({"ablation", two, "--json", "--order", "compile,base"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out)["study"].toString(), real["name"].toString());
        r = runCli({"ablation", two, "--order", "base,Base"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("different studies") && r.err.contains("--all-studies"), r.err.constData());
        r = runCli({"ablation", two, "--study", "nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no study named 'nope'") && r.err.contains("acs-llama3-8b"),
                 r.err.constData());
        // Mixed only when asked, and then loudly.
        r = runCli({"ablation", two, "--json", "--all-studies", "--order", "base,Base", "--tokens-per-step",
                    "8192"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        doc = QJsonDocument::fromJson(r.out).object();
        QVERIFY(doc["study"].isNull());
        bool warned = false;
        for (const auto& w : doc["warnings"].toArray())
            warned = warned || w.toObject()["kind"].toString() == "mixed-studies";
        QVERIFY(warned);
        r = runCli({"ablation", two});
        QVERIFY2(r.out.startsWith("study 'acs-llama3-8b' of 2 in the workspace"), r.out.constData());
        // cnp edit --study moves a run; the study's own plan order leaves the other study's in place.
        r = runCli({"edit", two, "--study", "h200", "--run", "compile"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("is in study 'h200' (explicit)"), r.out.constData());
        r = runCli({"ablation", two, "--json", "--study", "h200"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out)["configs"].toArray().size(), 1);
        QCOMPARE(runCli({"edit", two, "--study", "h200", "--run", "base"}).exitCode, 0);
        r = runCli({"edit", two, "--plan", "compile,base", "--study", "h200"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("plan order: [compile] [base] [Base] [Base+ACCL]"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliAblation)
#include "tst_cliablation.moc"
