// The Plans page's Run against the real `cnp run` (no fake CLI): a two-configuration plan whose workload is
// the collector_harness stand-in (tests/collector/harness: the real libcnp-collector.so loaded against the
// fake CUPTI of tests/collector, a few NVTX steps of fake kernels, a throughput line per step), run with
// the local backend. Pressing Run must show each repeat's progress (running before done), end with every
// repeat done, and land one run per configuration x repeat in the open workspace, labelled with its
// configuration and repeat, which the ablation page then shows. Skips where the collector is not built.
#include "AblationPage.h"
#include "CollectorPaths.h"
#include "MainWindow.h"
#include "PlansPage.h"
#include "RunTreeModel.h"
#include "TestPaths.h"
#include "WorkspaceDock.h"
#include "WorkspaceSession.h"

#include "store/Workspace.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include <tuple>

using namespace cnp::wb;

namespace {

// 2 configurations x (2 traced + 1 untraced repeats); 4 steps of 150 ms each, so every job is seen running.
QString writePlan(const QTemporaryDir& dir) {
    const QString path = dir.filePath("plan.yaml");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(
        QString("name: plans page local run\n"
                "workload:\n  command: ['%1', '%2', '-', workload]\n"
                "repeats: {traced: 2, untraced: 1}\n"
                "tokensPerStep: 1024\n"
                "logMetric: {regex: 'throughput ([0-9.]+) tokens/s', unit: tokens/s}\n"
                "timeout: 60\n"
                "configurations:\n"
                "  - name: Base\n    image: localhost/cnp-test:1\n"
                "    env: {HARNESS_THROUGHPUT: \"1000\", HARNESS_STEPS: \"4\", HARNESS_STEP_MS: \"150\"}\n"
                "  - name: Base+Opt\n    extends: Base\n    env: {HARNESS_THROUGHPUT: \"2000\"}\n")
            .arg(testpaths::harnessPath(), testpaths::fakeCuptiPath())
            .toUtf8());
    return path;
}

// "Base/repeat 1" for a repeat's row, "Base" for a configuration's.
QString pathOf(const QTreeWidgetItem* it) {
    QString p = it->text(0);
    for (const QTreeWidgetItem* up = it->parent(); up; up = up->parent())
        p = up->text(0) + '/' + p;
    return p;
}

} // namespace

class TestPlansPageLocalRun : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    std::unique_ptr<MainWindow> window;
    PlansPage* page = nullptr;

private slots:
    void initTestCase() {
        if (!kCollectorBuilt)
            QSKIP("libcnp-collector.so and its harness are not built here (no CUPTI headers)");
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(dir.isValid());
        qputenv("CNP_CLI", testpaths::cliPath().toLocal8Bit()); // the real CLI
        qputenv("CNP_COLLECTOR_LIB", testpaths::collectorPath().toLocal8Bit());
        window = std::make_unique<MainWindow>();
        window->setPersistSettings(false);
        window->resize(1280, 800);
        QVERIFY(window->openWorkspace(dir.filePath("study.cnpdb"), true));
        window->showPage(PageId::Plans);
        window->show();
        page = qobject_cast<PlansPage*>(window->page(PageId::Plans));
        QVERIFY(page);
        QString error;
        QVERIFY2(page->openPlan(writePlan(dir), &error), qPrintable(error));
        QTRY_VERIFY(page->lintCount() > 0);
        QVERIFY(!cnp::plan::hasErrors(page->lintResult().findings));
        QCOMPARE(page->findChild<QComboBox*>("backend")->currentText(), QStringLiteral("local"));
    }

    void runPressesThroughToTheWorkspace() {
        auto* progress = page->findChild<QTreeWidget*>("runProgress");
        QStringList seen; // "path: state" as the page shows them, in order (a change may repeat)
        connect(progress, &QTreeWidget::itemChanged, this, [&](QTreeWidgetItem* it, int column) {
            if (column == 1 && !it->text(1).isEmpty())
                seen << pathOf(it) + ": " + it->text(1);
        });
        QSignalSpy finished(page, &PlansPage::runFinished);
        auto* run = page->findChild<QToolButton*>("runPlan");
        QVERIFY(run->isEnabled());
        QTest::mouseClick(run, Qt::LeftButton);
        QTRY_VERIFY(page->isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished[0][0].toInt(), 0);
        QCOMPARE(page->findChild<QLabel*>("planStatus")->text(),
                 QStringLiteral("Finished: 6 done, 0 failed, 0 skipped, 0 cancelled"));

        // Each repeat was seen running, then done, and ends done.
        for (const QString config : {"Base", "Base+Opt"})
            for (const QString repeat : {"repeat 1", "repeat 2", "repeat 3 (untraced)"}) {
                const QString row = config + '/' + repeat;
                const auto running = seen.indexOf(row + ": running"), done = seen.indexOf(row + ": done");
                QVERIFY2(running >= 0 && done > running, qPrintable(row + " in:\n" + seen.join('\n')));
                const auto last =
                    seen.lastIndexOf(QRegularExpression(QRegularExpression::escape(row) + ": .*"));
                QCOMPARE(seen.value(last), row + ": done");
            }

        // One run per configuration x repeat, labelled.
        cnp::Workspace ws(dir.filePath("study.cnpdb").toStdString(), cnp::Workspace::Mode::ReadOnly);
        const auto runs = ws.runs();
        QCOMPARE(runs.size(), std::size_t(6));
        for (const auto& [name, config, repeat] :
             {std::tuple{"Base-r1", "Base", "1"}, std::tuple{"Base-r2", "Base", "2"},
              std::tuple{"Base-r3", "Base", "3"}, std::tuple{"Base+Opt-r1", "Base+Opt", "1"},
              std::tuple{"Base+Opt-r2", "Base+Opt", "2"}, std::tuple{"Base+Opt-r3", "Base+Opt", "3"}}) {
            const auto r = ws.findRun(name);
            QVERIFY2(r, name);
            QCOMPARE(r->info.config, std::string(config));
            QCOMPARE(ws.runAttribute(r->id, "plan.repeat"), std::optional<std::string>(repeat));
            QVERIFY(r->rankCount >= 1);
            QVERIFY(window->session()->findRun(QString::fromUtf8(name)));
            // The dock says what each run is: the untraced repeat (the overhead baseline) is no trace.
            const QModelIndex row = window->workspaceDock()->model()->indexOfRun(r->id);
            QCOMPARE(row.siblingAtColumn(RunTreeModel::KindColumn).data().toString(),
                     QString(repeat) == "3" ? QStringLiteral("untraced") : QStringLiteral("real"));
        }
        QCOMPARE(window->session()->configurations(), (QStringList{"Base", "Base+Opt"}));

        // ... and on the ablation page, both configurations in plan order.
        window->showPage(PageId::Ablation);
        auto* ablation = qobject_cast<AblationPage*>(window->page(PageId::Ablation));
        QTRY_VERIFY_WITH_TIMEOUT(ablation->isContentReady() && ablation->result().configs.size() == 2, 20000);
        QCOMPARE(ablation->result().configs[0].config, std::string("Base"));
        QCOMPARE(ablation->result().configs[1].config, std::string("Base+Opt"));
    }

    void cleanupTestCase() { window.reset(); }
};

QTEST_MAIN(TestPlansPageLocalRun)
#include "tst_planspagelocalrun.moc"
