// The real libcnp-collector.so inside a process, without CUDA: collector_harness loads a fake libcupti.so.13
// (tests/collector/fake_cupti) and the collector, calls InitializeInjection() like the CUDA driver, emits
// records, then leaves by one exit path per row. Checks what each path leaves on disk: atexit flush with an
// End chunk; a forked child that must not touch its parent's file; SIGTERM (forced flush, then the default
// action, or the application's own handler, chained); SIGKILL after a periodic flush (CNP_FLUSH_MS=100);
// CUPTI unavailable (one warning line, no file, normal exit). Expected counts are what the harness emits
// (harness/CollectorHarness.cpp: 10 launches per step, one runtime API call + one kernel per launch).
// NVTX: ranges pushed through the real NVTX 3 API reach the trace only when NVTX_INJECTION64_PATH names the
// collector before the process's first NVTX call (which precedes CUDA's initialisation in the harness).
#include "CnptReader.h"
#include "TestPaths.h"

#include <QtTest>

using namespace cnpt;

class TestCollectorProcess : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#ifndef CNP_COLLECTOR_HARNESS_BUILT
        QSKIP("libcnp-collector.so is not built here (no CUPTI headers)");
#endif
    }

    void exitPaths_data() {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<bool>("crashes"); // ends by a signal
        QTest::addColumn<int>("exitCode"); // exit code, or the signal number when it crashes
        QTest::addColumn<int>("files");
        QTest::addColumn<int>("kernels");
        QTest::addColumn<int>("steps"); // NVTX ranges "step N"
        QTest::addColumn<bool>("cleanEnd");
        QTest::addColumn<QString>("stderrHas");
        QTest::newRow("normal exit") << "exit" << false << 0 << 1 << 30 << 3 << true << "";
        QTest::newRow("fork: child exits first") << "fork" << false << 0 << 1 << 20 << 2 << true << "";
        QTest::newRow("SIGTERM, default action") << "sigterm" << true << 15 << 1 << 10 << 1 << false << "";
        QTest::newRow("SIGTERM, app handler chained") << "chain" << false << 3 << 1 << 10 << 1 << false << "";
        QTest::newRow("SIGKILL after periodic flush")
            << "sigkill" << true << 9 << 1 << 10 << 1 << false << "";
        QTest::newRow("CUPTI held by another profiler")
            << "untraced" << false << 0 << 0 << 0 << 0 << false << "another profiler may hold it";
    }
    void exitPaths() {
#ifdef CNP_COLLECTOR_HARNESS_BUILT
        QFETCH(QString, scenario);
        QFETCH(bool, crashes);
        QFETCH(int, exitCode);
        QFETCH(int, files);
        QFETCH(int, kernels);
        QFETCH(int, steps);
        QFETCH(bool, cleanEnd);
        QFETCH(QString, stderrHas);
        QTemporaryDir dir;
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("CNP_OUTPUT_DIR", dir.path() + "/traces");
        env.insert("CNP_FLUSH_MS", "100");
        env.insert("CNP_BUFFER_KB", "64");
        env.insert("CNP_BUFFER_COUNT", "4");
        env.insert("CNP_CONFIG", "harness");
        env.insert("SECRET_TOKEN", "must-not-appear");
        env.insert("CUDA_VISIBLE_DEVICES", "0");
        env.remove("RANK");
        if (scenario == "untraced")
            env.insert("FAKE_CUPTI_SUBSCRIBE_FAIL", "1");
        p.setProcessEnvironment(env);
        p.start(testpaths::harnessPath(), {testpaths::fakeCuptiPath(), testpaths::collectorPath(), scenario});
        QVERIFY(p.waitForFinished(30000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus() == QProcess::CrashExit, crashes);
        if (!crashes)
            QCOMPARE(p.exitCode(), exitCode);
        if (!stderrHas.isEmpty()) {
            QVERIFY2(err.contains(stderrHas), qPrintable(err));
            QCOMPARE(err.count('\n'), 1); // one warning line, nothing else
        }
        if (scenario == "chain")
            QVERIFY(p.readAllStandardOutput().contains("app handler"));

        const QStringList found = QDir(dir.path() + "/traces").entryList({"*.cnpt"}, QDir::Files);
        QCOMPARE(found.size(), files);
        if (files == 0)
            return;
        CnptReader r((dir.path() + "/traces/" + found.first()).toStdString());
        QCOMPARE(found.first(), QString("%1-%2.cnpt")
                                    .arg(QString::fromStdString(r.headerValue("host")),
                                         QString::fromStdString(r.headerValue("pid"))));
        QCOMPARE(r.cleanEnd(), cleanEnd);
        QCOMPARE(r.headerValue("config"), std::string("harness"));
        QCOMPARE(r.headerValue("env.CUDA_VISIBLE_DEVICES"), std::string("0"));
        QCOMPARE(r.headerValue("env.SECRET_TOKEN", "absent"), std::string("absent"));
        QCOMPARE(r.headerValue("rank"), std::string("-1"));
        int k = 0, api = 0, starts = 0, pairs = 0;
        bool corrOk = true;
        r.forEachRecord([&](RecordType t, const unsigned char* body, std::uint16_t size, std::int64_t) {
            if (t == RecordType::Kernel) {
                ++k;
                corrOk = corrOk && CnptReader::decode<KernelRecord>(body, size).correlation ==
                                       static_cast<std::uint32_t>(k);
            }
            api += t == RecordType::Api;
            pairs += t == RecordType::ClockPair;
            if (t == RecordType::Marker && (CnptReader::decode<MarkerRecord>(body, size).flags & 2u))
                ++starts;
        });
        QCOMPARE(k, kernels);
        QCOMPARE(api, kernels);
        QVERIFY(corrOk);
        QCOMPARE(starts, steps);
        QVERIFY2(pairs >= 2, "a clock pair at start and at the flush/exit");
        if (cleanEnd)
            QCOMPARE(r.headerValue("dropped_records"), std::string("0"));
#endif
    }

    // CUPTI found at run time (collectors/cupti/CuptiLibrary): a copy already in the process, CNP_CUPTI_PATH,
    // the loader's path (LD_LIBRARY_PATH to a folder holding the fake as libcupti.so.13); its version decides
    // whether its record layouts are the collector's (13.x) or it is refused with one line and no trace.
    // The fake reports calls past the version check (cuptiSubscribe, cuptiActivityEnable) to
    // FAKE_CUPTI_REPORT.
    void cuptiAtRunTime_data() {
        QTest::addColumn<QString>(
            "found"); // "preloaded", "CNP_CUPTI_PATH", "LD_LIBRARY_PATH", "missing path"
        QTest::addColumn<QString>("version"); // FAKE_CUPTI_VERSION
        QTest::addColumn<int>("kernels");     // -1: no trace file
        QTest::addColumn<QString>("stderrHas");
        const QString layouts =
            "; its activity records are not the CUDA 13.x layouts this collector reads "
            "(CUpti_ActivityKernel10, Memcpy6, Memset4, Memory4, Marker2, Device5); the job "
            "runs untraced";
        QTest::newRow("preloaded 13.0") << "preloaded"
                                        << "130000" << 30 << "";
        QTest::newRow("preloaded 13.1 update") << "preloaded"
                                               << "130105" << 30 << "";
        QTest::newRow("preloaded CUDA 12.8: refused")
            << "preloaded"
            << "26" << -1 << "is API version 26 (CUDA 12.8)" + layouts;
        QTest::newRow("preloaded 14.0: refused") << "preloaded"
                                                 << "140000" << -1 << "is 14.0 (140000)" + layouts;
        QTest::newRow("CNP_CUPTI_PATH 13.0") << "CNP_CUPTI_PATH"
                                             << "130001" << 30 << "";
        QTest::newRow("CNP_CUPTI_PATH CUDA 12.4: refused")
            << "CNP_CUPTI_PATH"
            << "22" << -1 << "is API version 22 (CUDA 12.4)" + layouts;
        QTest::newRow("loader's path 13.0") << "LD_LIBRARY_PATH"
                                            << "130001" << 30 << "";
        QTest::newRow("CNP_CUPTI_PATH names no file")
            << "missing path"
            << "130001" << -1 << "no libcupti found (CNP_CUPTI_PATH '";
    }
    void cuptiAtRunTime() {
#ifdef CNP_COLLECTOR_HARNESS_BUILT
        QFETCH(QString, found);
        QFETCH(QString, version);
        QFETCH(int, kernels);
        QFETCH(QString, stderrHas);
        QTemporaryDir dir;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("CNP_OUTPUT_DIR", dir.path() + "/traces");
        env.insert("FAKE_CUPTI_VERSION", version);
        env.insert("FAKE_CUPTI_REPORT", dir.path() + "/calls");
        env.remove("CNP_CUPTI_PATH");
        env.remove("LD_LIBRARY_PATH");
        QString preload = "-";
        if (found == "preloaded")
            preload = testpaths::fakeCuptiPath();
        else if (found == "CNP_CUPTI_PATH")
            env.insert("CNP_CUPTI_PATH", testpaths::fakeCuptiPath());
        else if (found == "missing path")
            env.insert("CNP_CUPTI_PATH", dir.path() + "/no/libcupti.so.13");
        if (found == "LD_LIBRARY_PATH") {
            QVERIFY(QDir().mkpath(dir.path() + "/lib"));
            QVERIFY(QFile::copy(testpaths::fakeCuptiPath(), dir.path() + "/lib/libcupti.so.13"));
            env.insert("LD_LIBRARY_PATH", dir.path() + "/lib");
        }
        QFile cache("/etc/ld.so.cache");
        if (found == "missing path" && cache.open(QIODevice::ReadOnly) &&
            cache.readAll().contains("libcupti.so"))
            QSKIP("a libcupti is in this machine's loader cache: the search goes on to it");
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(testpaths::harnessPath(),
                {preload, testpaths::collectorPath(), kernels < 0 ? "untraced" : "exit"});
        QVERIFY(p.waitForFinished(30000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitCode(), 0);
        const QStringList files = QDir(dir.path() + "/traces").entryList({"*.cnpt"}, QDir::Files);
        QFile calls(dir.path() + "/calls");
        const QByteArray callLog = calls.open(QIODevice::ReadOnly) ? calls.readAll() : QByteArray();
        if (kernels < 0) {
            QVERIFY2(err.contains(stderrHas), qPrintable(err));
            QCOMPARE(err.count('\n'), 1);
            QVERIFY2(err.startsWith("cnp-collector: ") && err.endsWith("\n"), qPrintable(err));
            QCOMPARE(files.size(), 0);
            QVERIFY2(!callLog.contains("subscribe") && !callLog.contains("enable"), callLog.constData());
            return;
        }
        QVERIFY2(err.isEmpty(), qPrintable(err));
        QCOMPARE(files.size(), 1);
        QVERIFY2(callLog.contains("subscribe") && callLog.contains("enable"), callLog.constData());
        CnptReader r((dir.path() + "/traces/" + files.first()).toStdString());
        QCOMPARE(r.headerValue("cupti_version"), version.toStdString());
        int k = 0;
        r.forEachRecord([&](RecordType t, const unsigned char*, std::uint16_t, std::int64_t) {
            k += t == RecordType::Kernel;
        });
        QCOMPARE(k, kernels);
#endif
    }

    void nvtxBeforeCudaInit_data() {
        QTest::addColumn<QString>("nvtxInjection"); // "collector", or "" for unset
        QTest::addColumn<int>("steps");             // NVTX ranges "step N" in the trace
        QTest::newRow("set at launch to the collector") << "collector" << 3;
        QTest::newRow("unset: NVTX stays a no-op after its first call") << "" << 0;
    }
    void nvtxBeforeCudaInit() {
#ifdef CNP_COLLECTOR_HARNESS_BUILT
        QFETCH(QString, nvtxInjection);
        QFETCH(int, steps);
        QTemporaryDir dir;
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("CNP_OUTPUT_DIR", dir.path());
        env.remove("NVTX_INJECTION64_PATH");
        if (!nvtxInjection.isEmpty())
            env.insert("NVTX_INJECTION64_PATH", testpaths::collectorPath());
        p.setProcessEnvironment(env);
        p.start(testpaths::harnessPath(), {testpaths::fakeCuptiPath(), testpaths::collectorPath(), "nvtx"});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 0);
        const QStringList found = QDir(dir.path()).entryList({"*.cnpt"}, QDir::Files);
        QCOMPARE(found.size(), 1);
        CnptReader r((dir.path() + "/" + found.first()).toStdString());
        QVERIFY(r.cleanEnd());
        int kernels = 0;
        std::vector<std::uint32_t> nameIds; // resolved after the pass: strings may follow their records
        r.forEachRecord([&](RecordType t, const unsigned char* body, std::uint16_t size, std::int64_t) {
            kernels += t == RecordType::Kernel;
            if (t == RecordType::Marker) {
                const auto m = CnptReader::decode<MarkerRecord>(body, size);
                if (m.flags & 2u)
                    nameIds.push_back(m.name);
            }
        });
        QStringList names;
        for (auto id : nameIds)
            names << QString::fromStdString(r.string(id));
        QCOMPARE(kernels, 30); // the kernels do not depend on NVTX
        QStringList expected;
        for (int i = 0; i < steps; ++i)
            expected << QString("step %1").arg(i);
        QCOMPARE(names, expected); // "before cuda init" preceded the collector's buffers: not recorded
#endif
    }
};

QTEST_GUILESS_MAIN(TestCollectorProcess)
#include "tst_collectorprocess.moc"
