// Issue 15.7 and 15.8: the command line and the menus as a user meets them. `--run` with an unknown run
// fails with a message and exit 2; `--size` is in device-independent pixels (a 2x PNG at scale 2); the
// import filter takes .cnpt.gz; File → Export Report / Run Trace write complete files behind a progress
// dialog; Help lists the real shortcuts and About names the version; a numeric column sorts largest
// first on the first click; a new empty workspace shows no stale baseline; View → Theme switches the
// palette that charts, timeline and tables draw from, and remembers it.
#include "AblationPage.h"
#include "ChartView.h"
#include "DemoWorkspace.h"
#include "KernelFilterProxy.h"
#include "KernelStatsModel.h"
#include "KernelsPage.h"
#include "KeyboardShortcutsDialog.h"
#include "MainWindow.h"
#include "TestPaths.h"
#include "ThemeMode.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"

#include <QAction>
#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QProgressDialog>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QtTest>

using namespace cnp;
using namespace cnp::wb;

namespace {

struct Result {
    int code = -1;
    QString out, err;
};

Result runWorkbench(const QStringList& args, const QString& scale = QString()) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    if (!scale.isEmpty())
        env.insert(QStringLiteral("QT_SCALE_FACTOR"), scale);
    p.setProcessEnvironment(env);
    p.start(testpaths::workbenchPath(), args);
    if (!p.waitForFinished(60000))
        return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

void whenModal(std::function<void(QWidget*)> answer) {
    auto* poll = new QTimer;
    QObject::connect(poll, &QTimer::timeout, poll, [poll, answer]() {
        if (QWidget* w = QApplication::activeModalWidget()) {
            poll->stop();
            poll->deleteLater();
            answer(w);
        }
    });
    poll->start(20);
}

QAction* actionNamed(const QWidget& w, const QString& text) {
    for (QAction* a : w.findChildren<QAction*>())
        if (QString(a->text()).remove(QLatin1Char('&')) == text)
            return a;
    return nullptr;
}

} // namespace

class TestMenus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void unknownRunIsAnError();
    void planFromTheCommandLine();
    void sizeIsDeviceIndependent_data();
    void sizeIsDeviceIndependent();
    void importTakesEveryFormat();
    void exportsWriteFiles_data();
    void exportsWriteFiles();
    void helpMenu();
    void numericColumnSortsDescendingFirst();
    void newWorkspaceHasNoStaleBaseline();
    void themeSwitchesEverything();

private:
    QTemporaryDir dir_;
    QString demo_;
};

void TestMenus::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QApplication::setApplicationVersion(QStringLiteral("9.8.7"));
    demo_ = wbtest::buildDemoWorkspace(dir_, 2);
}

void TestMenus::unknownRunIsAnError() {
    const Result r = runWorkbench({demo_, QStringLiteral("--run"), QStringLiteral("nosuchrun"),
                                   QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("x.png"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("no run named 'nosuchrun'")), qPrintable(r.err));
    QVERIFY(r.err.contains(QStringLiteral("base")) && r.err.contains(QStringLiteral("ckpt"))); // the choices
    QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("x.png"))));
}

// `--plan FILE` opens the Plans page on the plan (it was an unknown option); a plan it cannot read is an
// error naming the file, exit 2.
void TestMenus::planFromTheCommandLine() {
    const QString plan = testpaths::sourceDir() + QStringLiteral("/resources/plans/single-gpu-llama.yaml");
    const QString png = dir_.filePath(QStringLiteral("plan.png"));
    const Result ok =
        runWorkbench({demo_, QStringLiteral("--plan"), plan, QStringLiteral("--screenshot"), png});
    QVERIFY2(ok.code == 0, qPrintable(ok.err));
    QVERIFY(QFileInfo::exists(png));
    const QString missing = dir_.filePath(QStringLiteral("no-such-plan.yaml"));
    const Result bad = runWorkbench({demo_, QStringLiteral("--plan"), missing, QStringLiteral("--screenshot"),
                                     dir_.filePath(QStringLiteral("y.png"))});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains(QStringLiteral("cnp-workbench: ") + missing + QStringLiteral(": cannot read")),
             qPrintable(bad.err));
    QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("y.png"))));
}

