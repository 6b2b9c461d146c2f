// A study's manifest (store/StudyFolder.h) is untrusted: only a bounded shard count is read from it, and
// every refusal names the manifest and the cause. Which paths are studies, and what create refuses.
#include "core/InputError.h"
#include "store/StudyFolder.h"
#include "store/Workspace.h"

#include <sys/stat.h>

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

class TestStudyFolder : public QObject {
    Q_OBJECT

private slots:
    void manifests_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("shards"); // 0: refused
        QTest::addColumn<QString>("cause");
        QTest::newRow("valid") << QByteArray(R"({"format": "cnp-study", "version": 1, "shards": 3})") << 3
                               << "";
        QTest::newRow("extra keys ignored")
            << QByteArray(R"({"shards": 1024, "note": "x", "version": 1, "format": "cnp-study"})") << 1024
            << "";
        QTest::newRow("not JSON") << QByteArray("{\"format\": ") << 0 << "its manifest is not JSON";
        QTest::newRow("an array") << QByteArray("[1, 2]") << 0 << "not a JSON object";
        QTest::newRow("another format")
            << QByteArray(R"({"format": "cnp-workspace", "version": 1, "shards": 1})") << 0
            << "\"format\" is not \"cnp-study\"";
        QTest::newRow("newer version") << QByteArray(R"({"format": "cnp-study", "version": 2, "shards": 1})")
                                       << 0 << "study format version 2 is newer";
        QTest::newRow("version 0") << QByteArray(R"({"format": "cnp-study", "version": 0, "shards": 1})") << 0
                                   << "unknown study format version 0";
        QTest::newRow("no shards") << QByteArray(R"({"format": "cnp-study", "version": 1})") << 0
                                   << "\"shards\" is not a whole number from 1 to 1024";
        QTest::newRow("0 shards") << QByteArray(R"({"format": "cnp-study", "version": 1, "shards": 0})") << 0
                                  << "\"shards\" is not a whole number";
        QTest::newRow("too many shards")
            << QByteArray(R"({"format": "cnp-study", "version": 1, "shards": 100000})") << 0
            << "\"shards\" is not a whole number";
        QTest::newRow("shards as text")
            << QByteArray(R"({"format": "cnp-study", "version": 1, "shards": "../../etc"})") << 0
            << "\"shards\" is not a whole number";
        QTest::newRow("deep nesting") << QByteArray(60000, '[') << 0 << "not JSON";
        QTest::newRow("larger than 64 KiB")
            << (QByteArray(R"({"format": "cnp-study", "version": 1, "shards": 1, "pad": ")") +
                QByteArray(70000, 'x') + "\"}")
            << 0 << "larger than 64 KiB";
    }
    void manifests() {
        QFETCH(QByteArray, text);
        QFETCH(int, shards);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        const QString manifest = dir.filePath(StudyFolder::kManifestName);
        QFile f(manifest);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
        f.close();
        QVERIFY(StudyFolder::isStudyPath(dir.path().toStdString()));
        if (shards > 0) {
            const StudyFolder s = StudyFolder::open(dir.path().toStdString());
            QCOMPARE(s.shardCount(), shards);
            QCOMPARE(QString::fromStdString(s.shardPath(shards - 1)),
                     dir.filePath(QStringLiteral("shard-%1.cnpdb").arg(shards - 1)));
            QCOMPARE(QString::fromStdString(StudyFolder::open(manifest.toStdString()).indexPath()),
                     dir.filePath("index.cnpdb"));
            return;
        }
        for (const QString& path : {dir.path(), manifest}) {
            try {
                StudyFolder::open(path.toStdString());
                QFAIL("accepted a bad manifest");
            } catch (const InputError& e) {
                QCOMPARE(QString::fromStdString(e.file()), manifest);
                QVERIFY2(QString::fromStdString(e.message()).contains(cause), e.message().c_str());
            }
            // A workspace opened on it fails the same way, before any file is created.
            QVERIFY_THROWS_EXCEPTION(InputError,
                                     Workspace(path.toStdString(), Workspace::Mode::CreateIfMissing));
            QVERIFY(!QFile::exists(dir.filePath("index.cnpdb")));
        }
    }

    void aManifestThatIsNoFileIsRefused() {
        QTemporaryDir dir;
        const QString manifest = dir.filePath(StudyFolder::kManifestName);
        QCOMPARE(::mkfifo(manifest.toLocal8Bit().constData(), 0600), 0);
        try {
            StudyFolder::open(manifest.toStdString());
            QFAIL("opened a FIFO");
        } catch (const InputError& e) {
            QVERIFY2(e.message().find("not a regular file") != std::string::npos, e.message().c_str());
        }
    }

    void whichPathsAreStudies() {
        QTemporaryDir dir;
        QVERIFY(StudyFolder::isStudyPath(dir.filePath("new.cnpstudy").toStdString()));
        QVERIFY(StudyFolder::isStudyPath(dir.filePath("new.cnpstudy/").toStdString()));
        QVERIFY(!StudyFolder::isStudyPath(dir.filePath("ws.cnpdb").toStdString()));
        QVERIFY(!StudyFolder::isStudyPath(dir.filePath(".cnpstudy").toStdString()));
        QVERIFY(!StudyFolder::isStudyPath(dir.path().toStdString())); // a folder without a manifest
        QVERIFY(QDir(dir.path()).mkdir("plain.cnpstudy"));            // an existing folder without one
        QVERIFY(!StudyFolder::isStudyPath(dir.filePath("plain.cnpstudy").toStdString()));
    }

    void createWritesAManifestOnce() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("s.cnpstudy").toStdString();
        QCOMPARE(StudyFolder::create(path, 5).shardCount(), 5);
        QCOMPARE(StudyFolder::open(path).shardCount(), 5);
        QVERIFY_THROWS_EXCEPTION(InputError, StudyFolder::create(path, 2)); // exists
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 StudyFolder::create(dir.filePath("t.cnpstudy").toStdString(), 0));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 StudyFolder::create(dir.filePath("u.cnpstudy").toStdString(), 1025));
        {
            Workspace ws(path, Workspace::Mode::ReadWrite);
            QCOMPARE(ws.shardCount(), 5);
            QCOMPARE(QString::fromStdString(ws.path()), QString::fromStdString(path));
            QCOMPARE(QString::fromStdString(ws.file()), dir.filePath("s.cnpstudy/index.cnpdb"));
        }
        for (int k = 0; k < 5; ++k)
            QVERIFY(QFile::exists(dir.filePath(QStringLiteral("s.cnpstudy/shard-%1.cnpdb").arg(k))));
        // A new .cnpstudy path opened to create gets one shard; read-only, a missing study is refused.
        QVERIFY_THROWS_EXCEPTION(
            InputError, Workspace(dir.filePath("none.cnpstudy").toStdString(), Workspace::Mode::ReadOnly));
        Workspace fresh(dir.filePath("one.cnpstudy").toStdString(), Workspace::Mode::CreateIfMissing);
        QCOMPARE(fresh.shardCount(), 1);
    }
};

QTEST_GUILESS_MAIN(TestStudyFolder)
#include "tst_studyfolder.moc"
