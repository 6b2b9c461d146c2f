// Predict, then measure from the command line (docs/cli.md "cnp edit", "cnp ablation"): an expectation
// set with `cnp edit --expect` is stored with the configuration's runs (plan.expect), `cnp ablation --json`
// gives the step a `predicted` object (null where none is stated) within 5 % of the measured median on
// the synthetic study (ACCL's collectives 1.95x faster: comm=0.5128), `--expect` works for one ablation
// without storing, and bad expectations are refused with nothing written.
#include "CliRunner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp::testing;

class TestCliPrediction : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString ws_;

    QJsonArray configs(const QStringList& extra = {}) {
        const CliResult r = runCli(QStringList{"ablation", ws_, "--json"} + extra);
        [&] { QVERIFY2(r.exitCode == 0, r.err.constData()); }();
        return QJsonDocument::fromJson(r.out).object()["configs"].toArray();
    }
    QString expectAttribute(const QString& run) {
        const CliResult r = runCli({"runs", ws_, "--json"});
        for (const auto& v : QJsonDocument::fromJson(r.out).object()["runs"].toArray())
            if (v.toObject()["name"].toString() == run)
                return v.toObject()["attributes"].toObject()["plan.expect"].toString();
        return QStringLiteral("<no run>");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        ws_ = dir_.filePath("study.cnpdb");
        const CliResult r = runCli({"synth", "--out", dir_.filePath("traces"), "--nodes", "2",
                                    "--gpus-per-node", "2", "--layers", "2", "--steps", "3", "--seed", "7",
                                    "--configs", "Base,Base+ACCL", "--quiet", "--ingest", ws_});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void noExpectationNoPrediction() {
        const QJsonArray c = configs();
        QCOMPARE(c.size(), 2);
        QVERIFY(c[0].toObject()["predicted"].isNull());
        QVERIFY(c[1].toObject()["predicted"].isNull());
    }

    void storedExpectationPredictsWithinFivePercent() {
        const CliResult set = runCli({"edit", ws_, "--expect", "Base+ACCL=comm = 0.5128"});
        QVERIFY2(set.exitCode == 0, set.err.constData());
        QCOMPARE(expectAttribute("Base+ACCL-r0"), QStringLiteral("comm=0.5128"));
        const QJsonArray c = configs();
        QVERIFY(c[0].toObject()["predicted"].isNull()); // the first configuration has nothing to predict from
        const QJsonObject p = c[1].toObject()["predicted"].toObject();
        QCOMPARE(p["from"].toString(), QStringLiteral("Base"));
        QCOMPARE(p["from_run"].toString(), QStringLiteral("Base-r0"));
        QCOMPARE(p["expectation"].toString(), QStringLiteral("comm=0.5128"));
        QCOMPARE(p["measured_ns"].toInteger(),
                 c[1].toObject()["step_time_ns"].toObject()["traced_median"].toInteger());
        QVERIFY2(std::abs(p["error"].toDouble()) < 0.05, qPrintable(QString::number(p["error"].toDouble())));
        QVERIFY(p["ratio"].toDouble() < 1.0);
        QVERIFY(!p["biggest_miss"].toObject()["category"].toString().isEmpty());
        // The text table names the step too.
        const CliResult text = runCli({"ablation", ws_});
        QVERIFY(text.out.contains("predict, then measure"));
        QVERIFY(text.out.contains("Base -> Base+ACCL"));
        // An empty expectation removes it.
        QCOMPARE(runCli({"edit", ws_, "--expect", "Base+ACCL="}).exitCode, 0);
        QCOMPARE(expectAttribute("Base+ACCL-r0"), QString());
    }

    void oneOffExpectation() {
        const QJsonArray c = configs({"--expect", "Base+ACCL=comm=0.5128"});
        QVERIFY(c[1].toObject()["predicted"].isObject());
        QCOMPARE(expectAttribute("Base+ACCL-r0"), QString()); // nothing stored
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exit");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a factor")
            << QStringList{"--expect", "Base+ACCL=comm=fast"} << 1 << "'fast' is not a factor";
        QTest::newRow("unknown") << QStringList{"--expect", "Base+ACCL=speed=2"} << 1
                                 << "unknown transformation";
        QTest::newRow("no config") << QStringList{"--expect", "comm"} << 1 << "is not CONFIG=TRANSFORMATIONS";
        QTest::newRow("no such config")
            << QStringList{"--expect", "Nope=comm=0.5"} << 2 << "no run has configuration 'Nope'";
    }
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(int, exit);
        QFETCH(QString, message);
        const CliResult r = runCli(QStringList{"edit", ws_} + args);
        QCOMPARE(r.exitCode, exit);
        QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
        if (exit == 2)
            QVERIFY2(QString::fromUtf8(r.err).contains(ws_), r.err.constData());
        QCOMPARE(expectAttribute("Base+ACCL-r0"), QString()); // nothing written
        // A bad one-off expectation is a note of the ablation, not its failure.
        if (args[1].startsWith("Base+ACCL=")) {
            const CliResult a = runCli({"ablation", ws_, "--json", "--expect", args[1]});
            QCOMPARE(a.exitCode, 0);
            const QJsonObject d = QJsonDocument::fromJson(a.out).object();
            QCOMPARE(d["prediction_notes"].toArray().size(), 1);
            QVERIFY(d["configs"].toArray()[1].toObject()["predicted"].isNull());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliPrediction)
#include "tst_cliprediction.moc"
