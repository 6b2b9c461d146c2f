// OutputFile: the temporary file is always a new file (a planted symlink or file under its name is never
// written through), the result appears only on commit, and failures name the output path.
#include "core/InputError.h"
#include "export/OutputFile.h"

#include <QTemporaryDir>
#include <QtTest>

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
} // namespace

class TestOutputFile : public QObject {
    Q_OBJECT

private slots:
    // Attackers who can write the output folder plant a symlink under the temporary name (the first
    // one tried: PATH.partial-<pid>-0) or the final name, pointing at a victim file.
    void plantedSymlinksNotFollowed_data() {
        QTest::addColumn<QString>("planted");
        QTest::newRow("temporary name") << ".partial-" + QString::number(::getpid()) + "-0";
        QTest::newRow("temporary name, dangling") << ".partial-" + QString::number(::getpid()) + "-0";
        QTest::newRow("final name") << "";
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
