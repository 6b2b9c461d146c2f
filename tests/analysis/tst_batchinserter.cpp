// BatchInserter: every row lands once, in order, with its own values, for counts around the batch size.
#include "store/BatchInserter.h"

#include <QtTest>

using namespace cnp;

class TestBatchInserter : public QObject {
    Q_OBJECT

private slots:
    void insertsEveryRowInOrder_data() {
        QTest::addColumn<int>("rows");
        for (int n : {1, 2, 15, 16, 17, 31, 32, 33, 100})
            QTest::newRow(std::to_string(n).c_str()) << n;
    }
    void insertsEveryRowInOrder() {
        QFETCH(int, rows);
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        execSql(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, run_id INTEGER, a INTEGER, b INTEGER)");
        {
            BatchInserter ins(db, "t", "a, b", RunId(42));
            QCOMPARE(ins.columns(), 2);
            for (int k = 0; k < rows;) {
                const auto n = BatchInserter::rowsFor(static_cast<std::size_t>(rows - k));
                QVERIFY(n >= 1 && n <= BatchInserter::kRows);
                Statement& st = ins.statement(n);
                for (std::size_t r = 0; r < n; ++r)
                    st.bind(static_cast<int>(r) * 2 + 1, k + static_cast<int>(r))
                        .bind(static_cast<int>(r) * 2 + 2, 1000 - k - static_cast<int>(r));
                st.exec();
                k += static_cast<int>(n);
            }
        }
        QCOMPARE(queryInt(db, "SELECT COUNT(*) FROM t"), std::int64_t(rows));
        QCOMPARE(queryInt(db, "SELECT COUNT(*) FROM t WHERE run_id <> 42"), std::int64_t(0));
        // Row k has id k + 1, a = k, b = 1000 - k.
        QCOMPARE(queryInt(db, "SELECT COUNT(*) FROM t WHERE a <> id - 1 OR b <> 1000 - a"), std::int64_t(0));
        sqlite3_close(db);
    }
};

QTEST_APPLESS_MAIN(TestBatchInserter)
#include "tst_batchinserter.moc"
