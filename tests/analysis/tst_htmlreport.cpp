// The HTML report: golden output on a hand-built two-configuration workspace, plus the numbers in it
// checked against values computed by hand.
#include "TestTraces.h"

#include "core/InputError.h"
#include "ingest/IngestPipeline.h"
#include "report/HtmlReport.h"
#include "store/Workspace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace cnp;

class TestHtmlReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string reportOf(const std::string& wsName) {
        Workspace ws(dir_.filePath(QString::fromStdString(wsName)).toStdString(),
                     Workspace::Mode::CreateIfMissing);
        // Base: 5 steps of 10 ms each; Fast: 5 of 8 ms (5 = the minimum for a CI) -> speedup 1.25x,
        // throughput 8192 tokens / 10 ms = 819.2k/s.
        auto base = testing::steppedTrace("base", "Base",
                                          {10'000'000, 10'000'000, 10'000'000, 10'000'000, 10'000'000});
        auto fast =
            testing::steppedTrace("fast", "Fast", {8'000'000, 8'000'000, 8'000'000, 8'000'000, 8'000'000});
        addTrace(ws, base);
        addTrace(ws, fast);
        ReportOptions opt;
        opt.includeTimestamp = false;
        std::ostringstream out;
        writeHtmlReport(ws, out, opt);
        return out.str();
    }

private slots:
    void matchesGolden() {
        const auto html = QString::fromStdString(reportOf("golden.cnpdb"));
        const QString goldenPath = QStringLiteral(CNP_TEST_DATA_DIR "/golden/report_two_configs.html");
        if (qEnvironmentVariableIsSet("CNP_UPDATE_GOLDEN")) {
            QFile f(goldenPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(html.toUtf8());
        }
        QFile f(goldenPath);
        QVERIFY2(f.open(QIODevice::ReadOnly), "golden file missing (run with CNP_UPDATE_GOLDEN=1 once)");
        const auto golden = QString::fromUtf8(f.readAll());
        if (html != golden) {
            const auto a = html.split('\n'), b = golden.split('\n');
            for (int i = 0; i < std::min(a.size(), b.size()); ++i)
                if (a[i] != b[i])
                    QFAIL(qPrintable(QString("first difference at line %1:\n got: %2\nwant: %3")
                                         .arg(i + 1)
                                         .arg(a[i], b[i])));
            QFAIL("report length differs from the golden file");
        }
    }

    void numbersAreTheHandComputedOnes_data() {
        QTest::addColumn<QString>("needle");
        // Median step of Base: 10.00 ms; of Fast: 8.00 ms (every step the same length).
        QTest::newRow("base median") << "<td class=\"n\">10.00</td>";
        QTest::newRow("fast median") << "<td class=\"n\">8.00</td>";
        // 8192 tokens / 10 ms = 819.2k tokens/s; / 8 ms = 1.02M tokens/s.
        QTest::newRow("base throughput") << "819.2k tokens/s";
        QTest::newRow("fast throughput") << "1.02M tokens/s";
        // Speedup 10 / 8 = 1.25; every step identical, so the CI is degenerate but excludes 1.
        QTest::newRow("speedup") << "1.25×";
        // Attribution total: 8 - 10 = -2.00 ms.
        QTest::newRow("attribution total") << "<b>-2.00</b>";
        QTest::newRow("no script") << "</html>";
    }
    void numbersAreTheHandComputedOnes() {
        QFETCH(QString, needle);
        static const auto html = QString::fromStdString(reportOf("numbers.cnpdb"));
        QVERIFY2(html.contains(needle), qPrintable(needle));
        QVERIFY(!html.contains("<script"));
    }

    void emptyWorkspaceIsAnError() {
        Workspace ws(dir_.filePath("empty.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::ostringstream out;
        QVERIFY_THROWS_EXCEPTION(InputError, writeHtmlReport(ws, out));
    }
};

QTEST_APPLESS_MAIN(TestHtmlReport)
#include "tst_htmlreport.moc"