void TestMenus::sizeIsDeviceIndependent_data() {
    QTest::addColumn<QString>("scale");
    QTest::addColumn<QSize>("png");
    QTest::newRow("scale 1") << QStringLiteral("1") << QSize(1024, 640);
    QTest::newRow("scale 2") << QStringLiteral("2") << QSize(2048, 1280);
}

// --size 1024x640 is the window's size in device-independent pixels: exactly that at scale 1 (no page
// forces it wider), twice that in physical pixels at scale 2.
void TestMenus::sizeIsDeviceIndependent() {
    QFETCH(QString, scale);
    QFETCH(QSize, png);
    const QString out = dir_.filePath(QStringLiteral("size-%1.png").arg(scale));
    const Result r = runWorkbench({demo_, QStringLiteral("--page"), QStringLiteral("timeline"),
                                   QStringLiteral("--screenshot"), out, QStringLiteral("--size"),
                                   QStringLiteral("1024x640")},
                                  scale);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QCOMPARE(QImage(out).size(), png);
}

void TestMenus::importTakesEveryFormat() {
    const QString filter = MainWindow::importFilter();
    for (const char* pattern : {"*.json", "*.json.gz", "*.sqlite", "*.cnpt", "*.cnpt.gz"})
        QVERIFY2(filter.contains(QLatin1String(pattern)), pattern);
    MainWindow w;
    QVERIFY(actionNamed(w, QStringLiteral("Import Trace Folder…")));
}

void TestMenus::exportsWriteFiles_data() {
    QTest::addColumn<QString>("kind"); // report-html, report-pdf, trace-json, trace-csv
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("magic"); // first bytes of the file (or of kernels.csv in the folder)
    QTest::newRow("HTML report") << "report-html"
                                 << "r.html" << QByteArray("<!DOCTYPE html");
    QTest::newRow("PDF report") << "report-pdf"
                                << "r.pdf" << QByteArray("%PDF-");
    QTest::newRow("Perfetto trace, gzip") << "trace-json"
                                          << "t.json.gz" << QByteArray("\x1f\x8b");
    QTest::newRow("CSV tables") << "trace-csv"
                                << "csv" << QByteArray("");
}

void TestMenus::exportsWriteFiles() {
    QFETCH(QString, kind);
    QFETCH(QString, name);
    QFETCH(QByteArray, magic);
    MainWindow w;
    w.setPersistSettings(false);
    w.show();
    QVERIFY(w.openWorkspace(demo_));
    const QString path = dir_.filePath(name);
    QSignalSpy done(&w, &MainWindow::exportFinished);
    const bool started = kind.startsWith(QLatin1String("report"))
                             ? w.exportReport(path, kind == QLatin1String("report-pdf"))
                             : w.exportTrace(w.session()->findRun(QStringLiteral("ckpt"))->id, path,
                                             kind == QLatin1String("trace-csv"));
    QVERIFY(started);
    QVERIFY(w.findChild<QProgressDialog*>(QStringLiteral("exportProgress")));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    QCOMPARE(done.first().at(0).toBool(), true);
    QFile f(kind == QLatin1String("trace-csv") ? path + QStringLiteral("/kernels.csv") : path);
    QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
    const QByteArray head = f.read(32);
    QVERIFY2(head.startsWith(magic), head.constData());
    QVERIFY(!head.isEmpty());
}

