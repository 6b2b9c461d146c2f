// File → Export Report…: the options follow the controls (configurations checked and ordered, baseline,
// sections, paper), Export is only possible with a path, a configuration and a section, and an export
// runs to the end in the background and writes the file (the report fixture, tests/common/ReportFixture.h).
#include "ReportExportDialog.h"
#include "ReportFixture.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

class TestReportExportDialog : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString ws_;
    const QStringList configs_{QString::fromUtf8(testing::kFixtureBase),
                               QString::fromUtf8(testing::kFixtureFused)};

    static QListWidget* list(ReportExportDialog& d, const char* name) {
        return d.findChild<QListWidget*>(QString::fromLatin1(name));
    }
    static QComboBox* combo(ReportExportDialog& d, const char* name) {
        return d.findChild<QComboBox*>(QString::fromLatin1(name));
    }
    static QLineEdit* pathEdit(ReportExportDialog& d) { return d.findChild<QLineEdit*>("path"); }

    // Answers the next modal question box with `answer` once it shows; *asked says whether one did.
    static void answerNextQuestion(QMessageBox::StandardButton answer, QString* asked) {
        QTimer::singleShot(0, [answer, asked]() {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box)
                return;
            *asked = box->text();
            box->button(answer)->click();
        });
    }

    // Exports with the dialog's current settings to `path`; the outcome's ok flag.
    static bool exportTo(ReportExportDialog& d, const QString& path) {
        d.setOutputPath(path);
        QSignalSpy done(&d, &ReportExportDialog::exportFinished);
        d.startExport();
        if (!d.isExporting())
            return false;
        return done.wait(60000) && done.at(0).at(0).toBool();
    }

