// AxisScale: nice ticks for ordinary ranges (hand-computed), and for hostile ones ([0, 1e308], inf, NaN,
// denormals) a bounded tick count with finite, advancing ticks. The charts drawn over such values finish
// (issue 33.2: tokens_per_step = 1e308 made the tick loop of `cnp report` run forever).
#include "core/InputError.h"
#include "core/Interrupt.h"
#include "report/AxisScale.h"
#include "report/HtmlReport.h"
#include "report/PdfReport.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <sstream>

using namespace cnp;
using namespace cnp::report;
using cnp::report::Section;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");
} // namespace

class TestAxisScale : public QObject {
    Q_OBJECT

private slots:
    void ordinaryRanges_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("intervals");
        QTest::addColumn<double>("first");
        QTest::addColumn<double>("step");
        QTest::addColumn<int>("ticks");
        // 10 / 5 = 2 -> step 2: 0, 2, ..., 10.
        QTest::newRow("0..10") << 0.0 << 10.0 << 5 << 0.0 << 2.0 << 6;
        // 11 / 5 = 2.2 -> step 5: 0, 5, 10, 15.
        QTest::newRow("0..11") << 0.0 << 11.0 << 5 << 0.0 << 5.0 << 4;
        // 0.33 / 6 = 0.055 -> step 0.1: 0 .. 0.4.
        QTest::newRow("0..0.33") << 0.0 << 0.33 << 6 << 0.0 << 0.1 << 5;
        // span 13 / 6 = 2.17 -> step 5: -5, 0, 5, 10.
        QTest::newRow("-3..10") << -3.0 << 10.0 << 6 << -5.0 << 5.0 << 4;
        // a zero span at 0: the ticks 0 and 1.
        QTest::newRow("0..0") << 0.0 << 0.0 << 5 << 0.0 << 1.0 << 2;
        // reversed bounds are the same axis
        QTest::newRow("10..0") << 10.0 << 0.0 << 5 << 0.0 << 2.0 << 6;
    }
    void ordinaryRanges() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, intervals);
        QFETCH(double, first);
        QFETCH(double, step);
        QFETCH(int, ticks);
        const AxisScale a = axisScale(lo, hi, intervals);
        QCOMPARE(a.first, first);
        QCOMPARE(a.step, step);
        QCOMPARE(a.ticks, ticks);
    }

    void hostileRanges_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::newRow("0..1e308") << 0.0 << 1e308;
        QTest::newRow("0..max") << 0.0 << std::numeric_limits<double>::max();
        QTest::newRow("0..inf") << 0.0 << kInf;
        QTest::newRow("-inf..inf") << -kInf << kInf;
        QTest::newRow("-1e308..1e308") << -1e308 << 1e308;
        QTest::newRow("NaN..NaN") << kNaN << kNaN;
        QTest::newRow("0..NaN") << 0.0 << kNaN;
        QTest::newRow("NaN..inf") << kNaN << kInf;
        QTest::newRow("1e300..1e300") << 1e300 << 1e300;
        QTest::newRow("1e300..1e300 + step") << 1e300 << std::nextafter(1e300, kInf);
        QTest::newRow("denormals") << 0.0 << std::numeric_limits<double>::denorm_min();
        QTest::newRow("tiny span far from 0") << 1e15 << 1e15 + 0.125;
    }
    void hostileRanges() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        for (int intervals : {-1, 0, 5, 6, 1000000}) {
            const AxisScale a = axisScale(lo, hi, intervals);
            QVERIFY2(a.ticks >= 2 && a.ticks <= kMaxAxisTicks, qPrintable(QString::number(a.ticks)));
            QVERIFY(std::isfinite(a.step) && a.step > 0);
            for (int i = 0; i < a.ticks; ++i)
                QVERIFY(std::isfinite(a.at(i)));
            QVERIFY(a.at(1) > a.at(0)); // the ticks advance
            // The axis covers the range, made finite (NaN as 0, beyond +-1e300 as +-1e300).
            auto finite = [](double v) { return std::isnan(v) ? 0 : std::clamp(v, -1e300, 1e300); };
            QVERIFY(a.first <= std::min(finite(lo), finite(hi)));
            QVERIFY(a.last() >= std::max(finite(lo), finite(hi)));
        }
    }

    void niceStepOfNonFiniteSpans() {
        QCOMPARE(niceStep(kInf, 5), 1.0);
        QCOMPARE(niceStep(kNaN, 5), 1.0);
        QCOMPARE(niceStep(-3, 5), 1.0);
        QCOMPARE(niceStep(10, 5), 2.0);
    }

    void hugeTickLabelsStayShort() {
        QCOMPARE(QString::fromStdString(tickLabel(1.5e6)), QStringLiteral("1.5M"));
        QCOMPARE(QString::fromStdString(tickLabel(1e300)), QStringLiteral("1e+300"));
        QCOMPARE(QString::fromStdString(tickLabel(kInf)), QStringLiteral("inf"));
    }

    // Every chart kind over values of 1e308, inf and NaN is drawn into an HTML and a PDF report, and
    // the writing finishes.
    void chartsOfHostileValuesFinish_data() {
        QTest::addColumn<double>("v");
        QTest::newRow("1e308") << 1e308;
        QTest::newRow("inf") << kInf;
        QTest::newRow("NaN") << kNaN;
        QTest::newRow("-1e308") << -1e308;
    }
    void chartsOfHostileValuesFinish() {
        QFETCH(double, v);
        const ReportModel m = modelOf(v);
        std::ostringstream html, pdf;
        writeHtmlReport(m, html);
        QCOMPARE(static_cast<int>(html.str().find("<svg") != std::string::npos), 1);
        writePdfReport(m, pdf, PaperSize::A4);
        QCOMPARE(pdf.str().rfind("%PDF", 0), std::size_t(0));
    }

    // An interrupt (Ctrl-C, SIGTERM: core/Interrupt.h) stops the report writers: Cancelled.
    void interruptStopsReports() {
        const ReportModel m = modelOf(1);
        interruptFlag().store(true);
        std::ostringstream html, pdf;
        QVERIFY_THROWS_EXCEPTION(Cancelled, writeHtmlReport(m, html));
        QVERIFY_THROWS_EXCEPTION(Cancelled, writePdfReport(m, pdf, PaperSize::A4));
        interruptFlag().store(false);
    }

