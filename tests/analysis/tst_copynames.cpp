// CopyNames: the one memcpy/memset naming of every importer (import/common/CopyNames.h). Expected names are
// written out by hand in Kineto's spelling; each is parsed back to the kinds it was built from.
#include "import/common/CopyNames.h"

#include <QtTest>

using namespace cnp;

Q_DECLARE_METATYPE(cnp::MemcpyKind)
Q_DECLARE_METATYPE(cnp::MemoryKind)

class TestCopyNames : public QObject {
    Q_OBJECT
private slots:
    void memcpyNames_data() {
        QTest::addColumn<MemcpyKind>("kind");
        QTest::addColumn<MemoryKind>("src");
        QTest::addColumn<MemoryKind>("dst");
        QTest::addColumn<QString>("name");
        QTest::newRow("HtoD pageable") << MemcpyKind::HtoD << MemoryKind::Pageable << MemoryKind::Device
                                       << "Memcpy HtoD (Pageable -> Device)";
        QTest::newRow("DtoH pinned") << MemcpyKind::DtoH << MemoryKind::Device << MemoryKind::Pinned
                                     << "Memcpy DtoH (Device -> Pinned)";
        QTest::newRow("DtoD") << MemcpyKind::DtoD << MemoryKind::Device << MemoryKind::Device
                              << "Memcpy DtoD (Device -> Device)";
        QTest::newRow("PtoP managed static")
            << MemcpyKind::PtoP << MemoryKind::ManagedStatic << MemoryKind::DeviceStatic
            << "Memcpy PtoP (Managed Static -> Device Static)";
        QTest::newRow("HtoA array") << MemcpyKind::HtoA << MemoryKind::Pinned << MemoryKind::Array
                                    << "Memcpy HtoA (Pinned -> Array)";
        // Unknown is capitalised like every other word (Kineto's spelling; the .cnpt importer used to
        // write "Memcpy unknown (...)").
        QTest::newRow("unknown direction") << MemcpyKind::Unknown << MemoryKind::Unknown << MemoryKind::Device
                                           << "Memcpy Unknown (Unknown -> Device)";
    }
    void memcpyNames() {
        QFETCH(MemcpyKind, kind);
        QFETCH(MemoryKind, src);
        QFETCH(MemoryKind, dst);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(CopyNames::memcpyName(kind, src, dst)), name);
        MemcpyKind k = MemcpyKind::HtoH;
        MemoryKind s = MemoryKind::Managed, d = MemoryKind::Managed;
        CopyNames::parseMemcpyName(name.toStdString(), k, s, d);
        QCOMPARE(k, kind);
        QCOMPARE(s, src);
        QCOMPARE(d, dst);
        // Interned once per triple: the same id twice, the text in the table.
        StringTable strings;
        CopyNames names(strings);
        const StringId id = names.memcpyId(kind, src, dst);
        QVERIFY(id != 0);
        QCOMPARE(names.memcpyId(kind, src, dst), id);
        QCOMPARE(QString::fromStdString(std::string(strings.at(id))), name);
        QCOMPARE(strings.size(), std::size_t{2}); // "" and the name
    }

    void memsetNames_data() {
        QTest::addColumn<MemoryKind>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("device") << MemoryKind::Device << "Memset (Device)";
        QTest::newRow("managed") << MemoryKind::Managed << "Memset (Managed)";
        QTest::newRow("device static") << MemoryKind::DeviceStatic << "Memset (Device Static)";
        QTest::newRow("unknown") << MemoryKind::Unknown << "Memset (Unknown)";
    }
    void memsetNames() {
        QFETCH(MemoryKind, kind);
        QFETCH(QString, name);
        QCOMPARE(QString::fromStdString(CopyNames::memsetName(kind)), name);
        QCOMPARE(CopyNames::parseMemsetName(name.toStdString()), kind);
        StringTable strings;
        CopyNames names(strings);
        const StringId id = names.memsetId(kind);
        QCOMPARE(names.memsetId(kind), id);
        QCOMPARE(QString::fromStdString(std::string(strings.at(id))), name);
    }

    // Values outside the enums read as Unknown and share the Unknown name.
    void outOfRange() {
        QCOMPARE(QString(CopyNames::directionLabel(static_cast<MemcpyKind>(11))), QStringLiteral("Unknown"));
        QCOMPARE(QString(CopyNames::directionLabel(static_cast<MemcpyKind>(200))), QStringLiteral("Unknown"));
        StringTable strings;
        CopyNames names(strings);
        QCOMPARE(names.memcpyId(static_cast<MemcpyKind>(99), static_cast<MemoryKind>(42), MemoryKind::Device),
                 names.memcpyId(MemcpyKind::Unknown, MemoryKind::Unknown, MemoryKind::Device));
        QCOMPARE(names.memsetId(static_cast<MemoryKind>(9)), names.memsetId(MemoryKind::Unknown));
    }

    void directionFromLabel_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<MemcpyKind>("kind");
        QTest::newRow("HtoD") << "HtoD" << MemcpyKind::HtoD;
        QTest::newRow("lower case, spaces") << "  dtoh " << MemcpyKind::DtoH;
        QTest::newRow("AtoA") << "AtoA" << MemcpyKind::AtoA;
        QTest::newRow("PTOP") << "PTOP" << MemcpyKind::PtoP;
        QTest::newRow("Unknown") << "Unknown" << MemcpyKind::Unknown;
        QTest::newRow("garbage") << "HtoX" << MemcpyKind::Unknown;
        QTest::newRow("empty") << "" << MemcpyKind::Unknown;
    }
    void directionFromLabel() {
        QFETCH(QString, text);
        QFETCH(MemcpyKind, kind);
        QCOMPARE(CopyNames::directionFromLabel(text.toStdString()), kind);
    }

    // Names that are not ours: ROCm's "Host", a truncated name, another activity.
    void parseOtherNames_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<MemcpyKind>("kind");
        QTest::addColumn<MemoryKind>("src");
        QTest::addColumn<MemoryKind>("dst");
        QTest::newRow("rocm host") << "Memcpy HtoD (Host -> Device)" << MemcpyKind::HtoD
                                   << MemoryKind::Unknown << MemoryKind::Device;
        QTest::newRow("no parenthesis")
            << "Memcpy DtoD" << MemcpyKind::DtoD << MemoryKind::Unknown << MemoryKind::Unknown;
        QTest::newRow("no arrow") << "Memcpy DtoH (Device)" << MemcpyKind::DtoH << MemoryKind::Unknown
                                  << MemoryKind::Unknown;
        QTest::newRow("not a memcpy")
            << "Memset (Device)" << MemcpyKind::Unknown << MemoryKind::Unknown << MemoryKind::Unknown;
    }
    void parseOtherNames() {
        QFETCH(QString, name);
        QFETCH(MemcpyKind, kind);
        QFETCH(MemoryKind, src);
        QFETCH(MemoryKind, dst);
        MemcpyKind k;
        MemoryKind s, d;
        CopyNames::parseMemcpyName(name.toStdString(), k, s, d);
        QCOMPARE(k, kind);
        QCOMPARE(s, src);
        QCOMPARE(d, dst);
        QCOMPARE(CopyNames::parseMemsetName("Memset Device"), MemoryKind::Unknown);
        QCOMPARE(CopyNames::parseMemsetName("Memcpy (Device)"), MemoryKind::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestCopyNames)
#include "tst_copynames.moc"
