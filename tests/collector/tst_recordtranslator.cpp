// CUPTI record -> .cnpt record translation, fed with CUPTI activity structs built here (the CUDA 13 header
// versions the collector uses). Each case writes through the translator into a temporary file and reads
// it back, so the whole path collector -> file -> reader is checked field by field. No GPU needed; the
// test is skipped where the CUPTI headers are missing.
#include "CnptReader.h"
#include "CnptWriter.h"

#include <QtTest>

#ifdef CNP_HAVE_CUPTI_HEADERS
#include "RecordTranslator.h"
#endif

using namespace cnpt;

#ifdef CNP_HAVE_CUPTI_HEADERS
namespace {

const char* fakeApiName(bool driver, std::uint32_t cbid) {
    if (!driver && cbid == 211)
        return "cudaLaunchKernel_v7000";
    if (!driver && cbid == 3)
        return "cudaMemcpy_v3020";
    if (driver && cbid == 652)
        return "cuLaunchKernelEx";
    return nullptr;
}

struct Translated {
    std::vector<std::pair<RecordType, std::vector<unsigned char>>> records;
    std::vector<std::string> strings;
    cnp::collector::TranslatorStats stats;
};

template <class... Structs> Translated translate(const Structs&... records) {
    QTemporaryDir dir;
    const std::string path = dir.filePath("t.cnpt").toStdString();
    Translated out;
    {
        CnptWriter w;
        w.open(path);
        w.writeHeader({{"host", "test"}});
        cnp::collector::RecordTranslator t(w, &fakeApiName);
        (t.translate(reinterpret_cast<const CUpti_Activity*>(&records)), ...);
        out.stats = t.stats();
        w.close();
    }
    CnptReader r(path);
    r.forEachRecord([&](RecordType type, const unsigned char* body, std::uint16_t size, std::int64_t) {
        out.records.emplace_back(type, std::vector<unsigned char>(body, body + size));
    });
    out.strings = r.strings();
    return out;
}

template <class T> T as(const Translated& t, std::size_t i) {
    const auto& b = t.records.at(i).second;
    return CnptReader::decode<T>(b.data(), static_cast<std::uint16_t>(b.size()));
}

} // namespace
#endif

class TestRecordTranslator : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#ifndef CNP_HAVE_CUPTI_HEADERS
        QSKIP("CUPTI headers not found at configure time");
#endif
    }

