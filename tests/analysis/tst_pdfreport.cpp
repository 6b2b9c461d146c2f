// The PDF report on the hand-built two-configuration workspace of the HTML report test: the numbers
// computed by hand appear in the page streams and in what pdftotext extracts; page breaks keep every
// text inside the page; output is reproducible.
#include "TestTraces.h"

#include "core/InputError.h"
#include "ingest/IngestPipeline.h"
#include "report/PdfReport.h"
#include "store/Workspace.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <regex>
#include <sstream>

using namespace cnp;

namespace {

// Every "x y Td" text position of an uncompressed PDF, in PDF coordinates (origin bottom-left).
std::vector<std::pair<double, double>> textPositions(const std::string& pdf) {
    std::vector<std::pair<double, double>> out;
    const std::regex td(R"(([-\d.]+) ([-\d.]+) Td \()");
    for (auto it = std::sregex_iterator(pdf.begin(), pdf.end(), td); it != std::sregex_iterator(); ++it)
        out.emplace_back(std::stod((*it)[1].str()), std::stod((*it)[2].str()));
    return out;
}

int pageCount(const std::string& pdf) {
    const std::regex page(R"(/Type /Page /Parent)");
    return static_cast<int>(
        std::distance(std::sregex_iterator(pdf.begin(), pdf.end(), page), std::sregex_iterator()));
}

} // namespace

class TestPdfReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Base: 5 steps of 10 ms each (5 = the minimum for a CI); Fast: 5 of 8 ms -> speedup 10 / 8 = 1.25x;
    // throughput 8192 tokens / 10 ms = 819.2k tokens/s (the HTML report test derives the same numbers).
    std::string reportOf(const std::string& wsName, bool compress) {
        Workspace ws(dir_.filePath(QString::fromStdString(wsName)).toStdString(),
                     Workspace::Mode::CreateIfMissing);
        if (ws.runs().empty()) {
            auto base = testing::steppedTrace("base", "Base",
                                              {10'000'000, 10'000'000, 10'000'000, 10'000'000, 10'000'000});
            auto fast = testing::steppedTrace("fast", "Fast",
                                              {8'000'000, 8'000'000, 8'000'000, 8'000'000, 8'000'000});
            addTrace(ws, base);
            addTrace(ws, fast);
        }
        ReportOptions opt;
        opt.includeTimestamp = false;
        opt.compressPdf = compress;
        std::ostringstream out;
        writePdfReport(ws, out, opt);
        return out.str();
    }

private slots:
    void isAPdfWithPages() {
        const auto pdf = reportOf("pages.cnpdb", true);
        QVERIFY(pdf.rfind("%PDF-1.4\n", 0) == 0);
        QVERIFY(pdf.find("/FlateDecode") != std::string::npos);
        QVERIFY(pageCount(pdf) > 0);
        QVERIFY(pdf.find("/Count " + std::to_string(pageCount(pdf)) + " >>") != std::string::npos);
    }

    void numbersInTheTextStreams_data() {
        QTest::addColumn<QByteArray>("needle");
        // Median step of Base 10.00 ms, of Fast 8.00 ms (every step the same length), as table cells.
        QTest::newRow("base median") << QByteArray("(10.00) Tj");
        QTest::newRow("fast median") << QByteArray("(8.00) Tj");
        // Speedup 10 / 8 = 1.25 above the Fast bar ('×' is WinAnsi 0xD7).
        QTest::newRow("speedup label") << QByteArray("(1.25\xD7) Tj");
        QTest::newRow("speedup cell") << QByteArray("(1.25\xD7 [1.25\xD7, 1.25\xD7]) Tj");
        QTest::newRow("base throughput") << QByteArray("(819.2k tokens/s) Tj");
        QTest::newRow("fast throughput") << QByteArray("(1.02M tokens/s) Tj");
        // Attribution total 8 - 10 = -2.00 ms, in bold (F2).
        QTest::newRow("attribution total") << QByteArray("Tf ") + "(-2.00) Tj";
        QTest::newRow("section") << QByteArray("(Where the time went) Tj");
    }
    void numbersInTheTextStreams() {
        QFETCH(QByteArray, needle);
        static const auto pdf = reportOf("numbers.cnpdb", false);
        QVERIFY(pdf.find("/FlateDecode") == std::string::npos);
        const auto at = pdf.find(needle.toStdString().substr(needle.startsWith("Tf ") ? 3 : 0));
        QVERIFY2(at != std::string::npos, needle.constData());
        if (needle.startsWith("Tf ")) // the font of that text: the last "BT /Fn" before it
            QCOMPARE(pdf.substr(pdf.rfind("BT /F", at), 7), std::string("BT /F2 "));
    }

    void pdftotextExtractsTheNumbers() {
        const auto pdf = reportOf("extract.cnpdb", true);
        const QString path = dir_.filePath("report.pdf");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(pdf.data(), static_cast<qint64>(pdf.size()));
        f.close();
        if (QStandardPaths::findExecutable("pdftotext").isEmpty())
            QSKIP("pdftotext not installed (Debian poppler-utils, scripts/install-deps): extraction not "
                  "checked");
        QProcess p;
        p.start("pdftotext", {"-layout", "-enc", "UTF-8", path, "-"});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const auto err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.isEmpty(), qPrintable(err)); // poppler reports any structural damage here
        const auto text = QString::fromUtf8(p.readAllStandardOutput());
        for (const char* needle :
             {"10.00", "8.00", "1.25×", "819.2k tokens/s", "-2.00", "Where the time went",
              "What each step bought", "Top kernels", "page 1 of"})
            QVERIFY2(text.contains(QString::fromUtf8(needle)), needle);
    }

    void reproducible() { QCOMPARE(reportOf("repro.cnpdb", true), reportOf("repro.cnpdb", true)); }

    // Twelve configurations with their kernel tables overflow one page: more pages, every text inside
    // the page (PDF y between the footer at 28 pt and the top margin, x inside the page width).
    void pageBreaks() {
        Workspace ws(dir_.filePath("many.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        for (int i = 0; i < 12; ++i) {
            auto t = testing::steppedTrace("run" + std::to_string(i), "Config " + std::to_string(i),
                                           {10'000'000 - i * 100'000, 10'000'000 - i * 100'000, 10'000'000});
            addTrace(ws, t);
        }
        ReportOptions opt;
        opt.includeTimestamp = false;
        opt.compressPdf = false;
        std::ostringstream out;
        writePdfReport(ws, out, opt);
        const auto pdf = out.str();
        QVERIFY2(pageCount(pdf) >= 2, qPrintable(QString::number(pageCount(pdf))));
        const auto positions = textPositions(pdf);
        QVERIFY(!positions.empty());
        for (const auto& [x, y] : positions) {
            QVERIFY2(x >= 0 && x < 595, qPrintable(QString::number(x)));
            QVERIFY2(y >= 28 && y <= 842 - 40, qPrintable(QString::number(y)));
        }
        const auto last = "page " + std::to_string(pageCount(pdf)) + " of " + std::to_string(pageCount(pdf));
        QVERIFY(pdf.find(last) != std::string::npos);
    }

    void emptyWorkspaceIsAnError() {
        Workspace ws(dir_.filePath("empty.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::ostringstream out;
        QVERIFY_THROWS_EXCEPTION(InputError, writePdfReport(ws, out));
    }
};

QTEST_APPLESS_MAIN(TestPdfReport)
#include "tst_pdfreport.moc"
