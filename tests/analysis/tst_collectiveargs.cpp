// NCCL call arguments (core/CollectiveArgs.h; docs/schema.md, collective_args): read from a PyTorch
// profiler trace's kernels, bounded, stored with the rank's events (a single file or a study's shards),
// and used by `cnp collectives` to match calls by process group and to give bytes, algbw and busbw.
// Data: tests/data/kineto_nccl_args_rank0.json is 6 kernels of HTA's nccl_parser_config trace as they are
// (5 NCCL kernels with their args, 1 cuDNN kernel); kineto_nccl_args_rank1.json is rank 1 made by hand from
// it: its NCCL kernels on stream 44 (rank 0 uses 40), starts moved by +10, -2, +100, 0 and -50 µs, the ends
// kept but for call 3's, 1 µs later. Expected values computed by hand from those times and args.
#include "TestPaths.h"
#include "core/CollectiveArgs.h"
#include "ingest/IngestPipeline.h"
#include "requests/CollectivesRequest.h"
#include "store/StudyFolder.h"
#include "store/Workspace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

namespace {

constexpr Ns kBase = 1711964646000000000; // the trace's baseTimeNanoseconds (its ts are below it: added)

std::string dataFile(const char* name) {
    return (testpaths::dataDir() + "/" + name).toStdString();
}

struct ExpectedCall {
    const char* op;
    Ns arrival0, arrival1; // ns, ts (µs) x 1000 + kBase
    int lastRank;
    Ns waitNs, transferNs; // lastArrival - firstArrival; median of max(0, end - lastArrival)
    std::int64_t bytes;    // max(In, Out msg nelems) x dtype size
};

// Per call, in order on process group "0": broadcast 53120 x Float (4 B), broadcast 53 x Long (8 B), then
// all-reduces of 2049000, 7875584 and 6563840 x Float. Transfers: call 0: both end at rank 0's end,
// 30975 - 10000 = 20975; call 3: 2424415 and 2425415, median (mean rounded down) 2424915.
const ExpectedCall kCalls[] = {
    {"broadcast", kBase + 4458676423385774, kBase + 4458676423395774, 1, 10000, 20975, 212480},
    {"broadcast", kBase + 4458676425938828, kBase + 4458676425936828, 0, 2000, 7775, 424},
    {"all_reduce", kBase + 4458676524716094, kBase + 4458676524816094, 1, 100000, 3206963, 8196000},
    {"all_reduce", kBase + 4458676534511611, kBase + 4458676534511611, 0, 0, 2424915, 31502336},
    {"all_reduce", kBase + 4458676540699399, kBase + 4458676540649399, 0, 50000, 2368513, 26255360}};

void ingestBoth(Workspace& ws, const std::string& run) {
    IngestRequest r;
    r.inputs = {dataFile("kineto_nccl_args_rank0.json"), dataFile("kineto_nccl_args_rank1.json")};
    r.runName = run;
    r.jobs = 1;
    ingest(ws, r);
}

void checkCalls(const CollectivesResult& r) {
    const CollectiveMatch& m = r.match;
    QCOMPARE(std::string(r.matchedBy()), std::string("process-group-order"));
    QCOMPARE(m.ranks, 2);
    QCOMPARE(m.calls.size(), std::size(kCalls));
    QCOMPARE(m.callsByGroup, std::int64_t(5));
    QCOMPARE(m.unmatchedKernels, std::int64_t(0));
    for (std::size_t i = 0; i < std::size(kCalls); ++i) {
        const CollectiveCall& c = m.calls[i];
        const ExpectedCall& e = kCalls[i];
        QCOMPARE(c.sequence, static_cast<std::int32_t>(i));
        QCOMPARE(std::string(m.groupOf(c)), std::string("0"));
        QCOMPARE(c.groupSize, 2);
        QCOMPARE(std::string(collectiveOpName(c.op)), std::string(e.op));
        QCOMPARE(c.memberCount, std::size_t(2));
        QCOMPARE(m.members[c.firstMember].arrival, e.arrival0);
        QCOMPARE(m.members[c.firstMember + 1].arrival, e.arrival1);
        QCOMPARE(c.lastRank, e.lastRank);
        QCOMPARE(c.waitNs, e.waitNs);
        QCOMPARE(c.transferNs, e.transferNs);
        QCOMPARE(c.bytes, e.bytes);
        // algbw = bytes / transfer (B/ns = GB/s); busbw factor with n = 2: all-reduce 2(n-1)/n = 1,
        // broadcast 1.
        const double algbw = double(e.bytes) / double(e.transferNs);
        QVERIFY(c.algBwGBs && c.busBwGBs);
        QCOMPARE(*c.algBwGBs, algbw);
        QCOMPARE(*c.busBwGBs, algbw);
    }
    // By hand: call 3 moves 31502336 B in 2424915 ns = 12.991 GB/s.
    QVERIFY(std::abs(*m.calls[3].algBwGBs - 12.99111) < 1e-4);
}

} // namespace