private slots:
    void initTestCase() {
        ws_ = dir_.filePath("fixture.cnpdb");
        Workspace w(ws_.toStdString(), Workspace::Mode::CreateIfMissing);
        testing::buildReportFixture(w);
    }

    void defaultsAreTheWholeStudy() {
        ReportExportDialog d(ws_, configs_);
        const auto o = d.options();
        QCOMPARE(o.ablation.order, (std::vector<std::string>{testing::kFixtureBase, testing::kFixtureFused}));
        QCOMPARE(o.ablation.baseline, std::string(testing::kFixtureBase));
        QCOMPARE(o.sections, report::allSections());
        QCOMPARE(o.paper, PaperSize::A4);
        QCOMPARE(d.format(), ReportFormat::Html);
    }

    void optionsFollowTheControls() {
        ReportExportDialog d(ws_, configs_);
        list(d, "configurations")->item(0)->setCheckState(Qt::Unchecked);
        list(d, "sections")->item(1)->setCheckState(Qt::Unchecked); // environment
        combo(d, "format")->setCurrentIndex(1);                     // PDF
        combo(d, "paper")->setCurrentIndex(1);                      // Letter
        const auto o = d.options();
        QCOMPARE(o.ablation.order, std::vector<std::string>{testing::kFixtureFused});
        QCOMPARE(o.ablation.baseline, std::string(testing::kFixtureFused)); // the only one left
        QCOMPARE(o.sections.size(), report::allSections().size() - 1);
        QVERIFY(std::find(o.sections.begin(), o.sections.end(), ReportSection::Environment) ==
                o.sections.end());
        QCOMPARE(d.format(), ReportFormat::Pdf);
        QCOMPARE(o.paper, PaperSize::Letter);
        QVERIFY(combo(d, "paper")->isEnabled());
        combo(d, "format")->setCurrentIndex(0);
        QVERIFY(!combo(d, "paper")->isEnabled()); // paper is a PDF setting
    }

    // Issue 32.3: with Format changed to PDF the path kept report.html. The ending follows the format.
    void theFileNameFollowsTheFormat_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("formatIndex");
        QTest::addColumn<QString>("expected");
        QTest::newRow("html to pdf") << "/r/report.html" << 1 << "/r/report.pdf";
        QTest::newRow("htm to json") << "/r/report.htm" << 3 << "/r/report.json";
        QTest::newRow("html to csv folder") << "/r/report.html" << 2 << "/r/report";
        QTest::newRow("no ending to pdf") << "/r/report" << 1 << "/r/report.pdf";
        QTest::newRow("other dots kept") << "/r/v1.2/study.PDF" << 3 << "/r/v1.2/study.json";
        QTest::newRow("empty stays empty") << "" << 1 << "";
    }
    void theFileNameFollowsTheFormat() {
        QFETCH(QString, path);
        QFETCH(int, formatIndex);
        QFETCH(QString, expected);
        ReportExportDialog d(ws_, configs_);
        d.setOutputPath(path);
        combo(d, "format")->setCurrentIndex(formatIndex);
        QCOMPARE(d.outputPath(), expected);
    }

    // Issue 32.3: an existing report was silently overwritten. Replacing it asks; No writes nothing.
    void replacingAReportAsks_data() {
        QTest::addColumn<bool>("replace");
        QTest::newRow("no") << false;
        QTest::newRow("yes") << true;
    }
    void replacingAReportAsks() {
        QFETCH(bool, replace);
        const QString out = dir_.filePath(QStringLiteral("existing-%1.html").arg(replace));
        {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("an earlier report");
        }
        ReportExportDialog d(ws_, configs_);
        QString asked;
        answerNextQuestion(replace ? QMessageBox::Yes : QMessageBox::No, &asked);
        const bool ok = exportTo(d, out);
        QVERIFY2(asked.contains(QFileInfo(out).fileName()), qPrintable(asked));
        QCOMPARE(ok, replace);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().startsWith("<!DOCTYPE html>"), replace);
    }

    void aNewFileIsWrittenWithoutAsking() {
        ReportExportDialog d(ws_, configs_);
        QString asked;
        answerNextQuestion(QMessageBox::No, &asked);
        QVERIFY(exportTo(d, dir_.filePath("fresh.html")));
        QVERIFY(asked.isEmpty());
    }

    // Issue 32.9: "&Save to:" showed its ampersand (a row of two widgets had no buddy).
    void everyLabelHasItsBuddy() {
        ReportExportDialog d(ws_, configs_);
        for (QLabel* l : d.findChildren<QLabel*>())
            if (l->text().contains('&'))
                QVERIFY2(l->buddy(), qPrintable(l->text()));
        bool found = false;
        for (QLabel* l : d.findChildren<QLabel*>())
            found = found || (l->text() == "&Save to:" && l->buddy() == pathEdit(d));
        QVERIFY(found);
    }

    // Issue 32.1: the default selection holds only configurations with runs (a plan order may name one
    // whose jobs all failed, and a report of it fails).
    void theDefaultSelectionHasRunsOnly() {
        std::vector<RunRecord> runs(2);
        runs[0].info.config = "B";
        runs[1].info.config = "A";
        QCOMPARE(configurationsWithRuns({"A", "Gone", "B", "Never"}, runs), (QStringList{"A", "B"}));
        QCOMPARE(configurationsWithRuns({"A"}, {}), QStringList());
    }

    void exportNeedsPathConfigurationAndSection() {
        ReportExportDialog d(ws_, configs_);
        QPushButton* button = nullptr;
        for (auto* b : d.findChildren<QPushButton*>())
            if (b->text() == "&Export")
                button = b;
        QVERIFY(button);
        QVERIFY(!button->isEnabled()); // no path yet
        d.setOutputPath(dir_.filePath("x.html"));
        QVERIFY(button->isEnabled());
        for (int i = 0; i < 2; ++i)
            list(d, "configurations")->item(i)->setCheckState(Qt::Unchecked);
        QVERIFY(!button->isEnabled());
    }

    void exportWritesTheReport_data() {
        QTest::addColumn<int>("formatIndex");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("html") << 0 << "r.html" << QByteArray("<!DOCTYPE html>");
        QTest::newRow("pdf") << 1 << "r.pdf" << QByteArray("%PDF-1.");
        QTest::newRow("csv") << 2 << "bundle/tables.csv" << QByteArray("section,table,file");
    }
    void exportWritesTheReport() {
        QFETCH(int, formatIndex);
        QFETCH(QString, file);
        QFETCH(QByteArray, magic);
        ReportExportDialog d(ws_, configs_);
        combo(d, "format")->setCurrentIndex(formatIndex);
        const QString out = dir_.filePath(file.section('/', 0, 0));
        d.setOutputPath(out);
        QSignalSpy done(&d, &ReportExportDialog::exportFinished);
        d.startExport();
        QVERIFY(d.isExporting());
        QVERIFY(done.wait(60000));
        QVERIFY2(done.at(0).at(0).toBool(), qPrintable(done.at(0).at(1).toString()));
        QFile f(dir_.filePath(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.read(magic.size()), magic);
        QVERIFY(!d.isExporting());
    }
};

QTEST_MAIN(TestReportExportDialog)
#include "tst_reportexportdialog.moc"