#ifdef CNP_HAVE_CUPTI_HEADERS
    void kernel_data() {
        QTest::addColumn<int>("kind");
        QTest::newRow("CONCURRENT_KERNEL") << int(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
        QTest::newRow("KERNEL (same struct)") << int(CUPTI_ACTIVITY_KIND_KERNEL);
    }
    void kernel() {
        QFETCH(int, kind);
        CUpti_ActivityKernel10 k{};
        k.kind = static_cast<CUpti_ActivityKind>(kind);
        k.start = 1'000'000'123;
        k.end = 1'000'050'000;
        k.deviceId = 1;
        k.contextId = 2;
        k.streamId = 13;
        k.gridX = 132;
        k.gridY = 2;
        k.gridZ = 1;
        k.blockX = 384;
        k.blockY = 1;
        k.blockZ = 1;
        k.staticSharedMemory = 1024;
        k.dynamicSharedMemory = 65536;
        k.registersPerThread = 168;
        k.correlationId = 4242;
        k.gridId = -5;
        k.graphId = 9;
        k.graphNodeId = 99;
        k.launchType = 1;
        k.isDeviceLaunched = 0;
        k.name = "_Z10gemmKernelPfS_";
        const auto t = translate(k);
        QCOMPARE(t.records.size(), std::size_t(1));
        QCOMPARE(t.records[0].first, RecordType::Kernel);
        const auto r = as<KernelRecord>(t, 0);
        QCOMPARE(r.start, 1'000'000'123ull);
        QCOMPARE(r.end, 1'000'050'000ull);
        QCOMPARE(r.device, 1u);
        QCOMPARE(r.context, 2u);
        QCOMPARE(r.stream, 13u);
        QCOMPARE(r.grid[0], 132);
        QCOMPARE(r.grid[1], 2);
        QCOMPARE(r.block[0], 384);
        QCOMPARE(r.staticSmem, 1024);
        QCOMPARE(r.dynamicSmem, 65536);
        QCOMPARE(r.registers, 168u);
        QCOMPARE(r.correlation, 4242u);
        QCOMPARE(r.gridId, std::int64_t(-5));
        QCOMPARE(r.graphId, 9u);
        QCOMPARE(r.graphNodeId, 99ull);
        QCOMPARE(r.launchType, std::uint8_t(1));
        QCOMPARE(t.strings.at(r.name), std::string("_Z10gemmKernelPfS_")); // demangled by the importer
        QCOMPARE(t.stats.kernels, 1ull);
    }

    void memcpyAndPeer() {
        CUpti_ActivityMemcpy6 m{};
        m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
        m.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
        m.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
        m.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.bytes = 1 << 20;
        m.start = 500;
        m.end = 900;
        m.deviceId = 0;
        m.contextId = 1;
        m.streamId = 7;
        m.correlationId = 11;
        CUpti_ActivityMemcpyPtoP4 p{};
        p.kind = CUPTI_ACTIVITY_KIND_MEMCPY2;
        p.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
        p.srcKind = p.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        p.bytes = 4096;
        p.start = 1000;
        p.end = 1100;
        p.deviceId = 0;
        p.srcDeviceId = 0;
        p.dstDeviceId = 3;
        p.streamId = 8;
        p.correlationId = 12;
        const auto t = translate(m, p);
        QCOMPARE(t.records.size(), std::size_t(2));
        const auto a = as<MemcpyRecord>(t, 0), b = as<MemcpyRecord>(t, 1);
        QCOMPARE(a.copyKind, std::uint8_t(1)); // HtoD
        QCOMPARE(a.srcKind, std::uint8_t(2));  // pinned
        QCOMPARE(a.dstKind, std::uint8_t(3));  // device
        QCOMPARE(a.bytes, 1ull << 20);
        QCOMPARE(a.start, 500ull);
        QCOMPARE(a.end, 900ull);
        QCOMPARE(a.stream, 7u);
        QCOMPARE(a.correlation, 11u);
        QCOMPARE(a.peer, std::uint8_t(0));
        QCOMPARE(a.srcDevice, 0u);
        QCOMPARE(b.copyKind, std::uint8_t(10)); // PtoP
        QCOMPARE(b.peer, std::uint8_t(1));
        QCOMPARE(b.dstDevice, 3u);
        QCOMPARE(b.bytes, 4096ull);
        QCOMPARE(b.correlation, 12u);
        QCOMPARE(t.stats.memcpys, 2ull);
    }

    void memset() {
        CUpti_ActivityMemset4 m{};
        m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
        m.value = 0xAB;
        m.bytes = 333;
        m.start = 10;
        m.end = 20;
        m.deviceId = 2;
        m.streamId = 5;
        m.correlationId = 77;
        m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        const auto t = translate(m);
        const auto r = as<MemsetRecord>(t, 0);
        QCOMPARE(t.records[0].first, RecordType::Memset);
        QCOMPARE(r.value, 0xABu);
        QCOMPARE(r.bytes, 333ull);
        QCOMPARE(r.device, 2u);
        QCOMPARE(r.memoryKind, std::uint16_t(3));
        QCOMPARE(r.correlation, 77u);
    }

    void apiNames_data() {
        QTest::addColumn<bool>("driver");
        QTest::addColumn<int>("cbid");
        QTest::addColumn<QString>("name");
        QTest::newRow("runtime, version suffix dropped") << false << 211 << "cudaLaunchKernel";
        QTest::newRow("runtime cudaMemcpy") << false << 3 << "cudaMemcpy";
        QTest::newRow("driver, no suffix") << true << 652 << "cuLaunchKernelEx";
        QTest::newRow("unknown runtime id") << false << 4321 << "runtime_api_4321";
        QTest::newRow("unknown driver id") << true << 77 << "driver_api_77";
    }
    void apiNames() {
        QFETCH(bool, driver);
        QFETCH(int, cbid);
        QFETCH(QString, name);
        CUpti_ActivityAPI a{};
        a.kind = driver ? CUPTI_ACTIVITY_KIND_DRIVER : CUPTI_ACTIVITY_KIND_RUNTIME;
        a.cbid = static_cast<CUpti_CallbackId>(cbid);
        a.start = 100;
        a.end = 250;
        a.processId = 1234;
        a.threadId = 5678;
        a.correlationId = 31;
        a.returnValue = 0;
        CUpti_ActivityAPI again = a; // a second call reuses the cached name id
        again.correlationId = 32;
        const auto t = translate(a, again);
        QCOMPARE(t.records.size(), std::size_t(2));
        const auto r = as<ApiRecord>(t, 0), r2 = as<ApiRecord>(t, 1);
        QCOMPARE(QString::fromStdString(t.strings.at(r.name)), name);
        QCOMPARE(r2.name, r.name);
        QCOMPARE(r.domain, driver ? ApiDomain::Driver : ApiDomain::Runtime);
        QCOMPARE(r.start, 100ull);
        QCOMPARE(r.end, 250ull);
        QCOMPARE(r.pid, 1234u);
        QCOMPARE(r.tid, 5678u);
        QCOMPARE(r.correlation, 31u);
        QCOMPARE(r2.correlation, 32u);
        QCOMPARE(r.cbid, static_cast<std::uint32_t>(cbid));
    }

    void markersAndData() {
        CUpti_ActivityMarker2 start{};
        start.kind = CUPTI_ACTIVITY_KIND_MARKER;
        start.flags = CUPTI_ACTIVITY_FLAG_MARKER_START;
        start.timestamp = 1000;
        start.id = 5;
        start.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
        start.objectId.pt.processId = 10;
        start.objectId.pt.threadId = 11;
        start.name = "step 3";
        start.domain = "training";
        CUpti_ActivityMarker2 end = start;
        end.flags = CUPTI_ACTIVITY_FLAG_MARKER_END;
        end.timestamp = 5000;
        end.name = nullptr;
        end.domain = nullptr;
        CUpti_ActivityMarkerData2 data{};
        data.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
        data.flags = CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB;
        data.id = 5;
        data.color = 0xFF00FF00u;
        data.category = 4;
        data.payloadKind = CUPTI_METRIC_VALUE_KIND_UINT64;
        data.payload.metricValueUint64 = 123456789ull;
        const auto t = translate(start, data, end);
        QCOMPARE(t.records.size(), std::size_t(3));
        const auto s = as<MarkerRecord>(t, 0), e = as<MarkerRecord>(t, 2);
        const auto d = as<MarkerDataRecord>(t, 1);
        QCOMPARE(s.flags, 2u);
        QCOMPARE(e.flags, 4u);
        QCOMPARE(s.id, 5u);
        QCOMPARE(e.id, 5u);
        QCOMPARE(s.timestamp, 1000ull);
        QCOMPARE(e.timestamp, 5000ull);
        QCOMPARE(s.pid, 10u);
        QCOMPARE(s.tid, 11u);
        QCOMPARE(t.strings.at(s.name), std::string("step 3"));
        QCOMPARE(t.strings.at(s.domain), std::string("training"));
        QCOMPARE(e.name, 0u);
        QCOMPARE(d.color, 0xFF00FF00u);
        QCOMPARE(d.category, 4u);
        QCOMPARE(d.payload, 123456789ull);
        QCOMPARE(d.payloadKind, static_cast<std::uint32_t>(CUPTI_METRIC_VALUE_KIND_UINT64));
        QCOMPARE(t.stats.markers, 2ull);
        QCOMPARE(t.stats.markerData, 1ull);
    }

    void syncMemoryOverhead() {
        CUpti_ActivitySynchronization2 s{};
        s.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
        s.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
        s.start = 100;
        s.end = 900;
        s.correlationId = 8;
        s.contextId = 1;
        s.streamId = 7;
        s.cudaEventId = 0;
        CUpti_ActivityMemory4 m{};
        m.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
        m.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
        m.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        m.correlationId = 9;
        m.address = 0x7f0000001000ull;
        m.bytes = 2 << 20;
        m.timestamp = 1234;
        m.processId = 10;
        m.deviceId = 0;
        m.streamId = 7;
        m.isAsync = 1;
        CUpti_ActivityOverhead3 o{};
        o.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
        o.overheadKind = CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST;
        o.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
        o.objectId.pt.processId = 10;
        o.objectId.pt.threadId = 12;
        o.start = 2000;
        o.end = 7000;
        const auto t = translate(s, m, o);
        QCOMPARE(t.records.size(), std::size_t(3));
        const auto rs = as<SynchronizationRecord>(t, 0);
        const auto rm = as<MemoryRecord>(t, 1);
        const auto ro = as<OverheadRecord>(t, 2);
        QCOMPARE(rs.type, static_cast<std::uint32_t>(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE));
        QCOMPARE(rs.end - rs.start, 800ull);
        QCOMPARE(rs.stream, 7u);
        QCOMPARE(rm.operation, 1u);
        QCOMPARE(rm.memoryKind, 3u);
        QCOMPARE(rm.address, 0x7f0000001000ull);
        QCOMPARE(rm.bytes, 2ull << 20);
        QCOMPARE(rm.isAsync, std::uint8_t(1));
        QCOMPARE(ro.overheadKind,
                 static_cast<std::uint32_t>(CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST));
        QCOMPARE(ro.objectKind, 2u); // thread
        QCOMPARE(ro.objectA, 10u);
        QCOMPARE(ro.objectB, 12u);
    }

    void deviceContextName() {
        CUpti_ActivityDevice5 d{};
        d.kind = CUPTI_ACTIVITY_KIND_DEVICE;
        d.id = 0;
        d.name = "NVIDIA H200";
        d.globalMemorySize = 150ull << 30;
        d.computeCapabilityMajor = 9;
        d.computeCapabilityMinor = 0;
        d.numMultiprocessors = 132;
        for (int i = 0; i < 16; ++i)
            d.uuid.bytes[i] = static_cast<char>(0x10 + i);
        CUpti_ActivityContext3 c{};
        c.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
        c.contextId = 1;
        c.deviceId = 0;
        c.nullStreamId = 7;
        CUpti_ActivityName n{};
        n.kind = CUPTI_ACTIVITY_KIND_NAME;
        n.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
        n.objectId.pt.processId = 10;
        n.objectId.pt.threadId = 11;
        n.name = "dataloader";
        CUpti_ActivityAPI unknownKind{};
        unknownKind.kind = CUPTI_ACTIVITY_KIND_PCIE; // not translated: counted as ignored
        const auto t = translate(d, c, n, unknownKind);
        QCOMPARE(t.records.size(), std::size_t(3));
        const auto rd = as<DeviceRecord>(t, 0);
        const auto rc = as<ContextRecord>(t, 1);
        const auto rn = as<NameRecord>(t, 2);
        QCOMPARE(t.strings.at(rd.name), std::string("NVIDIA H200"));
        QCOMPARE(rd.globalMemoryBytes, 150ull << 30);
        QCOMPARE(rd.ccMajor, 9u);
        QCOMPARE(rd.multiprocessors, 132u);
        QCOMPARE(rd.uuid[0], std::uint8_t(0x10));
        QCOMPARE(rd.uuid[15], std::uint8_t(0x1F));
        QCOMPARE(rc.context, 1u);
        QCOMPARE(rc.nullStream, 7u);
        QCOMPARE(rn.objectKind, 2u);
        QCOMPARE(rn.a, 10u);
        QCOMPARE(rn.b, 11u);
        QCOMPARE(t.strings.at(rn.name), std::string("dataloader"));
        QCOMPARE(t.stats.ignored, 1ull);
        QCOMPARE(t.stats.total(), 3ull);
    }
#endif
};

QTEST_GUILESS_MAIN(TestRecordTranslator)
#include "tst_recordtranslator.moc"
