// The PDF report (cairo + Pango) of the report fixture (tests/common/ReportFixture.h), read back with
// poppler (Debian poppler-utils, scripts/install-deps): pdftotext finds the configuration names
// (Chinese, "→"), the hand-computed numbers and the page footers; pdffonts shows every font embedded;
// pdfinfo the paper size. Long tables continue on the next page under a repeated header; elided kernel
// names are listed in full in the appendix; output is reproducible.
#include "ReportFixture.h"

#include "core/InputError.h"
#include "report/DrawnText.h"
#include "report/PdfReport.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace cnp;

class TestPdfReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::string pdfOf(const std::string& wsName, const ReportOptions& opt) {
        Workspace ws(dir_.filePath(QString::fromStdString(wsName)).toStdString(), Workspace::Mode::ReadOnly);
        std::ostringstream out;
        writePdfReport(ws, out, opt);
        return out.str();
    }
    QString saved(const std::string& pdf, const QString& name) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(pdf.data(), static_cast<qint64>(pdf.size()));
        return path;
    }
    // stdout of a poppler tool; fails the test on a non-zero exit or any complaint on stderr.
    QString poppler(const QString& tool, const QStringList& args) {
        QProcess p;
        p.start(tool, args);
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return QStringLiteral("<%1 failed>").arg(tool);
        const auto err = QString::fromUtf8(p.readAllStandardError());
        if (!err.isEmpty())
            return QStringLiteral("<%1: %2>").arg(tool, err);
        return QString::fromUtf8(p.readAllStandardOutput());
    }
    ReportOptions reproducible() {
        ReportOptions opt;
        opt.includeTimestamp = false;
        return opt;
    }

