// The HTML report of the deterministic report fixture (tests/common/ReportFixture.h): golden output
// (charts masked: their glyph outlines depend on the installed fonts), section order, escaping of every
// name, hand-computed numbers, self-containment and unique SVG ids.
#include "ReportFixture.h"
#include "TestPaths.h"

#include "core/InputError.h"
#include "history/TrendReport.h"
#include "report/HtmlReport.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace cnp;

namespace {

// Every inline chart as "<svg/>": the golden pins the text, tables and structure, not font outlines.
QString maskCharts(QString html) {
    static const QRegularExpression svg(QStringLiteral("<svg[\\s\\S]*?</svg>"));
    return html.replace(svg, QStringLiteral("<svg/>"));
}

QStringList sectionTitles(const QString& html) {
    static const QRegularExpression h2(QStringLiteral("<h2>([^<]*)</h2>"));
    QStringList titles;
    for (auto it = h2.globalMatch(html); it.hasNext();)
        titles << it.next().captured(1);
    return titles;
}

} // namespace

class TestHtmlReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString reportOf(const ReportOptions& opt) {
        const auto path = dir_.filePath("fixture.cnpdb").toStdString();
        Workspace ws(path, Workspace::Mode::CreateIfMissing);
        if (ws.runs().empty())
            testing::buildReportFixture(ws);
        std::ostringstream out;
        writeHtmlReport(ws, out, opt);
        return QString::fromStdString(out.str());
    }
    QString fixtureReport() {
        ReportOptions opt;
        opt.includeTimestamp = false;
        static const QString html = reportOf(opt);
        return html;
    }

