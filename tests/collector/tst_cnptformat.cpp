// The .cnpt writer/reader: round trip, CRC-32 check values, a file cut at every byte (chunk boundaries
// and inside chunks), corrupted chunks, forward-compatible records. Files are written at run time into a
// QTemporaryDir; expected values are the ones the test wrote.
#include "CnptReader.h"
#include "CnptWriter.h"
#include "Crc32.h"

#include <QtTest>

#include <fstream>
#include <iterator>
#include <random>
#include <zlib.h>

using namespace cnpt;

namespace {

std::string slurp(const QString& path) {
    std::ifstream f(path.toStdString(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

KernelRecord kernel(std::uint64_t start, std::uint32_t corr, std::uint32_t name) {
    KernelRecord k{};
    k.start = start;
    k.end = start + 500;
    k.correlation = corr;
    k.device = 0;
    k.stream = 7;
    k.grid[0] = 80;
    k.block[0] = 256;
    k.registers = 32;
    k.name = name;
    return k;
}

// Writes `batches` flushes of `perBatch` kernels each (every batch interns one new name) and returns the
// file size after the magic and after each chunk-writing flush, so a test knows every chunk boundary.
std::vector<std::uint64_t> writeBatches(const QString& path, int batches, int perBatch) {
    CnptWriter w;
    if (!w.open(path.toStdString()))
        return {};
    std::vector<std::uint64_t> ends{w.bytesWritten()};
    w.writeHeader({{"host", "h"}, {"pid", "42"}});
    ends.push_back(w.bytesWritten());
    std::uint32_t corr = 0;
    for (int b = 0; b < batches; ++b) {
        const auto name = w.intern("kernel_" + std::to_string(b));
        for (int i = 0; i < perBatch; ++i) {
            const std::uint64_t start = 1000 * static_cast<std::uint64_t>(corr);
            w.add(RecordType::Kernel, kernel(start, ++corr, name));
        }
        w.flush(); // strings chunk + events chunk
        ends.push_back(w.bytesWritten());
    }
    w.close();
    ends.push_back(w.bytesWritten());
    return ends;
}

std::size_t countKernels(const CnptReader& r) {
    std::size_t n = 0;
    r.forEachRecord([&](RecordType t, const unsigned char*, std::uint16_t, std::int64_t) {
        n += t == RecordType::Kernel;
    });
    return n;
}

} // namespace

class TestCnptFormat : public QObject {
    Q_OBJECT

private slots:
    void crcCheckValues_data() {
        QTest::addColumn<QByteArray>("data");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("check string") << QByteArray("123456789"); // CRC-32 check value 0xCBF43926
        QTest::newRow("7 bytes (tail loop only)") << QByteArray("abcdefg");
        QByteArray big(100003, '\0');
        std::mt19937 rng(1);
        for (auto& c : big)
            c = static_cast<char>(rng());
        QTest::newRow("100003 random bytes") << big;
    }
    void crcCheckValues() {
        QFETCH(QByteArray, data);
        const auto expected = static_cast<std::uint32_t>(
            ::crc32(0, reinterpret_cast<const Bytef*>(data.constData()), static_cast<uInt>(data.size())));
        QCOMPARE(Crc32::of(data.constData(), static_cast<std::size_t>(data.size())), expected);
        if (data == "123456789")
            QCOMPARE(expected, 0xCBF43926u);
        // Running CRC over two halves equals one pass.
        const auto half = static_cast<std::size_t>(data.size() / 2);
        const auto h = Crc32::update(Crc32::of(data.constData(), half), data.constData() + half,
                                     static_cast<std::size_t>(data.size()) - half);
        QCOMPARE(h, expected);
    }

    void roundTrip_data() {
        QTest::addColumn<int>("batches");
        QTest::addColumn<int>("perBatch");
        QTest::newRow("header only") << 0 << 0;
        QTest::newRow("one batch") << 1 << 3;
        QTest::newRow("five batches") << 5 << 10;
        QTest::newRow("auto-flushed (4 MiB)") << 1 << 60000; // > CnptWriter::kAutoFlushBytes of records
    }
    void roundTrip() {
        QFETCH(int, batches);
        QFETCH(int, perBatch);
        QTemporaryDir dir;
        const QString path = dir.filePath("t.cnpt");
        writeBatches(path, batches, perBatch);
        CnptReader r(path.toStdString());
        QVERIFY(r.cleanEnd());
        QCOMPARE(r.stopOffset(), std::int64_t(-1));
        QCOMPARE(r.headerValue("host"), std::string("h"));
        QCOMPARE(r.headerValue("pid"), std::string("42"));
        QCOMPARE(r.headerValue("missing", "x"), std::string("x"));
        QCOMPARE(r.strings().size(), static_cast<std::size_t>(batches + 1));
        std::uint32_t expectCorr = 0;
        bool ok = true;
        r.forEachRecord([&](RecordType t, const unsigned char* body, std::uint16_t size, std::int64_t) {
            ok = ok && t == RecordType::Kernel && size == sizeof(KernelRecord);
            const auto k = CnptReader::decode<KernelRecord>(body, size);
            ++expectCorr;
            ok = ok && k.correlation == expectCorr && k.start == 1000ull * (expectCorr - 1) &&
                 k.end == k.start + 500 && k.grid[0] == 80 && k.block[0] == 256 && k.registers == 32 &&
                 k.stream == 7;
            ok = ok &&
                 r.string(k.name) == "kernel_" + std::to_string((expectCorr - 1) / std::max(perBatch, 1));
        });
        QVERIFY(ok);
        QCOMPARE(expectCorr, static_cast<std::uint32_t>(batches * perBatch));
        QCOMPARE(r.badRecords(), std::size_t(0));
    }

    // Every prefix of a file reads back exactly the batches whose chunks lie wholly inside it.
    void cutAtEveryByte() {
        QTemporaryDir dir;
        const QString path = dir.filePath("t.cnpt");
        const int perBatch = 4;
        const auto ends = writeBatches(path, 6, perBatch); // magic, header, 6 batches, end
        const std::string full = slurp(path);
        QCOMPARE(full.size(), static_cast<std::size_t>(ends.back()));
        // Every chunk boundary, walked from the stored lengths (batches write a strings and an events chunk).
        std::vector<std::size_t> boundaries{8};
        for (std::size_t p = 8; p < full.size();) {
            std::uint32_t len;
            std::memcpy(&len, full.data() + p + 4, 4);
            p += 12 + len;
            boundaries.push_back(p);
        }
        QCOMPARE(boundaries.size(), std::size_t(1 + 1 + 6 * 2 + 1)); // magic end, header, 6 x 2, end chunk
        for (std::size_t len = 0; len <= full.size(); ++len) {
            const std::string prefix = full.substr(0, len);
            if (len < 8) {
                QVERIFY_THROWS_EXCEPTION(FormatError, CnptReader::fromBytes(prefix));
                continue;
            }
            const CnptReader r = CnptReader::fromBytes(prefix);
            // Whole batches inside the prefix: ends[2 + b] <= len.
            std::size_t wholeBatches = 0;
            for (std::size_t b = 0; b < 6; ++b)
                if (ends[2 + b] <= len)
                    wholeBatches = b + 1;
            // A batch is two chunks (strings, events): a cut between them keeps the strings only.
            if (countKernels(r) != wholeBatches * perBatch)
                QFAIL(qPrintable(QString("prefix of %1 bytes: %2 kernels, expected %3")
                                     .arg(len)
                                     .arg(countKernels(r))
                                     .arg(wholeBatches * perBatch)));
            const bool atBoundary = std::find(boundaries.begin(), boundaries.end(), len) != boundaries.end();
            QCOMPARE(r.cleanEnd(), len == full.size());
            if (len == full.size() || atBoundary)
                QCOMPARE(r.stopOffset(), std::int64_t(-1));
            else if (r.stopOffset() < 0)
                QFAIL(qPrintable(QString("prefix of %1 bytes inside a chunk not reported").arg(len)));
            else
                QCOMPARE(r.stopReason(), std::string("chunk cut short"));
        }
    }

    void corruptedChunk_data() {
        QTest::addColumn<int>("chunk"); // 0 header, then strings/events pairs, last = end
        QTest::addColumn<int>("where"); // 0 type, 1 length, 2 payload, 3 stored CRC
        QTest::addColumn<int>("kernelsKept");
        QTest::addColumn<QString>("reason");
        QTest::newRow("header payload") << 0 << 2 << 0 << "CRC mismatch";
        QTest::newRow("1st strings CRC") << 1 << 3 << 0 << "CRC mismatch";
        QTest::newRow("1st events payload") << 2 << 2 << 0 << "CRC mismatch";
        QTest::newRow("2nd events type") << 4 << 0 << 5 << "CRC mismatch";
        QTest::newRow("3rd events length") << 6 << 1 << 10 << "chunk length out of range";
        QTest::newRow("end chunk CRC") << 7 << 3 << 15 << "CRC mismatch";
    }
    void corruptedChunk() {
        QFETCH(int, chunk);
        QFETCH(int, where);
        QFETCH(int, kernelsKept);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        const QString path = dir.filePath("t.cnpt");
        const auto ends = writeBatches(path, 3, 5);
        std::string bytes = slurp(path);
        // Chunk starts: header at ends[0]; batch b: strings at ends[1+b], events after it; end at ends[4].
        std::vector<std::size_t> starts{static_cast<std::size_t>(ends[0])};
        {
            std::size_t p = ends[1];
            while (p < bytes.size()) {
                starts.push_back(p);
                std::uint32_t len;
                std::memcpy(&len, bytes.data() + p + 4, 4);
                p += 12 + len;
            }
        }
        QCOMPARE(starts.size(), std::size_t(8)); // header, 3 x (strings, events), end
        const std::size_t s = starts[static_cast<std::size_t>(chunk)];
        std::uint32_t len;
        std::memcpy(&len, bytes.data() + s + 4, 4);
        const std::size_t at = where == 0   ? s
                               : where == 1 ? s + 7
                               : where == 2 ? s + 8 + len / 2
                                            : s + 8 + len;
        bytes[at] = static_cast<char>(bytes[at] ^ (where == 1 ? 0x7F : 0x01));
        const CnptReader r = CnptReader::fromBytes(bytes);
        QCOMPARE(countKernels(r), static_cast<std::size_t>(kernelsKept));
        QCOMPARE(r.stopOffset(), static_cast<std::int64_t>(s));
        QCOMPARE(QString::fromStdString(r.stopReason()), reason);
        QVERIFY(!r.cleanEnd());
        QCOMPARE(r.header().empty(), chunk == 0);
    }

    void notCnpt_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("json") << QByteArray("{\"traceEvents\": []}");
        QTest::newRow("magic with wrong version byte") << QByteArray("CNPT\r\n\x1a\x0b", 8);
    }
    void notCnpt() {
        QFETCH(QByteArray, bytes);
        QVERIFY_THROWS_EXCEPTION(FormatError, CnptReader::fromBytes(bytes.toStdString()));
    }

    // Later versions may add record types and append fields: readers skip the former and read the
    // known prefix of the latter; an older, shorter body is zero-extended.
    void forwardCompatibleRecords() {
        QTemporaryDir dir;
        const QString path = dir.filePath("t.cnpt");
        {
            CnptWriter w;
            QVERIFY(w.open(path.toStdString()));
            w.writeHeader({{"host", "h"}});
            const char future[40] = {1, 2, 3};
            w.appendRecord(static_cast<RecordType>(999), future, sizeof future);
            struct Longer {
                ClockPairRecord known;
                std::uint64_t extra;
            } longer{{10, 20, 30}, 77};
            w.appendRecord(RecordType::ClockPair, &longer, sizeof longer);
            const std::uint64_t shorter[2] = {5, 6}; // realtimeNs, cuptiBefore only
            w.appendRecord(RecordType::ClockPair, shorter, sizeof shorter);
            w.close();
        }
        CnptReader r(path.toStdString());
        std::vector<ClockPairRecord> pairs;
        int unknown = 0;
        r.forEachRecord([&](RecordType t, const unsigned char* body, std::uint16_t size, std::int64_t) {
            if (t == RecordType::ClockPair)
                pairs.push_back(CnptReader::decode<ClockPairRecord>(body, size));
            else
                ++unknown;
        });
        QCOMPARE(unknown, 1);
        QCOMPARE(pairs.size(), std::size_t(2));
        QCOMPARE(pairs[0].realtimeNs, 10ull);
        QCOMPARE(pairs[0].cuptiAfter, 30ull);
        QCOMPARE(pairs[1].cuptiBefore, 6ull);
        QCOMPARE(pairs[1].cuptiAfter, 0ull);
    }

    void writerReportsUnwritablePath() {
        CnptWriter w;
        QVERIFY(!w.open("/nonexistent-folder/x.cnpt"));
        QVERIFY(QString::fromStdString(w.error()).contains("/nonexistent-folder/x.cnpt"));
        w.writeHeader({{"a", "b"}}); // no-ops, no crash
        w.add(RecordType::ClockPair, ClockPairRecord{1, 2, 3});
        w.close();
        QCOMPARE(w.chunksWritten(), std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestCnptFormat)
#include "tst_cnptformat.moc"
