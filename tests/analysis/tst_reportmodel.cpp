// The report model on the report fixture (tests/common/ReportFixture.h): its JSON matches the golden
// file byte for byte; section ids round-trip; configuration changes include the plan's settings; the
// waterfall and heatmap carry the hand-computed values; the kernel sections pool every repeat of a
// configuration (tests/common/RepeatFixture.h); CSV names of hostile table ids stay inside the
// bundle folder.
#include "RepeatFixture.h"
#include "ReportFixture.h"
#include "TestPaths.h"

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
            want(testpaths::dataDir() + QStringLiteral("/golden/report_fixture.json"));
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

    // The speedup above each bar: the baseline plain; +Fused→Opt's 10 / 8 = 1.25× from 4 steps, too few for
    // a CI, so marked "no CI" on a line of its own (never "n.s.", which would claim a CI including 1).
    void ablationBarAnnotations() {
        const auto m = model();
        const auto figures = blocksOf<Figure>(*sectionOf(m, ReportSection::Ablation));
        QCOMPARE(figures.size(), std::size_t(1));
        const auto& bars = std::get<BarChart>(figures[0]->chart).bars;
        QCOMPARE(bars.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(bars[0].annotation), QStringLiteral("1.00×"));
        QVERIFY(!bars[0].muted);
        QCOMPARE(QString::fromStdString(bars[1].annotation), QStringLiteral("1.25×\nno CI"));
        QVERIFY(bars[1].muted);
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

    // Top kernels and kernel changes pool both repeats of each configuration, per GPU-step
    // (RepeatFixture.h): A's gemm 44.8 ms over 5 GPU-steps = 8.96 ms, B's 44.8 ms over 8 = 5.6 ms.
    void kernelSectionsPoolRepeats() {
        QTemporaryDir dir;
        Workspace ws(dir.filePath("repeats.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        testing::buildRepeatFixture(ws);
        ReportOptions o;
        o.includeTimestamp = false;
        const auto m = buildReportModel(ws, o);
        const auto* kernels = sectionOf(m, ReportSection::Kernels);
        const auto headings = blocksOf<Heading>(*kernels);
        QCOMPARE(headings.size(), std::size_t(2));
        QCOMPARE(headings[0]->text, std::string("A: 2 runs (a-r1, a-r2), 5 GPU-steps"));
        QCOMPARE(headings[1]->text, std::string("B: 2 runs (b-r1, b-r2), 8 GPU-steps"));
        const auto tables = blocksOf<Table>(*kernels);
        QCOMPARE(tables.size(), std::size_t(2));
        // Columns: kernel, category, calls, total, per call, per GPU-step, percent.
        const auto& a = tables[0]->rows;
        QCOMPARE(a.size(), std::size_t(2));
        QCOMPARE(a[0][0].text, std::string("sm90_xmma_gemm_bf16"));
        QCOMPARE(a[0][2].values, std::vector<double>{5});
        QCOMPARE(a[0][3].values, std::vector<double>{44'800'000});
        QCOMPARE(a[0][4].values, std::vector<double>{8'960'000});
        QCOMPARE(a[0][5].values, std::vector<double>{8'960'000});
        QCOMPARE(a[0][5].text, std::string("8.96 ms"));
        QCOMPARE(a[1][5].values, std::vector<double>{3'360'000});
        const auto& b = tables[1]->rows;
        QCOMPARE(b[0][2].values, std::vector<double>{8});
        QCOMPARE(b[0][4].values, std::vector<double>{5'600'000}); // 44.8 ms over 8 calls
        QCOMPARE(b[0][5].values, std::vector<double>{5'600'000});
        QCOMPARE(b[1][5].values, std::vector<double>{2'100'000});

        const auto* changes = sectionOf(m, ReportSection::KernelChanges);
        QCOMPARE(blocksOf<Heading>(*changes)[0]->text,
                 std::string("A → B: 2 faster, 0 slower, 0 added, 0 removed"));
        const auto& c = blocksOf<Table>(*changes)[0]->rows;
        QCOMPARE(c.size(), std::size_t(2));
        // Columns: kernel, category, change, calls per GPU-step (before, after), before, after, delta.
        QCOMPARE(c[0][0].text, std::string("sm90_xmma_gemm_bf16"));
        QCOMPARE(c[0][2].text, std::string("faster"));
        QCOMPARE(c[0][3].values, (std::vector<double>{1, 1}));
        QCOMPARE(c[0][4].values, std::vector<double>{8'960'000});
        QCOMPARE(c[0][5].values, std::vector<double>{5'600'000});
        QVERIFY(qAbs(c[0][6].values[0] + 3'360'000.0) < 1e-6);
        QCOMPARE(c[0][6].text, std::string("−3.36 ms"));
        QCOMPARE(c[0][6].sign, -1);
        QCOMPARE(c[1][0].text, std::string("ncclDevKernel_AllReduce_Sum_bf16"));
        QVERIFY(qAbs(c[1][6].values[0] + 1'260'000.0) < 1e-6);
    }

    // Issue 32.10: reports repeated the synthetic warning per configuration and listed every release-note
    // check of a run that recorded nothing as "not checked". One synthetic note names the configurations;
    // such a run has one row.
    void syntheticAndUncheckedSaidOnce() {
        QTemporaryDir dir;
        Workspace ws(dir.filePath("synthetic.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        for (const char* config : {"A", "B", "C"}) {
            auto t = testing::steppedTrace(std::string(config) + "-r1", config, {10'000'000, 10'000'000});
            t.info.synthetic = true;
            addTrace(ws, std::move(t));
        }
        ReportOptions o;
        o.includeTimestamp = false;
        const auto m = buildReportModel(ws, o);
        int syntheticNotes = 0;
        for (const auto& s : m.sections)
            for (const auto* notes : blocksOf<NoteList>(s))
                for (const auto& n : notes->notes)
                    if (n.title.find("synthetic") != std::string::npos) {
                        ++syntheticNotes;
                        QVERIFY2(n.explanation.find("A, B, C") != std::string::npos, n.explanation.c_str());
                    }
        QCOMPARE(syntheticNotes, 1);
        const Table* checks = nullptr;
        for (const auto* t : blocksOf<Table>(*sectionOf(m, ReportSection::Environment)))
            if (t->id == "environment-checks")
                checks = t;
        QVERIFY(checks);
        QCOMPARE(checks->rows.size(), std::size_t(3)); // one per run
        for (const auto& row : checks->rows) {
            QCOMPARE(row[3].text, std::string("not checked"));
            QVERIFY(row[1].text.rfind("all ", 0) == 0);
        }
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