private:
    // One section holding a figure of every chart kind, each showing `v`.
    static ReportModel modelOf(double v) {
        BarChart bars{"tokens/s",
                      {{"a", v, 0, v, "#4e79a7", "", false}, {"b", 1, 0, 0, "#f28e2b", "", false}}};
        StackedChart stacked{"ms", 1e6, {{"a", {{"compute", v, "#4e79a7"}, {"idle", v, "#f28e2b"}}}}};
        WaterfallChart waterfall{"tokens/s", "base", "last", v, {{"step", v, true}}, "#4e79a7", "#f28e2b"};
        DivergingChart diverging{"ms", 1e6, {{"a", {{"compute", v, "#4e79a7"}, {"idle", -v, "#f28e2b"}}, v}}};
        HeatmapChart heat{"ms", 1e6, "rank", "step", {"0"}, 2, {v, 1}};
        ReportModel m;
        m.title = "hostile";
        Section s;
        s.id = ReportSection::Ablation;
        s.title = "Ablation";
        for (const Chart& c : {Chart(bars), Chart(stacked), Chart(waterfall), Chart(diverging), Chart(heat)})
            s.blocks.emplace_back(Figure{"figure", c});
        m.sections.push_back(std::move(s));
        return m;
    }
};

QTEST_GUILESS_MAIN(TestAxisScale)
#include "tst_axisscale.moc"
