// The .cnpt importer: (1) a small file written here with known records, checked field by field after
// conversion (times shifted by the clock pairs' offset, names demangled, flows, NVTX ranges and colours,
// memory counter, skipped-event report, env allow-list); (2) bad input; (3) a real file from the GPU check
// (tests/data/gpu-run/capture.cnpt.gz: llama_train.py on one H200 under the collector with
// CNP_CAPTURE=steps:4:3), whose expected figures were derived at authoring time with an independent Python
// parser of the format (struct/zlib over the bytes; see tests/data/gpu-run/README.md); (4) hostile files
// (issue 14): a gzip bomb read in bounded memory, times that overflow int64, a record running past its
// chunk, counts that would wrap.
#include "CnptWriter.h"
#include "Crc32.h"
#include "TestPaths.h"
#include "core/InputError.h"
#include "import/cnpt/CnptClockModel.h"
#include "import/cnpt/CnptImporter.h"
#include "ingest/IngestPipeline.h"
#include "metrics/StepDetector.h"

#include <QtTest>

#include <sys/resource.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>

using namespace cnp;
using namespace cnpt;

namespace {

constexpr std::uint64_t kBase = 1'700'000'000'000'000'000ull; // realtime of CUPTI time 0 (offset)

ClockPairRecord pair(std::uint64_t cupti, std::int64_t error, std::uint64_t halfBracket) {
    return ClockPairRecord{kBase + cupti + static_cast<std::uint64_t>(error), cupti - halfBracket,
                           cupti + halfBracket};
}

MarkerRecord marker(std::uint64_t ts, std::uint32_t id, std::uint32_t flags, std::uint32_t name = 0) {
    MarkerRecord m{};
    m.timestamp = ts;
    m.id = id;
    m.flags = flags;
    m.pid = 10;
    m.tid = 11;
    m.name = name;
    return m;
}

// Writes the synthetic trace; returns the file size before the last events chunk (to cut inside it).
std::uint64_t writeSynthetic(const std::string& path, bool withClock = true) {
    CnptWriter w;
    w.open(path);
    w.writeHeader({{"host", "node7"},
                   {"pid", "4321"},
                   {"rank", "2"},
                   {"local_rank", "0"},
                   {"world_size", "4"},
                   {"config", "Base"},
                   {"run", "base-1"},
                   {"driver_version", "13000"},
                   {"cuda_version", "12040"},
                   {"cupti_version", "130001"},
                   {"image", "nvcr.io/x:1"},
                   {"env.CUDA_VISIBLE_DEVICES", "1"},
                   {"env.SECRET_TOKEN", "leak"}});
    if (withClock) {
        w.add(RecordType::ClockPair, pair(1000, 0, 20));     // offset kBase exactly, bracket +-20
        w.add(RecordType::ClockPair, pair(500000, 30, 10));  // 30 ns later realtime
        w.add(RecordType::ClockPair, pair(900000, -50, 10)); // median of {0, 30, -50} = 0
    }
    DeviceRecord d{};
    d.id = 0;
    d.name = w.intern("NVIDIA H200");
    for (int i = 0; i < 16; ++i)
        d.uuid[i] = static_cast<std::uint8_t>(i);
    w.add(RecordType::Device, d);
    const auto stepName = w.intern("step 0");
    w.add(RecordType::Marker, marker(2000, 7, 2, stepName));
    MarkerDataRecord md{};
    md.id = 7;
    md.flags = 2;
    md.color = 0xFF112233u;
    w.add(RecordType::MarkerData, md);
    ApiRecord rt{};
    rt.start = 3000;
    rt.end = 3500;
    rt.correlation = 1;
    rt.pid = 10;
    rt.tid = 11;
    rt.name = w.intern("cudaLaunchKernel");
    rt.domain = ApiDomain::Runtime;
    ApiRecord drv = rt; // a driver call inside it with the same correlation: the runtime call launched
    drv.start = 3100;
    drv.end = 3400;
    drv.name = w.intern("cuLaunchKernel");
    drv.domain = ApiDomain::Driver;
    w.add(RecordType::Api, drv);
    w.add(RecordType::Api, rt);
    KernelRecord k{};
    k.start = 10000;
    k.end = 12500;
    k.correlation = 1;
    k.stream = 7;
    k.grid[0] = 4;
    k.block[0] = 128;
    k.registers = 40;
    k.name = w.intern("_Z3fooPfi");
    w.add(RecordType::Kernel, k);
    KernelRecord orphan = k; // launched by a call outside the capture: no flow
    orphan.start = 13000;
    orphan.end = 14000;
    orphan.correlation = 99;
    orphan.name = w.intern("plain_c_kernel");
    w.add(RecordType::Kernel, orphan);
    KernelRecord backwards = k;
    backwards.start = 20000;
    backwards.end = 19000;
    w.add(RecordType::Kernel, backwards); // skipped: ends before it starts
    MemoryRecord alloc{};
    alloc.timestamp = 2500;
    alloc.address = 0x1000;
    alloc.bytes = 4096;
    alloc.operation = 1;
    MemoryRecord alloc2 = alloc;
    alloc2.timestamp = 2600;
    alloc2.address = 0x9000;
    alloc2.bytes = 1000;
    MemoryRecord freed = alloc;
    freed.timestamp = 15000;
    freed.operation = 2;
    w.add(RecordType::Memory, alloc);
    w.add(RecordType::Memory, alloc2);
    w.add(RecordType::Memory, freed);
    w.add(RecordType::Marker, marker(16000, 7, 4));                         // end of "step 0"
    w.add(RecordType::Marker, marker(16500, 8, 1, w.intern("checkpoint"))); // a mark
    w.add(RecordType::Marker, marker(17000, 9, 2, w.intern("step 1")));     // never ends
    DroppedRecord dr{};
    dr.count = 5;
    w.add(RecordType::Dropped, dr);
    w.flush();
    const auto before = w.bytesWritten();
    MemcpyRecord m{};
    m.start = 18000;
    m.end = 18800;
    m.bytes = 1 << 20;
    m.copyKind = 1;
    m.srcKind = 2;
    m.dstKind = 6; // CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC (cudaMemcpyToSymbol)
    m.correlation = 1234;
    w.add(RecordType::Memcpy, m);
    w.close();
    return before;
}

// One chunk's bytes: type, payload length, payload, CRC-32 of the three (CnptRecords.h).
std::string chunk(ChunkType type, const std::string& payload) {
    std::string c(8, '\0');
    const auto t = static_cast<std::uint32_t>(type), n = static_cast<std::uint32_t>(payload.size());
    std::memcpy(c.data(), &t, 4);
    std::memcpy(c.data() + 4, &n, 4);
    c += payload;
    const std::uint32_t crc = Crc32::of(c.data(), c.size());
    c.append(reinterpret_cast<const char*>(&crc), 4);
    return c;
}

// A header chunk with one key/value pair.
std::string headerChunk() {
    std::string p;
    auto u32 = [&](std::uint32_t v) { p.append(reinterpret_cast<const char*>(&v), 4); };
    u32(1);
    u32(3);
    p += "run";
    u32(4);
    p += "bomb";
    return chunk(ChunkType::Header, p);
}

// `bytes` as one gzip member (deflate level 9).
std::string gzipMember(const std::string& bytes) {
    z_stream z{};
    if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
        qFatal("deflateInit2");
    std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    if (deflate(&z, Z_FINISH) != Z_STREAM_END)
        qFatal("deflate");
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::int64_t peakRssKiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

} // namespace

class TestCnptImporter : public QObject {
    Q_OBJECT

private slots:
    // First slot, while the process's peak RSS is still small: a 64 MiB .cnpt in a ~70 KiB gzip file
    // (four gzip members of one 16 MiB events chunk of empty records) is streamed. Held whole it would add
    // at least 64 MiB to the peak RSS; streamed, about one chunk (16 MiB).
    void gzipBombStreams() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("bomb.cnpt.gz").toStdString();
        const std::string events = chunk(ChunkType::Events, std::string(16u << 20, '\0'));
        std::string file = gzipMember(std::string(kMagic, sizeof kMagic) + headerChunk());
        const std::string member = gzipMember(events);
        for (int i = 0; i < 4; ++i)
            file += member;
        writeFile(path, file);
        QVERIFY(file.size() < (1u << 20));
        const std::int64_t before = peakRssKiB();
        const TraceData t = CnptImporter().read(path, {});
        const std::int64_t grown = peakRssKiB() - before;
        QCOMPARE(t.info.name, std::string("bomb"));
        QCOMPARE(t.kernels.size(), std::size_t(0));
        QVERIFY2(grown < 40 * 1024, qPrintable(QString("peak RSS grew by %1 MiB").arg(grown / 1024)));
    }

