// Every workbench model under QAbstractItemModelTester, with values checked against hand-built inputs.
#include "AblationTableModel.h"
#include "KernelStatsModel.h"
#include "RankTableModel.h"
#include "RunMetadataModel.h"
#include "RunTreeModel.h"
#include "report/Palette.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

static RunRecord makeRun(std::int64_t id, const std::string& name, const std::string& config, int ranks,
                         const std::string& format, bool synthetic) {
    RunRecord r;
    r.id = RunId(id);
    r.info.name = name;
    r.info.config = config;
    r.info.sourceFormat = format;
    r.info.synthetic = synthetic;
    r.rankCount = ranks;
    r.info.host = "node7";
    r.info.gpuModels = {"NVIDIA H200"};
    r.info.env = {{"NCCL_ALGO", "Ring"}};
    r.info.skipped.count = 3;
    r.info.skipped.firstReason = "negative duration";
    return r;
}

class TestWorkbenchModels : public QObject {
    Q_OBJECT
private slots:
    void runTree_data();
    void runTree();
    void runTreeSurvivesReset();
    void runMetadata();
    void rankTable();
    void rankTableEpochOffsets_data();
    void rankTableEpochOffsets();
    void ablationTable();
};

void TestWorkbenchModels::runTree_data() {
    QTest::addColumn<QStringList>("configs"); // config of each run, in plan order
    QTest::addColumn<QStringList>("expectedGroups");
    QTest::addColumn<QList<int>>("expectedCounts");
    QTest::newRow("empty") << QStringList{} << QStringList{} << QList<int>{};
    QTest::newRow("one") << QStringList{"Base"} << QStringList{"Base"} << QList<int>{1};
    QTest::newRow("repeats grouped in plan order")
        << QStringList{"Base", "Base", "Base+ACCL", "AC2+ACCL", "AC2+ACCL"}
        << QStringList{"Base", "Base+ACCL", "AC2+ACCL"} << QList<int>{2, 1, 2};
}

void TestWorkbenchModels::runTree() {
    QFETCH(QStringList, configs);
    QFETCH(QStringList, expectedGroups);
    QFETCH(QList<int>, expectedCounts);
    RunTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    std::vector<RunRecord> runs;
    for (int i = 0; i < configs.size(); ++i)
        runs.push_back(
            makeRun(i + 1, "run" + std::to_string(i), configs[i].toStdString(), i + 1, "kineto", i % 2 == 1));
    // The plan starts with a configuration without runs: swatches are keyed by plan position, so group
    // g (row g) wears the colour of plan position g + 1, the same as charts and reports give it.
    std::vector<std::string> plan{"Ghost"};
    for (const QString& g : expectedGroups)
        plan.push_back(g.toStdString());
    model.setRuns(runs, plan);
    QCOMPARE(model.rowCount(), expectedGroups.size());
    int runIndex = 0;
    for (int g = 0; g < expectedGroups.size(); ++g) {
        const QModelIndex group = model.index(g, 0);
        QCOMPARE(group.data().toString(), expectedGroups[g]);
        QCOMPARE(group.data(RunTreeModel::IsConfigRole).toBool(), true);
        QCOMPARE(group.data(Qt::DecorationRole).value<QColor>(),
                 QColor(QString::fromStdString(cnp::palette::configurationColor(g + 1))));
        QCOMPARE(model.rowCount(group), expectedCounts[g]);
        for (int r = 0; r < expectedCounts[g]; ++r, ++runIndex) {
            const QModelIndex run = model.index(r, 0, group);
            QCOMPARE(run.data().toString(), QStringLiteral("run%1").arg(runIndex));
            QCOMPARE(run.parent(), group);
            QCOMPARE(model.index(r, RunTreeModel::RanksColumn, group).data().toInt(), runIndex + 1);
            QCOMPARE(model.index(r, RunTreeModel::FormatColumn, group).data().toString(),
                     QStringLiteral("kineto"));
            QCOMPARE(model.index(r, RunTreeModel::KindColumn, group).data().toString(),
                     runIndex % 2 == 1 ? QStringLiteral("synthetic") : QStringLiteral("real"));
            // A synthetic run's name is in the Data column's colour (a narrow dock hides that column).
            QCOMPARE(run.data(Qt::ForegroundRole).isValid(), runIndex % 2 == 1);
            QCOMPARE(run.data(Qt::ForegroundRole),
                     model.index(r, RunTreeModel::KindColumn, group).data(Qt::ForegroundRole));
            QVERIFY(run.data(Qt::ToolTipRole).toString().contains(QStringLiteral("NVIDIA H200")));
            // Run i has id i + 1 (makeRun above): the tree finds and carries it by id.
            QCOMPARE(run.data(RunTreeModel::RunIdRole).toLongLong(), qlonglong(runIndex + 1));
            QCOMPARE(model.indexOfRun(RunId(runIndex + 1)), run);
        }
    }
    QVERIFY(!model.index(0, 0).data(RunTreeModel::RunIdRole).isValid()); // a configuration row
    QVERIFY(!model.indexOfRun(RunId(999)).isValid());
}

