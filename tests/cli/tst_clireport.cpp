// `cnp report`: the format follows --out (.html, .pdf, .json, a folder for the CSV bundle) or --format;
// unknown formats, sections and paper sizes are usage errors that leave nothing behind; an empty
// workspace is bad input (exit 2). The HTML carries the numbers of `cnp ablation --json`.
// Workspace: the report fixture (tests/common/ReportFixture.h).
#include "CliRunner.h"
#include "ReportFixture.h"

#include "core/Units.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnp;
using namespace cnp::testing;

namespace {

QByteArray head(const QString& path, int n) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(n) : QByteArray();
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// The cell texts of every row of the HTML table with id `id` (tags inside cells stripped).
QList<QStringList> htmlTable(const QString& html, const QString& id) {
    const int start = html.indexOf("<table id=\"t-" + id + "\">");
    const int end = html.indexOf("</table>", start);
    static const QRegularExpression tr(QStringLiteral("<tr>(.*?)</tr>")),
        td(QStringLiteral("<td[^>]*>(.*?)</td>")), tag(QStringLiteral("<[^>]+>"));
    QList<QStringList> rows;
    for (auto r = tr.globalMatch(html.mid(start, end - start)); r.hasNext();) {
        QStringList cells;
        for (auto c = td.globalMatch(r.next().captured(1)); c.hasNext();)
            cells << c.next().captured(1).remove(tag);
        if (!cells.isEmpty())
            rows << cells;
    }
    return rows;
}

QString msText(double ns) {
    return QString::number(ns / 1e6, 'f', 2);
}

} // namespace

class TestCliReport : public QObject {
    Q_OBJECT
    QTemporaryDir dir;
    QString ws;

private slots:
    void initTestCase() {
        QVERIFY(dir.isValid());
        ws = dir.filePath("fixture.cnpdb");
        Workspace w(ws.toStdString(), Workspace::Mode::CreateIfMissing);
        buildReportFixture(w);
    }