    void clockModel_data() {
        QTest::addColumn<QList<qint64>>("errors"); // realtime error of each pair (ns)
        QTest::addColumn<qint64>("halfBracket");
        QTest::addColumn<qint64>("offset");
        QTest::addColumn<qint64>("skew");
        QTest::newRow("one exact pair") << QList<qint64>{0} << qint64(20) << qint64(0) << qint64(20);
        QTest::newRow("median of three")
            << QList<qint64>{0, 30, -50} << qint64(10) << qint64(0) << qint64(60);
        QTest::newRow("drift") << QList<qint64>{100, 200, 300, 400} << qint64(5) << qint64(250)
                               << qint64(155);
    }
    void clockModel() {
        QFETCH(QList<qint64>, errors);
        QFETCH(qint64, halfBracket);
        QFETCH(qint64, offset);
        QFETCH(qint64, skew);
        std::vector<ClockPairRecord> pairs;
        for (int i = 0; i < errors.size(); ++i)
            pairs.push_back(pair(1000 + 100000ull * static_cast<std::uint64_t>(i), errors[i],
                                 static_cast<std::uint64_t>(halfBracket)));
        const CnptClockModel m(pairs);
        QVERIFY(m.valid());
        QCOMPARE(m.offsetNs(), static_cast<std::int64_t>(kBase) + offset);
        QCOMPARE(m.skewEstimateNs(), skew);
        QVERIFY(!CnptClockModel({}).valid());
    }

