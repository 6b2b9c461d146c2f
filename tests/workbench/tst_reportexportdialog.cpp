// File → Export Report…: the options follow the controls (configurations checked and ordered, baseline,
// sections, paper), Export is only possible with a path, a configuration and a section, and an export
// runs to the end in the background and writes the file (the report fixture, tests/common/ReportFixture.h).
#include "ReportExportDialog.h"
#include "ReportFixture.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
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