    void format_data() {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("html by extension") << "r.html" << QStringList{} << QByteArray("<!DOCTYPE html>");
        QTest::newRow("pdf by extension") << "r.pdf" << QStringList{} << QByteArray("%PDF-1.");
        QTest::newRow("upper-case extension") << "R.PDF" << QStringList{} << QByteArray("%PDF-1.");
        QTest::newRow("json by extension") << "r.json" << QStringList{} << QByteArray("{");
        QTest::newRow("--format pdf wins")
            << "r2.html" << QStringList{"--format", "pdf"} << QByteArray("%PDF-1.");
        QTest::newRow("--format html")
            << "report.out" << QStringList{"--format", "html"} << QByteArray("<!DOCTYPE html>");
        QTest::newRow("letter paper") << "l.pdf" << QStringList{"--paper", "letter"} << QByteArray("%PDF-1.");
        QTest::newRow("sections") << "s.html" << QStringList{"--sections", "ablation,methodology"}
                                  << QByteArray("<!DOCTYPE html>");
    }
    void format() {
        QFETCH(QString, out);
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, magic);
        const QString path = dir.filePath(out);
        const auto r = runCli(QStringList{"report", ws, "--out", path, "--no-timestamp"} + extra);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(head(path, magic.size()), magic);
        QVERIFY(!QFile::exists(path + ".part"));
    }

    // A folder: one CSV per table plus tables.csv naming them; raw values in base units (ns).
    void csvBundle() {
        const QString out = dir.filePath("bundle");
        const auto r = runCli({"report", ws, "--out", out, "--no-timestamp"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto index = readAll(out + "/tables.csv");
        QVERIFY2(index.startsWith("section,table,file\r\n"), qPrintable(index));
        QVERIFY(index.contains("ablation,ablation,ablation.csv\r\n"));
        QVERIFY(index.contains(QString("kernels,kernels-%1,kernels-%1.csv").arg(kFixtureBase)));
        const auto ablation = readAll(out + "/ablation.csv").split("\r\n");
        QVERIFY2(ablation[0].startsWith("configuration,runs,steps,median_step_ns,"), qPrintable(ablation[0]));
        QVERIFY2(ablation[1].startsWith(QString("%1,1,4,10000000,").arg(kFixtureBase)),
                 qPrintable(ablation[1]));
        // A text cell starting with '+' is neutralised against spreadsheet formulas (OWASP: a leading ').
        QVERIFY2(ablation[2].startsWith(QString("'+Fused→Opt,1,4,8000000,")), qPrintable(ablation[2]));
        // The hostile kernel name quoted per RFC 4180 (it holds a comma and double quotes).
        const auto kernels = readAll(out + "/kernels-+Fused→Opt.csv");
        QVERIFY2(kernels.contains("\"gemm<float, 4>(Args&) \"\"tuned\"\" & 'fast'\""), qPrintable(kernels));
    }

    // Every number of the HTML ablation table is the one `cnp ablation --json` computes.
    void htmlCarriesTheAblationNumbers() {
        const auto a = runCli({"ablation", ws, "--json"});
        QCOMPARE(a.exitCode, 0);
        const auto configs = QJsonDocument::fromJson(a.out).object()["configs"].toArray();
        QCOMPARE(configs.size(), 2);
        const QString html = dir.filePath("numbers.html");
        QCOMPARE(runCli({"report", ws, "--out", html, "--no-timestamp"}).exitCode, 0);
        const auto rows = htmlTable(readAll(html), "ablation");
        QCOMPARE(rows.size(), configs.size());
        for (int i = 0; i < rows.size(); ++i) {
            const auto c = configs[i].toObject();
            const auto step = c["step_time_ns"].toObject();
            const auto& row = rows[i];
            QCOMPARE(row[0], c["config"].toString());
            QCOMPARE(row[1], QString::number(c["runs"].toInt()));
            QCOMPARE(row[2], QString::number(c["steps"].toInt()));
            QCOMPARE(row[3], msText(step["median"].toDouble()));
            // 4 steps per configuration: below the 5 a CI needs (docs/metrics.md), so none in either.
            if (step["ci95"].isNull())
                QCOMPARE(row[4], QString("too few steps"));
            else
                QCOMPARE(row[4],
                         msText(step["ci95"][0].toDouble()) + " – " + msText(step["ci95"][1].toDouble()));
            const auto tp = c["throughput"].toObject();
            QCOMPARE(row[5], QString::fromStdString(
                                 units::rate(tp["value"].toDouble(), tp["unit"].toString().toStdString())));
            if (i > 0 && c["speedup_vs_baseline"].toObject()["ci95"].isNull()) {
                const auto s = c["speedup_vs_baseline"].toObject();
                QCOMPARE(row[7],
                         QString::number(s["value"].toDouble(), 'f', 2) + "× (too few steps for a CI)");
            } else if (i > 0) {
                const auto s = c["speedup_vs_baseline"].toObject();
                QVERIFY2(row[7].startsWith(QString::number(s["value"].toDouble(), 'f', 2) + "× [" +
                                           QString::number(s["ci95"][0].toDouble(), 'f', 2) + "×, " +
                                           QString::number(s["ci95"][1].toDouble(), 'f', 2) + "×]"),
                         qPrintable(row[7]));
            }
        }
    }

    void badArguments_data() {
        QTest::addColumn<QString>("out");
        QTest::addColumn<QStringList>("extra");
        QTest::newRow("unknown extension") << "r.txt" << QStringList{};
        QTest::newRow("unknown --format") << "r.pdf" << QStringList{"--format", "docx"};
        QTest::newRow("unknown section") << "r.html" << QStringList{"--sections", "ablation,nope"};
        QTest::newRow("unknown paper") << "r.pdf" << QStringList{"--paper", "a5"};
        QTest::newRow("bad --top") << "r.html" << QStringList{"--top", "0"};
    }
    void badArguments() {
        QFETCH(QString, out);
        QFETCH(QStringList, extra);
        const QString path = dir.filePath("bad-" + out);
        const auto r = runCli(QStringList{"report", ws, "--out", path} + extra);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(!r.err.isEmpty());
        QVERIFY(!QFile::exists(path));
    }

    void unknownConfigurationIsBadInput() {
        const QString path = dir.filePath("unknown.html");
        const auto r = runCli({"report", ws, "--out", path, "--configs", "nope"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(!QFile::exists(path));
    }

    void emptyWorkspaceIsBadInput_data() {
        QTest::addColumn<QString>("out");
        QTest::newRow("pdf") << "empty.pdf";
        QTest::newRow("csv folder") << "empty-bundle";
    }
    void emptyWorkspaceIsBadInput() {
        QFETCH(QString, out);
        const QString empty = dir.filePath("empty.cnpdb");
        { Workspace w(empty.toStdString(), Workspace::Mode::CreateIfMissing); }
        const QString path = dir.filePath(out);
        const auto r = runCli({"report", empty, "--out", path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("no runs"));
        QVERIFY(!QFile::exists(path));
        QVERIFY(!QFile::exists(path + ".part"));
    }
};

QTEST_APPLESS_MAIN(TestCliReport)
#include "tst_clireport.moc"