private slots:
    // Written by the command in docs/reports.md ("Golden files"), never by this test.
    void matchesGolden() {
        QFile f(testpaths::dataDir() + QStringLiteral("/golden/report_fixture.html"));
        QVERIFY2(f.open(QIODevice::ReadOnly), "golden file missing: see docs/reports.md, \"Golden files\"");
        const auto golden = maskCharts(QString::fromUtf8(f.readAll())).split('\n');
        const auto html = maskCharts(fixtureReport()).split('\n');
        for (int i = 0; i < std::min(html.size(), golden.size()); ++i)
            if (html[i] != golden[i])
                QFAIL(qPrintable(QString("first difference at line %1:\n got: %2\nwant: %3")
                                     .arg(i + 1)
                                     .arg(html[i], golden[i])));
        QCOMPARE(html.size(), golden.size());
    }

    void sectionsInReportOrder() {
        QCOMPARE(sectionTitles(fixtureReport()),
                 QStringList({"Configurations", "Environment", "Ablation", "Incremental gains",
                              "Where the time went", "What each step bought", "Ranks", "Top kernels",
                              "Largest kernel changes", "Insights", "Methodology"}));
    }

    // The selection picks sections; the report keeps its own order whatever order they are listed in.
    void sectionsSelectable() {
        ReportOptions opt;
        opt.includeTimestamp = false;
        opt.sections = {ReportSection::Methodology, ReportSection::Ablation};
        QCOMPARE(sectionTitles(reportOf(opt)), QStringList({"Ablation", "Methodology"}));
    }

    void namesEscaped_data() {
        QTest::addColumn<QString>("escaped");
        QTest::addColumn<QString>("raw");
        QTest::newRow("kernel name")
            << "gemm&lt;float, 4&gt;(Args&amp;) &quot;tuned&quot; &amp; &#39;fast&#39;"
            << testing::kFixtureHostileKernel;
        QTest::newRow("configuration") << "+Fused→Opt"
                                       << "";
        QTest::newRow("chinese configuration") << "基线"
                                               << "";
    }
    void namesEscaped() {
        QFETCH(QString, escaped);
        QFETCH(QString, raw);
        const auto html = maskCharts(fixtureReport());
        QVERIFY2(html.contains(escaped), qPrintable(escaped));
        if (!raw.isEmpty())
            QVERIFY2(!html.contains(raw), "an unescaped name");
    }

    void numbersAreTheHandComputedOnes_data() {
        QTest::addColumn<QString>("needle");
        // Median steps 10.00 / 8.00 ms (every step of a run the same length; rank 1 of base is faster).
        QTest::newRow("base median") << "<td class=\"n\">10.00</td>";
        QTest::newRow("fused median") << "<td class=\"n\">8.00</td>";
        // 8192 tokens / 10 ms and / 8 ms.
        QTest::newRow("base throughput") << "819.2k tokens/s";
        QTest::newRow("fused throughput") << "1.02M tokens/s";
        QTest::newRow("waterfall delta") << "+204.8k tokens/s";
        // 4 steps per configuration: fewer than a CI needs, so the ratio comes without one.
        QTest::newRow("speedup") << "1.25× (too few steps for a CI)";
        QTest::newRow("attribution total") << "<b>-2.00</b>";
        // Base: 2 ranks on one host -> 1 × 2; fused 1 × 1.
        QTest::newRow("nodes x gpus") << "<td class=\"n\">1 × 2</td>";
        QTest::newRow("image change") << "image: registry.example/train:1.0 → registry.example/train:1.1";
        QTest::newRow("env change") << "env NCCL_SOCKET_IFNAME: eth0 → eth1";
        // Rank 0 (10 ms steps) is the slowest rank in all 4 steps, rank 1 in none.
        QTest::newRow("rank 0 slowest") << "<td class=\"n\">10.00</td><td class=\"n\">8.00</td>";
        // fused: CUDA_VISIBLE_DEVICES=0 is a 1-GPU pod, which needs eth0; base's 2-GPU pod has it.
        QTest::newRow("check fails")
            << "<td class=\"neg\"><b>failed</b></td><td>NCCL_SOCKET_IFNAME=eth1, GPUs per pod: 1</td>";
        QTest::newRow("check passes")
            << "<td class=\"pos\">passed</td><td>NCCL_SOCKET_IFNAME=eth0, GPUs per pod: 2</td>";
        QTest::newRow("driver fails")
            << "<td class=\"neg\"><b>failed</b></td><td>driver 575.10, CUDA 13.0</td>";
        QTest::newRow("synthetic flagged") << "Synthetic data: fused";
        QTest::newRow("few steps warning")
            << "no confidence interval (fewer than 5 samples per configuration)";
    }
    void numbersAreTheHandComputedOnes() {
        QFETCH(QString, needle);
        QVERIFY2(fixtureReport().contains(needle), qPrintable(needle));
    }

    // Ranks table of base: rank, steps, mean window, compute, exposed comm., idle, slowest-in.
    void rankTable() {
        const auto html = fixtureReport();
        QVERIFY(html.contains("<tr><td class=\"n\">0</td><td class=\"n\">4</td><td class=\"n\">10.00</td>"));
        QVERIFY(html.contains("<tr><td class=\"n\">1</td><td class=\"n\">4</td><td class=\"n\">9.00</td>"));
        QVERIFY(html.contains("<td class=\"n\">4</td></tr>\n<tr><td class=\"n\">1</td>")); // rank 0: 4 steps
    }

    // Six figures (ablation, waterfall, two breakdowns, attribution, the rank heatmap), no scripts, nothing
    // external,
    // and every SVG id unique in the document.
    void selfContainedCharts() {
        const auto html = fixtureReport();
        QCOMPARE(html.count("<svg"), 6);
        QCOMPARE(html.count("<figcaption>"), 6);
        QVERIFY(!html.contains("<script"));
        QVERIFY(!html.contains("src=\""));
        QVERIFY(!html.contains("href=\"http"));
        static const QRegularExpression id(QStringLiteral(" id=\"([^\"]+)\""));
        QSet<QString> ids;
        for (auto it = id.globalMatch(html); it.hasNext();) {
            const auto v = it.next().captured(1);
            QVERIFY2(!ids.contains(v), qPrintable("duplicate id " + v));
            ids.insert(v);
        }
        QVERIFY(ids.size() > 5);
    }

    // `cnp report --history`: the release trend is the trend report's own body, byte for byte (the same
    // tables and charts as `cnp history show --html`), in a section of its own after the others and in
    // the navigation; a change point of the hand-made series (100 ms x 4, then 110 ms x 4) sits before
    // the fifth release.
    void releaseTrendSection() {
        ReleaseTrend trend;
        std::vector<HistoryEntry> releases;
        for (int i = 0; i < 8; ++i) {
            ReleaseSummary s;
            ConfigReleaseSummary c;
            c.config = "Base<&>";
            c.medianStepNs = i < 4 ? 100'000'000 : 110'000'000;
            c.hasCi = true;
            c.ciLoNs = c.medianStepNs - 1'000'000;
            c.ciHiNs = c.medianStepNs + 1'000'000;
            s.configs = {c};
            HistoryEntry e;
            e.release = "26." + std::to_string(i + 1);
            releases.push_back(e);
            trend.addRelease(e.release, s);
        }
        report::ReportModel m;
        m.title = "T";
        m.trend = HistoryTrend{"/h", releases, trend.series()};
        QCOMPARE(m.trend->series.front().changes.size(), std::size_t{1});
        QCOMPARE(m.trend->series.front().changes.front().index, std::size_t{4});
        std::ostringstream out;
        writeHtmlReport(m, out);
        const std::string html = out.str();
        const std::string body = trendSectionHtml(releases, m.trend->series, 3);
        const auto at = html.find(body);
        QVERIFY(at != std::string::npos);
        QVERIFY(html.rfind("<section id=\"release-trend\">\n<h2>Release trend</h2>", at) !=
                std::string::npos);
        QVERIFY(html.find("<a href=\"#release-trend\">Release trend</a>") != std::string::npos);
        QVERIFY(html.find("<h3>Base&lt;&amp;&gt; &#8212; step_time</h3>") != std::string::npos);
        QCOMPARE(QString::fromStdString(body).count(QStringLiteral("class=\"change-point\"")), 1);
        QCOMPARE(QString::fromStdString(body).count(QStringLiteral("class=\"ci\"")), 8);
        // The same body as the stand-alone trend report's.
        QVERIFY(trendReportHtml(releases, m.trend->series, "x")
                    .find(trendSectionHtml(releases, m.trend->series, 2)) != std::string::npos);
        // Without a history: no such section.
        m.trend.reset();
        std::ostringstream plain;
        writeHtmlReport(m, plain);
        QVERIFY(plain.str().find("release-trend") == std::string::npos);
    }

    void emptyWorkspaceIsAnError() {
        Workspace ws(dir_.filePath("empty.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::ostringstream out;
        QVERIFY_THROWS_EXCEPTION(InputError, writeHtmlReport(ws, out));
    }
};

QTEST_APPLESS_MAIN(TestHtmlReport)
#include "tst_htmlreport.moc"
