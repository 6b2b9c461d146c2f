// The one "is this a workspace" rule (store/WorkspaceProbe.h), on real files: a workspace under any name
// is one; an Nsight Systems export (another SQLite file), an empty SQLite database, a text file, an empty
// file and a missing path are not. The same rule makes Workspace's open refuse a foreign SQLite file.
#include "TestPaths.h"

#include "core/InputError.h"
#include "store/Sqlite.h"
#include "store/Workspace.h"
#include "store/WorkspaceProbe.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

class TestWorkspaceProbe : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString file(const QString& name, const QByteArray& content) {
        QFile f(dir_.filePath(name));
        if (f.open(QIODevice::WriteOnly))
            f.write(content);
        return f.fileName();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        Workspace ws(dir_.filePath("real.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        ws.setMeta("probe", "1");
    }

    void probe_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("isWorkspace");
        QTest::newRow("workspace") << dir_.filePath("real.cnpdb") << true;
        const QString renamed = dir_.filePath("renamed.sqlite");
        QFile::remove(renamed);
        QFile::copy(dir_.filePath("real.cnpdb"), renamed);
        QTest::newRow("workspace, another name") << renamed << true;
        QTest::newRow("nsys export") << testpaths::dataDir() + "/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite"
                                     << false;
        QTest::newRow("text") << file("notes.cnpdb", "SELECT * FROM runs;\n") << false;
        QTest::newRow("empty file") << file("empty.cnpdb", QByteArray()) << false;
        QTest::newRow("short header") << file("short.cnpdb", QByteArray("SQLite format", 13)) << false;
        QTest::newRow("missing") << dir_.filePath("nowhere.cnpdb") << false;
        QTest::newRow("folder") << dir_.path() << false;
    }

    void probe() {
        QFETCH(QString, path);
        QFETCH(bool, isWorkspace);
        QCOMPARE(isWorkspaceFile(path.toStdString()), isWorkspace);
    }

    // An SQLite file with tables but no `meta` is refused by the open through the same rule.
    void openRefusesForeignSqlite() {
        const QString path = dir_.filePath("foreign.db");
        QVERIFY(QFile::copy(testpaths::dataDir() + "/nsys/saxpy-mpi-cuda_nsys_perlmutter0.sqlite", path));
        QFile(path).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        QVERIFY(!isWorkspaceFile(path.toStdString()));
        try {
            Workspace ws(path.toStdString(), Workspace::Mode::ReadOnly);
            QFAIL("a foreign SQLite file opened as a workspace");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("not a CNP workspace") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceProbe)
#include "tst_workspaceprobe.moc"