private slots:
    void initTestCase() {
        if (QStandardPaths::findExecutable("pdftotext").isEmpty() ||
            QStandardPaths::findExecutable("pdffonts").isEmpty())
            QSKIP("poppler-utils not installed (scripts/install-deps)");
        Workspace ws(dir_.filePath("fixture.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        testing::buildReportFixture(ws);
        // 40 configurations whose ablation table cannot fit on the first page.
        Workspace many(dir_.filePath("many.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        for (int i = 0; i < 40; ++i) {
            auto t = testing::steppedTrace("run" + std::to_string(i), "Config " + std::to_string(i),
                                           {10'000'000 - i * 100'000, 10'000'000 - i * 100'000});
            addTrace(many, std::move(t));
        }
        // A kernel name far wider than any column: elided in the tables, in full in the appendix.
        Workspace longName(dir_.filePath("long.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        auto t = testing::steppedTrace("run", "Only", {10'000'000, 10'000'000}, 8192, longKernel());
        addTrace(longName, std::move(t));
    }

    static std::string longKernel() {
        std::string s = "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_";
        for (int i = 0; i < 12; ++i)
            s += "stage" + std::to_string(i) + "_";
        return s + "align8>(Params)";
    }

    void textHasNamesNumbersAndFooters_data() {
        QTest::addColumn<QString>("needle");
        QTest::newRow("chinese configuration") << testing::kFixtureBase;
        QTest::newRow("arrow configuration") << testing::kFixtureFused;
        QTest::newRow("base median") << "10.00";
        QTest::newRow("fused median") << "8.00";
        // 4 steps per configuration: fewer than a CI needs, so the ratio comes without one.
        QTest::newRow("speedup") << "1.25× (too few steps for a CI)";
        QTest::newRow("base throughput") << "819.2k tokens/s";
        QTest::newRow("attribution total") << "-2.00";
        QTest::newRow("section") << "What each step bought";
        QTest::newRow("methodology") << "Methodology";
        QTest::newRow("hostile kernel") << "gemm<float, 4>(Args&)";
        QTest::newRow("footer") << "page 1 of";
    }
    void textHasNamesNumbersAndFooters() {
        QFETCH(QString, needle);
        static const QString text = poppler(
            "pdftotext", {"-enc", "UTF-8", saved(pdfOf("fixture.cnpdb", reproducible()), "f.pdf"), "-"});
        QVERIFY2(text.contains(needle), qPrintable(needle + "\n" + text.left(400)));
    }

    // Every font embedded (a subset), one of them with CJK coverage for "基线".
    void fontsEmbedded() {
        const auto fonts = poppler("pdffonts", {saved(pdfOf("fixture.cnpdb", reproducible()), "fonts.pdf")});
        const auto lines = fonts.split('\n', Qt::SkipEmptyParts).mid(2); // after the two header lines
        QVERIFY2(!lines.isEmpty(), qPrintable(fonts));
        static const QRegularExpression emb(QStringLiteral("\\s(yes|no)\\s+(yes|no)\\s+(yes|no)\\s"));
        for (const auto& l : lines) {
            const auto m = emb.match(l);
            QVERIFY2(m.hasMatch() && m.captured(1) == "yes" && m.captured(2) == "yes", qPrintable(l));
        }
        QVERIFY2(fonts.contains("CJK"), qPrintable(fonts));
    }

    void paperSize_data() {
        QTest::addColumn<int>("paper");
        QTest::addColumn<QString>("size");
        QTest::newRow("a4") << static_cast<int>(PaperSize::A4) << "595.28 x 841.89 pts (A4)";
        QTest::newRow("letter") << static_cast<int>(PaperSize::Letter) << "612 x 792 pts (letter)";
    }
    void paperSize() {
        QFETCH(int, paper);
        QFETCH(QString, size);
        auto opt = reproducible();
        opt.paper = static_cast<PaperSize>(paper);
        const auto info = poppler("pdfinfo", {saved(pdfOf("fixture.cnpdb", opt), "paper.pdf")});
        QVERIFY2(info.contains(size), qPrintable(info));
    }

    void reproducibleOutput() {
        QCOMPARE(pdfOf("fixture.cnpdb", reproducible()), pdfOf("fixture.cnpdb", reproducible()));
    }

    // The ablation table of 40 configurations continues on page 2 under its repeated header, and the
    // footers count the pages.
    void tablesSplitWithRepeatedHeaders() {
        auto opt = reproducible();
        opt.sections = {ReportSection::Ablation};
        const auto path = saved(pdfOf("many.cnpdb", opt), "many.pdf");
        const auto page1 = poppler("pdftotext", {"-f", "1", "-l", "1", "-enc", "UTF-8", path, "-"});
        const auto page2 = poppler("pdftotext", {"-f", "2", "-l", "2", "-enc", "UTF-8", path, "-"});
        QVERIFY2(page1.contains("Median step"), qPrintable(page1));
        QVERIFY2(page2.contains("Median step"), qPrintable(page2)); // the header again
        QVERIFY2(page2.contains("Config 39"), qPrintable(page2));
        const auto pages = poppler("pdfinfo", {path});
        static const QRegularExpression count(QStringLiteral("Pages:\\s+(\\d+)"));
        const int n = count.match(pages).captured(1).toInt();
        QVERIFY2(n >= 2, qPrintable(pages));
        const auto last =
            poppler("pdftotext", {"-f", QString::number(n), "-l", QString::number(n), path, "-"});
        QVERIFY2(last.contains(QStringLiteral("page %1 of %1").arg(n)), qPrintable(last));
    }

    void longKernelNamesInAppendix() {
        auto opt = reproducible();
        opt.sections = {ReportSection::Kernels};
        const auto text =
            poppler("pdftotext", {"-enc", "UTF-8", saved(pdfOf("long.cnpdb", opt), "long.pdf"), "-"});
        QVERIFY2(text.contains("Appendix: kernel names in full"), qPrintable(text));
        // The numbered, elided cell. cairo writes the elided glyphs with the full name as their ActualText
        // (copying the cell gives the whole name), so pdftotext cannot see the "…" drawn in the middle.
        QVERIFY2(text.contains("[1] void cutlass"), qPrintable(text));
        // The appendix wraps the name; compare without the whitespace of the line breaks.
        static const QRegularExpression space(QStringLiteral("\\s"));
        QString flat = text, name = QString::fromStdString(longKernel());
        QVERIFY2(flat.remove(space).contains(name.remove(space)), qPrintable(text));
    }

    // A sub-heading never ends a page without the start of its block: the whole figure, the first note
    // of a list, a table's header and first two rows. The heading is placed after 0..55 one-line
    // paragraphs (about 15.5 pt each), so it meets every distance to the page's bottom; its page and the
    // page of its block's marker must be the same.
    void headingsKeepWithTheirBlock_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("marker");
        QTest::newRow("heatmap figure") << 0 << "Figure 1. marker caption";
        QTest::newRow("notes") << 1 << "marker note";
        QTest::newRow("table") << 2 << "marker row 1";
    }
    void headingsKeepWithTheirBlock() {
        QFETCH(int, kind);
        QFETCH(QString, marker);
        report::Block block;
        if (kind == 0) {
            report::HeatmapChart h;
            h.unit = "ms";
            h.rowTitle = "rank";
            h.columnTitle = "step";
            h.columns = 10;
            for (int r = 0; r < 16; ++r)
                h.rowLabels.push_back(std::to_string(r));
            for (int i = 0; i < 160; ++i)
                h.values.push_back(1000 + i % 7);
            block = report::Figure{"marker caption", h};
        } else if (kind == 1) {
            report::Note n{InsightSeverity::Warning,
                           "marker note",
                           "An explanation of two lines or so, long "
                           "enough to wrap once across the width of an A4 page in the body text size.",
                           {}};
            for (int i = 0; i < 8; ++i)
                n.evidence.push_back("evidence line " + std::to_string(i));
            block = report::NoteList{{n}};
        } else {
            report::Table t;
            t.id = "marker";
            t.columns = {{"Name", report::ColumnKind::Text, {"name"}},
                         {"Value", report::ColumnKind::Number, {"v"}}};
            for (int r = 1; r <= 3; ++r) {
                report::Cell name, value;
                name.text = "marker row " + std::to_string(r);
                value.text = "1.00";
                t.rows.push_back({name, value});
            }
            block = t;
        }
        QStringList misplaced;
        for (int fillers = 0; fillers <= 55; ++fillers) {
            report::ReportModel m;
            m.title = "Keep with next";
            m.workspace = "w.cnpdb";
            report::Section s{ReportSection::Ranks, "Section", {}};
            for (int i = 0; i < fillers; ++i)
                s.blocks.push_back(report::Paragraph{"filler " + std::to_string(i)});
            s.blocks.push_back(report::Heading{"Kept heading"});
            s.blocks.push_back(block);
            m.sections.push_back(s);
            std::ostringstream out;
            writePdfReport(m, out);
            const QStringList pages =
                poppler("pdftotext", {"-enc", "UTF-8", saved(out.str(), "keep.pdf"), "-"}).split('\f');
            int headingPage = -1, markerPage = -1;
            for (int i = 0; i < pages.size(); ++i) {
                headingPage = headingPage < 0 && pages[i].contains("Kept heading") ? i : headingPage;
                markerPage = markerPage < 0 && pages[i].contains(marker) ? i : markerPage;
            }
            QVERIFY2(headingPage >= 0 && markerPage >= 0, qPrintable(pages.join("\n----\n")));
            if (headingPage != markerPage)
                misplaced << QString::number(fillers);
        }
        QVERIFY2(misplaced.isEmpty(),
                 qPrintable("heading alone at the bottom after fillers " + misplaced.join(' ')));
    }

    // Issue 33.5: megabyte names and environment values took 35 to 106 s to lay out. Every text drawn is
    // cut to 4096 bytes and "…" first (report/DrawnText), never inside a code point: what Pango lays out is
    // counted here, not timed.
    void drawnTextBounded_data() {
        QTest::addColumn<QString>("unit");  // repeated to 1 MB
        QTest::addColumn<int>("keptBytes"); // what is laid out before "…"
        QTest::newRow("ASCII") << "x" << 4096;
        QTest::newRow("3-byte code points") << "\u2192" << 4095; // 1365 arrows; the 1366th would cross 4096
    }
    void drawnTextBounded() {
        QFETCH(QString, unit);
        QFETCH(int, keptBytes);
        const std::string u = unit.toStdString();
        std::string huge;
        while (huge.size() < (std::size_t(1) << 20))
            huge += u;
        QCOMPARE(report::drawnText(huge), huge.substr(0, std::size_t(keptBytes)) + "\u2026");
        QCOMPARE(report::drawnText(huge.substr(0, 4096 / u.size() * u.size())),
                 huge.substr(0, 4096 / u.size() * u.size())); // within the bound: unchanged
    }

    void emptyWorkspaceIsAnError() {
        Workspace ws(dir_.filePath("empty.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        std::ostringstream out;
        QVERIFY_THROWS_EXCEPTION(InputError, writePdfReport(ws, out));
    }
};

QTEST_APPLESS_MAIN(TestPdfReport)
#include "tst_pdfreport.moc"
