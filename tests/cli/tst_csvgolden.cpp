// `cnp export --format csv` of one fixture per input format (Kineto JSON, Nsight Systems SQLite,
// `.cnpt`) against the goldens in tests/data/golden/csv/<NAME>/: the same set of files, each equal byte
// for byte. A change of the CSV format, a column or a name shows up here as a diff of the golden files.
// The fixture list is tests/data/golden/csv/FIXTURES; scripts/make-csv-goldens writes the goldens (this
// test never does). Rows checked by hand against the fixtures: docs/testing.md "Golden CSV exports".
#include "TestPaths.h"
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct CliResult {
    int exitCode = -1;
    QByteArray err;
};

// Runs `cnp` in tests/data, so the fixture's path (which ranks.csv's source_file records as given) is
// the same relative path in every checkout.
CliResult runCliInData(const QStringList& args) {
    QProcess p;
    p.setWorkingDirectory(testpaths::dataDir());
    p.start(testpaths::cliPath(), args);
    CliResult r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.err = p.readAllStandardError();
    return r;
}

const QString kGolden = testpaths::dataDir() + QStringLiteral("/golden/csv");

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// "FILE line N: expected '...' got '...'" for the first differing line of two texts, for the failure
// message (the whole files can be megabytes).
QByteArray firstDifference(const QString& file, const QByteArray& want, const QByteArray& got) {
    const QList<QByteArray> a = want.split('\n'), b = got.split('\n'); // rows end in CRLF (RFC 4180)
    for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
        const QByteArray x = i < a.size() ? a[i].trimmed() : QByteArray("<end of file>");
        const QByteArray y = i < b.size() ? b[i].trimmed() : QByteArray("<end of file>");
        if (x != y)
            return file.toUtf8() + " line " + QByteArray::number(i + 1) + ": golden '" + x.left(300) +
                   "', export '" + y.left(300) + "' (regenerate deliberately: scripts/make-csv-goldens)";
    }
    return file.toUtf8() + ": differs";
}

} // namespace

class TestCsvGolden : public QObject {
    Q_OBJECT

private slots:
    void exportMatchesGolden_data();
    void exportMatchesGolden();

private:
    QTemporaryDir dir_;
};

void TestCsvGolden::exportMatchesGolden_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("fixture");
    const QByteArray list = readAll(kGolden + "/FIXTURES");
    QVERIFY2(!list.isEmpty(), "tests/data/golden/csv/FIXTURES is missing");
    int rows = 0;
    for (const QByteArray& line : list.split('\n')) {
        if (line.isEmpty() || line.startsWith('#'))
            continue;
        const QList<QByteArray> cols = line.split('\t');
        QCOMPARE(cols.size(), 2);
        QTest::newRow(cols[0].constData())
            << QString::fromUtf8(cols[0]) << QString::fromUtf8(cols[1]); // relative to tests/data
        ++rows;
    }
    QCOMPARE(rows, 3); // one fixture per input format: Kineto, nsys, .cnpt
}

void TestCsvGolden::exportMatchesGolden() {
    QFETCH(QString, name);
    QFETCH(QString, fixture);
    const QString ws = dir_.filePath(name + ".cnpdb"), out = dir_.filePath(name);
    auto r = runCliInData({"ingest", ws, fixture, "--run", name, "--quiet"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = runCliInData({"export", ws, "--run", name, "--format", "csv", "--out", out, "--quiet"});
    QVERIFY2(r.exitCode == 0, r.err.constData());

    const QDir golden(kGolden + "/" + name);
    QVERIFY2(golden.exists(), qPrintable(golden.path() + " is missing: scripts/make-csv-goldens"));
    const QStringList want = golden.entryList(QDir::Files, QDir::Name);
    const QStringList got = QDir(out).entryList(QDir::Files, QDir::Name);
    QCOMPARE(got, want);
    QVERIFY(want.contains("kernels.csv"));
    for (const QString& f : want) {
        const QByteArray a = readAll(golden.filePath(f)), b = readAll(out + "/" + f);
        QVERIFY2(!a.isEmpty(), qPrintable(f));
        QVERIFY2(a == b, firstDifference(name + "/" + f, a, b).constData());
    }
}

QTEST_GUILESS_MAIN(TestCsvGolden)
#include "tst_csvgolden.moc"
