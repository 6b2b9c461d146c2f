// The PDF writer: file structure (header, objects, xref offsets, trailer), string escaping, WinAnsi
// conversion and text measurement against widths summed by hand from the Adobe AFM files.
#include "report/PdfWriter.h"

#include <QtTest>

#include <zlib.h>

#include <regex>
#include <sstream>

using namespace cnp::pdf;

namespace {

std::string documentOf(PdfWriter& w) {
    std::ostringstream out;
    w.write(out);
    return out.str();
}

std::string twoPageDocument(bool compress) {
    PdfWriter w(compress);
    w.setTitle("Test – ×");
    w.text(40, 60, "Hello a(b)c\\d", Font::Helvetica, 10);
    w.fillRect(40, 80, 100, 20, Rgb::fromHex("#ff8000"));
    w.beginPage();
    w.text(40, 60, "1.25×", Font::HelveticaBold, 8, Rgb{0.5, 0.5, 0.5});
    w.line(40, 100, 200, 100, 1, {});
    return documentOf(w);
}

// The content stream bodies of a document, inflated when they carry /FlateDecode.
std::vector<std::string> streamsOf(const std::string& pdf) {
    std::vector<std::string> out;
    const std::regex head(R"(<< /Length (\d+)( /Filter /FlateDecode)? >>\nstream\n)");
    for (auto it = std::sregex_iterator(pdf.begin(), pdf.end(), head); it != std::sregex_iterator(); ++it) {
        const auto len = std::stoul((*it)[1].str());
        std::string data = pdf.substr(static_cast<std::size_t>(it->position() + it->length()), len);
        if ((*it)[2].matched) {
            std::string plain(1 << 20, '\0');
            uLongf size = static_cast<uLongf>(plain.size());
            if (uncompress(reinterpret_cast<Bytef*>(plain.data()), &size,
                           reinterpret_cast<const Bytef*>(data.data()),
                           static_cast<uLong>(data.size())) != Z_OK)
                return {};
            plain.resize(size);
            data = plain;
        }
        out.push_back(data);
    }
    return out;
}

} // namespace

class TestPdfWriter : public QObject {
    Q_OBJECT

private slots:
    void structure_data() {
        QTest::addColumn<bool>("compress");
        QTest::newRow("plain") << false;
        QTest::newRow("deflated") << true;
    }
    void structure() {
        QFETCH(bool, compress);
        const auto pdf = twoPageDocument(compress);
        QVERIFY(pdf.rfind("%PDF-1.4\n", 0) == 0);
        QVERIFY(pdf.size() > 7 && pdf.compare(pdf.size() - 6, 6, "%%EOF\n") == 0);

        // startxref points at the xref table.
        const auto sx = pdf.rfind("startxref\n");
        QVERIFY(sx != std::string::npos);
        const auto xref = std::stoul(pdf.substr(sx + 10));
        QVERIFY(pdf.compare(xref, 5, "xref\n") == 0);
        // Two pages: catalog, pages, info, 2 fonts + (page, contents) x 2 = 9 objects, plus entry 0.
        QVERIFY(pdf.compare(xref, 12, "xref\n0 10\n00") == 0);
        QVERIFY(pdf.find("/Size 10 /Root 1 0 R") != std::string::npos);
        QVERIFY(pdf.find("/Count 2 >>") != std::string::npos);
        // Entry 0 is the free-list head, then one 20-byte entry per object whose offset is "N 0 obj".
        const auto entries = xref + 10;
        QCOMPARE(pdf.substr(entries, 20), std::string("0000000000 65535 f \n"));
        for (int n = 1; n <= 9; ++n) {
            const auto entry = pdf.substr(entries + 20 * static_cast<std::size_t>(n), 20);
            QCOMPARE(entry.substr(10), std::string(" 00000 n \n"));
            const auto offset = std::stoul(entry.substr(0, 10));
            const auto expected = std::to_string(n) + " 0 obj\n";
            QVERIFY2(pdf.compare(offset, expected.size(), expected) == 0, qPrintable(QString::number(n)));
        }
        // Exactly 9 objects in the file.
        const std::regex obj(R"((^|\n)\d+ 0 obj\n)");
        QCOMPARE(std::distance(std::sregex_iterator(pdf.begin(), pdf.end(), obj), std::sregex_iterator()),
                 9L);
        // The page streams hold the drawing operators (y flipped: 842 - 60 = 782).
        const auto streams = streamsOf(pdf);
        QCOMPARE(streams.size(), std::size_t(2));
        QVERIFY(streams[0].find("BT /F1 10 Tf 40 782 Td (Hello a\\(b\\)c\\\\d) Tj ET") != std::string::npos);
        // fillRect(40, 80, 100, 20): bottom-left corner at 842 - 80 - 20 = 742; #ff8000 = 1 0.5 0.
        QVERIFY(streams[0].find("1 0.5 0 rg\n40 742 100 20 re f") != std::string::npos);
        QVERIFY(streams[1].find("BT /F2 8 Tf 40 782 Td (1.25\xD7) Tj ET") != std::string::npos);
        QVERIFY(streams[1].find("1 w 40 742 m 200 742 l S") != std::string::npos);
        // Info title as UTF-16BE: "Test – ×" = 54 65 73 74 20 2013 20 00D7.
        QVERIFY(pdf.find("/Title <FEFF005400650073007400202013002000D7>") != std::string::npos);
    }

