// RowBuffer: rows collected without the database are written with their values, the run id given at
// flush, NULLs for unbound columns, and workspace string ids that equal what internString returns.
#include "store/RowBuffer.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

class TestRowBuffer : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

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
            buf.flush(ws, 42);
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

    void refusesParameterOutOfRange() {
        RowBuffer buf("INSERT INTO t VALUES(?,?)");
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, buf.bind(3, 1));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, buf.bind(0, 1));
    }
};

QTEST_APPLESS_MAIN(TestRowBuffer)
#include "tst_rowbuffer.moc"
