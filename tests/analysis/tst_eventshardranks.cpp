// core/EventShardRanks: the run attributes events.shard_ranks and events.fetched, read as hostile. Texts of
// the form written round-trip to the same ranks; anything else (signs, leading zeros, descending or
// repeated ranks, empty items, too many shards or ranks) reads as absent.
#include "core/EventShardRanks.h"

#include <QtTest>

#include <string>
#include <vector>

using cnp::EventShardRanks;
using Ranks = std::vector<std::vector<std::int32_t>>;

Q_DECLARE_METATYPE(Ranks)
Q_DECLARE_METATYPE(std::vector<int>)

class TestEventShardRanks : public QObject {
    Q_OBJECT

private slots:
    void readsWhatIsWritten_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Ranks>("ranks");
        QTest::newRow("one rank") << "0" << Ranks{{0}};
        QTest::newRow("two nodes of 8")
            << "0-7;8-15" << Ranks{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}};
        QTest::newRow("gaps and lists") << "0,2-3;5;9-10,12" << Ranks{{0, 2, 3}, {5}, {9, 10, 12}};
        QTest::newRow("the largest rank") << "2147483647" << Ranks{{2147483647}};
    }
    void readsWhatIsWritten() {
        QFETCH(QString, text);
        QFETCH(Ranks, ranks);
        const auto parsed = EventShardRanks::parse(text.toStdString());
        QVERIFY(parsed);
        QCOMPARE(parsed->shardCount(), static_cast<int>(ranks.size()));
        for (int k = 0; k < parsed->shardCount(); ++k) {
            QCOMPARE(parsed->ranksOf(k), ranks[static_cast<std::size_t>(k)]);
            for (const std::int32_t r : ranks[static_cast<std::size_t>(k)])
                QCOMPARE(parsed->shardOf(r), k);
        }
        QCOMPARE(QString::fromStdString(EventShardRanks(ranks).text()), text);
        QCOMPARE(parsed->shardOf(-1), -1);
        QCOMPARE(parsed->shardOf(ranks.back().back() == 2147483647 ? 2147483646 : ranks.back().back() + 1),
                 -1);
    }

    void refusesOtherText_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << "";
        QTest::newRow("sign") << "-1";
        QTest::newRow("plus") << "+1";
        QTest::newRow("leading zero") << "01";
        QTest::newRow("space") << "0, 1";
        QTest::newRow("descending") << "3,2";
        QTest::newRow("repeated") << "1;1";
        QTest::newRow("descending over shards") << "4-7;0-3";
        QTest::newRow("empty item") << "0,,1";
        QTest::newRow("empty shard") << "0;;1";
        QTest::newRow("trailing separator") << "0;";
        QTest::newRow("range of one") << "3-3";
        QTest::newRow("backward range") << "5-2";
        QTest::newRow("open range") << "5-";
        QTest::newRow("past int32") << "2147483648";
        QTest::newRow("huge") << "99999999999";
        QTest::newRow("more than 2^20 ranks") << "0-1048576";
        QTest::newRow("text") << "zero";
        QTest::newRow("NUL") << QString::fromLatin1("0\0"
                                                    "1",
                                                    3);
        std::string many;
        for (int k = 0; k <= EventShardRanks::kMaxShards; ++k)
            many += (k ? ";" : "") + std::to_string(k);
        QTest::newRow("1025 shards") << QString::fromStdString(many);
    }
    void refusesOtherText() {
        QFETCH(QString, text);
        QVERIFY(!EventShardRanks::parse(text.toStdString()));
    }

    void fetchedList_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("shards");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<std::vector<int>>("list");
        QTest::newRow("none") << "" << 2 << true << std::vector<int>{};
        QTest::newRow("two") << "0,1" << 2 << true << std::vector<int>{0, 1};
        QTest::newRow("one of many") << "7" << 128 << true << std::vector<int>{7};
        QTest::newRow("past the shards") << "2" << 2 << false << std::vector<int>{};
        QTest::newRow("descending") << "1,0" << 2 << false << std::vector<int>{};
        QTest::newRow("repeated") << "1,1" << 2 << false << std::vector<int>{};
        QTest::newRow("a range") << "0-1" << 2 << false << std::vector<int>{};
        QTest::newRow("no shards") << "0" << 0 << false << std::vector<int>{};
    }
    void fetchedList() {
        QFETCH(QString, text);
        QFETCH(int, shards);
        QFETCH(bool, valid);
        QFETCH(std::vector<int>, list);
        const auto parsed = cnp::parseShardList(text.toStdString(), shards);
        QCOMPARE(parsed.has_value(), valid);
        if (valid) {
            QCOMPARE(*parsed, list);
            QCOMPARE(QString::fromStdString(cnp::shardListText(*parsed)), text);
        }
    }
};

QTEST_GUILESS_MAIN(TestEventShardRanks)
#include "tst_eventshardranks.moc"
