// launch/TraceFetch on its own: the listing script run by a real sh, trace names and ranks, and fetches
// from a local folder that plays the volume, each file printed by a real `cat` (or a stand-in that fails):
// resume (complete traces skipped, a partial one fetched again), transfers that end short or fail, and the
// checks against the collector's checksum files (written by its own cnpt::writeChecksumFile); the same
// checks made on the volume's digests (sha256sum by a real sh: ingest on the cluster), and files fetched
// against such digests.
#include "launch/Subprocess.h"
#include "launch/TraceFetch.h"

#include "Sha256.h"
#include "TraceChecksum.h"

#include <QtTest>

using namespace cnp::launch;

class TestTraceFetch : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    // `ranks` traces of distinct sizes in `folder`, each with its checksum file.
    static void writeTraces(const QString& folder, int ranks) {
        QDir().mkpath(folder);
        for (int r = 0; r < ranks; ++r) {
            const QString path = folder + QString("/h-1-r%1.cnpt").arg(r);
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const QByteArray bytes(100000 + 1000 * r, char('A' + r));
            f.write(bytes);
            f.close();
            QVERIFY(cnpt::writeChecksumFile(
                path.toStdString(), cnpt::sha256Hex(std::string_view(bytes.constData(), bytes.size())),
                static_cast<std::uint64_t>(bytes.size())));
        }
    }

    static std::vector<RemoteFile> list(const QString& folder) {
        const ProcessResult r = runProcess(listingCommand(folder.toStdString()));
        return parseListing(r.out);
    }

    static FetchOutcome fetch(
        const QString& remote, const QString& local, int ranks,
        const PrintFile& print = [](const std::string& p) {
            return std::vector<std::string>{"cat", p};
        }) {
        FetchOptions o;
        o.expectedRanks = ranks;
        o.triesPerFile = 2;
        o.stallMs = 5000;
        QDir().mkpath(local);
        return fetchTraces(list(remote), remote.toStdString(), local.toStdString(), o, print);
    }

