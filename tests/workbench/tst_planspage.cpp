// The Plans page end to end in the main window: open a copy of the bundled study, edit the YAML (lint marks
// the error on its line), edit through the form (the YAML changes in place), dry-run preview, run and cancel
// through a fake `cnp` ($CNP_CLI, tests/data/plans/fake-cnp.sh) that speaks `cnp run`'s progress protocol and
// ingests a real trace with the real cnp, so the run appears in the workspace. With CNP_SCREENSHOT_DIR set,
// it also writes the page's screenshots (editing, lint error, running) at 1280x800 and 1024x640.
#include "AblationPage.h"
#include "LogViewerDialog.h"
#include "MainWindow.h"
#include "PlanEditor.h"
#include "PlanForm.h"
#include "PlanRunner.h"
#include "PlansPage.h"
#include "TestPaths.h"
#include "WorkspaceSession.h"

#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using namespace cnp::wb;

namespace {

const QString kStudy =
    testpaths::sourceDir() + QStringLiteral("/resources/plans/acs-ablation-llama3-8b.yaml");

// 1-based number of the first line of `text` containing `needle` (0 when none): the test finds its lines
// in the bundled plan rather than hard-coding them.
int lineOf(const QString& text, const QString& needle) {
    const QStringList lines = text.split('\n');
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(needle))
            return i + 1;
    return 0;
}

QString stateOf(QTreeWidget* t, const QStringList& path) {
    QTreeWidgetItem* it = nullptr;
    for (const QString& name : path) {
        QTreeWidgetItem* next = nullptr;
        const int n = it ? it->childCount() : t->topLevelItemCount();
        for (int i = 0; i < n && !next; ++i) {
            QTreeWidgetItem* c = it ? it->child(i) : t->topLevelItem(i);
            if (c->text(0) == name)
                next = c;
        }
        if (!next)
            return {};
        it = next;
    }
    return it ? it->text(1) : QString();
}

} // namespace

