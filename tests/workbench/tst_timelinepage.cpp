// The timeline page end to end on a small workspace: background load, click -> details (grid, block,
// registers, launching call) -> jump to the launching call and back, search with next/previous and
// count, shift-drag range statistics (same numbers as the analysis library, by hand below), keys
// (W/S/A/D/F/Esc), wheel zoom at the cursor, group collapse, compare mode aligned at a step.
#include "ElidedLabel.h"
#include "store/Sqlite.h"
#include "store/Workspace.h"
#include "timeline/TimelineLoader.h"
#include "timeline/TimelineOverview.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

using namespace cnp;
using namespace cnp::timeline;
using cnp::wb::TimelinePage;
using cnp::wb::TimelineView;

namespace {

// GPU 0 stream 7: "sm90_gemm_a" gemm [1000,2000) corr 1, "ncclDevKernel_AllReduce" communication
// [2500,4000) corr 2; thread 11: cudaLaunchKernel [900,950) corr 1 and [2400,2450) corr 2 (flows
// link them); step 0 GPU window [1000,4000) (+ `shift` ns for the second run).
TraceData trace(const char* name, Ns shift) {
    TraceData t;
    t.info.name = name;
    t.info.config = name;
    t.info.sourceFormat = "synthetic";
    RankInfo ri;
    ri.rank = 0;
    t.ranks.push_back(ri);
    auto S = [&](const char* s) { return t.strings.intern(s); };
    auto kernel = [&](Ns s, Ns e, const char* n, const char* cat, std::int64_t corr) {
        KernelEvent k;
        k.start = s + shift;
        k.end = e + shift;
        k.stream = 7;
        k.name = S(n);
        k.category = S(cat);
        k.correlation = corr;
        k.grid[0] = 264;
        k.grid[1] = k.grid[2] = 1;
        k.block[0] = 384;
        k.block[1] = k.block[2] = 1;
        k.registers = 168;
        k.staticSmem = 0;
        k.dynamicSmem = 232448;
        t.kernels.push_back(k);
    };
    kernel(1000, 2000, "sm90_gemm_a", "gemm", 1);
    kernel(2500, 4000, "ncclDevKernel_AllReduce", "communication", 2);
    for (auto [s, corr] : {std::pair<Ns, std::int64_t>{900, 1}, {2400, 2}}) {
        ApiCall a;
        a.start = s + shift;
        a.end = s + 50 + shift;
        a.tid = 11;
        a.pid = 5;
        a.correlation = corr;
        a.name = S("cudaLaunchKernel");
        t.apiCalls.push_back(a);
    }
    t.flows.push_back({1, 0, 900 + shift, 11, 1000 + shift, 7});
    t.flows.push_back({2, 0, 2400 + shift, 11, 2500 + shift, 7});
    StepRange st;
    st.name = S("ProfilerStep#0");
    st.cpuStart = 800 + shift;
    st.cpuEnd = 4100 + shift;
    st.gpuStart = 1000 + shift;
    st.gpuEnd = 4000 + shift;
    t.steps.push_back(st);
    return t;
}

// A cluster run of `ranks` ranks: rank r has "gemm_r<r>" on stream 7 at [1000 + 10000 r, 2000 + 10000 r)
// and two CPU threads, so rank groups beyond kExpandedRanks start collapsed and the last is far below.
TraceData clusterTrace(int ranks) {
    TraceData t;
    t.info.name = "cluster";
    t.info.config = "cluster";
    t.info.sourceFormat = "synthetic";
    for (int r = 0; r < ranks; ++r) {
        RankInfo ri;
        ri.rank = r;
        t.ranks.push_back(ri);
        KernelEvent k;
        k.rank = r;
        k.start = 1000 + 10000 * r;
        k.end = 2000 + 10000 * r;
        k.stream = 7;
        k.name = t.strings.intern("gemm_r" + std::to_string(r));
        k.category = t.strings.intern("gemm");
        t.kernels.push_back(k);
        for (std::int64_t tid : {11, 12}) {
            ApiCall a;
            a.rank = r;
            a.start = 900 + 10000 * r;
            a.end = 950 + 10000 * r;
            a.tid = tid;
            a.pid = 5;
            a.name = t.strings.intern("cudaLaunchKernel");
            t.apiCalls.push_back(a);
        }
    }
    return t;
}

QPoint centreOf(const TimelineView* v, int row, int lane, Ns start, Ns end) {
    const double x = v->labelWidth() + v->axis().x((start + end) / 2);
    return QPoint(static_cast<int>(x), v->laneY(row, lane) + TimelineView::kLaneHeight / 2);
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestTimelinePage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<Workspace> ws_;
    RunId runA_, runB_, cluster_;
    std::unique_ptr<TimelinePage> page_;

    TimelineView* view() { return page_->view(); }
    // The 6-rank run (clusterTrace), added once (kept: run ids are reused after a removal).
    RunId clusterRun() {
        if (cluster_ == RunId()) {
            Transaction tx(ws_->db());
            cluster_ = ws_->insertRun(clusterTrace(6));
            tx.commit();
            page_->refreshRuns();
        }
        return cluster_;
    }
    void waitLoaded(RunId run) {
        QSignalSpy spy(page_.get(), &TimelinePage::runLoaded);
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty() && spy.last().at(0).value<RunId>() == run, 10000);
    }

private slots:
    void initTestCase() {
        const std::string path = dir_.filePath("w.cnpdb").toStdString();
        ws_ = std::make_shared<Workspace>(path, Workspace::Mode::CreateIfMissing);
        for (auto [name, shift, out] : {std::tuple{"A", Ns(0), &runA_}, std::tuple{"B", Ns(10000), &runB_}}) {
            Transaction tx(ws_->db());
            *out = ws_->insertRun(trace(name, shift));
            tx.commit();
        }
        page_ = std::make_unique<TimelinePage>();
        page_->resize(1400, 700);
        page_->show();
        page_->setWorkspace(ws_);
        QSignalSpy spy(page_.get(), &TimelinePage::runLoaded);
        page_->showRun(runA_);
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty(), 10000);
        QCOMPARE(spy.first().at(0).value<RunId>(), runA_);
        QVERIFY(view()->model());
        // steps, stream 7, its launch queue, thread 11: 2 kernels + 2 calls + 1 step + 4 queue samples
        // (launched at 900 and 2400, started at 1000 and 2500: 1, 0, 1, 0; docs/metrics.md "Streams").
        QCOMPARE(view()->model()->eventCount(), std::size_t(9));
    }

    void fitShowsWholeRun() {
        view()->fitAll();
        // Run span [900, 4000) plus 5 % margins on each side: 3100 / 20 = 155.
        QCOMPARE(view()->axis().start(), Ns(900 - 155));
        QCOMPARE(view()->axis().end(), Ns(4000 + 155));
    }

    void clickShowsDetailsAndLaunchingCall() {
        view()->fitAll();
        const TimelineModel& m = *view()->model();
        const EventRef k = findEvent(m, 0, RowKind::GpuStream, 7, 1000);
        QVERIFY(k.valid());
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(view(), k.row, k.lane, 1000, 2000));
        QCOMPARE(view()->selected(), k);
        auto* details = page_->findChild<QTextBrowser*>("details");
        const QString text = details->toPlainText();
        QVERIFY2(text.contains("sm90_gemm_a"), qPrintable(text));
        QVERIFY(text.contains(QString::fromUtf8("264 × 1 × 1")));
        QVERIFY(text.contains(QString::fromUtf8("384 × 1 × 1")));
        QVERIFY(text.contains("168"));
        QVERIFY(text.contains("232448"));
        QVERIFY(text.contains("cudaLaunchKernel on thread 11"));
        // Jump to the launching call, then back to the kernel.
        emit details->anchorClicked(QUrl("cnp:link"));
        const EventRef call = findEvent(m, 0, RowKind::CpuThread, 11, 900);
        QCOMPARE(view()->selected(), call);
        QVERIFY(details->toPlainText().contains("Launched"));
        emit details->anchorClicked(QUrl("cnp:link"));
        QCOMPARE(view()->selected(), k);
        // Esc clears.
        QTest::keyClick(view(), Qt::Key_Escape);
        QVERIFY(!view()->selected().valid());
        QVERIFY(details->toPlainText().isEmpty());
    }

    // Issue 32.8: the flow arrow stayed on the previous kernel after stepping through search matches.
    void theFlowArrowLeavesWithTheSelection() {
        view()->fitAll();
        const TimelineModel& m = *view()->model();
        const EventRef k = findEvent(m, 0, RowKind::GpuStream, 7, 1000);
        const EventRef call = findEvent(m, 0, RowKind::CpuThread, 11, 900);
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(view(), k.row, k.lane, 1000, 2000));
        auto* details = page_->findChild<QTextBrowser*>("details");
        emit details->anchorClicked(QUrl("cnp:link")); // to the launching call: the arrow call -> kernel
        QCOMPARE(view()->flowFrom(), call);
        QCOMPARE(view()->flowTo(), k);
        auto* edit = page_->findChild<QLineEdit*>("searchEdit");
        edit->setText("ncclDevKernel");
        QTRY_COMPARE(page_->findChild<QLabel*>("searchCount")->text(), QString("1 matches"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(view()->selected(), findEvent(m, 0, RowKind::GpuStream, 7, 2500));
        QVERIFY(!view()->flowFrom().valid());
        QVERIFY(!view()->flowTo().valid());
        edit->setText("");
        QTRY_COMPARE(page_->findChild<QLabel*>("searchCount")->text(), QString());
    }

    void search() {
        auto* edit = page_->findChild<QLineEdit*>("searchEdit");
        auto* count = page_->findChild<QLabel*>("searchCount");
        edit->setText("launchkernel");
        QTRY_COMPARE(count->text(), QString("2 matches"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(count->text(), QString("1 / 2 matches"));
        const TimelineModel& m = *view()->model();
        QCOMPARE(view()->selected(), findEvent(m, 0, RowKind::CpuThread, 11, 900));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(count->text(), QString("2 / 2 matches"));
        QTest::keyClick(edit, Qt::Key_Return); // wraps
        QCOMPARE(count->text(), QString("1 / 2 matches"));
        edit->setText("");
        QTRY_COMPARE(count->text(), QString());
    }

    void rangeSelection() {
        view()->fitAll();
        const TimelineModel& m = *view()->model();
        const EventRef k = findEvent(m, 0, RowKind::GpuStream, 7, 1000);
        const int y = view()->laneY(k.row, 0) + 5;
        // Shift-drag over [1500, 3000]: gemm 500 ns, exposed communication 500 ns, idle 500 ns (by hand).
        const auto px = [&](Ns t) {
            return view()->labelWidth() + static_cast<int>(std::ceil(view()->axis().x(t)));
        };
        QTest::mousePress(view(), Qt::LeftButton, Qt::ShiftModifier, QPoint(px(1500), y));
        QMouseEvent move(QEvent::MouseMove, QPointF(px(3000), y), view()->mapToGlobal(QPointF(px(3000), y)),
                         Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(view(), &move);
        QTest::mouseRelease(view(), Qt::LeftButton, Qt::ShiftModifier, QPoint(px(3000), y));
        QVERIFY(view()->hasRange());
        const Ns s = view()->rangeStart(), e = view()->rangeEnd();
        // Pixel snapping: the range is within one pixel's time of the requested one.
        QVERIFY(std::llabs(s - 1500) <= view()->axis().nsPerPixel() + 1);
        auto* tree = page_->findChild<QTreeWidget*>("rangeStats");
        QCOMPARE(tree->topLevelItemCount(), 1);
        QTreeWidgetItem* breakdown = tree->topLevelItem(0)->child(0);
        QCOMPARE(breakdown->child(0)->text(0), QString("compute"));
        // compute = |[s, e) ∩ [1000, 2000)|, communication = |[s, e) ∩ [2500, 4000)|.
        QCOMPARE(breakdown->child(0)->data(1, Qt::UserRole).toLongLong(), qint64(2000 - s));
        QCOMPARE(breakdown->child(1)->data(1, Qt::UserRole).toLongLong(), qint64(e - 2500));
        QCOMPARE(breakdown->child(3)->data(1, Qt::UserRole).toLongLong(), qint64(500)); // idle [2000, 2500)
        // F fits the range.
        QTest::keyClick(view(), Qt::Key_F);
        QCOMPARE(view()->axis().start(), s - std::max<Ns>(1, (e - s) / 20));
        QTest::keyClick(view(), Qt::Key_Escape);
        QVERIFY(!view()->hasRange());
    }

    void keysAndWheel() {
        view()->fitAll();
        const Ns span = view()->axis().span();
        QTest::keyClick(view(), Qt::Key_W);
        QVERIFY(view()->axis().span() < span);
        QTest::keyClick(view(), Qt::Key_S);
        QVERIFY(std::llabs(view()->axis().span() - span) <= 2);
        // Zoomed in first: the whole run in view has nowhere to pan (issue 15, tst_timelineview).
        QTest::keyClick(view(), Qt::Key_W);
        const Ns start = view()->axis().start();
        QTest::keyClick(view(), Qt::Key_D);
        QVERIFY(view()->axis().start() > start);
        QTest::keyClick(view(), Qt::Key_A);
        QVERIFY(std::llabs(view()->axis().start() - start) <= 2);
        // Wheel zoom keeps the time under the cursor.
        const int x = view()->axis().width() / 3;
        const QPointF at(view()->labelWidth() + x, 200);
        const Ns before = view()->axis().timeAt(x);
        const Ns spanBefore = view()->axis().span();
        QWheelEvent wheel(at, view()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view(), &wheel);
        QCOMPARE(view()->axis().span(), static_cast<Ns>(std::llround(spanBefore * 0.8)));
        QVERIFY(std::llabs(view()->axis().timeAt(x) - before) <= 1);
        QVERIFY(view()->axis().width() > 700); // the rows get most of the page's 1400 px
    }

    void collapseGroup() {
        const int rowsBefore = static_cast<int>(view()->model()->rows.size());
        QVERIFY(rowsBefore == 4); // steps, stream 7, stream 7's launch queue, thread 11
        // Group 1 is "GPU 0": clicking its header hides stream 7.
        const EventRef k = findEvent(*view()->model(), 0, RowKind::GpuStream, 7, 1000);
        const int y = view()->laneY(k.row, 0) - TimelineView::kHeaderHeight / 2;
        QCOMPARE(view()->groupHeaderAt(QPoint(50, y)), 1);
        QTest::mouseClick(view(), Qt::LeftButton, {}, QPoint(50, y));
        QVERIFY(view()->isCollapsed(1));
        QCOMPARE(view()->laneY(k.row, 0), -1);
        QTest::mouseClick(view(), Qt::LeftButton, {}, QPoint(50, y));
        QVERIFY(!view()->isCollapsed(1));
    }

    void compareModeAlignsAtStep() {
        auto* combo = page_->findChild<QComboBox*>("compareRun");
        QSignalSpy spy(page_.get(), &TimelinePage::runLoaded);
        combo->setCurrentIndex(combo->findText("B"));
        QTRY_VERIFY_WITH_TIMEOUT(!spy.isEmpty(), 10000);
        TimelineView* b = page_->compareView();
        QVERIFY(b->isVisible());
        view()->fitAll();
        emit view()->axisChanged();
        // B's step 0 starts 10000 ns later: its window is A's shifted by 10000.
        QCOMPARE(b->axis().start(), view()->axis().start() + 10000);
        QCOMPARE(b->axis().span(), view()->axis().span());
        QTest::keyClick(view(), Qt::Key_W);
        QCOMPARE(b->axis().span(), view()->axis().span());
        combo->setCurrentIndex(0);
        QVERIFY(!b->isVisible());
    }

    // Issue 32.7: compare panes fell out of step when run A changed (A showed the whole new run, B kept its
    // old window until the next zoom), and B stayed when it no longer fitted (an empty pane after a jump).
    void comparePaneFollowsANewRunA() {
        page_->showRun(runA_);
        QTRY_VERIFY_WITH_TIMEOUT(view()->model() && view()->model()->runId == runA_, 10000);
        auto* combo = page_->findChild<QComboBox*>("compareRun");
        combo->setCurrentIndex(combo->findText("B"));
        TimelineView* b = page_->compareView();
        QTRY_VERIFY_WITH_TIMEOUT(b->isVisible() && b->model(), 10000);
        QSignalSpy loaded(page_.get(), &TimelinePage::runLoaded);
        page_->showRun(clusterRun()); // spans [900, 52000): no steps, aligned at its start
        QTRY_VERIFY_WITH_TIMEOUT(view()->model()->runId == clusterRun(), 10000);
        QVERIFY(b->isVisible());
        QCOMPARE(b->axis().span(), view()->axis().span());
        // A's run start (900) meets B's step 0 (11000).
        QCOMPARE(b->axis().start(), view()->axis().start() - 900 + 11000);
    }
    void compareEndsWhenBNoLongerFits() {
        TimelineView* b = page_->compareView();
        QVERIFY(b->isVisible());                              // from the test before
        page_->jumpTo(clusterRun(), RankId(5), 51000, 52000); // B's window would start past its end
        QTRY_VERIFY_WITH_TIMEOUT(view()->selected().valid(), 10000);
        QVERIFY(!b->isVisible());
        QCOMPARE(page_->findChild<QComboBox*>("compareRun")->currentIndex(), 0);
    }
    void compareEndsWhenAIsB() {
        page_->showRun(runA_);
        QTRY_VERIFY_WITH_TIMEOUT(view()->model()->runId == runA_, 10000);
        auto* combo = page_->findChild<QComboBox*>("compareRun");
        combo->setCurrentIndex(combo->findText("B"));
        QTRY_VERIFY_WITH_TIMEOUT(page_->compareView()->isVisible() && page_->compareView()->model(), 10000);
        page_->showRun(runB_);
        QTRY_VERIFY_WITH_TIMEOUT(view()->model()->runId == runB_, 10000);
        QVERIFY(!page_->compareView()->isVisible());
        page_->showRun(runA_);
        QTRY_VERIFY_WITH_TIMEOUT(view()->model()->runId == runA_, 10000);
    }

    // Issue 32.9: in compare mode the details and range statistics did not say which run they are of.
    void compareModeDetailsNameTheirRun() {
        auto* combo = page_->findChild<QComboBox*>("compareRun");
        combo->setCurrentIndex(combo->findText("B"));
        TimelineView* b = page_->compareView();
        QTRY_VERIFY_WITH_TIMEOUT(b->isVisible() && b->model(), 10000);
        view()->fitAll();
        b->fitAll();
        auto* details = page_->findChild<QTextBrowser*>("details");
        const EventRef k = findEvent(*view()->model(), 0, RowKind::GpuStream, 7, 1000);
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(view(), k.row, k.lane, 1000, 2000));
        QVERIFY2(details->toPlainText().contains("Run A: A"), qPrintable(details->toPlainText()));
        const EventRef kb = findEvent(*b->model(), 0, RowKind::GpuStream, 7, 11000);
        QTest::mouseClick(b, Qt::LeftButton, {}, centreOf(b, kb.row, kb.lane, 11000, 12000));
        QVERIFY2(details->toPlainText().contains("Run B: B"), qPrintable(details->toPlainText()));
        emit b->rangeSelected(0, 11500, 13000);
        auto* stats = page_->findChild<QTreeWidget*>("rangeStats");
        QVERIFY2(stats->topLevelItem(0)->text(0).startsWith("Run B: B · Rank 0"),
                 qPrintable(stats->topLevelItem(0)->text(0)));
        combo->setCurrentIndex(0);
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(view(), k.row, k.lane, 1000, 2000));
        QVERIFY(!details->toPlainText().contains("Run A"));
    }

    // Issue 15.1: the details, selection and range of run A never stay on screen once run B (or
    // another workspace) is shown; the search text stays and is resolved against the new run.
    void switchingRunClearsRunState() {
        QSignalSpy loaded(page_.get(), &TimelinePage::runLoaded);
        page_->showRun(runA_);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
        view()->fitAll();
        const EventRef k = findEvent(*view()->model(), 0, RowKind::GpuStream, 7, 1000);
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(view(), k.row, k.lane, 1000, 2000));
        auto* details = page_->findChild<QTextBrowser*>("details");
        QVERIFY(details->toPlainText().contains("sm90_gemm_a"));
        const int y = view()->laneY(k.row, 0) + 5;
        const auto px = [&](Ns t) {
            return view()->labelWidth() + static_cast<int>(std::ceil(view()->axis().x(t)));
        };
        QTest::mousePress(view(), Qt::LeftButton, Qt::ShiftModifier, QPoint(px(1500), y));
        QMouseEvent move(QEvent::MouseMove, QPointF(px(3000), y), view()->mapToGlobal(QPointF(px(3000), y)),
                         Qt::LeftButton, Qt::LeftButton, Qt::ShiftModifier);
        QApplication::sendEvent(view(), &move);
        QTest::mouseRelease(view(), Qt::LeftButton, Qt::ShiftModifier, QPoint(px(3000), y));
        auto* stats = page_->findChild<QTreeWidget*>("rangeStats");
        QCOMPARE(stats->topLevelItemCount(), 1);
        auto* edit = page_->findChild<QLineEdit*>("searchEdit");
        auto* count = page_->findChild<QLabel*>("searchCount");
        edit->setText("gemm");
        QTRY_COMPARE(count->text(), QString("1 matches"));
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(count->text(), QString("1 / 1 matches"));

        loaded.clear();
        page_->showRun(runB_);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().at(0).value<RunId>() == runB_, 10000);
        QCOMPARE(view()->model()->runName, std::string("B"));
        QVERIFY(details->toPlainText().isEmpty());
        QCOMPARE(stats->topLevelItemCount(), 0);
        QVERIFY(!view()->selected().valid());
        QVERIFY(!view()->hasRange());
        QCOMPARE(count->text(), QString("1 matches")); // B's one gemm, not A's "1 / 1"

        // Another workspace (here: the same one opened again) forgets the run view as well.
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(view(), k.row, k.lane, 11000, 12000));
        QVERIFY(!details->toPlainText().isEmpty());
        page_->setWorkspace(ws_);
        QVERIFY(details->toPlainText().isEmpty());
        QVERIFY(count->text().isEmpty());
        edit->clear();
        loaded.clear();
        page_->showRun(runA_);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty() && loaded.last().at(0).value<RunId>() == runA_, 10000);
    }

    // Issue 15.4: a jump lands on its target: zoomed with a quarter of the target's length of context
    // on each side (plus the view's 5 % margin), the event spanning the target selected with its
    // details; a target that is no event (here the idle gap [2000, 2500)) marked as the range.
    void jumpTo_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<QString>("selectedName"); // empty: the target is marked as a range
        QTest::newRow("communication kernel") << qint64(2500) << qint64(4000) << "ncclDevKernel_AllReduce";
        QTest::newRow("gemm kernel") << qint64(1000) << qint64(2000) << "sm90_gemm_a";
        QTest::newRow("step") << qint64(1000) << qint64(4000) << "ProfilerStep#0";
        QTest::newRow("idle gap") << qint64(2000) << qint64(2500) << QString();
    }
    void jumpTo() {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(QString, selectedName);
        page_->jumpTo(runA_, RankId(0), start, end);
        const Ns context = std::max<Ns>((end - start) / 4, 1000);
        const Ns margin = (end - start + 2 * context) / 20;
        QTRY_COMPARE(view()->axis().start(), Ns(start - context - margin));
        QCOMPARE(view()->axis().end(), Ns(end + context + margin));
        auto* details = page_->findChild<QTextBrowser*>("details");
        if (selectedName.isEmpty()) {
            QVERIFY(!view()->selected().valid());
            QVERIFY(view()->hasRange());
            QCOMPARE(view()->rangeStart(), Ns(start));
            QCOMPARE(view()->rangeEnd(), Ns(end));
            QCOMPARE(page_->findChild<QTreeWidget*>("rangeStats")->topLevelItemCount(), 1);
        } else {
            const EventRef sel = view()->selected();
            QVERIFY(sel.valid());
            const EventTrack& lane = view()->model()->rows[sel.row].lanes[sel.lane];
            QCOMPARE(lane.start(sel.index), Ns(start));
            QCOMPARE(lane.end(sel.index), Ns(end));
            QCOMPARE(QString::fromStdString(view()->model()->names[lane.name(sel.index)]), selectedName);
            QVERIFY(details->toPlainText().contains(selectedName));
        }
    }

    // Issue 26.5: a jump is a history entry. Alt+Left goes back to the view before it, the toolbar's
    // Forward comes back; each is disabled when there is nowhere to go.
    void backAfterJump() {
        auto* back = page_->findChild<QAction*>("timelineBack");
        auto* forward = page_->findChild<QAction*>("timelineForward");
        QVERIFY(back && forward);
        QVERIFY(!back->toolTip().isEmpty());
        page_->jumpTo(runA_, RankId(0), 1000, 2000);
        QTRY_COMPARE(view()->axis().start(), Ns(1000 - 1000 - 150));
        const TimeAxis before = view()->axis();
        page_->jumpTo(runA_, RankId(0), 2500, 4000);
        QTRY_COMPARE(view()->axis().start(), Ns(2500 - 1000 - 175));
        const TimeAxis jumped = view()->axis();
        QVERIFY(back->isEnabled());
        QVERIFY(!forward->isEnabled());
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_Left, Qt::AltModifier);
        QCOMPARE(view()->axis(), before);
        QVERIFY(forward->isEnabled());
        forward->trigger();
        QCOMPARE(view()->axis(), jumped);
        QVERIFY(!forward->isEnabled());
    }

    // Issue 16: the page never writes the workspace it views. A workspace from before overviews were
    // written at ingest (runs inserted without one), opened read-only, shows its run from the full events
    // and is byte-identical afterwards, still without an overview.
    void readOnlyOldWorkspaceStaysByteIdentical() {
        const QString file = dir_.filePath("old.cnpdb");
        RunId run;
        {
            Workspace w(file.toStdString(), Workspace::Mode::CreateIfMissing);
            Transaction tx(w.db());
            run = w.insertRun(trace("old", 0));
            tx.commit();
            QVERIFY(!hasOverview(w, run));
        } // the last connection closes: the log is checkpointed into the file
        QVERIFY(!QFile::exists(file + "-wal"));
        QVERIFY(QFile::setPermissions(file, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));
        const QByteArray before = fileBytes(file);
        QVERIFY(!before.isEmpty());
        {
            auto ro = std::make_shared<Workspace>(file.toStdString(), Workspace::Mode::ReadOnly);
            TimelinePage page;
            page.resize(1400, 700);
            page.show();
            page.setWorkspace(ro);
            QSignalSpy loaded(&page, &TimelinePage::runLoaded);
            page.showRun(run);
            QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
            QCOMPARE(loaded.first().at(0).value<RunId>(), run);
            QVERIFY(page.view()->model());
            // 2 kernels + 2 calls + 1 step + 4 samples of stream 7's launch queue
            QCOMPARE(page.view()->model()->eventCount(), std::size_t(9));
            QVERIFY(!hasOverview(*ro, run));
        }
        QCOMPARE(fileBytes(file), before);
        const Workspace again(file.toStdString(), Workspace::Mode::ReadOnly);
        QVERIFY(!hasOverview(again, run)); // nor is one waiting in a write-ahead log
    }

    // Issue 32.4: a jump into a multi-rank run (Compare, Insights, Ranks) selected an event inside a
    // collapsed rank group, out of sight. The group opens and the selected row is in view.
    void jumpIntoACollapsedRankShowsTheSelection_data() {
        QTest::addColumn<int>("rank");
        QTest::addColumn<bool>("event"); // false: a range (an idle gap) on that rank
        QTest::newRow("event on rank 5") << 5 << true;
        QTest::newRow("event on rank 3") << 3 << true;
        QTest::newRow("range on rank 5") << 5 << false;
    }
    void jumpIntoACollapsedRankShowsTheSelection() {
        QFETCH(int, rank);
        QFETCH(bool, event);
        const RunId cluster = clusterRun();
        if (view()->model()->runId != cluster) {
            page_->showRun(cluster);
            waitLoaded(cluster);
        }
        const TimelineModel& m = *view()->model();
        int group = -1;
        for (int g = 0; g < static_cast<int>(m.groups.size()); ++g)
            if (m.groups[g].parent < 0 && m.groups[g].rank == rank)
                group = g;
        QVERIFY(group >= 0);
        view()->setCollapsed(group, true); // as a cluster run starts (an earlier row may have opened it)
        const Ns start = 1000 + 10000 * rank + (event ? 0 : 1000), end = start + (event ? 1000 : 500);
        page_->jumpTo(cluster, RankId(rank), start, end);
        QTRY_VERIFY(!view()->isCollapsed(group));
        if (event) {
            const EventRef sel = view()->selected();
            QVERIFY(sel.valid());
            QCOMPARE(m.rows[sel.row].rank, rank);
            const int y = view()->laneY(sel.row, sel.lane);
            QVERIFY2(y >= view()->rowsTop() && y + TimelineView::kLaneHeight <= view()->height(),
                     qPrintable(QString::number(y)));
        } else {
            QVERIFY(view()->hasRange());
            QCOMPARE(view()->rangeRank(), rank);
            const int firstRow = m.rowsOfRank(rank).front();
            const int y = view()->laneY(firstRow, 0);
            QVERIFY2(y >= view()->rowsTop() && y < view()->height(), qPrintable(QString::number(y)));
        }
    }

    // Issue 32.2: the run list's read threw out of this slot (on runsChanged) and ended the application.
    // A failed read keeps the lists, is retried once, then says so in readFailed().
    void aFailedRunListReadKeepsTheListsAndSaysSo() {
        auto* picker = page_->findChild<QComboBox*>("runPicker");
        QVERIFY(picker);
        const int before = picker->count();
        QVERIFY(before >= 2);
        execSql(ws_->db(), "UPDATE runs SET tokens_per_step = 1e308 WHERE name = 'A'");
        QSignalSpy failed(page_.get(), &TimelinePage::readFailed);
        page_->refreshRuns();
        QCOMPARE(picker->count(), before);
        QTRY_COMPARE(failed.count(), 1); // after one retry
        QVERIFY2(failed.at(0).at(0).toString().contains("tokens_per_step"),
                 qPrintable(failed.at(0).at(0).toString()));
        QCOMPARE(picker->count(), before);
        execSql(ws_->db(), "UPDATE runs SET tokens_per_step = 0 WHERE name = 'A'");
        page_->refreshRuns();
        QCOMPARE(picker->count(), before);
        QTest::qWait(2 * TimelinePage::kReadRetryMs);
        QCOMPARE(failed.count(), 1); // no retry left pending
    }

    // Bookmarks (Ctrl+B, a wish of Nsight Systems / Perfetto users): the action asks for a label (answered
    // here), bookmarks the selected event's start and hands the run attribute's text to the host to store;
    // labels are cleaned (a tab becomes a space); the list jumps back (the window centred on it, same
    // span); another run shows none; the run shown again reads what was stored.
    void bookmarksAddJumpAndReload() {
        // Shows `run` and waits until the view draws it (a run already loaded is drawn at once).
        auto show = [this](RunId run) {
            page_->showRun(run);
            QTRY_VERIFY_WITH_TIMEOUT(view()->model() && view()->model()->runId == run, 10000);
        };
        show(runA_);
        view()->fitAll();
        const EventRef k = findEvent(*view()->model(), 0, RowKind::GpuStream, 7, 2500);
        QVERIFY(k.valid());
        view()->setSelected(k);
        QSignalSpy edited(page_.get(), &TimelinePage::bookmarksEdited);
        QTimer::singleShot(0, page_.get(), []() {
            if (auto* d = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                d->setTextValue(QStringLiteral("allreduce"));
                d->accept();
            }
        });
        QCOMPARE(page_->addBookmarkAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_B));
        page_->addBookmarkAction()->trigger();
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.at(0).at(0).value<RunId>(), runA_);
        QCOMPARE(edited.at(0).at(1).toString(), QStringLiteral("2500\tallreduce\n"));
        page_->addBookmark(1000, QStringLiteral("gemm\tstart"));
        const QString text = edited.at(1).at(1).toString();
        QCOMPARE(text, QStringLiteral("1000\tgemm start\n2500\tallreduce\n"));
        QCOMPARE(view()->bookmarks().size(), std::size_t(2));
        view()->zoomTo(3500, 3600);
        const Ns span = view()->axis().end() - view()->axis().start();
        page_->jumpToBookmark(0);
        QCOMPARE(view()->axis().start() + span / 2, Ns(1000));
        QCOMPARE(view()->axis().end() - view()->axis().start(), span);
        // Stored as the host stores it; run B has none, run A shown again reads its own.
        {
            Transaction tx(ws_->db());
            ws_->setRunAttribute(runA_, kBookmarksAttribute, text.toStdString());
            tx.commit();
        }
        show(runB_);
        QVERIFY(view()->bookmarks().empty());
        show(runA_);
        QCOMPARE(view()->bookmarks(),
                 (std::vector<TimelineBookmark>{{1000, "gemm start"}, {2500, "allreduce"}}));
        page_->removeBookmarks();
        QVERIFY(view()->bookmarks().empty());
        QCOMPARE(edited.last().at(1).toString(), QString());
    }

    // Issue 32.9: after Close Workspace the status line still named the old run.
    // A run whose events stayed on the cluster (added from summary files: events.elsewhere) does not load;
    // the details say so and offer to fetch them (EventFetchController), naming the missing shard.
    void aRunOnTheClusterOffersToFetchItsEvents() {
        RunId run;
        {
            Transaction tx(ws_->db());
            run = ws_->insertRun(trace("on the cluster", 0));
            storeOverview(*ws_, makeOverview(cnp::timeline::loadTimeline(*ws_, run)));
            ws_->setRunAttribute(run, "events.elsewhere", "summary files shard-0.summary.cnpdb");
            ws_->setRunAttribute(run, "events.shard_ranks", "0");
            ws_->setRunAttribute(run, "ingest.events", "traces:job/attempt-1/shards");
            tx.commit();
        }
        page_->refreshRuns();
        QSignalSpy failed(page_.get(), &TimelinePage::runLoadFailed);
        page_->showRun(run);
        QTRY_VERIFY_WITH_TIMEOUT(!failed.isEmpty() && failed.last().at(0).value<RunId>() == run, 10000);
        auto* details = page_->findChild<QTextBrowser*>("details");
        QVERIFY(details);
        QTRY_VERIFY_WITH_TIMEOUT(details->toHtml().contains("cnp:fetch-events"), 10000);
        const QString text = details->toPlainText();
        QVERIFY2(text.contains("This run's events are on the cluster.") && text.contains("Fetch events") &&
                     text.contains("the events of shard 0 (ranks 0) stayed with its shards (on the cluster, "
                                   "traces:job/attempt-1/shards)"),
                 qPrintable(text));
        QVERIFY(page_->findChild<QDockWidget*>("timelineDetailsDock")->isVisible());
        // The stored overview shows; the status line says that is all there is here.
        QVERIFY(view()->model() && view()->model()->runId == run);
        const QString label = page_->findChild<cnp::wb::ElidedLabel*>("runLabel")->fullText();
        QVERIFY2(label == "on the cluster · overview only: its events are on the cluster", qPrintable(label));
        page_->showRun(runA_);
    }

    void closingTheWorkspaceForgetsTheRun() {
        auto* label = page_->findChild<QLabel*>("runLabel");
        QVERIFY(label);
        QVERIFY(!label->text().startsWith("No "));
        page_->setWorkspace(nullptr);
        QCOMPARE(label->text(), QString("No workspace open"));
    }

    void cleanupTestCase() { page_.reset(); }
};

QTEST_MAIN(TestTimelinePage)
#include "tst_timelinepage.moc"
