// Issue 29: the critical path on the timeline. A small run whose path is known by hand: the page's
// "Critical Path" action computes it in the background through the same request as `cnp critical-path`
// (requests/CriticalPathRequest.h), the view highlights exactly that path's segments (row, span, kind
// and event of each, in order), the side panel's breakdown equals it, a breakdown row selects the longest
// segment of its kind, and a change of run clears it.
#include "requests/CriticalPathRequest.h"
#include "store/Sqlite.h"
#include "store/Workspace.h"
#include "timeline/CriticalPathModel.h"
#include "timeline/CriticalPathPanel.h"
#include "timeline/TimelinePage.h"
#include "timeline/TimelineView.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QPainter>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::timeline;
using cnp::wb::CriticalPathModel;
using cnp::wb::CriticalPathPanel;
using cnp::wb::PathMark;
using cnp::wb::TimelinePage;
using cnp::wb::TimelineView;

namespace {

// Rank 0, thread 11: cudaLaunchKernel [900, 950) corr 1 -> "gemm_a" (gemm) [1000, 2000) on GPU 0 stream
// 7; cudaLaunchKernel [2400, 2450) corr 2 -> "ncclDevKernel_AllReduce" (communication) [2500, 4000) on
// stream 7; cudaDeviceSynchronize [3000, 4050). Step 0: CPU [800, 4100).
// The path by hand (docs/metrics.md, "Critical path"): untraced CPU 800 -> 900, the first launch call
// 900 -> 950, untraced CPU 950 -> 2400, the launch delay 2400 -> 2500 (the call's start binds the
// all-reduce's start: later than the gemm's end), the all-reduce 2500 -> 4000, the synchronise's return
// 4000 -> 4050. Length 3250 = cpu 1550 + launch 150 + communication 1500 + sync 50; the gemm is not on it.
TraceData trace(const char* name) {
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
        k.start = s;
        k.end = e;
        k.stream = 7;
        k.name = S(n);
        k.category = S(cat);
        k.correlation = corr;
        t.kernels.push_back(k);
    };
    kernel(1000, 2000, "gemm_a", "gemm", 1);
    kernel(2500, 4000, "ncclDevKernel_AllReduce", "communication", 2);
    auto call = [&](Ns s, Ns e, const char* n, std::int64_t corr) {
        ApiCall a;
        a.start = s;
        a.end = e;
        a.tid = 11;
        a.pid = 5;
        a.correlation = corr;
        a.name = S(n);
        t.apiCalls.push_back(a);
    };
    call(900, 950, "cudaLaunchKernel", 1);
    call(2400, 2450, "cudaLaunchKernel", 2);
    call(3000, 4050, "cudaDeviceSynchronize", 0);
    t.flows.push_back({1, 0, 900, 11, 1000, 7});
    t.flows.push_back({2, 0, 2400, 11, 2500, 7});
    StepRange st;
    st.name = S("ProfilerStep#0");
    st.cpuStart = 800;
    st.cpuEnd = 4100;
    st.gpuStart = 1000;
    st.gpuEnd = 4000;
    t.steps.push_back(st);
    return t;
}

Ns byKind(const RankCriticalPath& p, PathKind k) {
    return p.path.byKind[static_cast<std::size_t>(k)];
}

} // namespace

class TestTimelineCriticalPath : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<Workspace> ws_;
    RunId runA_, runB_;
    std::unique_ptr<TimelinePage> page_;

    TimelineView* view() { return page_->view(); }
    EventRef eventAt(RowKind kind, std::int64_t key, Ns start) {
        return findEvent(*view()->model(), 0, kind, key, start);
    }
    void showPath() {
        QSignalSpy done(page_.get(), &TimelinePage::criticalPathFinished);
        page_->findChild<QAction*>("timelineCriticalPath")->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!done.isEmpty(), 10000);
        QVERIFY2(done.first().at(0).toBool(), qPrintable(page_->criticalPathPanel()->heading()));
    }

