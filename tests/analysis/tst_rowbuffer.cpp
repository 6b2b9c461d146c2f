// RowBuffer: rows collected without the database are written with their values, the run id given at
// flush, NULLs for unbound columns, and workspace string ids that equal what internString returns; the
// compact encoding keeps every int64 and double exactly, rows span many 1 MiB chunks, and a row of
// small integers costs a few bytes per column, not the 16 of an unencoded value.
#include "store/RowBuffer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <limits>

using namespace cnp;

class TestRowBuffer : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int workspaces_ = 0;

private slots:
    void flushWritesEveryKindOfValue_data() {
        QTest::addColumn<int>("rows");
        QTest::newRow("none") << 0;
        QTest::newRow("one") << 1;
        QTest::newRow("many") << 50;
    }
    void flushWritesEveryKindOfValue() {
        QFETCH(int, rows);
        Workspace ws(dir_.filePath(QString("w%1.cnpdb").arg(rows)).toStdString(),
                     Workspace::Mode::CreateIfMissing);
        execSql(ws.db(), "CREATE TABLE t(run_id INTEGER, a INTEGER, b REAL, c TEXT, d INTEGER, e INTEGER)");
        RowBuffer buf("INSERT INTO t VALUES(?,?,?,?,?,?)");
        for (int r = 0; r < rows; ++r) {
            buf.bindRunId(1)
                .bind(2, std::int64_t(r) - 7)
                .bind(3, r * 0.5)
                .bind(4, "text " + std::to_string(r % 3));
            buf.bindStringId(5, "name " + std::to_string(r % 4));
            if (r % 2) // column 6 left unbound on even rows: NULL
                buf.bind(6, r);
            buf.exec();
        }
        QCOMPARE(buf.rows(), std::size_t(rows));
        QCOMPARE(queryInt(ws.db(), "SELECT COUNT(*) FROM t"),
                 std::int64_t(0)); // nothing written before flush
        {
            Transaction tx(ws.db());
            buf.flush(ws, RunId(42));
            tx.commit();
        }
        Statement st(ws.db(), "SELECT run_id, a, b, c, d, e FROM t ORDER BY rowid");
        for (int r = 0; r < rows; ++r) {
            QVERIFY(st.step());
            QCOMPARE(st.i64(0), std::int64_t(42));
            QCOMPARE(st.i64(1), std::int64_t(r) - 7);
            QCOMPARE(st.f64(2), r * 0.5);
            QCOMPARE(st.text(3), "text " + std::to_string(r % 3));
            QCOMPARE(st.i64(4), ws.internString("name " + std::to_string(r % 4)));
            QCOMPARE(st.isNull(5), r % 2 == 0);
        }
        QVERIFY(!st.step());
    }

    void valuesSurviveTheEncoding_data() {
        QTest::addColumn<qint64>("i");
        QTest::addColumn<double>("d");
        QTest::newRow("zero") << qint64(0) << 0.0;
        QTest::newRow("-1") << qint64(-1) << -2.5; // (SQLite itself stores -0.0 as 0)
        QTest::newRow("int64 min, denormal")
            << std::numeric_limits<qint64>::min() << std::numeric_limits<double>::denorm_min();
        QTest::newRow("int64 max, double max")
            << std::numeric_limits<qint64>::max() << std::numeric_limits<double>::max();
        QTest::newRow("2^62") << (qint64(1) << 62) << -1e-300;
        QTest::newRow("a Unix ns time, infinity")
            << qint64(1790857026000000000) << std::numeric_limits<double>::infinity();
    }
    void valuesSurviveTheEncoding() {
        QFETCH(qint64, i);
        QFETCH(double, d);
        Workspace ws(dir_.filePath(QString("v%1.cnpdb").arg(++workspaces_)).toStdString(),
                     Workspace::Mode::CreateIfMissing);
        execSql(ws.db(), "CREATE TABLE t(a INTEGER, b REAL, c INTEGER)");
        RowBuffer buf("INSERT INTO t VALUES(?,?,?)");
        buf.bind(1, std::int64_t(i)).bind(2, d).bind(3, -std::int64_t(i / 2));
        buf.exec();
        {
            Transaction tx(ws.db());
            buf.flush(ws, RunId(1));
            tx.commit();
        }
        Statement st(ws.db(), "SELECT a, b, c FROM t");
        QVERIFY(st.step());
        QCOMPARE(st.i64(0), std::int64_t(i));
        QCOMPARE(st.f64(1), d);
        QCOMPARE(st.i64(2), -std::int64_t(i / 2));
    }

    // 300k rows of 11 columns: well past one 1 MiB chunk; every row comes back in order, and rows of
    // small values (the idle-gap shape: small ints, two string ids, one large time) stay compact.
    void manyRowsSpanChunks() {
        Workspace ws(dir_.filePath("many.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        execSql(ws.db(), "CREATE TABLE t(run_id, r, s, start, dur, state, n, sync, wait, next, at)");
        RowBuffer buf("INSERT INTO t VALUES(?,?,?,?,?,?,?,?,?,?,?)");
        constexpr int kRows = 300000;
        const std::int64_t t0 = 1790857026000000000;
        for (int r = 0; r < kRows; ++r) {
            buf.bindRunId(1).bind(2, r % 16).bind(3, r / 1000).bind(4, t0 + std::int64_t(r) * 997);
            buf.bind(5, 10000 + r % 5000).bind(6, std::string_view(r % 3 ? "idle" : "sync"));
            buf.bind(7, r % 7)
                .bind(8, 0)
                .bind(9, r % 11 * 100)
                .bindStringId(10, "kernel_" + std::to_string(r % 5));
            buf.bind(11, -1);
            buf.exec();
        }
        QCOMPARE(buf.rows(), std::size_t(kRows));
        // Measured 35.0 bytes per row of chunk capacity (11 tags, a 9-byte time); 16-byte values: 176.
        QVERIFY2(buf.encodedBytes() <= std::size_t(kRows) * 40,
                 qPrintable(QString::number(double(buf.encodedBytes()) / kRows) + " bytes per row"));
        QVERIFY(buf.encodedBytes() > std::size_t(1) << 20); // more than one chunk
        {
            Transaction tx(ws.db());
            buf.flush(ws, RunId(9));
            tx.commit();
        }
        std::int64_t kernelIds[5];
        for (int k = 0; k < 5; ++k)
            kernelIds[k] = ws.internString("kernel_" + std::to_string(k));
        Statement st(ws.db(),
                     "SELECT run_id, r, s, start, dur, state, n, sync, wait, next, at FROM t ORDER BY rowid");
        for (int r = 0; r < kRows; ++r) {
            QVERIFY(st.step());
            if (st.i64(0) != 9 || st.i64(1) != r % 16 || st.i64(2) != r / 1000 ||
                st.i64(3) != t0 + std::int64_t(r) * 997 || st.i64(4) != 10000 + r % 5000 ||
                st.text(5) != (r % 3 ? "idle" : "sync") || st.i64(6) != r % 7 || st.i64(7) != 0 ||
                st.i64(8) != r % 11 * 100 || st.i64(9) != kernelIds[r % 5] || st.i64(10) != -1)
                QFAIL(qPrintable(QString("row %1 differs").arg(r)));
        }
        QVERIFY(!st.step());
    }

    void refusesParameterOutOfRange() {
        RowBuffer buf("INSERT INTO t VALUES(?,?)");
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, buf.bind(3, 1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, buf.bind(0, 1));
    }
};

QTEST_APPLESS_MAIN(TestRowBuffer)
#include "tst_rowbuffer.moc"
