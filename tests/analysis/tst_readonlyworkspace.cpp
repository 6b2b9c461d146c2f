// Read-only workspaces (a read-only mount, a shared drive): every read works, every write says why it
// cannot. Uses a real read-only mount (a tmpfs remounted read-only: the test runs as root, which ignores
// permission bits but not a read-only file system); skipped, saying so, where mounting is not permitted.
#include "TestPaths.h"
#include "TestTraces.h"

#include "core/InputError.h"
#include "store/Workspace.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/mount.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace cnp;
namespace fs = std::filesystem;

namespace {

void addRun(Workspace& ws, const std::string& name) {
    Transaction tx(ws.db());
    ws.insertRun(cnp::testing::tinyTrace(name));
    tx.commit();
}

std::string errorOf(const std::string& file, Workspace::Mode mode) {
    try {
        Workspace ws(file, mode);
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestReadOnlyWorkspace : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string mount_;

    void remount(unsigned long flags) {
        QVERIFY2(::mount(nullptr, mount_.c_str(), nullptr, MS_REMOUNT | flags, nullptr) == 0,
                 std::strerror(errno));
    }

private slots:
    void initTestCase() {
        mount_ = dir_.filePath("mnt").toStdString();
        fs::create_directory(mount_);
        if (::mount("cnp-test", mount_.c_str(), "tmpfs", 0, "size=8m") != 0)
            QSKIP(qPrintable(QString("cannot mount a tmpfs here (%1): read-only mounts untested")
                                 .arg(std::strerror(errno))));
    }
    void cleanupTestCase() {
        if (!mount_.empty())
            ::umount2(mount_.c_str(), MNT_DETACH);
    }
    void init() { remount(0); }

    void readsFromAReadOnlyMount() {
        const std::string file = mount_ + "/clean.cnpdb";
        {
            Workspace ws(file, Workspace::Mode::CreateIfMissing);
            addRun(ws, "a");
            addRun(ws, "b");
        } // a clean close checkpoints and removes -wal and -shm
        QVERIFY(!fs::exists(file + "-wal"));
        remount(MS_RDONLY);
        Workspace ws(file, Workspace::Mode::ReadOnly);
        const auto runs = ws.runs();
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(ws.loadRun(runs[1].id).kernels.size(), std::size_t(2));
        QVERIFY(!fs::exists(file + "-shm"));
    }

    void writingModesSayReadOnly_data() {
        QTest::addColumn<int>("mode");
        QTest::newRow("read-write") << int(Workspace::Mode::ReadWrite);
        QTest::newRow("create if missing") << int(Workspace::Mode::CreateIfMissing);
    }
    void writingModesSayReadOnly() {
        QFETCH(int, mode);
        const std::string file = mount_ + "/write.cnpdb";
        if (!fs::exists(file)) {
            Workspace ws(file, Workspace::Mode::CreateIfMissing);
            addRun(ws, "a");
        }
        remount(MS_RDONLY);
        QCOMPARE(QString::fromStdString(errorOf(file, static_cast<Workspace::Mode>(mode))),
                 QString::fromStdString(file + ": workspace is read-only (Read-only file system)"));
    }

    void olderSchemaNeedsAWritableCopy() {
        const std::string file = mount_ + "/v1.cnpdb";
        gzFile in = gzopen((testpaths::dataDir() + "/workspace_v1.cnpdb.gz").toStdString().c_str(), "rb");
        QVERIFY(in);
        std::ofstream out(file, std::ios::binary);
        char buf[1 << 16];
        for (int n = 0; (n = gzread(in, buf, sizeof buf)) > 0;)
            out.write(buf, n);
        gzclose(in);
        out.close();
        remount(MS_RDONLY);
        QCOMPARE(QString::fromStdString(errorOf(file, Workspace::Mode::ReadOnly)),
                 QString::fromStdString(file + ": workspace schema version 1 needs a one-time upgrade, which "
                                               "failed: workspace is read-only (Read-only file system)"));
    }

    // An immutable open would ignore the -wal file, whose changes the main file lacks: refused, clearly.
    void unappliedLogRefused() {
        const std::string file = mount_ + "/logged.cnpdb";
        const std::string staging = dir_.filePath("staging.cnpdb").toStdString();
        {
            Workspace ws(staging, Workspace::Mode::CreateIfMissing);
            addRun(ws, "a");
            execSql(ws.db(), "PRAGMA wal_autocheckpoint=0");
            addRun(ws, "b"); // in the -wal only while this connection is open
            fs::copy_file(staging, file);
            fs::copy_file(staging + "-wal", file + "-wal");
        }
        QVERIFY(fs::file_size(file + "-wal") > 0);
        remount(MS_RDONLY);
        QCOMPARE(
            QString::fromStdString(errorOf(file, Workspace::Mode::ReadOnly)),
            QString::fromStdString(file + ": workspace is read-only and its write-ahead log " + file +
                                   "-wal holds changes not yet in the file; open it once where it can be "
                                   "written (or copy both files to a writable folder)"));
        remount(0);
        QCOMPARE(Workspace(file, Workspace::Mode::ReadOnly).runs().size(), std::size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestReadOnlyWorkspace)
#include "tst_readonlyworkspace.moc"