void TestWorkbenchModels::runTreeSurvivesReset() {
    RunTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRuns({makeRun(1, "a", "X", 1, "nsys", false), makeRun(2, "b", "Y", 2, "cnpt", false)},
                  {"X", "Y"});
    model.setRuns({makeRun(3, "c", "Z", 8, "kineto", true), makeRun(4, "d", "Z", 1, "log", false)}, {"Z"});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(1, RunTreeModel::KindColumn, model.index(0, 0)).data().toString(),
             QStringLiteral("untraced"));
    QCOMPARE(model.rowCount(model.index(0, 0)), 2);
    QCOMPARE(model.index(0, RunTreeModel::RanksColumn, model.index(0, 0)).data().toInt(), 8);
    model.setRuns({}, {});
    QCOMPARE(model.rowCount(), 0);
}

void TestWorkbenchModels::runMetadata() {
    RunMetadataModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRun(makeRun(1, "base-r0", "Base", 2, "kineto", false));
    QCOMPARE(model.columnCount(), 2);
    QCOMPARE(model.valueOf(QStringLiteral("Name")), QStringLiteral("base-r0"));
    QCOMPARE(model.valueOf(QStringLiteral("Configuration")), QStringLiteral("Base"));
    QCOMPARE(model.valueOf(QStringLiteral("Ranks")), QStringLiteral("2"));
    QCOMPARE(model.valueOf(QStringLiteral("Count")), QStringLiteral("3")); // skipped events
    QCOMPARE(model.valueOf(QStringLiteral("NCCL_ALGO")), QStringLiteral("Ring"));
    QCOMPARE(model.valueOf(QStringLiteral("Host")), QStringLiteral("node7"));
    QCOMPARE(model.index(0, 0).data(RunMetadataModel::IsSectionRole).toBool(), true);
    QCOMPARE(model.valueOf(QStringLiteral("Data")), QStringLiteral("real measurement"));
    // An untraced repeat of cnp run (source format "log": log figures only) is said to be one, not "real".
    model.setRun(makeRun(2, "base-r3", "Base", 1, "log", false));
    QCOMPARE(model.valueOf(QStringLiteral("Data")),
             QStringLiteral("untraced repeat (log figures only, no trace)"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestWorkbenchModels::rankTable() {
    RankTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RankInfo a;
    a.rank = 0;
    a.host = "n1";
    a.gpuNames = {"H200"};
    a.clockSkewEstimateNs = 1500; // 1.5 µs
    RankInfo b = a;
    b.rank = 1;
    b.clockOffsetNs = -2'500'000; // -2.5 ms
    model.setRanks({a, b});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(1, RankTableModel::RankColumn).data().toInt(), 1);
    QCOMPARE(model.index(0, RankTableModel::SkewColumn).data().toString(), QStringLiteral("1.50 µs"));
    QCOMPARE(model.index(1, RankTableModel::OffsetColumn).data().toString(), QStringLiteral("-2.50 ms"));
    QVERIFY(model.index(1, RankTableModel::OffsetColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("-2,500,000 ns")));
}

// Issue 32.9: a synthetic run's clock offsets (a CUPTI-to-Unix epoch offset) read "1767000000 s" on every
// rank; epoch-like offsets show from the run's smallest, the exact figure and the base in the tooltip.
void TestWorkbenchModels::rankTableEpochOffsets_data() {
    QTest::addColumn<qint64>("offset0");
    QTest::addColumn<qint64>("offset1");
    QTest::addColumn<QString>("shown0");
    QTest::addColumn<QString>("shown1");
    QTest::newRow("epoch") << qint64(1'767'000'000'000'012'400) << qint64(1'767'000'000'000'000'000)
                           << "base + 12.4 µs"
                           << "base + 0 ns";
    QTest::newRow("negative epoch") << qint64(-1'767'000'000'000'000'000)
                                    << qint64(-1'767'000'000'002'000'000) << "base + 2.00 ms"
                                    << "base + 0 ns";
    QTest::newRow("small: as they are") << qint64(-2'500'000) << qint64(1'500) << "-2.50 ms"
                                        << "1.50 µs";
}
void TestWorkbenchModels::rankTableEpochOffsets() {
    QFETCH(qint64, offset0);
    QFETCH(qint64, offset1);
    QFETCH(QString, shown0);
    QFETCH(QString, shown1);
    RankTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RankInfo a, b;
    a.clockOffsetNs = offset0;
    b.rank = 1;
    b.clockOffsetNs = offset1;
    model.setRanks({a, b});
    QCOMPARE(model.index(0, RankTableModel::OffsetColumn).data().toString(), shown0);
    QCOMPARE(model.index(1, RankTableModel::OffsetColumn).data().toString(), shown1);
    const QString tip = model.index(0, RankTableModel::OffsetColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QLocale().toString(offset0) + " ns"), qPrintable(tip));
    QCOMPARE(tip.contains("smallest offset"), shown0.startsWith("base"));
}

void TestWorkbenchModels::ablationTable() {
    AblationTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    AblationResult r;
    r.baseline = "Base";
    AblationConfig base;
    base.config = "Base";
    base.runs = {"b0"};
    base.stepTimesNs = {100, 110, 120};
    base.medianStepNs = 55'300'000;
    base.ciLoNs = 55'000'000;
    base.ciHiNs = 56'000'000;
    base.hasCi = true;
    base.throughput = 148'000;
    base.throughputUnit = "tokens/s";
    base.speedupVsBaseline = {1.0, {1.0, 1.0}, false};
    AblationConfig fast = base;
    fast.config = "Fast";
    fast.medianStepNs = 41'900'000;
    fast.speedupVsBaseline = {1.32, {1.30, 1.34}, true, true};
    fast.gainVsPrevious = RatioWithCi{1.01, {0.99, 1.03}, false, true};
    r.configs = {base, fast};
    // Rows follow the ablation's order (Base, Fast); the workspace's plan lists Fast first. The swatch
    // belongs to the configuration, not to the row (issue 15.3).
    model.setResult(r, {"Fast", "Base"});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, AblationTableModel::ConfigColumn).data(Qt::DecorationRole).value<QColor>(),
             QColor(QString::fromStdString(cnp::palette::configurationColor(1))));
    QCOMPARE(model.index(1, AblationTableModel::ConfigColumn).data(Qt::DecorationRole).value<QColor>(),
             QColor(QString::fromStdString(cnp::palette::configurationColor(0))));
    QCOMPARE(model.index(0, AblationTableModel::ConfigColumn).data().toString(),
             QStringLiteral("Base (baseline)"));
    QCOMPARE(model.index(1, AblationTableModel::MedianColumn).data(Qt::UserRole).toLongLong(), 41'900'000LL);
    QCOMPARE(model.index(1, AblationTableModel::MedianColumn).data().toString(), QStringLiteral("41.9 ms"));
    QCOMPARE(model.index(1, AblationTableModel::SpeedupColumn).data().toString(),
             QStringLiteral("1.32× [1.30×, 1.34×]"));
    QCOMPARE(model.index(1, AblationTableModel::GainColumn).data().toString(),
             QStringLiteral("1.01× [0.99×, 1.03×] n.s."));
    QCOMPARE(model.index(0, AblationTableModel::StepsColumn).data().toInt(), 3);
    QCOMPARE(model.index(0, AblationTableModel::ThroughputColumn).data().toString(),
             QStringLiteral("148.0k tokens/s"));
    // Without a CI (fewer than 5 steps): the mark instead of an interval, the ratio without brackets.
    fast.hasCi = false;
    fast.ciMissingReason = "too few steps (3 < 5)";
    fast.speedupVsBaseline.hasCi = false;
    r.configs = {base, fast};
    model.setResult(r, {"Fast", "Base"});
    QCOMPARE(model.index(1, AblationTableModel::CiColumn).data().toString(), QStringLiteral("too few steps"));
    QCOMPARE(model.index(1, AblationTableModel::CiColumn).data(Qt::ToolTipRole).toString(),
             QStringLiteral("too few steps (3 < 5)"));
    QCOMPARE(model.index(1, AblationTableModel::SpeedupColumn).data().toString(),
             QStringLiteral("1.32× (too few steps for a CI)"));
}

QTEST_MAIN(TestWorkbenchModels)
#include "tst_workbenchmodels.moc"
