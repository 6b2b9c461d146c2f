// The collector's glibc-floor stand-ins (collectors/cupti/GlibcCompat.cpp), called directly and compared with
// this machine's glibc (2.36), which has the real functions: _dl_find_object's object bounds and eh_frame
// for code in the test executable, in libc and in Qt; stat/fstat through the 2.2.5 __xstat/__fxstat against
// stat(2); the baseline-bound pthread/sem/dl functions doing their job; arc4random drawing varied values.
#include <QtTest>

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/stat.h>
#include <unistd.h>

// NOLINTBEGIN(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)
extern "C" {
int __wrap__dl_find_object(void* pc, dl_find_object* result);
int __wrap_stat(const char* path, struct stat* buf);
int __wrap_fstat(int fd, struct stat* buf);
std::uint32_t __wrap_arc4random();
void* __wrap_dlopen(const char* file, int mode);
void* __wrap_dlsym(void* handle, const char* name);
int __wrap_dlclose(void* handle);
int __wrap_pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg);
int __wrap_pthread_join(pthread_t thread, void** result);
int __wrap_sem_init(sem_t* sem, int shared, unsigned value);
int __wrap_sem_post(sem_t* sem);
int __wrap_sem_timedwait(sem_t* sem, const timespec* until);
}
// NOLINTEND(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp)

namespace {
int localFunction() {
    return 42;
}
void* threadBody(void* arg) {
    sem_post(static_cast<sem_t*>(arg));
    return arg;
}
} // namespace

class TestGlibcCompat : public QObject {
    Q_OBJECT

private slots:
    void findObject_data() {
        QTest::addColumn<quintptr>("pc");
        QTest::newRow("test executable") << reinterpret_cast<quintptr>(&localFunction);
        QTest::newRow("libc (getpid)") << reinterpret_cast<quintptr>(&getpid);
        QTest::newRow("Qt (qVersion)") << reinterpret_cast<quintptr>(&qVersion);
        QTest::newRow("no object (address 16)") << quintptr(16);
    }
    void findObject() {
        QFETCH(quintptr, pc);
        dl_find_object real{}, ours{};
        void* const address = reinterpret_cast<void*>(pc); // NOLINT(performance-no-int-to-ptr): table data
        const int realRc = _dl_find_object(address, &real);
        const int ourRc = __wrap__dl_find_object(address, &ours);
        QCOMPARE(ourRc, realRc);
        if (realRc != 0)
            return;
        QVERIFY(ours.dlfo_eh_frame != nullptr);
        QCOMPARE(ours.dlfo_eh_frame, real.dlfo_eh_frame);
        QCOMPARE(ours.dlfo_map_start, real.dlfo_map_start);
        QVERIFY(reinterpret_cast<quintptr>(ours.dlfo_map_end) > pc);
    }

    void statMatches_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("4097 bytes") << QByteArray(4097, 'x');
    }
    void statMatches() {
        QFETCH(QByteArray, content);
        QTemporaryFile f;
        QVERIFY(f.open());
        f.write(content);
        f.flush();
        struct stat real {
        }, byPath{}, byFd{};
        QCOMPARE(::stat(f.fileName().toLocal8Bit().constData(), &real), 0);
        QCOMPARE(__wrap_stat(f.fileName().toLocal8Bit().constData(), &byPath), 0);
        QCOMPARE(__wrap_fstat(f.handle(), &byFd), 0);
        for (const struct stat* s : {&byPath, &byFd}) {
            QCOMPARE(s->st_size, static_cast<off_t>(content.size()));
            QCOMPARE(s->st_ino, real.st_ino);
            QCOMPARE(s->st_mode, real.st_mode);
            QCOMPARE(s->st_mtim.tv_nsec, real.st_mtim.tv_nsec);
        }
        struct stat missing {};
        QCOMPARE(__wrap_stat("/nonexistent/cnp-glibc-compat", &missing), -1);
        QCOMPARE(errno, ENOENT);
    }

    void baselineFunctionsWork() {
        void* libc = __wrap_dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
        QVERIFY(libc);
        QCOMPARE(__wrap_dlsym(libc, "getpid"), reinterpret_cast<void*>(&getpid));
        QCOMPARE(__wrap_dlclose(libc), 0);
        sem_t started;
        QCOMPARE(__wrap_sem_init(&started, 0, 0), 0);
        pthread_t t{};
        QCOMPARE(__wrap_pthread_create(&t, nullptr, &threadBody, &started), 0);
        timespec until{};
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 30;
        QCOMPARE(__wrap_sem_timedwait(&started, &until), 0);
        void* result = nullptr;
        QCOMPARE(__wrap_pthread_join(t, &result), 0);
        QCOMPARE(result, static_cast<void*>(&started));
        QCOMPARE(__wrap_sem_post(&started), 0);
        QCOMPARE(__wrap_sem_timedwait(&started, &until), 0);
    }

    void arc4randomVaries() {
        // 64 draws of 32 bits from a working source are all equal with probability 2^-2016.
        QSet<std::uint32_t> seen;
        for (int i = 0; i < 64; ++i)
            seen.insert(__wrap_arc4random());
        QVERIFY(seen.size() > 1);
    }
};

QTEST_GUILESS_MAIN(TestGlibcCompat)
#include "tst_glibccompat.moc"
