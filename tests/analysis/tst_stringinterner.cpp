// StringInterner's two numberings (store/StringInterner.h): in order of first use, and by content for
// shards written alone. The content ids are checked against values computed outside the program (FNV-1a
// 64 then murmur3's finaliser, masked to 62 bits, plus 1: a Python one-liner), two workspaces interning the
// same texts in different orders give them the same ids, and a text whose content id another text holds is
// refused naming the workspace.
#include "core/InputError.h"
#include "store/MetaKeys.h"
#include "store/Sqlite.h"
#include "store/StringInterner.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;

namespace {

void useContentIds(Workspace& ws) {
    Transaction tx = writeTransaction(ws);
    ws.setMeta(std::string(metakeys::kStringIds), std::string(StringInterner::kContentIds));
    tx.commit();
}

std::vector<std::int64_t> internAll(Workspace& ws, const QStringList& texts) {
    Transaction tx = writeTransaction(ws);
    StringInterner interner(ws.db());
    std::vector<std::int64_t> ids;
    for (const QString& t : texts)
        ids.push_back(interner.intern(t.toStdString()));
    tx.commit();
    return ids;
}

} // namespace

class TestStringInterner : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void contentIdIsTheHash_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("id");
        QTest::newRow("empty") << "" << qint64{3445288215246350631};
        QTest::newRow("a") << "a" << qint64{189900332573052508};
        QTest::newRow("gemm") << "gemm" << qint64{4585417749949765227};
        QTest::newRow("nccl kernel") << "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"
                                     << qint64{3880941679065062938};
    }
    void contentIdIsTheHash() {
        QFETCH(QString, text);
        QFETCH(qint64, id);
        QCOMPARE(StringInterner::contentStringId(text.toStdString()), id);
        Workspace ws(dir_.filePath(QString("hash-%1.cnpdb").arg(id)).toStdString(),
                     Workspace::Mode::CreateIfMissing);
        useContentIds(ws);
        QCOMPARE(internAll(ws, {text, text}), (std::vector<std::int64_t>{id, id}));
        QCOMPARE(ws.stringById(id), text.toStdString());
    }

    // Two shards written apart agree on every id; a workspace numbered in order of use does not.
    void shardsAgreeWhateverTheOrder() {
        const QStringList texts{"forward", "backward", "gemm", "optimizer.step", "nccl"};
        QStringList reversed = texts;
        std::reverse(reversed.begin(), reversed.end());
        Workspace a(dir_.filePath("a.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        Workspace b(dir_.filePath("b.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        useContentIds(a);
        useContentIds(b);
        const auto idsA = internAll(a, texts);
        auto idsB = internAll(b, reversed);
        std::reverse(idsB.begin(), idsB.end());
        QCOMPARE(idsA, idsB);
        Workspace plain(dir_.filePath("plain.cnpdb").toStdString(), Workspace::Mode::CreateIfMissing);
        QCOMPARE(internAll(plain, texts), (std::vector<std::int64_t>{1, 2, 3, 4, 5}));
        QVERIFY(!StringInterner::contentIds(plain.db()));
        QVERIFY(StringInterner::contentIds(a.db()));
    }

    void collisionRefused() {
        const std::string file = dir_.filePath("collision.cnpdb").toStdString();
        Workspace ws(file, Workspace::Mode::CreateIfMissing);
        useContentIds(ws);
        {
            Transaction tx = writeTransaction(ws);
            Statement st(ws.db(), "INSERT INTO strings(id, value) VALUES(?, 'not gemm')");
            st.bind(1, StringInterner::contentStringId("gemm")).exec();
            tx.commit();
        }
        try {
            internAll(ws, {"gemm"});
            QFAIL("accepted a text whose id another text holds");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("collision.cnpdb") != std::string::npos, what.c_str());
            QVERIFY2(what.find("content id") != std::string::npos, what.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestStringInterner)
#include "tst_stringinterner.moc"
