// `cnp report`: the format follows --out's extension or --format; unknown formats are usage errors that
// leave no file; an empty workspace is bad input (exit 2). Workspace: the hand-built two-configuration
// workspace of the report tests (tests/common/TestTraces.h).
#include "CliRunner.h"
#include "TestTraces.h"

#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::testing;

class TestCliReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;

    QByteArray head(const QString& path, int n) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("two.cnpdb");
        Workspace w(ws.toStdString(), Workspace::Mode::CreateIfMissing);
        auto base = steppedTrace("base", "Base", {10'000'000, 10'000'000, 10'000'000});
        auto fast = steppedTrace("fast", "Fast", {8'000'000, 8'000'000, 8'000'000});
        addTrace(w, base);
        addTrace(w, fast);
    }

    void format_data() {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("html by extension") << "r.html" << QStringList{} << QByteArray("<!DOCTYPE html>");
        QTest::newRow("pdf by extension") << "r.pdf" << QStringList{} << QByteArray("%PDF-1.4");
        QTest::newRow("upper-case extension") << "R.PDF" << QStringList{} << QByteArray("%PDF-1.4");
        QTest::newRow("--format pdf wins")
            << "r2.html" << QStringList{"--format", "pdf"} << QByteArray("%PDF-1.4");
        QTest::newRow("--format html")
            << "report.out" << QStringList{"--format", "html"} << QByteArray("<!DOCTYPE html>");
    }
    void format() {
        QFETCH(QString, out);
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, magic);
        const QString path = dir.filePath(out);
        const auto r = runCli(QStringList{"report", ws, "--out", path, "--no-timestamp"} + extra);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(head(path, magic.size()), magic);
        QVERIFY(!QFile::exists(path + ".part"));
    }

    void badFormat_data() {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("unknown extension") << "r.txt" << QStringList{};
        QTest::newRow("no extension") << "report" << QStringList{};
        QTest::newRow("unknown --format") << "r.pdf" << QStringList{"--format", "docx"};
    }
    void badFormat() {
        QFETCH(QString, out);
        QFETCH(QStringList, extra);
        const QString path = dir.filePath("bad-" + out);
        const auto r = runCli(QStringList{"report", ws, "--out", path} + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(!r.err.isEmpty());
        QVERIFY(!QFile::exists(path));
    }

    void emptyWorkspaceIsBadInput() {
        const QString empty = dir.filePath("empty.cnpdb");
        { Workspace w(empty.toStdString(), Workspace::Mode::CreateIfMissing); }
        const QString path = dir.filePath("empty.pdf");
        const auto r = runCli({"report", empty, "--out", path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no runs"));
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(path + ".part"));
    }
};

QTEST_APPLESS_MAIN(TestCliReport)
#include "tst_clireport.moc"