private slots:
    void initTestCase() {
        ws_ = std::make_shared<Workspace>(dir_.filePath("w.cnpdb").toStdString(),
                                          Workspace::Mode::CreateIfMissing);
        for (auto [name, out] : {std::pair{"A", &runA_}, std::pair{"B", &runB_}}) {
            Transaction tx(ws_->db());
            *out = ws_->insertRun(trace(name));
            tx.commit();
        }
        page_ = std::make_unique<TimelinePage>();
        page_->resize(1400, 700);
        page_->show();
        page_->setWorkspace(ws_);
        QSignalSpy loaded(page_.get(), &TimelinePage::runLoaded);
        page_->showRun(runA_);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
        QVERIFY(view()->model());
        QCOMPARE(view()->model()->eventCount() >= std::size_t(6), true);
    }

    // The analysis request itself agrees with the path worked out by hand (the header's comment).
    void theRequestFindsTheHandPath() {
        WindowChoice choice;
        choice.rank = 0;
        choice.step = 0;
        const CriticalPathReport r = computeCriticalPath(*ws_, "A", choice, true);
        QCOMPARE(r.ranks.size(), std::size_t(1));
        const RankCriticalPath& p = r.ranks.front();
        QCOMPARE(p.path.length, Ns(3250));
        QCOMPARE(byKind(p, PathKind::Cpu), Ns(1550));
        QCOMPARE(byKind(p, PathKind::Launch), Ns(150));
        QCOMPARE(byKind(p, PathKind::Communication), Ns(1500));
        QCOMPARE(byKind(p, PathKind::Sync), Ns(50));
        QCOMPARE(byKind(p, PathKind::Compute), Ns(0));
    }

    // However the step is chosen (the selected event's, the range's, the view's middle), the highlighted
    // marks are the request's segments one for one: same span, kind, row and event.
    void highlightsTheAnalysisPath_data() {
        QTest::addColumn<QString>("how");
        QTest::newRow("selected kernel") << "kernel";
        QTest::newRow("selected range") << "range";
        QTest::newRow("middle of the view") << "view";
    }
    void highlightsTheAnalysisPath() {
        QFETCH(QString, how);
        view()->fitAll();
        view()->clearSelection();
        if (how == "kernel")
            view()->setSelected(eventAt(RowKind::GpuStream, 7, 1000));
        else if (how == "range")
            view()->setRange(0, 1200, 1300);
        showPath();

        WindowChoice choice;
        choice.rank = 0;
        choice.step = 0;
        const RankCriticalPath expected = computeCriticalPath(*ws_, "A", choice, true).ranks.front();
        QVERIFY(view()->criticalPath());
        QCOMPARE(view()->criticalPath()->path.length, expected.path.length);
        const auto& marks = view()->criticalPathMarks().marks();
        QCOMPARE(marks.size(), expected.segments.size());
        const TimelineModel& m = *view()->model();
        for (std::size_t i = 0; i < marks.size(); ++i) {
            const PathMark& mark = marks[i];
            const NamedSegment& s = expected.segments[i];
            QCOMPARE(mark.start, s.segment.start);
            QCOMPARE(mark.end, s.segment.end);
            QCOMPARE(mark.kind, s.segment.kind);
            QVERIFY(mark.row >= 0);
            const TimelineRow& row = m.rows[static_cast<std::size_t>(mark.row)];
            if (s.stream >= 0) {
                QCOMPARE(row.kind, RowKind::GpuStream);
                QCOMPARE(row.stream, s.stream);
            } else {
                QCOMPARE(row.kind, RowKind::CpuThread);
                QCOMPARE(row.tid, s.tid);
            }
            QCOMPARE(mark.event.valid(), s.eventEnd >= s.eventStart);
            if (mark.event.valid()) {
                const EventTrack& tr = row.lanes[static_cast<std::size_t>(mark.event.lane)];
                QCOMPARE(m.names[tr.name(mark.event.index)], s.name);
                QCOMPARE(tr.start(mark.event.index), s.eventStart);
            }
        }
        // By hand: both launch calls, the all-reduce and the synchronise are outlined; the gemm is not.
        std::vector<EventRef> outlined;
        for (const PathMark& mark : marks)
            if (mark.event.valid())
                outlined.push_back(mark.event);
        auto on = [&](const EventRef& r) {
            return std::find(outlined.begin(), outlined.end(), r) != outlined.end();
        };
        QVERIFY(on(eventAt(RowKind::CpuThread, 11, 900)));
        QVERIFY(on(eventAt(RowKind::GpuStream, 7, 2500)));
        QVERIFY(on(eventAt(RowKind::CpuThread, 11, 3000)));
        QVERIFY(!on(eventAt(RowKind::GpuStream, 7, 1000)));
        // Drawing it is part of a frame (no assertion on pixels beyond "it paints").
        QImage img(page_->view()->size(), QImage::Format_ARGB32);
        QPainter p(&img);
        view()->paintFrame(p);
    }

    // The panel shows the request's breakdown; a row selects the longest segment of its kind.
    void panelBreakdownSelectsTheLongestSegment() {
        view()->clearSelection();
        showPath();
        CriticalPathPanel* panel = page_->criticalPathPanel();
        CriticalPathModel* model = panel->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(),
                 4); // cpu, communication, launch, sync (kinds with time, in PathKind order)
        const std::vector<std::pair<PathKind, Ns>> want = {{PathKind::Cpu, 1550},
                                                           {PathKind::Communication, 1500},
                                                           {PathKind::Launch, 150},
                                                           {PathKind::Sync, 50}};
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(model->rows()[static_cast<std::size_t>(r)].kind,
                     want[static_cast<std::size_t>(r)].first);
            QCOMPARE(model->rows()[static_cast<std::size_t>(r)].ns, want[static_cast<std::size_t>(r)].second);
        }
        QVERIFY2(panel->heading().contains("3.25 µs"), qPrintable(panel->heading()));
        // communication: the all-reduce is selected.
        emit panel->table()->clicked(model->index(1, 0));
        QCOMPARE(view()->selected(), eventAt(RowKind::GpuStream, 7, 2500));
        // CPU-bound: the longest piece is untraced time 950 -> 2400, no event: it becomes the range.
        emit panel->table()->clicked(model->index(0, 0));
        QVERIFY(!view()->selected().valid());
        QVERIFY(view()->hasRange());
        QCOMPARE(view()->rangeStart(), Ns(950));
        QCOMPARE(view()->rangeEnd(), Ns(2400));
    }

    void anotherRunClearsIt() {
        showPath();
        QVERIFY(view()->criticalPath());
        QSignalSpy loaded(page_.get(), &TimelinePage::runLoaded);
        page_->showRun(runB_);
        QVERIFY(!view()->criticalPath());
        QVERIFY(view()->criticalPathMarks().empty());
        QCOMPARE(page_->criticalPathPanel()->model()->rowCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 10000);
        QVERIFY(!view()->criticalPath());
    }
};

QTEST_MAIN(TestTimelineCriticalPath)
#include "tst_timelinecriticalpath.moc"
