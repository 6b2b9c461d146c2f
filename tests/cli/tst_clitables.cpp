// The human-readable tables of `cnp ablation`, `cnp stats` and `cnp diff` on the report fixture
// (tests/common/ReportFixture.h) match their goldens (tests/data/golden/cli/*.txt): every formatted
// number (docs/formatting.md: "10.0 ms", "-400 µs", "80.0%", "1.25×", "819.2k tokens/s") and the
// column alignment. The goldens are written by the command in docs/formatting.md, never by this test;
// their figures agree with the fixture's hand-computed ones (median steps 10.0 / 8.00 ms, speedup
// 1.25×, 819.2k and 1.02M tokens/s, attribution -2.00 ms).
// ablation_mfu.txt: `--flops-per-token 1e9 --peak-flops 2e15`, the workbench's MFU inputs headless (same
// computeAblation / resolveMfuBasis). By hand: FLOPs per step = 1e9 x 8192 tokens = 8.192e12 for both;
// base (2 ranks): 8.192e12 / 0.010 s / (2e15 x 2 GPUs) = 0.2048 -> "20.5%"; fused (1 rank):
// 8.192e12 / 0.008 s / (2e15 x 1) = 0.512 -> "51.2%"; one basis line, both inputs from the options.
#include "CliRunner.h"
#include "ReportFixture.h"
#include "TestPaths.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::testing;

class TestCliTables : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("fixture.cnpdb");
        Workspace w(ws.toStdString(), Workspace::Mode::CreateIfMissing);
        buildReportFixture(w);
    }

    void matchesGolden_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("golden");
        QTest::newRow("ablation") << QStringList{"ablation", "WS"} << "ablation.txt";
        QTest::newRow("ablation with MFU inputs")
            << QStringList{"ablation", "WS", "--flops-per-token", "1e9", "--peak-flops", "2e15"}
            << "ablation_mfu.txt";
        QTest::newRow("stats") << QStringList{"stats", "WS", "--run", "base"} << "stats.txt";
        QTest::newRow("diff") << QStringList{"diff", "WS", "base", "fused"} << "diff.txt";
    }
    void matchesGolden() {
        QFETCH(QStringList, args);
        QFETCH(QString, golden);
        args.replaceInStrings(QStringLiteral("WS"), ws);
        const CliResult r = runCli(args);
        QCOMPARE(r.exitCode, 0);
        QFile f(testpaths::dataDir() + QStringLiteral("/golden/cli/") + golden);
        QVERIFY2(f.open(QIODevice::ReadOnly), "golden file missing: see docs/formatting.md");
        const QList<QByteArray> want = f.readAll().split('\n'), got = r.out.split('\n');
        for (int i = 0; i < std::min(want.size(), got.size()); ++i)
            QVERIFY2(got[i] == want[i],
                     qPrintable(QStringLiteral("line %1:\n got: %2\nwant: %3")
                                    .arg(i + 1)
                                    .arg(QString::fromUtf8(got[i]), QString::fromUtf8(want[i]))));
        QCOMPARE(got.size(), want.size());
    }

    // The MFU figures themselves (hand-computed above), in the table and the JSON; --flops-per-token and
    // --flops-per-step together are a usage error.
    void mfuFromFlopsPerToken() {
        const CliResult r =
            runCli({"ablation", ws, "--flops-per-token", "1e9", "--peak-flops", "2e15", "--json"});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray configs = QJsonDocument::fromJson(r.out).object().value("configs").toArray();
        QCOMPARE(configs.size(), 2);
        QCOMPARE(configs[0].toObject().value("mfu").toDouble(), 8.192e12 / 0.010 / (2e15 * 2));
        QCOMPARE(configs[1].toObject().value("mfu").toDouble(), 8.192e12 / 0.008 / 2e15);
        const QJsonObject basis = configs[1].toObject().value("mfu_basis").toObject();
        QCOMPARE(basis.value("flops_per_step").toDouble(), 8.192e12);
        QCOMPARE(basis.value("flops_source").toString(), QStringLiteral("option"));
        QCOMPARE(basis.value("peak_source").toString(), QStringLiteral("option"));
        const CliResult both =
            runCli({"ablation", ws, "--flops-per-token", "1e9", "--flops-per-step", "1e12"});
        QCOMPARE(both.exitCode, 1); // usage error
        QVERIFY(both.err.contains("not both"));
    }

    // The micro sign, never "us"; the multiplication sign, never "x" after a number.
    void unitsAreTheSharedOnes() {
        const CliResult r = runCli({"ablation", ws});
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.contains(QString::fromUtf8("-400 µs")));
        QVERIFY(out.contains(QString::fromUtf8("1.25×")));
        QVERIFY(!out.contains(QRegularExpression(QStringLiteral("[0-9] us\\b"))));
        QVERIFY(!out.contains(QRegularExpression(QStringLiteral("[0-9]x\\b"))));
    }
};

QTEST_GUILESS_MAIN(TestCliTables)
#include "tst_clitables.moc"
