// store/OverviewBlobs: one blob per run, tagged by format, read without a copy; a workspace without
// the table (older than overviews) has none.
#include "TestTraces.h"
#include "store/OverviewBlobs.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <QTemporaryDir>
#include <QtTest>

#include <string>

using namespace cnp;

namespace {

std::string readBack(const Workspace& ws, RunId run, bool* found) {
    std::string out;
    *found = readOverviewBlob(ws, run, [&](const char* d, std::size_t n) { out.assign(d, n); });
    return out;
}

} // namespace

class TestOverviewBlobs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::unique_ptr<Workspace> freshWorkspace(const QString& name, RunId* run) {
        auto ws =
            std::make_unique<Workspace>(dir_.filePath(name).toStdString(), Workspace::Mode::CreateIfMissing);
        auto tx = writeTransaction(*ws);
        *run = ws->insertRun(cnp::testing::tinyTrace());
        tx.commit();
        return ws;
    }

private slots:
    void roundTripsBytesIncludingZeros_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("text") << QByteArray("overview");
        QTest::newRow("embedded zeros") << QByteArray("a\0b\0\0c", 6);
        QTest::newRow("1 MiB") << QByteArray(1 << 20, '\x7f');
    }
    void roundTripsBytesIncludingZeros() {
        QFETCH(QByteArray, bytes);
        RunId run;
        auto ws = freshWorkspace(QStringLiteral("rt-%1.cnpdb").arg(QTest::currentDataTag()), &run);
        const std::string want(bytes.constData(), static_cast<std::size_t>(bytes.size()));
        writeOverviewBlob(*ws, run, 1, want);
        bool found = false;
        QCOMPARE(readBack(*ws, run, &found), want);
        QVERIFY(found);
        QVERIFY(hasOverviewBlob(*ws, run, 1));
        QVERIFY(!hasOverviewBlob(*ws, run, 2)); // another encoding is not this one
        QVERIFY(!hasOverviewBlob(*ws, RunId(run.value() + 1), 1));
    }

    void replacesThePreviousBlob() {
        RunId run;
        auto ws = freshWorkspace(QStringLiteral("replace.cnpdb"), &run);
        writeOverviewBlob(*ws, run, 1, "first");
        writeOverviewBlob(*ws, run, 2, "second");
        bool found = false;
        QCOMPARE(readBack(*ws, run, &found), std::string("second"));
        QVERIFY(hasOverviewBlob(*ws, run, 2));
        QVERIFY(!hasOverviewBlob(*ws, run, 1));
    }

    void noBlobForARunWithout() {
        RunId run;
        auto ws = freshWorkspace(QStringLiteral("none.cnpdb"), &run);
        bool found = true;
        QCOMPARE(readBack(*ws, run, &found), std::string());
        QVERIFY(!found);
        QVERIFY(!hasOverviewBlob(*ws, run, 1));
    }
};

QTEST_GUILESS_MAIN(TestOverviewBlobs)
#include "tst_overviewblobs.moc"