    void emptyDocumentHasOnePage() {
        PdfWriter w;
        const auto pdf = documentOf(w);
        QVERIFY(pdf.find("/Count 1 >>") != std::string::npos);
        QCOMPARE(w.pageCount(), 1);
    }

    void escaping_data() {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::newRow("plain") << QByteArray("abc") << QByteArray("abc");
        QTest::newRow("parens") << QByteArray("f(x)") << QByteArray("f\\(x\\)");
        QTest::newRow("backslash") << QByteArray("a\\b") << QByteArray("a\\\\b");
        QTest::newRow("unbalanced") << QByteArray(")(") << QByteArray("\\)\\(");
    }
    void escaping() {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        QCOMPARE(QByteArray::fromStdString(escapeLiteral(in.toStdString())), out);
    }

    void winAnsi_data() {
        QTest::addColumn<QByteArray>("utf8");
        QTest::addColumn<QByteArray>("winAnsi");
        QTest::newRow("ascii") << QByteArray("Run 1") << QByteArray("Run 1");
        QTest::newRow("times") << QByteArray("1.25×") << QByteArray("1.25\xD7");
        QTest::newRow("micro") << QByteArray("3 µs") << QByteArray("3 \xB5s");
        QTest::newRow("en dash") << QByteArray("1 – 2") << QByteArray("1 \x96 2");
        QTest::newRow("ellipsis") << QByteArray("ab…") << QByteArray("ab\x85");
        QTest::newRow("euro") << QByteArray("€") << QByteArray("\x80");
        QTest::newRow("latin1") << QByteArray("é·") << QByteArray("\xE9\xB7");
        QTest::newRow("cjk") << QByteArray("核函数") << QByteArray("???");
        QTest::newRow("emoji") << QByteArray("a😀b") << QByteArray("a?b");
        QTest::newRow("control") << QByteArray("a\x01"
                                               "b")
                                 << QByteArray("a?b");
        QTest::newRow("malformed") << QByteArray("a\xFF"
                                                 "b")
                                   << QByteArray("a?b");
        QTest::newRow("truncated") << QByteArray("a\xC3") << QByteArray("a?");
    }
    void winAnsi() {
        QFETCH(QByteArray, utf8);
        QFETCH(QByteArray, winAnsi);
        QCOMPARE(QByteArray::fromStdString(toWinAnsi(utf8.toStdString())), winAnsi);
    }