    void synthetic() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("node7-4321-r2.cnpt").toStdString();
        writeSynthetic(path);
        CnptImporter imp;
        const TraceData t = imp.read(path, {});
        const auto off = static_cast<Ns>(kBase);
        QCOMPARE(t.info.sourceFormat, std::string("cnpt"));
        QCOMPARE(t.info.name, std::string("base-1"));
        QCOMPARE(t.info.config, std::string("Base"));
        QCOMPARE(t.info.host, std::string("node7"));
        QCOMPARE(t.info.worldSize, 4);
        QCOMPARE(t.info.driverVersion, std::string("13.0"));
        QCOMPARE(t.info.cudaVersion, std::string("12.4"));
        QCOMPARE(t.info.cuptiVersion, std::string("130001"));
        QCOMPARE(t.info.containerImage, std::string("nvcr.io/x:1"));
        QCOMPARE(t.info.env.size(), std::size_t(1)); // SECRET_TOKEN is not on the allow-list
        QCOMPARE(t.info.env[0].first, std::string("CUDA_VISIBLE_DEVICES"));
        QCOMPARE(t.info.gpuModels, std::vector<std::string>{"NVIDIA H200"});
        QCOMPARE(t.ranks.size(), std::size_t(1));
        const RankInfo& r = t.ranks[0];
        QCOMPARE(r.rank, 2);
        QCOMPARE(r.localRank, 0);
        QCOMPARE(r.pid, std::int64_t(4321));
        QCOMPARE(r.clockOffsetNs, off);
        QCOMPARE(r.clockSkewEstimateNs, Ns(70)); // |-50 - 0| + half bracket 20
        QCOMPARE(r.gpuUuids, std::vector<std::string>{"GPU-00010203-0405-0607-0809-0a0b0c0d0e0f"});

        QCOMPARE(t.kernels.size(), std::size_t(2));
        QCOMPARE(t.strings.at(t.kernels[0].name), std::string("foo(float*, int)"));
        QCOMPARE(t.kernels[0].start, off + 10000);
        QCOMPARE(t.kernels[0].end, off + 12500);
        QCOMPARE(t.kernels[0].rank, 2);
        QCOMPARE(t.kernels[0].registers, 40);
        QCOMPARE(t.strings.at(t.kernels[1].name), std::string("plain_c_kernel"));
        QCOMPARE(t.apiCalls.size(), std::size_t(2));
        QCOMPARE(t.flows.size(), std::size_t(1)); // the orphan kernel has no launching call
        QCOMPARE(t.flows[0].correlation, std::int64_t(1));
        QCOMPARE(t.flows[0].cpuTs, off + 3000); // the runtime call, not the driver call inside it
        QCOMPARE(t.flows[0].gpuTs, off + 10000);
        QCOMPARE(t.flows[0].tid, std::int64_t(11));
        QCOMPARE(t.memcpys.size(), std::size_t(1));
        // The name of Nsight Systems and Kineto for the same copy (core/MemoryKindNames.h); this importer
        // used to write "Device" for a static destination.
        QCOMPARE(t.strings.at(t.memcpys[0].name), std::string("Memcpy HtoD (Pinned -> Device Static)"));
        QCOMPARE(t.memcpys[0].kind, MemcpyKind::HtoD);
        QCOMPARE(t.memcpys[0].dstKind, MemoryKind::DeviceStatic);

