// Issue 15.5, the timeline's drawing rules: ruler labels use one sensible unit with the decimals the
// tick step needs ("37.5 ms", not "37500 µs") and none runs past the right edge; slice labels elide
// with "…" and never exceed their slice; search marks use a colour no category or CPU kind uses.
#include "metrics/CategoryRules.h"
#include "timeline/TimelinePalette.h"
#include "timeline/TimelineView.h"

#include <QApplication>
#include <QtTest>

using cnp::Ns;
using cnp::wb::TimelinePalette;
using cnp::wb::TimelineView;

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void rulerLabel_data() {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<qint64>("magnitude");
        QTest::addColumn<QString>("label");
        QTest::newRow("half-ms ticks in a 40 ms view")
            << qint64(37'500'000) << qint64(500'000) << qint64(40'000'000) << QString::fromUtf8("37.5 ms");
        QTest::newRow("whole ms ticks")
            << qint64(38'000'000) << qint64(2'000'000) << qint64(40'000'000) << QString::fromUtf8("38 ms");
        QTest::newRow("origin shares the unit")
            << qint64(0) << qint64(500'000) << qint64(40'000'000) << QString::fromUtf8("0.0 ms");
        QTest::newRow("deep zoom far into the run")
            << qint64(37'500'100) << qint64(100) << qint64(37'501'000) << QString::fromUtf8("37.5001 ms");
        QTest::newRow("microseconds")
            << qint64(1'500) << qint64(500) << qint64(3'000) << QString::fromUtf8("1.5 µs");
        QTest::newRow("seconds") << qint64(2'000'000'000) << qint64(1'000'000'000) << qint64(3'000'000'000)
                                 << QString::fromUtf8("2 s");
        QTest::newRow("nanoseconds") << qint64(40) << qint64(20) << qint64(900) << QString::fromUtf8("40 ns");
    }
    void rulerLabel() {
        QFETCH(qint64, t);
        QFETCH(qint64, step);
        QFETCH(qint64, magnitude);
        QFETCH(QString, label);
        QCOMPARE(TimelineView::rulerLabel(t, step, magnitude), label);
    }

    void sliceLabel_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("width");
        QTest::newRow("fits") << "gemm" << 200;
        QTest::newRow("long kernel name") << QString(300, QLatin1Char('k')) + "_sm90" << 120;
        QTest::newRow("narrow") << "ncclDevKernel_AllReduce_Sum_bf16_RING_LL" << 30;
        QTest::newRow("too narrow for anything") << "ncclDevKernel" << 3;
    }
    void sliceLabel() {
        QFETCH(QString, name);
        QFETCH(int, width);
        const QFontMetrics fm(QApplication::font());
        const QString text = TimelineView::sliceLabel(name, fm, width);
        QVERIFY(fm.horizontalAdvance(text) <= width);
        if (fm.horizontalAdvance(name) <= width) {
            QCOMPARE(text, name);
        } else if (!text.isEmpty()) {
            QVERIFY2(text.endsWith(QChar(0x2026)), qPrintable(text)); // elided, never cut mid-glyph
            QVERIFY(name.startsWith(text.chopped(1)));
            QVERIFY(text.size() > 1);
        }
    }

    void searchHighlightIsNoCategoryColour() {
        const QColor mark = TimelinePalette::searchHighlight();
        QStringList styles = {"runtime API",
                              "driver API",
                              "cpu_op",
                              "user_annotation",
                              "python_function",
                              "nvtx",
                              "cpu range",
                              "gpu annotation",
                              "step",
                              "",
                              "communication",
                              "memory",
                              "idle",
                              "overlap"};
        for (const std::string& c : cnp::CategoryRules::defaults().computePriority())
            styles << QString::fromStdString(c);
        for (const QString& s : styles) {
            const QColor c = TimelinePalette::styleColor(s);
            const int dist = std::abs(c.red() - mark.red()) + std::abs(c.green() - mark.green()) +
                             std::abs(c.blue() - mark.blue());
            QVERIFY2(dist > 150,
                     qPrintable(QStringLiteral("%1 is %2 from the search mark").arg(s).arg(dist)));
        }
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