private slots:
    void rank_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("rank"); // -1: none
        QTest::newRow("collector") << "node-3-x-4711-r12.cnpt" << 12;
        QTest::newRow("gzip") << "h-1-r0.cnpt.gz" << 0;
        QTest::newRow("no launcher rank") << "h-4711.cnpt" << -1;
        QTest::newRow("checksum file") << "h-1-r0.cnpt.sha256" << -1;
        QTest::newRow("not digits") << "h-1-rx.cnpt" << -1;
        QTest::newRow("other file") << "node0.log" << -1;
    }
    void rank() {
        QFETCH(QString, name);
        QFETCH(int, rank);
        QCOMPARE(traceRank(name.toStdString()).value_or(-1), rank);
    }

    void listingByRealShell() {
        const QString folder = dir_.filePath("listed");
        writeTraces(folder, 2);
        QVERIFY(QDir().mkpath(folder + "/sub"));
        QFile hidden(folder + "/.hidden");
        QVERIFY(hidden.open(QIODevice::WriteOnly));
        hidden.close();
        QFile spaced(folder + "/a b.txt");
        QVERIFY(spaced.open(QIODevice::WriteOnly));
        spaced.write("xyz");
        spaced.close();
        QStringList got;
        for (const auto& f : list(folder))
            got << QString("%1 %2").arg(f.size).arg(QString::fromStdString(f.name));
        const QString sum0 = QString::number(QFileInfo(folder + "/h-1-r0.cnpt.sha256").size());
        const QString sum1 = QString::number(QFileInfo(folder + "/h-1-r1.cnpt.sha256").size());
        QCOMPARE(got, QStringList({"3 a b.txt", "100000 h-1-r0.cnpt", sum0 + " h-1-r0.cnpt.sha256",
                                   "101000 h-1-r1.cnpt", sum1 + " h-1-r1.cnpt.sha256"}));
        const ProcessResult none = runProcess(listingCommand(dir_.filePath("absent").toStdString()));
        QCOMPARE(none.exitCode, kListingNoFolder);
    }

    // What a hostile volume could list never leaves the local folder: names with a folder part, "..", or a
    // control character are dropped; plain names (spaces included) stay.
    void listingKeepsOnlyPlainNames() {
        const auto got = parseListing("10 ../../etc/cron.d/x\n11 a/b.cnpt\n12 ..\n13 ok-r0.cnpt\n"
                                      "14 tab\tname\n15 a b.cnpt\nnot a line\n16 \n");
        QCOMPARE(got.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(got[0].name), QStringLiteral("ok-r0.cnpt"));
        QCOMPARE(got[0].size, std::uint64_t(13));
        QCOMPARE(QString::fromStdString(got[1].name), QStringLiteral("a b.cnpt"));
    }

    // Ingest on the cluster checks traces where they are: sha256sum run by a real sh over the folder (the
    // folder as $0), its lines parsed back, a hostile line dropped (a path, "..", not 64 hex digits).
    void checksumsByRealShell() {
        const QString folder = dir_.filePath("summed");
        writeTraces(folder, 2);
        const ProcessResult r = runProcess(checksumCommand(folder.toStdString(), {"*.cnpt", "*.cnpt.gz"}));
        QCOMPARE(r.exitCode, 0);
        const auto sums = parseChecksums(r.out);
        QCOMPARE(sums.size(), std::size_t(2)); // the traces only, not their checksum files
        for (const char* name : {"h-1-r0.cnpt", "h-1-r1.cnpt"})
            QCOMPARE(QString::fromStdString(sums.at(name)),
                     QString::fromStdString(cnpt::sha256File((folder + "/" + name).toStdString())->hex));
        const std::string hex(64, 'a');
        const auto hostile = parseChecksums(hex + "  ../x.cnpt\n" + hex + "  a/b.cnpt\n" + hex +
                                            " *ok.cnpt\n" + std::string(63, 'a') + "  short.cnpt\n" +
                                            std::string(64, 'G') + "  nothex.cnpt\n" + hex + "  ..\n");
        QCOMPARE(hostile.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(hostile.at("ok.cnpt")), QString::fromStdString(hex));
        QVERIFY(runProcess(checksumCommand(dir_.filePath("absent").toStdString(), {"*.cnpt"})).exitCode != 0);
    }

    // The checks of a fetch made on the volume's digests: the same problems, in the same words, with only
    // the checksum files fetched.
    void checksInPlace_data() {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("problem");
        QTest::newRow("whole") << "none"
                               << "";
        QTest::newRow("corrupt") << "corrupt"
                                 << "rank 1: h-1-r1.cnpt: checksum mismatch";
        QTest::newRow("short") << "short"
                               << "rank 1: h-1-r1.cnpt is short: 2000 of the 101000 bytes";
        QTest::newRow("not closed") << "unclosed"
                                    << "rank 1: h-1-r1.cnpt: no checksum file h-1-r1.cnpt.sha256";
        QTest::newRow("missing rank") << "missing"
                                      << "rank 1: no trace (*-r1.cnpt)";
    }
    void checksInPlace() {
        QFETCH(QString, damage);
        QFETCH(QString, problem);
        const QString remote = dir_.filePath("inplace-" + damage),
                      local = dir_.filePath("inplace-local-" + damage);
        writeTraces(remote, 2);
        QFile t(remote + "/h-1-r1.cnpt");
        if (damage == "corrupt") {
            QVERIFY(t.open(QIODevice::ReadWrite));
            t.seek(50);
            t.write("x");
            t.close();
        } else if (damage == "short") {
            QVERIFY(t.resize(2000));
        } else if (damage == "unclosed") {
            QVERIFY(QFile::remove(remote + "/h-1-r1.cnpt.sha256"));
        } else if (damage == "missing") {
            QVERIFY(t.remove() && QFile::remove(remote + "/h-1-r1.cnpt.sha256"));
        }
        QDir().mkpath(local);
        const ProcessResult sums = runProcess(checksumCommand(remote.toStdString(), {"*.cnpt"}));
        FetchOptions o;
        o.expectedRanks = 2;
        const FetchOutcome got = checkTracesInPlace(
            list(remote), remote.toStdString(), local.toStdString(), o,
            [](const std::string& p) {
                return std::vector<std::string>{"cat", p};
            },
            parseChecksums(sums.out));
        QCOMPARE(got.problems.size(), std::size_t(problem.isEmpty() ? 0 : 1));
        if (!problem.isEmpty())
            QVERIFY2(QString::fromStdString(got.problems[0]).startsWith(problem), got.problems[0].c_str());
        // Only checksum files came here; no trace.
        QCOMPARE(QDir(local).entryList({"*.cnpt"}, QDir::Files), QStringList());
        QCOMPARE(QDir(local).entryList({"*.sha256"}, QDir::Files).size(),
                 damage == "none" || damage == "corrupt" || damage == "short" ? 2 : 1);
    }

    // Files fetched against the volume's digests: complete ones skipped on a second pass, one whose copy
    // differs from its digest is a problem.
    void fetchFilesAgainstDigests() {
        const QString remote = dir_.filePath("files-remote"), local = dir_.filePath("files-local");
        writeTraces(remote, 2);
        QDir().mkpath(local);
        auto sums = parseChecksums(runProcess(checksumCommand(remote.toStdString(), {"*.cnpt"})).out);
        std::vector<RemoteFile> wanted;
        for (const auto& f : list(remote))
            if (f.name.ends_with(".cnpt"))
                wanted.push_back(f);
        const PrintFile cat = [](const std::string& p) { return std::vector<std::string>{"cat", p}; };
        const FetchOutcome first =
            fetchFiles(wanted, remote.toStdString(), local.toStdString(), {}, cat, sums);
        QCOMPARE(first.problems, std::vector<std::string>{});
        QCOMPARE(first.fetched, 2);
        const FetchOutcome again =
            fetchFiles(wanted, remote.toStdString(), local.toStdString(), {}, cat, sums);
        QCOMPARE(again.fetched, 0);
        QCOMPARE(again.skipped, 2);
        sums["h-1-r0.cnpt"] = std::string(64, '0');
        QVERIFY(QFile::remove(local + "/h-1-r0.cnpt"));
        const FetchOutcome bad = fetchFiles(wanted, remote.toStdString(), local.toStdString(), {}, cat, sums);
        QCOMPARE(bad.problems.size(), std::size_t(1));
        QVERIFY2(bad.problems[0].starts_with("h-1-r0.cnpt: checksum mismatch"), bad.problems[0].c_str());
    }

    void resumeSkipsCompleteTraces() {
        const QString remote = dir_.filePath("resume-remote"), local = dir_.filePath("resume-local");
        writeTraces(remote, 3);
        FetchOutcome first = fetch(remote, local, 3);
        QCOMPARE(first.problems, std::vector<std::string>{});
        QCOMPARE(first.fetched, 6);
        QCOMPARE(first.skipped, 0);
        const auto sumBytes = static_cast<std::uint64_t>(QFileInfo(remote + "/h-1-r0.cnpt.sha256").size());
        QCOMPARE(first.bytes, 303000 + 3 * sumBytes); // the three checksum files are the same length
        FetchOutcome second = fetch(remote, local, 3);
        QCOMPARE(second.problems, std::vector<std::string>{});
        QCOMPARE(second.fetched, 3); // the checksum files only
        QCOMPARE(second.skipped, 3);
        QCOMPARE(second.skippedBytes, std::uint64_t(303000));
        QFile partial(local + "/h-1-r2.cnpt"); // cut short here: fetched again, whole
        QVERIFY(partial.resize(5000));
        FetchOutcome third = fetch(remote, local, 3);
        QCOMPARE(third.problems, std::vector<std::string>{});
        QCOMPARE(third.fetched, 4);
        QCOMPARE(third.skipped, 2);
        QCOMPARE(QFileInfo(local + "/h-1-r2.cnpt").size(), 102000);
        QVERIFY(!QFile::exists(local + "/h-1-r2.cnpt.part"));
    }

    void failedTransfers_data() {
        QTest::addColumn<QString>("script"); // prints "$0" on stdout, or fails to
        QTest::addColumn<QString>("problem");
        QTest::addColumn<qint64>("partBytes");
        QTest::newRow("ends short") << "head -c 10 \"$0\""
                                    << "ended short; 10 B of 98.6 KiB" << qint64(10);
        QTest::newRow("exit code") << "head -c 20 \"$0\"; echo gone >&2; exit 7"
                                   << "exit code 7: gone; 20 B" << qint64(20);
    }
    void failedTransfers() {
        QFETCH(QString, script);
        QFETCH(QString, problem);
        QFETCH(qint64, partBytes);
        const QString remote = dir_.filePath("fail-remote"),
                      local = dir_.filePath("fail-local-") + QTest::currentDataTag();
        writeTraces(remote, 2);
        const std::string bad = (remote + "/h-1-r1.cnpt").toStdString();
        const FetchOutcome got = fetch(remote, local, 2, [&](const std::string& p) {
            return p == bad ? std::vector<std::string>{"sh", "-c", script.toStdString(), p}
                            : std::vector<std::string>{"cat", p};
        });
        QCOMPARE(got.problems.size(), std::size_t(1));
        const QString text = QString::fromStdString(got.problems[0]);
        QVERIFY2(text.startsWith("rank 1: h-1-r1.cnpt: not fetched after 2 tries (") &&
                     text.contains(problem),
                 qPrintable(text));
        QCOMPARE(QFileInfo(local + "/h-1-r1.cnpt.part").size(), partBytes); // what arrived stays
        QVERIFY(!QFile::exists(local + "/h-1-r1.cnpt"));
        QCOMPARE(QFileInfo(local + "/h-1-r0.cnpt").size(), 100000);
    }

    void checks_data() {
        QTest::addColumn<QString>("damage");
        QTest::addColumn<QString>("problem");
        QTest::newRow("corrupt") << "corrupt"
                                 << "rank 1: h-1-r1.cnpt: checksum mismatch (SHA-256 ";
        QTest::newRow("short") << "short"
                               << "rank 1: h-1-r1.cnpt is short: 400 of the 101000 bytes the collector wrote";
        QTest::newRow("missing") << "missing"
                                 << "rank 1: no trace (*-r1.cnpt) in ";
        QTest::newRow("not closed") << "unclosed"
                                    << "rank 1: h-1-r1.cnpt: no checksum file h-1-r1.cnpt.sha256";
        QTest::newRow("not a checksum file")
            << "garbage"
            << "rank 1: h-1-r1.cnpt: h-1-r1.cnpt.sha256 is not a checksum file";
    }
    void checks() {
        QFETCH(QString, damage);
        QFETCH(QString, problem);
        const QString remote = dir_.filePath("checks-remote-" + damage),
                      local = dir_.filePath("checks-local-" + damage);
        writeTraces(remote, 2);
        QFile f(remote + "/h-1-r1.cnpt"), sum(remote + "/h-1-r1.cnpt.sha256");
        if (damage == "corrupt") {
            QVERIFY(f.open(QIODevice::ReadWrite));
            f.seek(50);
            f.write("z");
            f.close();
        } else if (damage == "short") {
            QVERIFY(f.resize(400));
        } else if (damage == "missing") {
            QVERIFY(f.remove() && sum.remove());
        } else if (damage == "unclosed") {
            QVERIFY(sum.remove());
        } else {
            QVERIFY(sum.open(QIODevice::WriteOnly));
            sum.write("not one\n");
            sum.close();
        }
        const FetchOutcome got = fetch(remote, local, 2);
        QCOMPARE(got.problems.size(), std::size_t(1));
        QVERIFY2(QString::fromStdString(got.problems[0]).startsWith(problem), got.problems[0].c_str());
        QCOMPARE(QFileInfo(local + "/h-1-r0.cnpt").size(), 100000); // the good rank stays
        QCOMPARE(QFile::exists(local + "/h-1-r1.cnpt"), damage != "missing");
    }

    void checksumFileFormat() {
        const cnpt::TraceChecksum c{std::string(64, 'a'), 31457280, "h-1-r3.cnpt"};
        const std::string text = cnpt::formatChecksum(c);
        QCOMPARE(QString::fromStdString(text),
                 "# size 31457280\n" + QString(64, 'a') + "  h-1-r3.cnpt\n"); // sha256sum -c reads it
        const auto back = cnpt::parseChecksum(text);
        QVERIFY(back);
        QCOMPARE(back->size, c.size);
        QCOMPARE(back->hex, c.hex);
        QCOMPARE(back->name, c.name);
        QVERIFY(!cnpt::parseChecksum(QString(64, 'a').toStdString() + "  x\n")); // no size line
    }
};

QTEST_GUILESS_MAIN(TestTraceFetch)
#include "tst_tracefetch.moc"
