// Memory-kind names: one table (core/MemoryKindNames.h) for every importer. For each CUPTI kind, the
// memcpy/memset names the nsys and .cnpt importers store (import/common/CopyNames.h), the parser of such
// names the Kineto importer uses and the snake-case id agree; the .cnpt importer's stored names are checked
// in tests/collector/tst_cnptimporter.cpp.
#include "core/MemoryKindNames.h"
#include "import/common/CopyNames.h"

#include <QtTest>

using namespace cnp;

Q_DECLARE_METATYPE(cnp::MemoryKind)

class TestMemoryKindNames : public QObject {
    Q_OBJECT
private slots:
    void names_data() {
        QTest::addColumn<unsigned>("cupti"); // CUpti_ActivityMemoryKind value
        QTest::addColumn<MemoryKind>("kind");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("id");
        QTest::newRow("pageable") << 1u << MemoryKind::Pageable << "Pageable"
                                  << "pageable";
        QTest::newRow("pinned") << 2u << MemoryKind::Pinned << "Pinned"
                                << "pinned";
        QTest::newRow("device") << 3u << MemoryKind::Device << "Device"
                                << "device";
        QTest::newRow("array") << 4u << MemoryKind::Array << "Array"
                               << "array";
        QTest::newRow("managed") << 5u << MemoryKind::Managed << "Managed"
                                 << "managed";
        QTest::newRow("device static") << 6u << MemoryKind::DeviceStatic << "Device Static"
                                       << "device_static";
        QTest::newRow("managed static") << 7u << MemoryKind::ManagedStatic << "Managed Static"
                                        << "managed_static";
    }
    void names() {
        QFETCH(unsigned, cupti);
        QFETCH(MemoryKind, kind);
        QFETCH(QString, label);
        QFETCH(QString, id);
        QCOMPARE(memoryKindFromCupti(cupti), kind);
        QCOMPARE(QString(memoryKindLabel(kind)), label);
        QCOMPARE(QString(memoryKindId(kind)), id);
        QCOMPARE(QString(toString(kind)), id);
        QCOMPARE(memoryKindFromName(label.toStdString()), kind);
        QCOMPARE(memoryKindFromName(" " + id.toUpper().toStdString() + " "), kind);
        // nsys writes the name, Kineto's parser reads it back to the same kind.
        const std::string copy = CopyNames::memcpyName(MemcpyKind::HtoD, MemoryKind::Pageable, kind);
        QCOMPARE(QString::fromStdString(copy), "Memcpy HtoD (Pageable -> " + label + ")");
        MemcpyKind k;
        MemoryKind src, dst;
        CopyNames::parseMemcpyName(copy, k, src, dst);
        QCOMPARE(k, MemcpyKind::HtoD);
        QCOMPARE(src, MemoryKind::Pageable);
        QCOMPARE(dst, kind);
        QCOMPARE(CopyNames::parseMemsetName(CopyNames::memsetName(kind)), kind);
    }
    void unknown() {
        QCOMPARE(memoryKindFromCupti(8), MemoryKind::Unknown);
        QCOMPARE(memoryKindFromName("Host"), MemoryKind::Unknown);
        QCOMPARE(QString(memoryKindLabel(static_cast<MemoryKind>(42))), QStringLiteral("Unknown"));
    }
};

QTEST_GUILESS_MAIN(TestMemoryKindNames)
#include "tst_memorykindnames.moc"