class TestCollectiveArgs : public QObject {
    Q_OBJECT
    QTemporaryDir tmp_;

private slots:
    void dtypeSizes_data() {
        QTest::addColumn<QString>("dtype");
        QTest::addColumn<int>("bytes");
        QTest::newRow("Float") << "Float" << 4;
        QTest::newRow("BFloat16") << "BFloat16" << 2;
        QTest::newRow("Half") << "Half" << 2;
        QTest::newRow("Long") << "Long" << 8;
        QTest::newRow("Byte") << "Byte" << 1;
        QTest::newRow("Float8_e4m3fn") << "Float8_e4m3fn" << 1;
        QTest::newRow("ComplexDouble") << "ComplexDouble" << 16;
        QTest::newRow("unknown") << "Absurd" << 0;
        QTest::newRow("case matters") << "float" << 0;
        QTest::newRow("empty") << "" << 0;
    }
    void dtypeSizes() {
        QFETCH(QString, dtype);
        QFETCH(int, bytes);
        QCOMPARE(collectiveDtypeBytes(dtype.toStdString()), bytes);
    }

    // Out-of-range values are unknown; bytes never overflow.
    void bounds() {
        QCOMPARE(collectiveNelems(-5), std::int64_t(-1));
        QCOMPARE(collectiveNelems(0), std::int64_t(0));
        QCOMPARE(collectiveNelems(kMaxCollectiveNelems), kMaxCollectiveNelems);
        QCOMPARE(collectiveNelems(kMaxCollectiveNelems + 1), std::int64_t(-1));
        QCOMPARE(collectiveGroupSize(0), 0);
        QCOMPARE(collectiveGroupSize(-3), 0);
        QCOMPARE(collectiveGroupSize(8), 8);
        QCOMPARE(collectiveGroupSize(std::int64_t{1} << 40), 0);
        CollectiveArgs a;
        a.inNelems = 100;
        a.outNelems = 800; // an all-gather of 8 ranks: the gathered output
        a.dtypeBytes = 2;
        QCOMPARE(a.bytes(), std::int64_t(1600));
        a.dtypeBytes = 0;
        QCOMPARE(a.bytes(), std::int64_t(0));
        a.dtypeBytes = 16;
        a.outNelems = kMaxCollectiveNelems;
        QCOMPARE(a.bytes(), kMaxCollectiveNelems * 16);
        a.inNelems = a.outNelems = -1;
        QCOMPARE(a.bytes(), std::int64_t(0));
    }

    // The importer keeps each NCCL kernel's arguments, keyed to the kernel; other kernels have none.
    void importedFromTheKernels() {
        const TraceData t = importFile(dataFile("kineto_nccl_args_rank0.json"));
        QCOMPARE(t.kernels.size(), std::size_t(6));
        QCOMPARE(t.collectiveArgs.size(), std::size_t(5));
        const CollectiveArgs* first = nullptr;
        for (const auto& a : t.collectiveArgs)
            if (a.start == kBase + 4458676524716094)
                first = &a;
        QVERIFY(first);
        QCOMPARE(first->rank, 0);
        QCOMPARE(first->stream, std::int64_t(40));
        QCOMPARE(t.strings.at(first->op), std::string("allreduce"));
        QCOMPARE(first->inNelems, std::int64_t(2049000));
        QCOMPARE(first->outNelems, std::int64_t(2049000));
        QCOMPARE(t.strings.at(first->dtype), std::string("Float"));
        QCOMPARE(first->dtypeBytes, 4);
        QCOMPARE(first->groupSize, 2);
        QCOMPARE(t.strings.at(first->groupName), std::string("0"));
        QCOMPARE(t.strings.at(first->groupDescription), std::string("default_pg"));
        QCOMPARE(t.strings.at(first->groupRanks), std::string("[0, 1]"));
        bool kernelThere = false;
        for (const auto& k : t.kernels)
            kernelThere = kernelThere || (k.start == first->start && k.stream == first->stream);
        QVERIFY(kernelThere);
    }