class TestPlansPage : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString planFile, argsFile;
    std::unique_ptr<MainWindow> window;
    PlansPage* page = nullptr;

    void screenshot(const QString& name) {
        const QString out = qEnvironmentVariable("CNP_SCREENSHOT_DIR");
        if (out.isEmpty())
            return;
        for (const QSize size : {QSize(1280, 800), QSize(1024, 640)}) {
            window->resize(size);
            QTest::qWait(100);
            QVERIFY(window->grab().save(
                QStringLiteral("%1/plans-%2-%3x%4.png").arg(out, name).arg(size.width()).arg(size.height())));
        }
        window->resize(1280, 800);
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY(dir.isValid());
        planFile = dir.filePath("study.yaml");
        argsFile = dir.filePath("args.txt");
        QVERIFY(QFile::copy(kStudy, planFile));
        QFile(planFile).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        QFile fake(dir.filePath("cnp"));
        QVERIFY(QFile::copy(testpaths::dataDir() + "/plans/fake-cnp.sh", fake.fileName()));
        fake.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("CNP_CLI", fake.fileName().toUtf8());
        qputenv("REAL_CNP", testpaths::cliPath().toLocal8Bit());
        qputenv("FAKE_ARGS", argsFile.toUtf8());
        qputenv("DEMO_TRACE",
                (testpaths::sourceDir() + "/resources/demo/demo_compile.json.gz").toLocal8Bit());
        window = std::make_unique<MainWindow>();
        window->setPersistSettings(false);
        window->resize(1280, 800);
        QVERIFY(window->openWorkspace(dir.filePath("study.cnpdb"), true));
        window->showPage(PageId::Plans);
        window->show();
        page = qobject_cast<PlansPage*>(window->page(PageId::Plans));
        QVERIFY(page);
    }

    void openAndLintClean() {
        // As `cnp-workbench --plan FILE` does: from another page, the window shows the Plans page on it.
        window->showPage(PageId::Ablation);
        QString error;
        QVERIFY2(window->openPlan(planFile, &error), qPrintable(error));
        QCOMPARE(window->currentPage(), PageId::Plans);
        QCOMPARE(page->planPath(), QFileInfo(planFile).absoluteFilePath());
        QVERIFY(!window->openPlan(dir.filePath("missing.yaml"), &error));
        QVERIFY2(error.startsWith(dir.filePath("missing.yaml") + ": cannot read"), qPrintable(error));
        QVERIFY2(page->openPlan(planFile, &error), qPrintable(error));
        QTRY_VERIFY(page->lintCount() > 0);
        // No errors; only the warnings that the stock NGC 25.01 images cannot load the collector (CUDA 12.8).
        QCOMPARE(page->lintResult().findings.size(), std::size_t(2));
        for (const auto& f : page->lintResult().findings)
            QCOMPARE(f.rule, std::string("collector-cupti"));
        auto* list = page->findChild<QListWidget*>("planConfigurations");
        QCOMPARE(list->count(), 5);
        QCOMPARE(list->item(1)->text(), QStringLiteral("2. Base+ACCL   ← Base"));
        page->form()->selectConfiguration(3);
        QVERIFY(page->findChild<QToolButton*>("runPlan")->isEnabled());
        screenshot("editing");
    }

    // Typing hpn0 for a pod of 8 GPUs: after the debounce the finding is listed and its line marked.
    void editShowsLintAtItsLine() {
        const int line = lineOf(page->editor()->toPlainText(), "NCCL_SOCKET_IFNAME: eth0");
        QVERIFY(line > 0);
        const int before = page->lintCount();
        QTextCursor c(page->editor()->document()->findBlockByNumber(line - 1));
        c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 26); // "      NCCL_SOCKET_IFNAME: "
        c.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor, 4);
        QCOMPARE(c.selectedText(), QStringLiteral("eth0"));
        page->editor()->setTextCursor(c);
        QTest::keyClicks(page->editor(), "hpn0");
        QTRY_VERIFY(page->lintCount() > before);
        QTRY_COMPARE(page->editor()->markedLines(cnp::plan::Severity::Error), QList<int>{line});
        auto* findings = page->findChild<QListWidget*>("planFindings");
        QCOMPARE(findings->count(), 3); // and the two collector-cupti warnings of the plan as it was
        const auto errors = findings->findItems("  error  ", Qt::MatchContains);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(
            errors[0]->text(),
            QStringLiteral("%1:27  error  nccl-socket-ifname — NCCL_SOCKET_IFNAME is 'hpn0' but a pod with 8 "
                           "GPU(s) must use eth0 (the image's release notes)")
                .arg(line));
        QVERIFY(!page->findChild<QToolButton*>("runPlan")->isEnabled());
        screenshot("lint-error");
        for (int i = 0; i < 4; ++i) // back to eth0: clean again
            page->editor()->undo();
        QTRY_VERIFY(page->editor()->markedLines(cnp::plan::Severity::Error).isEmpty());
        QVERIFY(page->editor()->toPlainText().contains("NCCL_SOCKET_IFNAME: eth0 #"));
    }

    // The form rewrites one value in the text; the rest (comments, the other lines) stays as written.
    void formEditsTheYaml() {
        const QString before = page->editor()->toPlainText();
        const int line = lineOf(before, "registry.example.com/ngc-pytorch-accl");
        page->form()->selectConfiguration(1);
        auto* image = page->findChild<QLineEdit*>("field_image");
        QCOMPARE(image->text(), QStringLiteral("registry.example.com/ngc-pytorch-accl:25.01-py3"));
        const int lints = page->lintCount();
        image->setText("registry.local/accl:1");
        emit image->editingFinished();
        QTRY_VERIFY(page->lintCount() > lints);
        QStringList expected = before.split('\n');
        expected[line - 1] = QStringLiteral("    image: \"registry.local/accl:1\"");
        QCOMPARE(page->editor()->toPlainText().split('\n'), expected);
        QCOMPARE(page->lintResult().plan.configurations[1].resolved.image.value_or(""),
                 std::string("registry.local/accl:1"));
        QVERIFY(page->findChild<QPlainTextEdit*>("resolvedConfiguration")
                    ->toPlainText()
                    .contains("~ image: nvcr.io/nvidia/pytorch:25.01-py3 → registry.local/accl:1"));
        // A configuration that inherits the image shows it as the field's hint.
        page->form()->selectConfiguration(3);
        QCOMPARE(image->text(), QString());
        QCOMPARE(image->placeholderText(),
                 QStringLiteral("inherited: egslingjun-registry.cn-wulanchabu.cr.aliyuncs.com/"
                                "egslingjun/training-nv-pytorch:26.02"));
    }

    void dryRunPreview() {
        QSignalSpy finished(page, &PlansPage::runFinished);
        page->startDryRun();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished[0][0].toInt(), 0);
        QCOMPARE(page->findChild<QPlainTextEdit*>("dryRunPreview")->toPlainText(),
                 QStringLiteral("[\"python3\",\"train.py\"]\n[\"python3\",\"train.py\",\"--compile\"]\n"));
        QFile args(argsFile);
        QVERIFY(args.open(QIODevice::ReadOnly));
        QCOMPARE(
            QString::fromUtf8(args.readAll()).split('\n', Qt::SkipEmptyParts),
            (QStringList{"run", planFile, dir.filePath("study.cnpdb"), "--backend", "local", "--dry-run"}));
        // The dry run saved the edited plan first: the CLI reads the file.
        QFile saved(planFile);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(saved.readAll().contains("registry.local/accl:1"));
    }

    void runShowsProgressAndTheRunLands() {
        QSignalSpy finished(page, &PlansPage::runFinished);
        page->startRun();
        auto* progress = page->findChild<QTreeWidget*>("runProgress");
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QCOMPARE(finished[0][0].toInt(), 2);
        QCOMPARE(stateOf(progress, {"Base", "repeat 1"}), QStringLiteral("done"));
        QCOMPARE(stateOf(progress, {"Base", "repeat 1", "rank 0"}), QStringLiteral("running"));
        QCOMPARE(stateOf(progress, {"Base", "repeat 1", "rank 7"}), QStringLiteral("running"));
        QCOMPARE(stateOf(progress, {"Base+ACCL", "repeat 1"}), QStringLiteral("failed"));
        QCOMPARE(stateOf(progress, {"Base+ACCL"}), QStringLiteral("repeat 1: failed"));
        QCOMPARE(stateOf(progress, {"AC2+ACCL"}), QStringLiteral("pending")); // never reported: still pending
        QCOMPARE(page->findChild<QLabel*>("planStatus")->text(),
                 QStringLiteral("Finished: 1 done, 1 failed, 0 skipped, 0 cancelled (exit 2)"));
        QVERIFY(window->session()->findRun("Base-r1"));
        QCOMPARE(window->session()->configurations(), QStringList{"Base"});
        // ... and on the ablation page.
        window->showPage(PageId::Ablation);
        auto* ablation = qobject_cast<AblationPage*>(window->page(PageId::Ablation));
        QTRY_VERIFY_WITH_TIMEOUT(ablation->isContentReady() && !ablation->result().configs.empty(), 20000);
        QCOMPARE(ablation->result().configs.size(), std::size_t(1));
        QCOMPARE(ablation->result().configs[0].config, std::string("Base"));
        window->showPage(PageId::Plans);
    }

    void cancelStopsTheRun() {
        qputenv("FAKE_HOLD", "1");
        QSignalSpy finished(page, &PlansPage::runFinished);
        page->startRun();
        auto* progress = page->findChild<QTreeWidget*>("runProgress");
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(progress, {"Base+ACCL", "repeat 1", "rank 0"}),
                                  QStringLiteral("running"), 60000);
        QCOMPARE(stateOf(progress, {"Base+ACCL"}), QStringLiteral("repeat 1: running")); // from its rank
        QVERIFY(page->isRunning());
        QVERIFY(page->findChild<QToolButton*>("cancelRun")->isEnabled());
        screenshot("running");
        page->cancelRun();
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(stateOf(progress, {"Base+ACCL", "repeat 1"}), QStringLiteral("cancelled"));
        QCOMPARE(page->findChild<QLabel*>("planStatus")->text(),
                 QStringLiteral("Finished: 1 done, 0 failed, 0 skipped, 1 cancelled (exit 2)"));
        QVERIFY(!page->isRunning());
        qunsetenv("FAKE_HOLD");
    }

    // Issue 32.5: a failed row hid its cause ("exit code 2; logs in ...") and double-clicking it did
    // nothing. The row shows the message with the log's tail (the CLI puts it there), the configuration's
    // row too, and Enter (or a double-click) on the repeat, or on one of its ranks, opens its logs.
    void aFailedRowShowsItsCauseAndOpensItsLogs() {
        QTemporaryDir jobDir;
        {
            QFile log(jobDir.filePath("node0.log"));
            QVERIFY(log.open(QIODevice::WriteOnly));
            log.write("loading\npython3: can't open file '/gui/cwd/train.py': [Errno 2] No such file\n");
        }
        auto* runner = page->findChild<PlanRunner*>();
        QVERIFY(runner);
        auto event = [](const QString& state, int rank, const QString& message) {
            PlanRunEvent e;
            e.config = "Solo";
            e.repeat = 1;
            e.rank = rank;
            e.state = state;
            e.message = message;
            return e;
        };
        const QString failure =
            "exit code 2: loading | python3: can't open file '/gui/cwd/train.py': [Errno 2] No such file; "
            "logs in " +
            jobDir.path();
        emit runner->runEvent(event("running", -1, jobDir.path()));
        emit runner->runEvent(event("running", 0, "step 0"));
        emit runner->runEvent(event("failed", -1, failure));
        auto* progress = page->findChild<QTreeWidget*>("runProgress");
        QCOMPARE(stateOf(progress, {"Solo", "repeat 1"}), QStringLiteral("failed"));
        QTreeWidgetItem* solo = progress->findItems("Solo", Qt::MatchExactly).value(0);
        QVERIFY(solo);
        QCOMPARE(solo->text(2), failure); // the cause without unfolding
        QTreeWidgetItem* repeat = solo->child(0);
        QCOMPARE(repeat->text(2), failure);
        QVERIFY(repeat->toolTip(2).contains("logs"));
        for (QTreeWidgetItem* row : {repeat, repeat->child(0)}) { // the repeat, then its rank 0
            window->showPage(PageId::Plans);
            page->findChild<QTabWidget*>()->setCurrentWidget(progress);
            progress->setCurrentItem(row);
            progress->setFocus();
            QTest::keyClick(progress, Qt::Key_Return);
            LogViewerDialog* viewer = nullptr;
            QTRY_VERIFY((viewer = page->findChild<LogViewerDialog*>()) && viewer->isVisible());
            QVERIFY2(viewer->text().startsWith("== node0.log ==\nloading\npython3: can't open file"),
                     qPrintable(viewer->text()));
            viewer->close();
            QTRY_VERIFY(!page->findChild<LogViewerDialog*>()); // deleted on close
        }
    }

    // Issue 32.9: the header said "1 node(s)" (the parser's default) while the text said `nodes: -3`.
    void theHeaderNeverShowsARefusedValue_data() {
        QTest::addColumn<QString>("resources");
        QTest::addColumn<QString>("repeats");
        QTest::addColumn<QString>("figures"); // the header's text after the plan's name
        QTest::newRow("valid") << "{nodes: 2, gpusPerNode: 8}"
                               << "{traced: 3, untraced: 1}"
                               << "2 node(s) × 8 GPU(s), 3 traced + 1 untraced repeat(s)";
        QTest::newRow("negative nodes") << "{nodes: -3, gpusPerNode: 8}"
                                        << "{traced: 3, untraced: 1}"
                                        << "? node(s) × 8 GPU(s), 3 traced + 1 untraced repeat(s)";
        QTest::newRow("repeats not a number") << "{nodes: 2, gpusPerNode: 8}"
                                              << "{traced: two, untraced: 1}"
                                              << "2 node(s) × 8 GPU(s), ? traced + 1 untraced repeat(s)";
    }
    void theHeaderNeverShowsARefusedValue() {
        QFETCH(QString, resources);
        QFETCH(QString, repeats);
        QFETCH(QString, figures);
        const std::string text =
            ("name: p\nworkload: {command: [python, train.py]}\nresources: " + resources +
             "\nrepeats: " + repeats + "\nconfigurations: [{name: A, image: 'i:1'}]\n")
                .toStdString();
        const cnp::plan::ParseResult r = cnp::plan::parsePlanText(text, "p.yaml");
        PlanForm form;
        form.setPlan(r.plan, r.findings);
        QTextDocument doc;
        doc.setHtml(form.headerText());
        QCOMPARE(doc.toPlainText(), QString::fromUtf8("p — ") + figures);
    }

    void theLogViewerKeepsTheEndOfALongLog() {
        QTemporaryDir jobDir;
        QFile log(jobDir.filePath("node0.log"));
        QVERIFY(log.open(QIODevice::WriteOnly));
        log.write("first line\nsecond line\nthe cause\n");
        log.close();
        QCOMPARE(LogViewerDialog::readLogs(jobDir.path(), 15),
                 QStringLiteral("== node0.log ==\n[… 23 bytes before]\nthe cause\n"));
        QVERIFY(LogViewerDialog::readLogs(jobDir.filePath("gone")).contains("does not exist"));
    }

    void keepGoingReachesTheCli_data() {
        QTest::addColumn<bool>("dryRun");
        QTest::addColumn<bool>("keepGoing");
        QTest::addColumn<QStringList>("tail");
        QTest::newRow("run") << false << false << QStringList{"--progress", "json"};
        QTest::newRow("run, keep going")
            << false << true << QStringList{"--keep-going", "--progress", "json"};
        QTest::newRow("dry run ignores it") << true << true << QStringList{"--dry-run"};
    }
    void keepGoingReachesTheCli() {
        QFETCH(bool, dryRun);
        QFETCH(bool, keepGoing);
        QFETCH(QStringList, tail);
        const QStringList args = PlanRunner::arguments("p.yaml", "w.cnpdb", "local", dryRun, {}, keepGoing);
        QCOMPARE(args.mid(0, 5), (QStringList{"run", "p.yaml", "w.cnpdb", "--backend", "local"}));
        QCOMPARE(args.mid(5), tail);
        QVERIFY(page->findChild<QCheckBox*>("keepGoing"));
    }

    void cleanupTestCase() { window.reset(); }
};

QTEST_MAIN(TestPlansPage)
#include "tst_planspage.moc"
