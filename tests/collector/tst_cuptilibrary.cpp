// CuptiLibrary's pure parts (collectors/cupti/CuptiLibrary): the order in which CUPTI is looked for after a
// copy already in the process (CNP_CUPTI_PATH, the sonames through the loader, then under CUDA_HOME, whose
// default is /usr/local/cuda), and which cuptiGetVersion values have the record layouts the collector reads
// (CUDA 13.x) with the reason given for the others. Loading itself: tst_collectorprocess cuptiAtRunTime.
#include <QtTest>

#ifdef CNP_HAVE_CUPTI_LIBRARY
#include "CuptiLibrary.h"
using cnp::collector::CuptiLibrary;
#endif

class TestCuptiLibrary : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#ifndef CNP_HAVE_CUPTI_LIBRARY
        QSKIP("CUPTI headers not found: the collector is not built here");
#endif
    }

    void candidates_data() {
        QTest::addColumn<QString>("explicitPath"); // "<null>" for unset
        QTest::addColumn<QString>("cudaHome");     // "<null>" for unset
        QTest::addColumn<QStringList>("expected");
        const QStringList names{"libcupti.so.13", "libcupti.so.12", "libcupti.so"};
        auto under = [&](const QString& home) {
            QStringList out;
            for (const char* dir : {"/extras/CUPTI/lib64/", "/lib64/"})
                for (const auto& n : names)
                    out << home + dir + n;
            return out;
        };
        QTest::newRow("nothing set: default CUDA home") << "<null>"
                                                        << "<null>" << names + under("/usr/local/cuda");
        QTest::newRow("empty values count as unset") << ""
                                                     << "" << names + under("/usr/local/cuda");
        QTest::newRow("CNP_CUPTI_PATH first, CUDA_HOME last")
            << "/opt/x/libcupti.so.13"
            << "/opt/cuda-12.8" << QStringList{"/opt/x/libcupti.so.13"} + names + under("/opt/cuda-12.8");
    }
    void candidates() {
#ifdef CNP_HAVE_CUPTI_LIBRARY
        QFETCH(QString, explicitPath);
        QFETCH(QString, cudaHome);
        QFETCH(QStringList, expected);
        const QByteArray e = explicitPath.toUtf8(), h = cudaHome.toUtf8();
        QStringList got;
        for (const auto& c : CuptiLibrary::candidates(explicitPath == "<null>" ? nullptr : e.constData(),
                                                      cudaHome == "<null>" ? nullptr : h.constData()))
            got << QString::fromStdString(c);
        QCOMPARE(got, expected);
#endif
    }

    void acceptsVersion_data() {
        QTest::addColumn<uint>("version");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("why"); // the start of the reason
        QTest::newRow("13.0") << 130000u << true << "";
        QTest::newRow("13.0 update 1") << 130001u << true << "";
        QTest::newRow("13.2") << 130200u << true << "";
        QTest::newRow("CUDA 12.8 (v26)")
            << 26u << false << "API version 26 (CUDA 12.8); its activity records";
        QTest::newRow("CUDA 12.9 update 1 (v28)") << 28u << false << "API version 28 (CUDA 12.9 Update 1);";
        QTest::newRow("unknown 12.x counter (v25)") << 25u << false << "API version 25 (CUDA 12.x);";
        QTest::newRow("CUDA 11.8 (v18)") << 18u << false << "API version 18 (CUDA 11.x or older);";
        QTest::newRow("14.0") << 140000u << false
                              << "14.0 (140000); its activity records are not the CUDA 13.x";
        QTest::newRow("12.9 in the new scheme") << 120900u << false << "12.9 (120900);";
    }
    void acceptsVersion() {
#ifdef CNP_HAVE_CUPTI_LIBRARY
        QFETCH(uint, version);
        QFETCH(bool, accepted);
        QFETCH(QString, why);
        std::string reason;
        QCOMPARE(CuptiLibrary::acceptsVersion(version, reason), accepted);
        QVERIFY2(QString::fromStdString(reason).startsWith(why), reason.c_str());
        QCOMPARE(reason.empty(), accepted);
#endif
    }
};

QTEST_GUILESS_MAIN(TestCuptiLibrary)
#include "tst_cuptilibrary.moc"