        std::map<std::string, CpuRange> ranges;
        for (const auto& c : t.cpuRanges)
            ranges[t.strings.at(c.name)] = c;
        QCOMPARE(ranges.size(), std::size_t(2)); // "step 0" and the mark; "step 1" never ended
        QCOMPARE(ranges["step 0"].start, off + 2000);
        QCOMPARE(ranges["step 0"].end, off + 16000);
        QCOMPARE(ranges["step 0"].kind, CpuRangeKind::Nvtx);
        QCOMPARE(ranges["step 0"].color, 0xFF112233u);
        QCOMPARE(ranges["step 0"].tid, std::int64_t(11));
        QCOMPARE(ranges["checkpoint"].start, ranges["checkpoint"].end);

        QCOMPARE(t.counters.size(), std::size_t(3)); // 4096, 5096, then 1000 after the free
        QCOMPARE(t.counters[0].value, 4096.0);
        QCOMPARE(t.counters[1].value, 5096.0);
        QCOMPARE(t.counters[2].value, 1000.0);
        QCOMPARE(t.counters[2].ts, off + 15000);

        // Skipped: the backwards kernel, the open range, 5 records CUPTI dropped.
        QCOMPARE(t.info.skipped.count, std::int64_t(1 + 1 + 5));
        QCOMPARE(t.info.skipped.firstReason, std::string("kernel ends before it starts"));
        QVERIFY(t.info.skipped.firstOffset > 8);
    }

    void cutInsideLastChunk() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("cut.cnpt").toStdString();
        const auto before = writeSynthetic(path);
        std::string bytes;
        {
            std::ifstream f(path, std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(f), {});
        }
        bytes.resize(static_cast<std::size_t>(before) + 20); // inside the memcpy's events chunk
        const auto reader = CnptReader::fromBytes(bytes);
        const TraceData t = CnptImporter::convert(reader, path);
        QCOMPARE(t.kernels.size(), std::size_t(2));
        QCOMPARE(t.memcpys.size(), std::size_t(0));
        QCOMPARE(t.info.skipped.count, std::int64_t(8)); // 7 as above + the cut
    }

    void badInput_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("magic only") << QByteArray("CNPT\r\n\x1a\n", 8) << "cut short before its header";
        QTest::newRow("header chunk cut")
            << QByteArray("CNPT\r\n\x1a\n\x01\0\0\0\x40\0\0\0xx", 18) << "cut short before its header";
        QTest::newRow("bad magic") << QByteArray("CNPX\r\n\x1a\nxxxxxxxxxxxx") << "not a .cnpt file";
    }
    void badInput() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.cnpt");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        try {
            CnptImporter().read(path.toStdString(), {});
            QFAIL("no InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).startsWith(path + ": "), e.what());
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    void canRead() {
        CnptImporter imp;
        QVERIFY(imp.canRead("x.bin", std::string_view("CNPT\r\n\x1a\n....", 12)));
        QVERIFY(!imp.canRead("x.cnpt", "{\"traceEvents\": []}"));
        QVERIFY(!imp.canRead("x.cnpt", ""));
    }

    // The rank the header states, read from the file's first bytes only: the header chunk's "rank" (2
    // here); none when the header lacks it, states -1 (no launcher variable) or is cut by the head.
    void rankHint() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("hint.cnpt").toStdString();
        writeSynthetic(path);
        std::ifstream in(path, std::ios::binary);
        std::string head(4096, '\0');
        in.read(head.data(), static_cast<std::streamsize>(head.size()));
        head.resize(static_cast<std::size_t>(in.gcount()));
        const CnptImporter imp;
        QCOMPARE(imp.rankHint(head), std::optional<std::int32_t>(2));
        QCOMPARE(imp.rankHint(std::string_view(head).substr(0, 40)), std::nullopt); // cut inside the header
        QCOMPARE(imp.rankHint("{\"traceEvents\": []}"), std::nullopt);
        for (const char* rank : {"-1", "x", ""}) {
            const std::string other = dir.filePath("other.cnpt").toStdString();
            CnptWriter w;
            QVERIFY(w.open(other));
            w.writeHeader({{"host", "h"}, {"rank", rank}});
            w.close();
            std::ifstream o(other, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(o)), std::istreambuf_iterator<char>());
            QCOMPARE(imp.rankHint(bytes), std::nullopt);
        }
    }

    // Crafted times: a raw timestamp above INT64_MAX, one that the clock offset pushes past the sane range
    // (core/TimeBounds.h), a clock pair that would overflow the model (ignored). Each event is skipped and
    // counted; nothing stored has a negative duration.
    void timesOutOfRangeAreSkipped() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("times.cnpt").toStdString();
        CnptWriter w;
        QVERIFY(w.open(path));
        w.writeHeader({{"run", "times"}});
        w.add(RecordType::ClockPair, pair(1000, 0, 20));
        w.add(RecordType::ClockPair, ClockPairRecord{std::numeric_limits<std::uint64_t>::max(), 0,
                                                     std::numeric_limits<std::uint64_t>::max()});
        KernelRecord k{};
        k.start = 10000;
        k.end = 12000;
        w.add(RecordType::Kernel, k); // kept
        k.start = std::numeric_limits<std::uint64_t>::max() - 10;
        k.end = std::numeric_limits<std::uint64_t>::max();
        w.add(RecordType::Kernel, k); // above INT64_MAX
        k.start = std::uint64_t(1) << 62;
        k.end = k.start + 5;
        w.add(RecordType::Kernel, k); // + kBase leaves the range
        ApiRecord a{};
        a.start = 0;
        a.end = std::uint64_t(std::numeric_limits<std::int64_t>::max());
        w.add(RecordType::Api, a);
        MarkerRecord mark = marker(std::numeric_limits<std::uint64_t>::max(), 1, 1);
        w.add(RecordType::Marker, mark);
        w.close();
        const TraceData t = CnptImporter().read(path, {});
        QCOMPARE(t.ranks[0].clockOffsetNs, static_cast<Ns>(kBase)); // the overflowing pair was ignored
        QCOMPARE(t.kernels.size(), std::size_t(1));
        QCOMPARE(t.kernels[0].start, static_cast<Ns>(kBase) + 10000);
        QCOMPARE(t.apiCalls.size(), std::size_t(0));
        QCOMPARE(t.cpuRanges.size(), std::size_t(0));
        QCOMPARE(t.info.skipped.count, std::int64_t(4));
        QCOMPARE(t.info.skipped.firstReason, std::string("kernel time out of range"));
    }

    // A record whose body runs past the end of its events chunk is counted, with its offset.
    void recordPastItsChunkIsCounted() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("past.cnpt").toStdString();
        KernelRecord k{};
        k.start = 100;
        k.end = 200;
        std::string records;
        auto record = [&](std::uint16_t type, std::uint16_t size, const void* body, std::size_t have) {
            records.append(reinterpret_cast<const char*>(&type), 2);
            records.append(reinterpret_cast<const char*>(&size), 2);
            records.append(static_cast<const char*>(body), have);
        };
        record(1, sizeof k, &k, sizeof k);     // whole
        record(1, sizeof k, &k, sizeof k / 2); // says sizeof k, holds half: runs past the chunk
        const std::string head = std::string(kMagic, sizeof kMagic) + headerChunk();
        writeFile(path, head + chunk(ChunkType::Events, records));
        const TraceData t = CnptImporter().read(path, {});
        QCOMPARE(t.kernels.size(), std::size_t(1));
        // The cut record, then "no clock pair".
        QCOMPARE(t.info.skipped.count, std::int64_t(2));
        QCOMPARE(t.info.skipped.firstReason, std::string("record runs past the end of its chunk"));
        QCOMPARE(t.info.skipped.firstOffset, static_cast<std::int64_t>(head.size() + 8 + 4 + sizeof k));
    }

    // Dropped-record counts near 2^64 saturate instead of wrapping to a negative skipped count.
    void hugeDroppedCountsSaturate() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("dropped.cnpt").toStdString();
        CnptWriter w;
        QVERIFY(w.open(path));
        w.writeHeader({{"run", "dropped"}});
        w.add(RecordType::ClockPair, pair(1000, 0, 20));
        DroppedRecord d{};
        d.count = std::numeric_limits<std::uint64_t>::max() / 2 + 1;
        w.add(RecordType::Dropped, d);
        w.add(RecordType::Dropped, d);
        MemoryRecord m{};
        m.timestamp = 2000;
        m.operation = 1;
        m.bytes = std::numeric_limits<std::uint64_t>::max();
        w.add(RecordType::Memory, m);
        w.add(RecordType::Memory, m); // the running total saturates
        w.close();
        const TraceData t = CnptImporter().read(path, {});
        QCOMPARE(t.info.skipped.count, std::numeric_limits<std::int64_t>::max());
        QCOMPARE(t.counters.size(), std::size_t(2));
        QCOMPARE(t.counters[1].value, static_cast<double>(std::numeric_limits<std::int64_t>::max()));
    }

    // The real GPU-check file, through the pipeline's importFile (gzip) and the step detector.
    void gpuCheckCapture() {
        const std::string path = testpaths::dataDir().toStdString() + "/gpu-run/capture.cnpt.gz";
        TraceData t = importFile(path);
        QCOMPARE(t.info.sourceFormat, std::string("cnpt"));
        QCOMPARE(t.kernels.size(), std::size_t(3780));
        QCOMPARE(t.memcpys.size(), std::size_t(54));
        QCOMPARE(t.memsets.size(), std::size_t(426));
        QCOMPARE(t.apiCalls.size(), std::size_t(10198));
        QCOMPARE(t.flows.size(), std::size_t(4260));       // every GPU activity found its launching call
        QCOMPARE(t.cpuRanges.size(), std::size_t(40 + 6)); // 40 NVTX ranges (10 steps, 30 cub) + 6 sync waits
        QCOMPARE(t.info.skipped.count, std::int64_t(0));
        QCOMPARE(t.info.gpuModels, std::vector<std::string>{"NVIDIA H200"});
        QCOMPARE(t.ranks[0].gpuUuids, std::vector<std::string>{"GPU-3244e7fc-7852-6ae4-50e5-3e5fd2be68f7"});
        QCOMPARE(t.ranks[0].rank, 0);
        QCOMPARE(t.ranks[0].pid, std::int64_t(970));
        QCOMPARE(t.ranks[0].clockOffsetNs, Ns(-2));
        QCOMPARE(t.ranks[0].clockSkewEstimateNs, Ns(319));
        QCOMPARE(t.info.cudaVersion, std::string("13.0"));
        QCOMPARE(t.info.config, std::string("gpu-check"));
        QCOMPARE(
            t.strings.at(t.kernels[0].name),
            std::string("void at::native::vectorized_gather_kernel<16, long>(char*, char*, long*, int, long, "
                        "long, long, long, bool)"));
        QCOMPARE(t.kernels[0].start, Ns(1795999703299145448 - 2));
        QCOMPARE(t.kernels[0].end - t.kernels[0].start, Ns(1795999703299176392 - 1795999703299145448));
        normaliseTrace(t);
        detectSteps(t);
        QCOMPARE(t.steps.size(), std::size_t(10));
        // Kernels launched inside each step's NVTX range (through the flows): 1260 in steps 4..6, the
        // capture window; none outside it.
        for (const auto& s : t.steps) {
            long n = 0;
            std::map<std::int64_t, Ns> launch;
            for (const auto& f : t.flows)
                launch[f.correlation] = f.cpuTs;
            for (const auto& k : t.kernels) {
                auto it = launch.find(k.correlation);
                n += it != launch.end() && it->second >= s.cpuStart && it->second <= s.cpuEnd;
            }
            const std::string name = t.strings.at(s.name);
            const bool inWindow = name == "step 4" || name == "step 5" || name == "step 6";
            QCOMPARE(n, inWindow ? 1260L : 0L);
            QCOMPARE(s.gpuStart >= 0, inWindow);
        }
    }
};

QTEST_GUILESS_MAIN(TestCnptImporter)
#include "tst_cnptimporter.moc"