    void widths_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("bold");
        QTest::addColumn<double>("size");
        QTest::addColumn<double>("expected");
        // Sums of AFM advance widths (1/1000 em) times size / 1000, added up by hand:
        // Helvetica H 722 e 556 l 222 l 222 o 556 = 2278.
        QTest::newRow("Hello") << "Hello" << false << 10.0 << 22.78;
        // Helvetica-Bold H 722 e 556 l 278 l 278 o 611 = 2445.
        QTest::newRow("Hello bold") << "Hello" << true << 10.0 << 24.45;
        // 1 556 . 278 2 556 5 556 multiply 584 = 2530; at 8 pt: 20.24.
        QTest::newRow("speedup") << "1.25×" << false << 8.0 << 20.24;
        // parenleft 333 mu 556 s 500 parenright 333 = 1722.
        QTest::newRow("micro") << "(µs)" << false << 10.0 << 17.22;
        // W 944 space 278 i 222 endash 556 @ 1015 = 3015.
        QTest::newRow("mixed") << "W i–@" << false << 1.0 << 3.015;
        // Bold: W 944 space 278 i 278 endash 556 @ 975 = 3031.
        QTest::newRow("mixed bold") << "W i–@" << true << 1.0 << 3.031;
        // Unknown characters measure as '?': Helvetica 556 each.
        QTest::newRow("cjk") << "核函" << false << 1.0 << 1.112;
        QTest::newRow("empty") << "" << false << 12.0 << 0.0;
    }
    void widths() {
        QFETCH(QString, text);
        QFETCH(bool, bold);
        QFETCH(double, size);
        QFETCH(double, expected);
        const double w = textWidth(text.toStdString(), bold ? Font::HelveticaBold : Font::Helvetica, size);
        QVERIFY2(std::abs(w - expected) < 1e-9, qPrintable(QString::number(w, 'f', 6)));
    }

    void fitAndWrap() {
        // "Hello" is 22.78 pt at 10 pt: fits in 22.78, not in 22.7.
        QCOMPARE(fitText("Hello", Font::Helvetica, 10, 22.78), std::string("Hello"));
        // "He…" = 722 + 556 + ellipsis 1000 = 2278 -> 22.78 pt > 22.7; "H…" = 1722 -> fits.
        QCOMPARE(fitText("Hello", Font::Helvetica, 10, 22.7), std::string("H…"));
        QCOMPARE(fitText("Hello", Font::Helvetica, 10, 22.0), std::string("H…"));
        QCOMPARE(fitText("Hello", Font::Helvetica, 10, 1.0), std::string("…"));
        const auto lines = wrapText("Exposed elementwise/reduction time", Font::Helvetica, 10, 60);
        QCOMPARE(lines, (std::vector<std::string>{"Exposed", "elementwise/", "reduction", "time"}));
        // A leading minus or a number range is no break opportunity.
        QCOMPARE(wrapText("-0.47 1/2", Font::Helvetica, 10, 1), (std::vector<std::string>{"-0.47", "1/2"}));
        QCOMPARE(wrapText("a b c", Font::Helvetica, 10, 1000), (std::vector<std::string>{"a b c"}));
    }

    void colours() {
        const auto c = Rgb::fromHex("#1f77b4");
        QCOMPARE(c.r, 0x1f / 255.0);
        QCOMPARE(c.g, 0x77 / 255.0);
        QCOMPARE(c.b, 0xb4 / 255.0);
        const auto bad = Rgb::fromHex("red");
        QCOMPARE(bad.r + bad.g + bad.b, 0.0);
    }

    void selectPageAddsToEarlierPages() {
        PdfWriter w(false);
        w.text(10, 10, "first", Font::Helvetica, 10);
        w.beginPage();
        w.selectPage(0);
        w.text(10, 20, "footer", Font::Helvetica, 10);
        const auto streams = streamsOf(documentOf(w));
        QCOMPARE(streams.size(), std::size_t(2));
        QVERIFY(streams[0].find("(footer)") != std::string::npos);
        QVERIFY(streams[1].find("(footer)") == std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, w.selectPage(2));
    }
};

QTEST_APPLESS_MAIN(TestPdfWriter)
#include "tst_pdfwriter.moc"
