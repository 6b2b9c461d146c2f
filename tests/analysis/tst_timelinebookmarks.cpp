// Timeline bookmarks' stored text (timeline/TimelineBookmarks.h): round trip, order, label cleaning, and
// hostile text from a shared workspace (never throws, malformed lines skipped, bounded count and labels).
#include "timeline/TimelineBookmarks.h"

#include <QtTest>

using namespace cnp;
using namespace cnp::timeline;

using Bookmarks = std::vector<TimelineBookmark>;
Q_DECLARE_METATYPE(Bookmarks)

class TestTimelineBookmarks : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        const Bookmarks b{{3000, "b"}, {-5, ""}, {1000, "a  b"}};
        const std::string text = formatBookmarks(b);
        QCOMPARE(QString::fromStdString(text), QStringLiteral("-5\t\n1000\ta  b\n3000\tb\n"));
        QCOMPARE(parseBookmarks(text), (Bookmarks{{-5, ""}, {1000, "a  b"}, {3000, "b"}}));
    }

    void parse_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<Bookmarks>("expected");
        QTest::newRow("empty") << QByteArray() << Bookmarks{};
        QTest::newRow("no tab") << QByteArray("1000 label\n") << Bookmarks{};
        QTest::newRow("not a number") << QByteArray("1e3\tx\n12x\ty\n\tz\n") << Bookmarks{};
        QTest::newRow("out of int64") << QByteArray("99999999999999999999\tx\n") << Bookmarks{};
        QTest::newRow("good among bad") << QByteArray("junk\n7\tok\r\n") << Bookmarks{{7, "ok"}};
        QTest::newRow("control characters")
            << QByteArray("7\ta\x1b]0;t\x07 b\n") << Bookmarks{{7, "a ]0;t  b"}};
        QTest::newRow("no final newline") << QByteArray("9\tlast") << Bookmarks{{9, "last"}};
    }
    void parse() {
        QFETCH(QByteArray, text);
        QFETCH(Bookmarks, expected);
        QCOMPARE(parseBookmarks(std::string_view(text.constData(), size_t(text.size()))), expected);
    }

    // A 1000-character label is cut to 120 bytes without splitting "é" (2 bytes: 59 of them = 118 bytes).
    void labelsCutOnCharacters() {
        std::string label;
        for (int i = 0; i < 500; ++i)
            label += "é";
        QCOMPARE(cleanBookmarkLabel(label).size(), std::size_t(120));
        const std::string odd = "x" + label; // 1 + 2k bytes: the 120th byte starts an "é"
        QCOMPARE(cleanBookmarkLabel(odd).size(), std::size_t(119));
        QCOMPARE(cleanBookmarkLabel(" \t "), std::string());
    }

    // 100,000 lines: at most kMaxBookmarks are kept (reading stops after 4 x that many good lines).
    void countBounded() {
        std::string text;
        for (int i = 100000; i > 0; --i)
            text += std::to_string(i) + "\tx\n";
        const auto b = parseBookmarks(text);
        QVERIFY(b.size() <= kMaxBookmarks);
        QVERIFY(!b.empty());
        Bookmarks many;
        for (int i = 0; i < 1000; ++i)
            many.push_back({i, ""});
        QCOMPARE(parseBookmarks(formatBookmarks(many)).size(), kMaxBookmarks);
        QCOMPARE(parseBookmarks(formatBookmarks(many)).back().time, Ns(kMaxBookmarks - 1));
    }
};

QTEST_APPLESS_MAIN(TestTimelineBookmarks)
#include "tst_timelinebookmarks.moc"
