// Comma-separated lists (plan order, --order, --plan).
#include "core/CommaList.h"

#include <QtTest>

class TestCommaList : public QObject {
    Q_OBJECT
private slots:
    void split_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("items");
        QTest::newRow("empty") << "" << QStringList{};
        QTest::newRow("one") << "Base" << QStringList{"Base"};
        QTest::newRow("plan") << "Base,Base+ACCL,AC2+ACCL" << QStringList{"Base", "Base+ACCL", "AC2+ACCL"};
        QTest::newRow("empty items dropped") << ",a,,b," << QStringList{"a", "b"};
        QTest::newRow("spaces kept") << "Base (eager), +CkptOpt" << QStringList{"Base (eager)", " +CkptOpt"};
    }
    void split() {
        QFETCH(QString, text);
        QFETCH(QStringList, items);
        QStringList got;
        for (const auto& s : cnp::splitCommaList(text.toStdString()))
            got << QString::fromStdString(s);
        QCOMPARE(got, items);
    }
};

QTEST_APPLESS_MAIN(TestCommaList)
#include "tst_commalist.moc"
