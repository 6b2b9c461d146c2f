// SHA-256 (collectors/format/Sha256) against the FIPS 180-4 / NIST example vectors, including messages whose
// padding needs a second block (56..63 bytes) and a multi-block message: whole, fed in pieces of every
// awkward size (the collector hashes each chunk as it writes it), and read from a file.
#include "Sha256.h"

#include <QtTest>

class TestSha256 : public QObject {
    Q_OBJECT
private slots:
    void digest_data() {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("hex");
        QTest::newRow("empty") << QByteArray()
                               << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        QTest::newRow("abc") << QByteArray("abc")
                             << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("448 bits: two padding blocks")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        QTest::newRow("896 bits: two blocks")
            << QByteArray("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqkl"
                          "mnopqrlmnopqrsm"
                          "nopqrstnopqrstu")
            << "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
        QTest::newRow("one million a")
            << QByteArray(1000000, 'a') << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
        QTest::newRow("64 bytes: one full block + padding block")
            << QByteArray(64, 'a') << "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb";
    }
    void digest() {
        QFETCH(QByteArray, message);
        QFETCH(QString, hex);
        QCOMPARE(
            QString::fromStdString(cnpt::sha256Hex(std::string_view(message.constData(), message.size()))),
            hex);
    }

    void pieces_data() { digest_data(); }
    void pieces() {
        QFETCH(QByteArray, message);
        QFETCH(QString, hex);
        for (const qsizetype piece : {1, 7, 55, 56, 63, 64, 65, 1000}) {
            cnpt::Sha256 h;
            for (qsizetype off = 0; off < message.size(); off += piece)
                h.update(message.constData() + off,
                         static_cast<std::size_t>(std::min(piece, message.size() - off)));
            QCOMPARE(h.size(), static_cast<std::uint64_t>(message.size()));
            QVERIFY2(QString::fromStdString(h.hexDigest()) == hex, qPrintable(QString::number(piece)));
        }
    }

    void file_data() { digest_data(); }
    void file() {
        QFETCH(QByteArray, message);
        QFETCH(QString, hex);
        QTemporaryDir dir;
        QFile f(dir.filePath("m"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(message);
        f.close();
        const auto d = cnpt::sha256File(f.fileName().toStdString());
        QVERIFY(d);
        QCOMPARE(QString::fromStdString(d->hex), hex);
        QCOMPARE(d->size, static_cast<std::uint64_t>(message.size()));
        QVERIFY(!cnpt::sha256File(dir.filePath("absent").toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestSha256)
#include "tst_sha256.moc"
