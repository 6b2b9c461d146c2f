// The report model on the report fixture (tests/common/ReportFixture.h): its JSON matches the golden
// file byte for byte; section ids round-trip; configuration changes include the plan's settings; the
// waterfall and heatmap carry the hand-computed values; CSV names of hostile table ids stay inside the
// bundle folder.
#include "ReportFixture.h"

#include "report/ReportData.h"
#include "report/ReportModel.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::report;

namespace {

const Section* sectionOf(const ReportModel& m, ReportSection id) {
    for (const auto& s : m.sections)
        if (s.id == id)
            return &s;
    return nullptr;
}

template <typename T> std::vector<const T*> blocksOf(const Section& s) {
    std::vector<const T*> out;
    for (const auto& b : s.blocks)
        if (const auto* t = std::get_if<T>(&b))
            out.push_back(t);
    return out;
}

} // namespace

class TestReportModel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<Workspace> ws_;

    ReportModel model(const ReportOptions& opt = [] {
        ReportOptions o;
        o.includeTimestamp = false;
        return o;
    }()) {
        return buildReportModel(*ws_, opt);
    }

private slots:
    void initTestCase() {
        ws_ = std::make_unique<Workspace>(dir_.filePath("fixture.cnpdb").toStdString(),
                                          Workspace::Mode::CreateIfMissing);
        testing::buildReportFixture(*ws_);
    }

    // Written by the command in docs/reports.md ("Golden files"), never by this test.
    void jsonMatchesGolden() {
        const std::string path = dir_.filePath("model.json").toStdString();
        OutputFile out(path);
        writeJsonReport(model(), out);
        out.commit();
        QFile got(QString::fromStdString(path)),
            want(QStringLiteral(CNP_TEST_DATA_DIR "/golden/report_fixture.json"));
        QVERIFY(got.open(QIODevice::ReadOnly));
        QVERIFY2(want.open(QIODevice::ReadOnly),
                 "golden file missing: see docs/reports.md, \"Golden files\"");
        const auto a = got.readAll().split('\n'), b = want.readAll().split('\n');
        for (int i = 0; i < std::min(a.size(), b.size()); ++i)
            if (a[i] != b[i])
                QFAIL(qPrintable(QString("line %1:\n got: %2\nwant: %3").arg(i + 1).arg(a[i], b[i])));
        QCOMPARE(a.size(), b.size());
    }

    void sectionIdsRoundTrip() {
        QCOMPARE(static_cast<int>(allSections().size()), 11);
        for (auto s : allSections())
            QCOMPARE(sectionFromId(sectionId(s)), std::optional<ReportSection>(s));
        QCOMPARE(sectionFromId("kernel-changes"), std::optional<ReportSection>(ReportSection::KernelChanges));
        QVERIFY(!sectionFromId("Ablation")); // ids are exact
    }

    // Start 819.2k tokens/s (8192 tokens / 10 ms), one step of +204.8k to 1.024M (8192 / 8 ms).
    void waterfallValues() {
        const auto m = model();
        const auto figures = blocksOf<Figure>(*sectionOf(m, ReportSection::Waterfall));
        QCOMPARE(figures.size(), std::size_t(1));
        const auto& w = std::get<WaterfallChart>(figures[0]->chart);
        QCOMPARE(w.start, 819'200.0);
        QCOMPARE(w.steps.size(), std::size_t(1));
        QCOMPARE(w.steps[0].delta, 204'800.0);
        QVERIFY(!w.steps[0].significant); // 4 steps per configuration: no CI, so never significant
        QCOMPARE(w.startLabel, std::string(testing::kFixtureBase));
        QCOMPARE(w.endLabel, "= " + std::string(testing::kFixtureFused)); // the end bar: the last total
    }

    // Base's heatmap: ranks 0 and 1 x 4 steps of 10 ms and 9 ms.
    void rankHeatmap() {
        const auto m = model();
        const auto figures = blocksOf<Figure>(*sectionOf(m, ReportSection::Ranks));
        QCOMPARE(figures.size(), std::size_t(1));
        const auto& h = std::get<HeatmapChart>(figures[0]->chart);
        QCOMPARE(h.rowLabels, (std::vector<std::string>{"0", "1"}));
        QCOMPARE(h.columns, std::size_t(4));
        QCOMPARE(h.values, (std::vector<double>{1e7, 1e7, 1e7, 1e7, 9e6, 9e6, 9e6, 9e6}));
    }

    // A plan setting recorded as a run attribute shows up among the changes; bookkeeping keys do not.
    void planSettingsInChanges() {
        const auto base = ws_->runOrThrow("base"), fused = ws_->runOrThrow("fused");
        ws_->setRunAttribute(base.id, "plan.args", "--fuse=0");
        ws_->setRunAttribute(fused.id, "plan.args", "--fuse=1");
        ws_->setRunAttribute(fused.id, "plan.hash", "abc");
        const auto m = model();
        ws_->eraseRunAttribute(base.id, "plan.args");
        ws_->eraseRunAttribute(fused.id, "plan.args");
        ws_->eraseRunAttribute(fused.id, "plan.hash");
        const auto tables = blocksOf<Table>(*sectionOf(m, ReportSection::Configurations));
        const auto& changes = tables[0]->rows[1][4].text;
        QVERIFY2(changes.find("plan.args: --fuse=0 → --fuse=1") != std::string::npos, changes.c_str());
        QVERIFY2(changes.find("plan.hash") == std::string::npos, changes.c_str());
        QCOMPARE(tables[0]->rows[0][4].text, std::string("first configuration"));
    }

    void configurationSubsetAndOrder() {
        ReportOptions o;
        o.includeTimestamp = false;
        o.ablation.order = {testing::kFixtureFused};
        const auto m = model(o);
        QCOMPARE(m.configurations, std::vector<std::string>{testing::kFixtureFused});
        QCOMPARE(m.baseline, std::string(testing::kFixtureFused));
    }

    void csvFileNames_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("file");
        QTest::newRow("plain") << "ablation"
                               << "ablation.csv";
        QTest::newRow("chinese kept") << "kernels-基线"
                                      << "kernels-基线.csv";
        QTest::newRow("separators replaced") << "kernels-../../etc/x y"
                                             << "kernels-.._.._etc_x_y.csv";
        QTest::newRow("quotes replaced") << "a\"b'c<d>"
                                         << "a_b_c_d_.csv";
    }
    void csvFileNames() {
        QFETCH(QString, id);
        QFETCH(QString, file);
        QCOMPARE(QString::fromStdString(csvFileName(id.toStdString())), file);
    }
};

QTEST_APPLESS_MAIN(TestReportModel)
#include "tst_reportmodel.moc"