    // Stored and matched by process group across ranks whose streams differ (40 and 44).
    void matchedByProcessGroupInOneFile() {
        Workspace ws(tmp_.filePath("one.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        ingestBoth(ws, "pair");
        checkCalls(computeCollectives(ws, std::string("pair")));
    }

    // A study keeps the arguments in the shard of the rank's events, and reads them back the same.
    void matchedByProcessGroupInAStudy() {
        const std::string path = tmp_.filePath("two.cnpstudy").toStdString();
        StudyFolder::create(path, 2);
        Workspace study(path, Workspace::Mode::ReadWrite);
        ingestBoth(study, "pair");
        checkCalls(computeCollectives(study, std::string("pair")));
        QVERIFY(!queryInt(study.db(), "SELECT COUNT(*) FROM sqlite_schema WHERE name = 'collective_args'"));
        std::int64_t rows = 0;
        for (int k = 0; k < study.shardCount(); ++k)
            rows += queryInt(study.shard(k).db(), "SELECT COUNT(*) FROM collective_args");
        QCOMPARE(rows, std::int64_t(10));
        study.removeRun("pair");
        for (int k = 0; k < study.shardCount(); ++k)
            QCOMPARE(queryInt(study.shard(k).db(), "SELECT COUNT(*) FROM collective_args"), std::int64_t(0));
    }

    // One rank of a group of 2: its transfer is its kernel, busbw uses the group's size, not the members.
    void oneRankOfTheGroup() {
        Workspace ws(tmp_.filePath("rank0.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest r;
        r.inputs = {dataFile("kineto_nccl_args_rank0.json")};
        r.runName = "rank0";
        ingest(ws, r);
        const CollectivesResult res = computeCollectives(ws, std::string("rank0"));
        QCOMPARE(res.match.calls.size(), std::size_t(5));
        const CollectiveCall& c = res.match.calls[3]; // all-reduce of 7875584 floats, 2424.415 µs
        QCOMPARE(c.memberCount, std::size_t(1));
        QCOMPARE(c.transferNs, Ns(2424415));
        QCOMPARE(c.bytes, std::int64_t(31502336));
        QCOMPARE(*c.algBwGBs, 31502336.0 / 2424415.0);
        QCOMPARE(*c.busBwGBs, 31502336.0 / 2424415.0 * 2 * (2 - 1) / 2);
    }

    // Hostile arguments are kept as unknown, never as absurd sizes; a huge ranks string is bounded.
    void hostileArgumentsAreBounded() {
        const QString path = tmp_.filePath("hostile.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray ranks(100000, '1');
        f.write(
            "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce_x\", "
            "\"pid\": 0, \"tid\": 7, \"ts\": 10, \"dur\": 5, \"args\": {\"stream\": 7, \"Collective name\": "
            "\"allreduce\", \"In msg nelems\": 1e30, \"Out msg nelems\": -4, \"dtype\": \"Absurd\", "
            "\"Group size\": -1, \"Process Group Name\": 17, \"Process Group Ranks\": \"" +
            ranks + "\"}}]}");
        f.close();
        const TraceData t = importFile(path.toStdString());
        QCOMPARE(t.collectiveArgs.size(), std::size_t(1));
        const CollectiveArgs& a = t.collectiveArgs.front();
        QCOMPARE(a.inNelems, std::int64_t(-1));
        QCOMPARE(a.outNelems, std::int64_t(-1));
        QCOMPARE(a.dtypeBytes, 0);
        QCOMPARE(a.groupSize, 0);
        QCOMPARE(a.bytes(), std::int64_t(0));
        QCOMPARE(t.strings.at(a.groupName), std::string("17"));
        QVERIFY(t.strings.at(a.groupRanks).size() <= 4096);

        Workspace ws(tmp_.filePath("hostile.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        IngestRequest r;
        r.inputs = {path.toStdString()};
        r.runName = "hostile";
        ingest(ws, r);
        const CollectivesResult res = computeCollectives(ws, std::string("hostile"));
        QCOMPARE(res.match.calls.size(), std::size_t(1));
        QCOMPARE(res.match.calls[0].bytes, std::int64_t(0));
        QVERIFY(!res.match.calls[0].algBwGBs);
        QVERIFY(!res.match.calls[0].busBwGBs);
        QCOMPARE(std::string(res.match.groupOf(res.match.calls[0])), std::string("17"));
    }
};

QTEST_GUILESS_MAIN(TestCollectiveArgs)
#include "tst_collectiveargs.moc"