void TestMenus::helpMenu() {
    MainWindow w;
    w.setPersistSettings(false);
    KeyboardShortcutsDialog d(w.menuBar());
    QStringList lines;
    for (int r = 0; r < d.table()->rowCount(); ++r)
        lines << d.table()->item(r, 1)->text() + QLatin1Char('=') + d.table()->item(r, 2)->text();
    QVERIFY2(lines.contains(QStringLiteral("Reload Workspace=F5")), qPrintable(lines.join(", ")));
    QVERIFY(lines.contains(QStringLiteral("Export Report…=Ctrl+E")));
    QVERIFY(lines.contains(QStringLiteral("Zoom in / out=W / S")));
    QVERIFY2(lines.contains(QStringLiteral("Back / forward to the views shown=Alt+Left / Alt+Right")),
             qPrintable(lines.join(", ")));
    QString about;
    whenModal([&about](QWidget* m) {
        auto* box = qobject_cast<QMessageBox*>(m);
        QVERIFY(box);
        about = box->text();
        box->accept();
    });
    actionNamed(w, QStringLiteral("About CNP Workbench"))->trigger();
    QVERIFY2(about.contains(QStringLiteral("9.8.7")), qPrintable(about));
}

void TestMenus::numericColumnSortsDescendingFirst() {
    MainWindow w;
    w.setPersistSettings(false);
    w.resize(1280, 800);
    w.showPage(PageId::Kernels);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openWorkspace(demo_));
    auto* page = qobject_cast<KernelsPage*>(w.page(PageId::Kernels));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && page->model()->rowCount() > 1, 20000);
    QHeaderView* header = page->view()->horizontalHeader();
    auto click = [&](int column) {
        const int x = header->sectionViewportPosition(column) + header->sectionSize(column) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    };
    click(KernelStatsModel::CountColumn);
    QCOMPARE(header->sortIndicatorSection(), int(KernelStatsModel::CountColumn));
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
    QVERIFY(page->proxy()->index(0, KernelStatsModel::CountColumn).data(Qt::UserRole).toLongLong() >=
            page->proxy()->index(1, KernelStatsModel::CountColumn).data(Qt::UserRole).toLongLong());
    click(KernelStatsModel::CountColumn); // the second click toggles
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    click(KernelStatsModel::NameColumn); // text: A to Z first
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
}

void TestMenus::newWorkspaceHasNoStaleBaseline() {
    MainWindow w;
    w.setPersistSettings(false);
    w.showPage(PageId::Ablation);
    w.show();
    QVERIFY(w.openWorkspace(demo_));
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    auto* baseline = page->findChild<QComboBox*>(QStringLiteral("baselineBox"));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && baseline->count() == 2, 20000);
    QVERIFY(w.openWorkspace(dir_.filePath(QStringLiteral("empty.cnpdb")), true));
    QTRY_VERIFY(page->isContentReady());
    QCOMPARE(baseline->count(), 0);
    QVERIFY(page->result().configs.empty());
}

void TestMenus::themeSwitchesEverything() {
    MainWindow w;
    w.resize(1280, 800);
    w.showPage(PageId::Ablation);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openWorkspace(demo_));
    auto* page = qobject_cast<AblationPage*>(w.page(PageId::Ablation));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady() && !page->result().configs.empty(), 20000);
    w.themeAction(ThemeMode::Dark)->trigger();
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
    QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("dark"));
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady(), 20000);
    QCoreApplication::processEvents();
    const QImage chart = page->valueChart()->grab().toImage();
    QVERIFY2(chart.pixelColor(3, 3).lightness() < 100, qPrintable(chart.pixelColor(3, 3).name()));
    auto* table = page->findChild<QTableView*>();
    QVERIFY(table->palette().color(QPalette::Base).lightness() < 100);
    QVERIFY(w.themeAction(ThemeMode::Dark)->isChecked());
    // Remembered: the next window starts dark.
    QCOMPARE(savedTheme(), ThemeMode::Dark);
    w.themeAction(ThemeMode::Light)->trigger();
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 150);
    QCoreApplication::processEvents();
    QTRY_VERIFY_WITH_TIMEOUT(page->isContentReady(), 20000);
    QVERIFY(page->valueChart()->grab().toImage().pixelColor(3, 3).lightness() > 150);
}

QTEST_MAIN(TestMenus)
#include "tst_menus.moc"
