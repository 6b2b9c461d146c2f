// The collector's buffer pool: bounded (acquire fails once every buffer is out, and says how often),
// completed buffers come back in FIFO order, foreign and double releases are ignored, and two threads
// (CUPTI's and the writer's) can hand buffers around without losing any.
#include "BufferPool.h"

#include <QtTest>

#include <atomic>
#include <set>
#include <thread>

using namespace cnp::collector;

class TestBufferPool : public QObject {
    Q_OBJECT

private slots:
    void bounded_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("size");
        QTest::newRow("2 x 64 KiB") << 2 << 65536;
        QTest::newRow("8 x 1000 B (rounded up to 1000, 8-aligned)") << 8 << 1000;
        QTest::newRow("3 x 13 B (rounded to 16)") << 3 << 13;
    }
    void bounded() {
        QFETCH(int, count);
        QFETCH(int, size);
        BufferPool pool(static_cast<std::size_t>(count), static_cast<std::size_t>(size));
        QCOMPARE(pool.capacity(), std::size_t(count));
        QCOMPARE(pool.bufferSize() % 8, std::size_t(0));
        QVERIFY(pool.bufferSize() >= std::size_t(size) && pool.bufferSize() < std::size_t(size) + 8);
        std::set<std::uint8_t*> got;
        for (int i = 0; i < count; ++i) {
            auto* b = pool.acquire();
            QVERIFY(b);
            QCOMPARE(reinterpret_cast<std::uintptr_t>(b) % 8, std::uintptr_t(0));
            got.insert(b);
        }
        QCOMPARE(got.size(), std::size_t(count));
        QCOMPARE(pool.acquire(), nullptr);
        QCOMPARE(pool.acquire(), nullptr);
        QCOMPARE(pool.exhaustedCount(), std::uint64_t(2));
        QCOMPARE(pool.freeCount(), std::size_t(0));
        // Complete all, pop in FIFO order, release; then they can be acquired again.
        std::vector<std::uint8_t*> order(got.begin(), got.end());
        for (std::size_t i = 0; i < order.size(); ++i)
            pool.complete(CompletedBuffer{order[i], i * 10, i, 0, 0});
        QCOMPARE(pool.completedCount(), std::size_t(count));
        for (std::size_t i = 0; i < order.size(); ++i) {
            CompletedBuffer b;
            QVERIFY(pool.popCompleted(b));
            QCOMPARE(b.data, order[i]);
            QCOMPARE(b.validBytes, i * 10);
            QCOMPARE(b.dropped, std::uint64_t(i));
            pool.release(b.data);
        }
        CompletedBuffer none;
        QVERIFY(!pool.popCompleted(none));
        QCOMPARE(pool.freeCount(), std::size_t(count));
        std::uint8_t foreign[16];
        pool.release(foreign);  // not from this pool: ignored
        pool.release(order[0]); // already free: ignored
        QCOMPARE(pool.freeCount(), std::size_t(count));
    }

    void twoThreads() {
        BufferPool pool(4, 4096);
        std::atomic<bool> done{false};
        std::atomic<long> processed{0};
        std::thread writer([&] {
            CompletedBuffer b;
            while (!done || pool.completedCount() > 0)
                if (pool.popCompleted(b)) {
                    b.data[0] = 1;
                    pool.release(b.data);
                    ++processed;
                }
        });
        long produced = 0;
        for (int i = 0; i < 20000; ++i)
            if (auto* b = pool.acquire()) {
                pool.complete(CompletedBuffer{b, 1, 0, 0, 0});
                ++produced;
            }
        done = true;
        writer.join();
        QCOMPARE(processed.load(), produced);
        QCOMPARE(pool.freeCount(), std::size_t(4));
        QCOMPARE(produced + static_cast<long>(pool.exhaustedCount()), 20000L);
    }
};

QTEST_GUILESS_MAIN(TestBufferPool)
#include "tst_bufferpool.moc"
