// `cnp plan lint` / `cnp plan show` end to end: the finding line contract, exit codes (0 clean or
// warnings only, 1 usage, 2 errors), the resolved configurations and their deltas, and plan values that
// never reach a shell.
#include "CliRunner.h"
#include "TestPaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

namespace {
const QString kPlans = testpaths::sourceDir() + QStringLiteral("/resources/plans/");
}

class TestCliPlan : public QObject {
    Q_OBJECT
    QTemporaryDir dir;

    QString write(const QString& name, const QByteArray& text) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(text);
        return f.fileName();
    }

private slots:
    // No errors; the warnings say that the stock NGC 25.01 images (CUDA 12.8) cannot load the collector.
    void lintBundledPlans_data() {
        QTest::addColumn<QString>("plan");
        QTest::addColumn<int>("warnings");
        QTest::newRow("acs") << kPlans + "acs-ablation-llama3-8b.yaml" << 2;
        QTest::newRow("single gpu") << kPlans + "single-gpu-llama.yaml" << 1;
    }
    void lintBundledPlans() {
        QFETCH(QString, plan);
        QFETCH(int, warnings);
        const auto r = runCli({"plan", "lint", plan});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), warnings);
        for (const QString& l : lines)
            QVERIFY2(l.contains(": warning: collector-cupti: ") && l.contains("runs CUDA 12.8.0"),
                     qPrintable(l));
        QCOMPARE(r.err, QString("0 error(s), %1 warning(s)\n").arg(warnings).toUtf8());
    }

    void lintExitCodes_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QStringList>("lines"); // after "FILE:"
        QTest::newRow("error and warning")
            << QByteArray(
                   "workload: {command: [python3, t.py]}\nresources: {gpusPerNode: 8}\nconfigurations:\n"
                   "  - name: A\n    env: {NCCL_SOCKET_IFNAME: hpn0, CHECKPOINT_OPTIMIZATION: \"true\"}\n")
            << 2
            << QStringList{
                   "5:31: error: nccl-socket-ifname: NCCL_SOCKET_IFNAME is 'hpn0' but a pod with 8 GPU(s) "
                   "must use eth0 (the image's release notes)",
                   "5:62: warning: checkpoint-optimization: CHECKPOINT_OPTIMIZATION only works with "
                   "DeepSpeed, and 'A' does not use it (set workload.deepspeed: true if it does)"};
        QTest::newRow("warnings only")
            << QByteArray("workload: {command: [run]}\nconfigurations:\n  - name: A\n"
                          "    privileged: true\n")
            << 0
            << QStringList{"4:17: warning: privileged: privileged containers are "
                           "unnecessary for tracing (CUPTI activity tracing needs no "
                           "extra capability) and are never passed to a backend; "
                           "remove it"};
        QTest::newRow("unknown key")
            << QByteArray("workload: {command: [run]}\nconfigurations:\n  - nam: A\n") << 2
            << QStringList{"3:5: error: required: configuration 1 needs a non-empty 'name'",
                           "3:5: error: unknown-key: unknown key 'nam' in configuration 1 "
                           "(did you mean 'name'?); known keys: name, extends, image, "
                           "cudaVersion, nodeDriverVersion, nodePool, privileged, "
                           "ipcHost, env, args, mounts, nodeSelector, deepspeedConfig, "
                           "kubernetes, expect"};
    }
    void lintExitCodes() {
        QFETCH(QByteArray, text);
        QFETCH(int, exitCode);
        QFETCH(QStringList, lines);
        const QString plan = write("lint.yaml", text);
        const auto r = runCli({"plan", "lint", plan});
        QCOMPARE(r.exitCode, exitCode);
        QStringList expected;
        for (const QString& l : lines)
            expected << plan + ":" + l;
        QCOMPARE(QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts), expected);
        // Every line follows FILE:LINE:COL: SEVERITY: RULE: message.
        static const QRegularExpression contract("^.+:\\d+:\\d+: (error|warning): [a-z0-9-]+: .+$");
        for (const QString& l : QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts))
            QVERIFY2(contract.match(l).hasMatch(), qPrintable(l));
    }

    void lintMissingFile() {
        const auto r = runCli({"plan", "lint", dir.filePath("none.yaml")});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(QString::fromUtf8(r.out), dir.filePath("none.yaml") + ":0:0: error: read: no such file\n");
    }

    void usage_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no subcommand") << QStringList{"plan"};
        QTest::newRow("unknown subcommand") << QStringList{"plan", "run"};
        QTest::newRow("lint without plan") << QStringList{"plan", "lint"};
        QTest::newRow("show, two plans") << QStringList{"plan", "show", "a", "b"};
        QTest::newRow("unknown option") << QStringList{"plan", "lint", "x", "--fix"};
    }
    void usage() {
        QFETCH(QStringList, args);
        QCOMPARE(runCli(args).exitCode, 1);
    }

    void showText() {
        const auto r = runCli({"plan", "show", kPlans + "acs-ablation-llama3-8b.yaml"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        for (const char* expected :
             {"resources   2 node(s) x 8 GPU(s), cpu 64, memory 512Gi", "1. Base\n",
              "   delta: first configuration (the baseline)", "2. Base+ACCL  (extends Base)",
              "     ~ image: nvcr.io/nvidia/pytorch:25.01-py3 -> "
              "registry.example.com/ngc-pytorch-accl:25.01-py3",
              "     ~ nodeSelector.alibabacloud.com/nodepool-id: np-base-os -> np-ac2",
              "     + args = --torch_compile --bf16 --gradient_checkpointing",
              "5. AC2+ACCL+CompilerOpt+CkptOpt  (extends AC2+ACCL+CompilerOpt)",
              "   delta from AC2+ACCL+CompilerOpt:\n     + env.CHECKPOINT_OPTIMIZATION = true\n",
              "   argv          ljperf benchmark --model deepspeed/llama3-8b --torch_compile --bf16 "
              "--gradient_checkpointing\n"})
            QVERIFY2(out.contains(QString::fromUtf8(expected)), expected);
        QCOMPARE(out.count(QStringLiteral("\n   delta")), 5);
    }

    void showJson() {
        const auto r = runCli({"plan", "show", kPlans + "single-gpu-llama.yaml", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc["name"].toString(), QStringLiteral("single-gpu-llama"));
        QCOMPARE(doc["hash"].toString().size(), 64);
        QCOMPARE(doc["tokensPerStep"].toDouble(), 8192.0);
        QCOMPARE(doc["timeoutSeconds"].toInt(), 1800);
        const QJsonArray configs = doc["configurations"].toArray();
        QCOMPARE(configs.size(), 4);
        const QJsonObject both = configs[3].toObject();
        QCOMPARE(both["name"].toString(), QStringLiteral("Base+CompilerOpt+CkptOpt"));
        QCOMPARE(both["extends"].toString(), QStringLiteral("Base+CompilerOpt"));
        QCOMPARE(both["resolved"]["args"].toArray(), (QJsonArray{"--compile", "--grad-ckpt"}));
        QCOMPARE(both["argv"].toArray().last().toString(), QStringLiteral("--grad-ckpt"));
        // Predecessor in plan order is Base+CkptOpt: args "--grad-ckpt" -> "--compile --grad-ckpt".
        const QJsonArray delta = both["delta"].toArray();
        QCOMPARE(delta.size(), 1);
        QCOMPARE(delta[0]["field"].toString(), QStringLiteral("args"));
        QCOMPARE(delta[0]["from"].toString(), QStringLiteral("--grad-ckpt"));
        QCOMPARE(delta[0]["to"].toString(), QStringLiteral("--compile --grad-ckpt"));
        QCOMPARE(configs[0].toObject()["delta"].toArray().size(), 0);
        QVERIFY(configs[0].toObject()["extends"].isNull());
    }

    void showInvalidPlan() {
        const QString plan =
            write("bad.yaml", "workload: {command: [run]}\nconfigurations:\n  - {name: B, extends: A}\n");
        const auto r = runCli({"plan", "show", plan});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.out, QByteArray());
        QVERIFY2(r.err.startsWith((plan + ":3:24: error: extends: no configuration named 'A'").toUtf8()),
                 r.err.constData());
    }

    // A configuration's own expectation (predict, then measure) in both forms of show; never inherited.
    void showExpectation() {
        const QString plan = write("expect.yaml", "workload: {command: [run]}\nconfigurations:\n  - name: A\n"
                                                  "  - name: B\n    extends: A\n"
                                                  "    expect: {comm: 0.5, scale: {gemm: 0.8}}\n"
                                                  "  - {name: C, extends: B}\n");
        const auto text = runCli({"plan", "show", plan});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QCOMPARE(QString::fromUtf8(text.out).count("   expect        comm=0.5; scale.gemm=0.8\n"), 1);
        const auto r = runCli({"plan", "show", plan, "--json"});
        const QJsonArray configs = QJsonDocument::fromJson(r.out)["configurations"].toArray();
        QCOMPARE(configs.size(), 3);
        QVERIFY(configs[0].toObject()["expect"].isNull());
        QCOMPARE(configs[1].toObject()["expect"].toString(), QStringLiteral("comm=0.5; scale.gemm=0.8"));
        QVERIFY(configs[2].toObject()["expect"].isNull());
    }

    // A value a shell would expand arrives verbatim and runs nothing (no file appears).
    void valuesNeverReachAShell() {
        const QString marker = dir.filePath("pwned");
        const QByteArray text = "workload: {command: [run, '$(touch " + marker.toUtf8() +
                                ")']}\n"
                                "configurations:\n  - name: A\n    args: ['`touch " +
                                marker.toUtf8() + "`', '$(rm -rf ~)']\n    env: {X: '; touch " +
                                marker.toUtf8() + "'}\n";
        const QString plan = write("inject.yaml", text);
        for (const char* sub : {"lint", "show"})
            QCOMPARE(runCli({"plan", sub, plan}).exitCode, 0);
        const auto r = runCli({"plan", "show", plan, "--json"});
        const QJsonObject c = QJsonDocument::fromJson(r.out)["configurations"][0].toObject();
        QCOMPARE(c["argv"].toArray(),
                 (QJsonArray{"run", "$(touch " + marker + ")", "`touch " + marker + "`", "$(rm -rf ~)"}));
        QCOMPARE(c["resolved"]["env"]["X"].toString(), "; touch " + marker);
        QVERIFY(!QFile::exists(marker));
    }
};

QTEST_GUILESS_MAIN(TestCliPlan)
#include "tst_cliplan.moc"
