// The collector's glibc floor (docs/collector.md "glibc floor"): the built libcnp-collector.so must load on
// glibc 2.28, so no symbol it imports and no version it requires (.gnu.version_r, what the loader checks)
// may be newer than GLIBC_2.28. Read with `objdump -p` (version references) and `objdump -T` (each imported
// symbol's version), so a failure names every offending symbol. The check is shown to fail on a probe
// library built without the collector's measures (tests/collector/fake_cupti/GlibcProbe.cpp: stat 2.33,
// arc4random 2.36). Not in the sanitizer build, whose collector is linked without them.
#include "TestPaths.h"

#include <QtTest>

namespace {

// "GLIBC_2.34" -> {2, 34}; {-1, -1} for anything else.
QPair<int, int> glibcVersion(const QString& name) {
    static const QRegularExpression re(R"(^GLIBC_(\d+)\.(\d+)(?:\.\d+)?$)");
    const auto m = re.match(name);
    return m.hasMatch() ? qMakePair(m.captured(1).toInt(), m.captured(2).toInt()) : qMakePair(-1, -1);
}

bool newerThan(const QString& version, QPair<int, int> floor) {
    const auto v = glibcVersion(version);
    return v.first >= 0 && v > floor;
}

QString objdump(const QString& flag, const QString& library) {
    QProcess p;
    p.start("objdump", {flag, library});
    if (!p.waitForFinished(30000) || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

// Every "SYMBOL@GLIBC_x.y" the library imports with a version above `floor`, sorted, then every required
// version above it that no imported symbol carries (which the loader would still refuse) as "?@GLIBC_x.y".
QStringList tooNew(const QString& library, QPair<int, int> floor) {
    QStringList out;
    QSet<QString> named;
    // objdump -T: "0000000000000000      DF *UND*\t0000000000000000 (GLIBC_2.34) dlopen"
    static const QRegularExpression undefinedLine(R"(\*UND\*\s+[0-9a-f]+\s+\(?(GLIBC_[0-9.]+)\)?\s+(\S+)$)");
    for (const auto& line : objdump("-T", library).split('\n')) {
        const auto m = undefinedLine.match(line.trimmed());
        if (m.hasMatch() && newerThan(m.captured(1), floor)) {
            out << m.captured(2) + "@" + m.captured(1);
            named.insert(m.captured(1));
        }
    }
    out.sort();
    // objdump -p, under "Version References": "    0x06969194 0x00 08 GLIBC_2.14"
    static const QRegularExpression referenceLine(R"(^0x[0-9a-f]+\s+0x[0-9a-f]+\s+\d+\s+(GLIBC_[0-9.]+)$)");
    QStringList unnamed;
    for (const auto& line : objdump("-p", library).split('\n')) {
        const auto m = referenceLine.match(line.trimmed());
        if (m.hasMatch() && newerThan(m.captured(1), floor) && !named.contains(m.captured(1)))
            unnamed << "?@" + m.captured(1);
    }
    unnamed.sort();
    return out + unnamed;
}

QString fakeDir() {
    return QFileInfo(testpaths::fakeCuptiPath()).absolutePath();
}

} // namespace

class TestGlibcFloor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#ifndef CNP_COLLECTOR_GLIBC_FLOOR
        QSKIP("libcnp-collector.so is not built here, or built for the sanitizers (no glibc floor)");
#endif
        QProcess p;
        p.start("objdump", {"--version"});
        QVERIFY2(p.waitForFinished(30000) && p.exitCode() == 0, "objdump (binutils) is needed");
    }

    void versionsAboveFloor_data() {
        QTest::addColumn<QString>("library");
        QTest::addColumn<int>("floorMinor"); // floor GLIBC_2.<floorMinor>
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("collector, floor 2.28") << testpaths::collectorPath() << 28 << QStringList();
        QTest::newRow("probe, floor 2.28") << fakeDir() + "/libcnp-glibc-probe.so" << 28
                                           << QStringList{"arc4random@GLIBC_2.36", "stat@GLIBC_2.33"};
        QTest::newRow("probe, floor 2.33: only arc4random")
            << fakeDir() + "/libcnp-glibc-probe.so" << 33 << QStringList{"arc4random@GLIBC_2.36"};
        QTest::newRow("probe, floor 2.36: nothing")
            << fakeDir() + "/libcnp-glibc-probe.so" << 36 << QStringList();
    }
    void versionsAboveFloor() {
        QFETCH(QString, library);
        QFETCH(int, floorMinor);
        QFETCH(QStringList, expected);
        QVERIFY2(QFileInfo::exists(library), qPrintable(library));
        const QStringList found = tooNew(library, qMakePair(2, floorMinor));
        QVERIFY2(found == expected, qPrintable(library + " requires: " + found.join(", ") +
                                               "; expected: " + expected.join(", ")));
    }

    // The collector names glibc's libraries only: no libcupti (found at run time) and no libstdc++.
    void neededLibraries() {
        static const QRegularExpression needed(R"(^\s*NEEDED\s+(\S+)$)");
        QStringList found;
        for (const auto& line : objdump("-p", testpaths::collectorPath()).split('\n'))
            if (const auto m = needed.match(line); m.hasMatch())
                found << m.captured(1);
        found.sort();
        QCOMPARE(found, (QStringList{"ld-linux-x86-64.so.2", "libc.so.6", "libdl.so.2", "libpthread.so.0"}));
    }
};

QTEST_GUILESS_MAIN(TestGlibcFloor)
#include "tst_glibcfloor.moc"
