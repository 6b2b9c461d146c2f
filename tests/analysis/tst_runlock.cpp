// RunLock: one `cnp run` at a time on a workspace or an output folder (issue 28: two runs on one workspace
// moved each other's job folders aside and one ingested the other's partial trace as a 0-kernel run).
// Two real processes (fork): the second is refused with the holder's pid, host, start time and command;
// once the holder is killed (SIGKILL: no clean-up, its lock file stays) the lock is taken over with a
// note; a lock file that names a live process or another host is refused even when its flock is free.
#include "core/InputError.h"
#include "launch/RunLock.h"

#include <QtTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace cnp;
using namespace cnp::launch;

namespace {

// A child process that takes the lock, says so on a pipe and then waits to be killed.
struct Holder {
    pid_t pid = -1;

    bool start(const std::string& file) {
        int fds[2];
        if (::pipe(fds) != 0)
            return false;
        pid = ::fork();
        if (pid == 0) {
            ::close(fds[0]);
            char ok = 'n';
            try {
                static RunLock lock(file, "workspace w.cnpdb", "cnp run plan.yaml w.cnpdb");
                ok = 'y';
            } catch (...) {
            }
            (void)!::write(fds[1], &ok, 1);
            ::pause();
            ::_exit(0);
        }
        ::close(fds[1]);
        char ok = 'n';
        const bool got = ::read(fds[0], &ok, 1) == 1;
        ::close(fds[0]);
        return got && ok == 'y';
    }
    void kill() {
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
            pid = -1;
        }
    }
    ~Holder() { kill(); }
};

// The message RunLock throws for `file`, or "" when it took the lock.
QString refusal(const std::string& file, QString* note = nullptr) {
    try {
        RunLock lock(file, "workspace w.cnpdb", "cnp run other.yaml w.cnpdb");
        if (note)
            *note = QString::fromStdString(lock.note());
        return {};
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
}

void writeFile(const QString& path, const std::string& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.c_str());
}

pid_t deadPid() {
    const pid_t p = ::fork();
    if (p == 0)
        ::_exit(0);
    ::waitpid(p, nullptr, 0);
    return p;
}

} // namespace

class TestRunLock : public QObject {
    Q_OBJECT

private slots:
    void secondProcessIsRefusedWithTheHolder() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("w.cnpdb.lock").toStdString();
        Holder h;
        QVERIFY(h.start(file));
        const QString why = refusal(file);
        const QString expected =
            QString("%1: workspace w.cnpdb is being used by cnp run (pid %2 on host %3 since ")
                .arg(QString::fromStdString(file))
                .arg(h.pid)
                .arg(QString::fromStdString(hostName()));
        QVERIFY2(why.startsWith(expected), qPrintable(why));
        QVERIFY2(why.endsWith("Z): cnp run plan.yaml w.cnpdb"), qPrintable(why));
        // The holder is killed: its lock file stays (no clean-up ran), its flock is gone with it.
        const pid_t gone = h.pid;
        h.kill();
        QVERIFY(QFile::exists(dir.filePath("w.cnpdb.lock")));
        QString note;
        QCOMPARE(refusal(file, &note), QString());
        QVERIFY2(
            note.startsWith(QString("took over the lock of workspace w.cnpdb from a cnp run that is gone "
                                    "(pid %1 on host ")
                                .arg(gone)),
            qPrintable(note));
    }

    void releasedLockIsRemovedAndFree() {
        QTemporaryDir dir;
        const std::string file = dir.filePath("w.cnpdb.lock").toStdString();
        {
            RunLock lock(file, "workspace w.cnpdb", "cnp run a b");
            QVERIFY(QFile::exists(dir.filePath("w.cnpdb.lock")));
            QVERIFY(lock.note().empty());
            // The same process, a second open of the file: refused too (flock is per open file).
            QVERIFY(refusal(file).contains(QString(" (pid %1 on host ").arg(::getpid())));
        }
        QVERIFY(!QFile::exists(dir.filePath("w.cnpdb.lock")));
        QString note;
        QCOMPARE(refusal(file, &note), QString());
        QCOMPARE(note, QString());
    }

    // A lock file whose flock is free (its holder's file system may not share flocks) but that names a run
    // that may be alive is refused all the same; one of a dead process on this host is taken over.
    void staleOrNotByContent_data() {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("pid");
        QTest::addColumn<QString>("refusedWith"); // "" = taken over with a note
        const QString self = QString::fromStdString(hostName());
        QTest::newRow("dead pid, this host") << self << int(deadPid()) << "";
        QTest::newRow("live pid, this host")
            << self << int(::getppid()) << "if that process is not a cnp run";
        QTest::newRow("another host") << "elsewhere.example" << int(deadPid()) << "if that run has ended";
    }
    void staleOrNotByContent() {
        QFETCH(QString, host);
        QFETCH(int, pid);
        QFETCH(QString, refusedWith);
        QTemporaryDir dir;
        const QString path = dir.filePath("w.cnpdb.lock");
        writeFile(path, lockFileText({pid, host.toStdString(), "2026-12-05T01:02:03Z", "cnp run p.yaml w"}));
        QString note;
        const QString why = refusal(path.toStdString(), &note);
        if (refusedWith.isEmpty()) {
            QCOMPARE(why, QString());
            QVERIFY2(
                note.contains(QString("(pid %1 on host %2 since 2026-12-05T01:02:03Z)").arg(pid).arg(host)),
                qPrintable(note));
            return;
        }
        QVERIFY2(
            why.contains(QString("is being used by cnp run (pid %1 on host %2 since 2026-12-05T01:02:03Z)")
                             .arg(pid)
                             .arg(host)),
            qPrintable(why));
        QVERIFY2(why.endsWith(refusedWith + ", remove " + path + ")"), qPrintable(why));
        QVERIFY(QFile::exists(path)); // the refused run leaves it as it was
    }

    void lockFileRoundTrip() {
        const LockHolder h{4242, "node-7", "2026-12-05T01:02:03Z", "cnp run a.yaml\nb.cnpdb"};
        const LockHolder back = parseLockFile(lockFileText(h));
        QCOMPARE(back.pid, 4242L);
        QCOMPARE(back.host, std::string("node-7"));
        QCOMPARE(back.since, std::string("2026-12-05T01:02:03Z"));
        QCOMPARE(back.command, std::string("cnp run a.yaml b.cnpdb")); // one line
        QCOMPARE(describeHolder(parseLockFile("")), std::string("holder unknown: its lock file names none"));
    }
};

QTEST_GUILESS_MAIN(TestRunLock)
#include "tst_runlock.moc"
