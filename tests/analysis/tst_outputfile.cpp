// OutputFile: the temporary file is always a new file (a planted symlink or file under its name is never
// written through), the result appears only on commit, failures name the output path, and an output
// path that exists and is not a regular file (symlink, FIFO, device, directory) is refused, never replaced.
#include "core/InputError.h"
#include "export/OutputFile.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace cnp;
namespace fs = std::filesystem;

namespace {
std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
void writeFile(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}
std::size_t entries(const std::string& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}
// Puts a non-regular file of the given kind at `path`; "symlink-file" points at `victim` ("precious").
void plant(const std::string& kind, const std::string& path, const std::string& victim) {
    if (kind == "fifo") {
        QCOMPARE(::mkfifo(path.c_str(), 0600), 0);
    } else if (kind == "symlink-file") {
        writeFile(victim, "precious");
        fs::create_symlink(victim, path);
    } else if (kind == "symlink-device") {
        fs::create_symlink("/dev/null", path);
    } else if (kind == "symlink-dangling") {
        fs::create_symlink(victim, path);
    } else {
        fs::create_directory(path);
    }
}
} // namespace

class TestOutputFile : public QObject {
    Q_OBJECT

private slots:
    // Attackers who can write the output folder plant a symlink under the temporary name (the first
    // one tried: PATH.partial-<pid>-0), pointing at a victim file. (A symlink under the final name is
    // refused: nonRegularTargetsRefused.)
    void plantedSymlinksNotFollowed_data() {
        QTest::addColumn<QString>("planted");
        QTest::newRow("temporary name") << ".partial-" + QString::number(::getpid()) + "-0";
        QTest::newRow("temporary name, dangling") << ".partial-" + QString::number(::getpid()) + "-0";
    }
    void plantedSymlinksNotFollowed() {
        QFETCH(QString, planted);
        QTemporaryDir dir;
        const std::string victim = dir.filePath("victim").toStdString();
        const std::string out = dir.filePath("report.html").toStdString();
        const bool dangling = QByteArray(QTest::currentDataTag()).endsWith("dangling");
        if (!dangling)
            writeFile(victim, "precious");
        fs::create_symlink(victim, out + planted.toStdString());
        {
            OutputFile f(out);
            f.write("report");
            f.commit();
        }
        QCOMPARE(QString::fromStdString(slurp(out)), QStringLiteral("report"));
        QVERIFY(!fs::is_symlink(out));
        if (dangling)
            QVERIFY(!fs::exists(victim));
        else
            QCOMPARE(QString::fromStdString(slurp(victim)), QStringLiteral("precious"));
    }

    // An output path that exists and is not a regular file is refused when the file is opened, with
    // the path and what it is in the message, and is left exactly as it was (issue 33.1: an export to
    // /dev/full replaced the device). Nothing real is written to: the device case is a symlink to
    // /dev/null, refused because it is a symlink.
    void nonRegularTargetsRefused_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("what");
        QTest::newRow("fifo") << "fifo"
                              << "a FIFO (named pipe)";
        QTest::newRow("symlink to a file") << "symlink-file"
                                           << "a symbolic link";
        QTest::newRow("symlink to a device") << "symlink-device"
                                             << "a symbolic link";
        QTest::newRow("dangling symlink") << "symlink-dangling"
                                          << "a symbolic link";
        QTest::newRow("directory") << "directory"
                                   << "a directory";
    }
    void nonRegularTargetsRefused() {
        QFETCH(QString, kind);
        QFETCH(QString, what);
        QTemporaryDir dir;
        const std::string victim = dir.filePath("victim").toStdString();
        const std::string out = dir.filePath("out.json").toStdString();
        plant(kind.toStdString(), out, victim);
        const auto before = fs::symlink_status(out).type();
        try {
            OutputFile f(out);
            f.write("overwritten");
            f.commit();
            QFAIL("the output was written");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()), QString::fromStdString(out + ": exists and is " + what.toStdString() +
                                                               "; refusing to replace it (only a regular "
                                                               "file is overwritten): remove it or choose "
                                                               "another path"));
        }
        QCOMPARE(fs::symlink_status(out).type(), before);
        if (kind == "symlink-file")
            QCOMPARE(QString::fromStdString(slurp(victim)), QStringLiteral("precious"));
        if (kind == "symlink-device")
            QCOMPARE(fs::read_symlink(out).string(), std::string("/dev/null"));
        QCOMPARE(entries(dir.path().toStdString()), std::size_t(kind == "symlink-file" ? 2 : 1));
    }

    // The same when the non-regular file appears while the output is being written: commit refuses
    // it, leaves it, and removes the temporary file.
    void nonRegularTargetAppearingRefusedAtCommit_data() { nonRegularTargetsRefused_data(); }
    void nonRegularTargetAppearingRefusedAtCommit() {
        QFETCH(QString, kind);
        QTemporaryDir dir;
        const std::string victim = dir.filePath("victim").toStdString();
        const std::string out = dir.filePath("out.csv").toStdString();
        {
            OutputFile f(out);
            f.write("overwritten");
            plant(kind.toStdString(), out, victim);
            QVERIFY_THROWS_EXCEPTION(InputError, f.commit());
        }
        QVERIFY(fs::symlink_status(out).type() != fs::file_type::regular);
        if (kind == "symlink-file")
            QCOMPARE(QString::fromStdString(slurp(victim)), QStringLiteral("precious"));
        QCOMPARE(entries(dir.path().toStdString()), std::size_t(kind == "symlink-file" ? 2 : 1));
    }

    // A regular file is still replaced.
    void regularFileReplaced() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("out.html").toStdString();
        writeFile(out, "old");
        OutputFile f(out);
        f.write("new");
        f.commit();
        QCOMPARE(QString::fromStdString(slurp(out)), QStringLiteral("new"));
    }

    void uncommittedLeavesNothing() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("a.csv").toStdString();
        {
            OutputFile f(out);
            f.write("half");
        }
        QVERIFY(fs::is_empty(dir.path().toStdString()));
    }

    void gzipCommitted() {
        QTemporaryDir dir;
        const std::string out = dir.filePath("a.json.gz").toStdString();
        OutputFile f(out);
        QVERIFY(f.compressed());
        f.write("{}");
        f.commit();
        const std::string bytes = slurp(out);
        QVERIFY(bytes.size() > 2);
        QCOMPARE(static_cast<unsigned char>(bytes[0]), static_cast<unsigned char>(0x1f));
        QCOMPARE(static_cast<unsigned char>(bytes[1]), static_cast<unsigned char>(0x8b));
    }

    void missingFolderNamed() {
        const std::string out = "/nonexistent-folder-cnp/out.csv";
        try {
            OutputFile f(out);
            QFAIL("created");
        } catch (const InputError& e) {
            QCOMPARE(QString(e.what()),
                     QString::fromStdString(out + ": cannot create file: No such file or directory"));
        }
    }
};

QTEST_GUILESS_MAIN(TestOutputFile)
#include "tst_outputfile.moc"
