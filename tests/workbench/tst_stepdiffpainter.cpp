// StepDiffPainter (app/workbench/compare/StepDiffPainter.h) draws about one box per pixel column and kind,
// not one per activity: a step of 100,000 activities on one stream, fitted into a 1,000-pixel plot, paints
// at most 1,001 boxes a row (and no polygon QPainter finds too complex to fill: no warning), while activities
// wider than a pixel, or of another kind, or highlighted, are each drawn. Counts by hand from the shapes
// below.
#include "compare/StepDiffPainter.h"

#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

namespace {

// `n` activities of `length` ns, one every `pitch` ns, on stream 7; B's every `everyAdded`-th is an extra
// kernel (added) when everyAdded > 0.
std::vector<StepGpuEvent> stream(int n, Ns pitch, Ns length, int everyAdded = 0) {
    std::vector<StepGpuEvent> out;
    for (int i = 0; i < n; ++i) {
        StepGpuEvent e;
        e.start = static_cast<Ns>(i) * pitch;
        e.end = e.start + length;
        e.stream = 7;
        e.name = everyAdded > 0 && i % everyAdded == everyAdded - 1 ? "extra" : "k" + std::to_string(i % 50);
        out.push_back(std::move(e));
    }
    return out;
}

// The boxes lane 0 paints with the whole step in a plot of `plotWidth` pixels.
std::size_t boxesOf(const StepAlignment& s, int plotWidth, const std::vector<char>& highlighted = {}) {
    QImage image(StepDiffGeometry::kLabel + plotWidth, 400, QImage::Format_ARGB32);
    QPainter p(&image);
    StepDiffGeometry g;
    g.width = image.width();
    g.viewStart = 0;
    g.viewLength = static_cast<double>(std::max(s.totals.spanA, s.totals.spanB));
    const QPalette palette;
    StepDiffPainter painter(p, palette, g);
    return painter.lane(s, 0, highlighted);
}

} // namespace

class TestStepDiffPainter : public QObject {
    Q_OBJECT

private slots:
    void boxesPerColumn_data() {
        QTest::addColumn<int>("activities");
        QTest::addColumn<Ns>("pitch");
        QTest::addColumn<int>("plotWidth");
        QTest::addColumn<int>("atMostPerRow");
        QTest::addColumn<int>("atLeastPerRow");
        // 100,000 matched activities of 5 ns every 10 ns (1 ms) in 1,000 px: 100 per column. A box is at
        // least 1 px wide and may straddle two columns, so at least one box every other column.
        QTest::newRow("100k in 1000 px") << 100'000 << Ns{10} << 1000 << 1001 << 500;
        // 50 activities every 20 µs in 1,000 px: 20 px apart, each its own box.
        QTest::newRow("50 wide ones") << 50 << Ns{20'000} << 1000 << 50 << 50;
    }
    void boxesPerColumn() {
        QFETCH(int, activities);
        QFETCH(Ns, pitch);
        QFETCH(int, plotWidth);
        QFETCH(int, atMostPerRow);
        QFETCH(int, atLeastPerRow);
        const StepAlignment s =
            StepAlignment::align(stream(activities, pitch, pitch / 2), stream(activities, pitch, pitch / 2));
        QTest::failOnWarning(QRegularExpression("too complex"));
        QCOMPARE(s.streams.size(), std::size_t{1});
        QCOMPARE(s.streams[0].matched, activities);
        const std::size_t boxes = boxesOf(s, plotWidth);
        QVERIFY2(boxes <= 2 * static_cast<std::size_t>(atMostPerRow), QByteArray::number(qulonglong(boxes)));
        QVERIFY2(boxes >= 2 * static_cast<std::size_t>(atLeastPerRow), QByteArray::number(qulonglong(boxes)));
    }

    // Every highlighted activity is drawn (its outline needs its box), whatever the column.
    void highlightedAreAllDrawn() {
        const StepAlignment s = StepAlignment::align(stream(10'000, 10, 5), stream(10'000, 10, 5));
        const std::size_t plain = boxesOf(s, 100);
        std::vector<char> marks(s.streams[0].items.size(), 0);
        for (std::size_t k = 0; k < marks.size(); k += 10)
            marks[k] = 1; // 1,000 items
        const std::size_t withMarks = boxesOf(s, 100, marks);
        QVERIFY2(plain <= 2 * 101, QByteArray::number(qulonglong(plain)));
        QVERIFY2(withMarks >= 2 * 1000, QByteArray::number(qulonglong(withMarks)));
    }

    // A kind change in a column is drawn: B's added activities (every 4th of B, 2,500 of 10,000, A's
    // there removed) alternate with matched ones in every column, so the rows paint more boxes than the
    // 100 px alone would, and still fewer than one per activity.
    void kindChangesAreDrawn() {
        const StepAlignment s = StepAlignment::align(stream(10'000, 10, 5), stream(10'000, 10, 5, 4));
        QVERIFY(s.streams[0].added > 0);
        QVERIFY(s.streams[0].removed > 0);
        const std::size_t boxes = boxesOf(s, 100);
        QVERIFY2(boxes > 2 * 101, QByteArray::number(qulonglong(boxes)));
        QVERIFY2(boxes < 20'000, QByteArray::number(qulonglong(boxes)));
    }
};

QTEST_MAIN(TestStepDiffPainter)
#include "tst_stepdiffpainter.moc"
