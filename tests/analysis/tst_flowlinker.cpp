// FlowLinker: launch -> GPU activity flows by correlation id, shared by the .cnpt, nsys and Kineto
// importers. Expected flows written out by hand from the calls and activities each row feeds in.
#include "import/common/FlowLinker.h"

#include <QtTest>

#include <vector>

using namespace cnp;

namespace {

struct Call {
    std::int64_t scope, correlation;
    Ns start;
    std::int64_t tid;
    ApiKind kind;
};
struct Activity {
    std::int64_t scope;
    std::int32_t rank;
    std::int64_t correlation;
    Ns start;
    std::int64_t stream;
};

} // namespace

Q_DECLARE_METATYPE(std::vector<Call>)
Q_DECLARE_METATYPE(std::vector<Activity>)
Q_DECLARE_METATYPE(std::vector<Flow>)

class TestFlowLinker : public QObject {
    Q_OBJECT
private slots:
    void link_data() {
        QTest::addColumn<std::vector<Call>>("calls");
        QTest::addColumn<std::vector<Activity>>("activities");
        QTest::addColumn<std::vector<Flow>>("flows"); // {correlation, rank, cpuTs, tid, gpuTs, stream}
        const auto R = ApiKind::Runtime, D = ApiKind::Driver;
        QTest::newRow("one launch") << std::vector<Call>{{0, 7, 100, 11, R}}
                                    << std::vector<Activity>{{0, 2, 7, 150, 13}}
                                    << std::vector<Flow>{{7, 2, 100, 11, 150, 13}};
        QTest::newRow("no launch, no flow")
            << std::vector<Call>{{0, 7, 100, 11, R}} << std::vector<Activity>{{0, 0, 8, 150, 13}}
            << std::vector<Flow>{};
        QTest::newRow("id 0 never links") << std::vector<Call>{{0, 0, 100, 11, R}}
                                          << std::vector<Activity>{{0, 0, 0, 150, 13}} << std::vector<Flow>{};
        // A graph launch: one call, several kernels; flows in activity order, not by time.
        QTest::newRow("one call, three activities")
            << std::vector<Call>{{0, 5, 10, 1, R}}
            << std::vector<Activity>{{0, 0, 5, 300, 7}, {0, 0, 5, 200, 7}, {0, 0, 5, 400, 8}}
            << std::vector<Flow>{{5, 0, 10, 1, 300, 7}, {5, 0, 10, 1, 200, 7}, {5, 0, 10, 1, 400, 8}};
        // The runtime call launched; the driver call it made shares the id, before or after it.
        QTest::newRow("runtime after driver wins")
            << std::vector<Call>{{0, 9, 105, 2, D}, {0, 9, 100, 1, R}}
            << std::vector<Activity>{{0, 0, 9, 500, 3}} << std::vector<Flow>{{9, 0, 100, 1, 500, 3}};
        QTest::newRow("runtime before driver wins")
            << std::vector<Call>{{0, 9, 100, 1, R}, {0, 9, 105, 2, D}}
            << std::vector<Activity>{{0, 0, 9, 500, 3}} << std::vector<Flow>{{9, 0, 100, 1, 500, 3}};
        QTest::newRow("first of two runtime calls")
            << std::vector<Call>{{0, 9, 100, 1, R}, {0, 9, 200, 2, R}}
            << std::vector<Activity>{{0, 0, 9, 500, 3}} << std::vector<Flow>{{9, 0, 100, 1, 500, 3}};
        QTest::newRow("driver only") << std::vector<Call>{{0, 4, 60, 6, D}, {0, 4, 70, 7, D}}
                                     << std::vector<Activity>{{0, 1, 4, 80, 2}}
                                     << std::vector<Flow>{{4, 1, 60, 6, 80, 2}};
        // nsys: two processes reuse correlation id 3; the scope (pid) keeps them apart.
        QTest::newRow("scopes apart")
            << std::vector<Call>{{1000, 3, 10, 1, R}, {2000, 3, 20, 2, R}}
            << std::vector<Activity>{{2000, 1, 3, 25, 9}, {1000, 0, 3, 15, 8}, {3000, 2, 3, 35, 7}}
            << std::vector<Flow>{{3, 1, 20, 2, 25, 9}, {3, 0, 10, 1, 15, 8}};
    }
    void link() {
        QFETCH(std::vector<Call>, calls);
        QFETCH(std::vector<Activity>, activities);
        QFETCH(std::vector<Flow>, flows);
        FlowLinker linker;
        linker.reserve(calls.size(), activities.size());
        for (const auto& c : calls)
            linker.addLaunch(c.scope, c.correlation, FlowLinker::Launch{c.start, 0, c.tid, c.kind});
        for (const auto& a : activities)
            linker.addActivity(a.scope, a.rank, a.correlation, a.start, a.stream);
        std::vector<Flow> got;
        linker.linkInto(got);
        QCOMPARE(got.size(), flows.size());
        for (std::size_t i = 0; i < flows.size(); ++i) {
            QCOMPARE(got[i].correlation, flows[i].correlation);
            QCOMPARE(got[i].rank, flows[i].rank);
            QCOMPARE(got[i].cpuTs, flows[i].cpuTs);
            QCOMPARE(got[i].tid, flows[i].tid);
            QCOMPARE(got[i].gpuTs, flows[i].gpuTs);
            QCOMPARE(got[i].stream, flows[i].stream);
        }
    }

    // The launch lookup the importers use for synchronisation waits (the waiting thread).
    void lookup() {
        FlowLinker linker;
        ApiCall call;
        call.start = 40;
        call.correlation = 12;
        call.pid = 300;
        call.tid = 301;
        linker.addLaunch(5, call);
        const FlowLinker::Launch* l = linker.launch(5, 12);
        QVERIFY(l);
        QCOMPARE(l->start, Ns{40});
        QCOMPARE(l->pid, std::int64_t{300});
        QCOMPARE(l->tid, std::int64_t{301});
        QVERIFY(!linker.launch(6, 12));
        QVERIFY(!linker.launch(5, 13));
        QVERIFY(!linker.launch(5, 0));
        // One flow at a time (the Kineto importer: every launch is known when it pairs).
        const auto f = linker.flowFor(5, 3, 12, 90, 7);
        QVERIFY(f);
        QCOMPARE(f->correlation, std::int64_t{12});
        QCOMPARE(f->rank, 3);
        QCOMPARE(f->cpuTs, Ns{40});
        QCOMPARE(f->tid, std::int64_t{301});
        QCOMPARE(f->gpuTs, Ns{90});
        QCOMPARE(f->stream, std::int64_t{7});
        QVERIFY(!linker.flowFor(5, 3, 13, 90, 7));
        QVERIFY(!linker.flowFor(4, 3, 12, 90, 7));
    }
};

QTEST_GUILESS_MAIN(TestFlowLinker)
#include "tst_flowlinker.moc"
