// The release history's files (docs/metrics.md, "Release history"): the manifest (cnp-history.json) read,
// written and refused on hostile input, naming the file and the cause; paths that would leave the folder;
// the release summary cache (summaries/RELEASE.json) round-tripped and refused when malformed.
#include "core/InputError.h"
#include "history/HistoryManifest.h"
#include "history/ReleaseSummaryJson.h"
#include "history/TrendReport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace cnp;
namespace fs = std::filesystem;

namespace {

std::string entryJson(const std::string& release, const std::string& study, const std::string& summary) {
    return "{\"release\": \"" + release + "\", \"date\": \"2026-01-15\", \"commit\": \"abc\", \"study\": \"" +
           study + "\", \"summary\": \"" + summary + "\"}";
}

std::string manifestJson(const std::string& entries) {
    return "{\"format\": \"cnp-history\", \"version\": 1, \"entries\": [" + entries + "]}";
}

ReleaseSummary sampleSummary() {
    ReleaseSummary s;
    s.synthetic = true;
    s.driverVersion = "550.54";
    s.cudaVersion = "12.4";
    s.containerImage = "nvcr.io/nvidia/pytorch:26.01-py3";
    ConfigReleaseSummary c;
    c.config = "Base";
    c.worldSize = 16;
    c.runs = {"base-r0", "base-r1"};
    c.medianStepNs = 1000;
    c.hasCi = true;
    c.ciLoNs = 990;
    c.ciHiNs = 1010;
    c.throughput = 131072.5;
    c.throughputCiLo = 130000;
    c.throughputCiHi = 132000;
    c.throughputUnit = "tokens/s";
    c.mfu = 0.41;
    c.stepTimesByRun = {{1000, 1010, 990}, {1005}};
    c.categories = {"gemm", "idle"};
    c.categorySteps = {{{600, 610, 590}, {605}}, {{400, 400, 400}, {400}}};
    s.configs.push_back(c);
    c.config = "Base+ACCL";
    c.mfu.reset();
    s.configs.push_back(c);
    return s;
}

} // namespace

class TestHistory : public QObject {
    Q_OBJECT
private slots:
    void parsesEntries() {
        const auto h = HistoryManifest::fromJson(
            manifestJson(entryJson("26.01", "studies/26.01.cnpdb", "summaries/26.01.json") + ", " +
                         entryJson("26.02", "/data/26.02.cnpstudy", "summaries/26.02.json")),
            "/h/cnp-history.json");
        QCOMPARE(h.entries().size(), std::size_t{2});
        QCOMPARE(h.entries()[0].release, std::string("26.01"));
        QCOMPARE(h.entries()[0].date, std::string("2026-01-15"));
        QCOMPARE(h.entries()[0].commit, std::string("abc"));
        QCOMPARE(h.studyPath(h.entries()[0]), fs::path("/h/studies/26.01.cnpdb"));
        QCOMPARE(h.studyPath(h.entries()[1]), fs::path("/data/26.02.cnpstudy")); // absolute, as stated
        QCOMPARE(h.summaryPath(h.entries()[1]), fs::path("/h/summaries/26.02.json"));
        QVERIFY(h.entry("26.02"));
        QVERIFY(!h.entry("26.03"));
    }

    void refused_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("cause");
        const auto ok = [](const std::string& release) {
            return entryJson(release, "s.cnpdb", "summaries/" + release + ".json");
        };
        QTest::newRow("not JSON") << "{\"format\": "
                                  << "not JSON";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "not a JSON object";
        QTest::newRow("another format") << "{\"format\": \"cnp-study\", \"version\": 1, \"entries\": []}"
                                        << "\"format\" is not \"cnp-history\"";
        QTest::newRow("another version") << "{\"format\": \"cnp-history\", \"version\": 2, \"entries\": []}"
                                         << "unsupported history manifest version";
        QTest::newRow("entries not an array")
            << "{\"format\": \"cnp-history\", \"version\": 1, \"entries\": {}}"
            << "\"entries\" is not an array";
        QTest::newRow("entry not an object")
            << QString::fromStdString(manifestJson("3")) << "entry 1 is not an object";
        QTest::newRow("no release") << QString::fromStdString(manifestJson("{\"study\": \"s.cnpdb\"}"))
                                    << "entry 1: no \"release\"";
        QTest::newRow("release with a slash")
            << QString::fromStdString(manifestJson(entryJson("a/b", "s.cnpdb", "summaries/a/b.json")))
            << "release \"a/b\" is not";
        QTest::newRow("release ..") << QString::fromStdString(
                                           manifestJson(entryJson("..", "s.cnpdb", "summaries/...json")))
                                    << "release \"..\" is not";
        QTest::newRow("release too long")
            << QString::fromStdString(manifestJson(entryJson(std::string(65, 'a'), "s.cnpdb", "x")))
            << "is not 1 to 64";
        QTest::newRow("release not a string")
            << QString::fromStdString(manifestJson("{\"release\": 26, \"study\": \"s\", \"summary\": \"x\"}"))
            << "\"release\" is not a string";
        QTest::newRow("duplicate") << QString::fromStdString(manifestJson(ok("26.01") + ", " + ok("26.01")))
                                   << "release 26.01 appears twice";
        QTest::newRow("study leaves the folder")
            << QString::fromStdString(
                   manifestJson(entryJson("26.01", "../other/x.cnpdb", "summaries/26.01.json")))
            << "leaves the history folder";
        QTest::newRow("study leaves after normalising")
            << QString::fromStdString(
                   manifestJson(entryJson("26.01", "a/../../x.cnpdb", "summaries/26.01.json")))
            << "leaves the history folder";
        QTest::newRow("empty study") << QString::fromStdString(
                                            manifestJson(entryJson("26.01", "", "summaries/26.01.json")))
                                     << "\"study\" is empty";
        QTest::newRow("summary elsewhere")
            << QString::fromStdString(manifestJson(entryJson("26.01", "s.cnpdb", "../../etc/passwd")))
            << "summary must be \"summaries/26.01.json\"";
        QTest::newRow("control character")
            << QString::fromStdString(
                   manifestJson(entryJson("26.01", "s\\u001b[2J.cnpdb", "summaries/26.01.json")))
            << "holds control characters";
        QTest::newRow("field too long")
            << QString::fromStdString(
                   manifestJson(entryJson("26.01", std::string(1025, 's'), "summaries/26.01.json")))
            << "longer than 1024 bytes";
        QTest::newRow("deep nesting") << QString(2000, '[') << "not JSON";
    }
    void refused() {
        QFETCH(QString, text);
        QFETCH(QString, cause);
        try {
            HistoryManifest::fromJson(text.toStdString(), "/h/cnp-history.json");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("/h/cnp-history.json"));
            QVERIFY2(std::string(e.what()).find(cause.toStdString()) != std::string::npos, e.what());
        }
    }

    // Written, read back equal; add refuses a duplicate and a bad name; a study inside the folder is stored
    // relative to it, one outside absolute; a missing manifest, a directory in its place and an oversized
    // file are refused naming the manifest.
    void writeReadAdd() {
        QTemporaryDir dir;
        const std::string folder = dir.filePath("hist").toStdString();
        HistoryManifest h = HistoryManifest::openOrCreate(folder);
        QVERIFY(h.entries().empty());
        HistoryEntry e;
        e.release = "26.01";
        e.commit = "c0ffee";
        e.study = h.storedStudyPath(folder + "/studies/../studies/26.01.cnpdb");
        QCOMPARE(e.study, std::string("studies/26.01.cnpdb"));
        h.add(e);
        QCOMPARE(h.entries()[0].summary, std::string("summaries/26.01.json"));
        QVERIFY_THROWS_EXCEPTION(InputError, h.add(e));
        e.release = "bad/name";
        QVERIFY_THROWS_EXCEPTION(InputError, h.add(e));
        e.release = "26.02";
        e.study = h.storedStudyPath("/elsewhere/26.02.cnpdb");
        QCOMPARE(e.study, std::string("/elsewhere/26.02.cnpdb"));
        h.add(e);
        h.save();
        const auto back = HistoryManifest::open(folder);
        QCOMPARE(back.entries().size(), std::size_t{2});
        QCOMPARE(back.entries()[0].commit, std::string("c0ffee"));
        QCOMPARE(back.toJson(), h.toJson());
        QVERIFY(!fs::exists(folder + "/cnp-history.json.tmp"));

        QVERIFY_THROWS_EXCEPTION(InputError, HistoryManifest::open(dir.filePath("none").toStdString()));
        fs::create_directories(dir.filePath("dirmanifest/cnp-history.json").toStdString());
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 HistoryManifest::open(dir.filePath("dirmanifest").toStdString()));
        const std::string big = dir.filePath("big").toStdString();
        fs::create_directories(big);
        std::ofstream(big + "/cnp-history.json") << std::string(HistoryManifest::kMaxManifestBytes + 1, ' ');
        try {
            HistoryManifest::open(big);
            QFAIL("accepted");
        } catch (const InputError& err) {
            QVERIFY2(std::string(err.what()).find("cnp-history.json") != std::string::npos, err.what());
        }
    }

    void summaryRoundTrip() {
        const ReleaseSummary s = sampleSummary();
        const ReleaseSummary back = releaseSummaryFromJson(releaseSummaryToJson(s), "x.json");
        QCOMPARE(back.configs.size(), std::size_t{2});
        QCOMPARE(back.driverVersion, s.driverVersion);
        QVERIFY(back.synthetic);
        const auto& c = back.configs[0];
        QCOMPARE(c.worldSize, 16);
        QCOMPARE(c.medianStepNs, Ns{1000});
        QCOMPARE(c.ciHiNs, Ns{1010});
        QCOMPARE(c.throughput, 131072.5);
        QCOMPARE(*c.mfu, 0.41);
        QVERIFY(!back.configs[1].mfu);
        QCOMPARE(c.stepTimesByRun, s.configs[0].stepTimesByRun);
        QCOMPARE(c.categorySteps, s.configs[0].categorySteps);
        QCOMPARE(c.stepCount(), std::size_t{4});
        QCOMPARE(c.categoryMeanNs(0), (600.0 + 610 + 590 + 605) / 4);
        QCOMPARE(releaseSummaryToJson(back), releaseSummaryToJson(s));
    }

    void summaryRefused_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("cause");
        QTest::newRow("negative ns") << "[1000,1010,990]"
                                     << "[1000,-1,990]"
                                     << "not a non-negative integer";
        QTest::newRow("fractional ns") << "[1000,1010,990]"
                                       << "[1000,1.5,990]"
                                       << "not a non-negative integer";
        QTest::newRow("category steps misshapen") << "[[600,610,590],[605]]"
                                                  << "[[600,610],[605]]"
                                                  << "one value per step";
        QTest::newRow("category runs missing") << "[[600,610,590],[605]]"
                                               << "[[600,610,590]]"
                                               << "one array per run";
        QTest::newRow("world size 0") << "\"worldSize\":16"
                                      << "\"worldSize\":0"
                                      << "not a positive integer";
        QTest::newRow("format") << "cnp-release-summary"
                                << "cnp-history"
                                << "\"format\" is not";
        QTest::newRow("mfu text") << "\"mfu\":0.41"
                                  << "\"mfu\":\"high\""
                                  << "\"mfu\" is neither null";
        QTest::newRow("throughput NaN-like") << "\"throughput\":131072.5"
                                             << "\"throughput\":-3"
                                             << "finite non-negative";
        QTest::newRow("duplicate configuration") << "\"Base+ACCL\""
                                                 << "\"Base\""
                                                 << "appears twice";
    }
    void summaryRefused() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, cause);
        std::string text = releaseSummaryToJson(sampleSummary());
        const auto at = text.find(from.toStdString());
        QVERIFY2(at != std::string::npos, qPrintable(from));
        text.replace(at, static_cast<std::size_t>(from.size()), to.toStdString());
        try {
            releaseSummaryFromJson(text, "s.json");
            QFAIL("accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("s.json"));
            QVERIFY2(std::string(e.what()).find(cause.toStdString()) != std::string::npos, e.what());
        }
    }

    // The trend: 4 releases at 1000 ns then 4 at 1100 ns give one change point at the fifth release
    // (E-divisive, 4 + 4 points); the report charts it with the change marked, the configuration's name
    // escaped, and a configuration absent from a release leaves a gap.
    void trendReport() {
        ReleaseTrend trend;
        std::vector<HistoryEntry> entries;
        for (int r = 0; r < 8; ++r) {
            ReleaseSummary s;
            ConfigReleaseSummary c;
            c.config = "<b>&x";
            c.medianStepNs = r < 4 ? 1000 : 1100;
            c.hasCi = true;
            c.ciLoNs = c.medianStepNs - 10;
            c.ciHiNs = c.medianStepNs + 10;
            c.throughput = 1e9 / static_cast<double>(c.medianStepNs);
            c.throughputUnit = "steps/s";
            s.configs.push_back(c);
            if (r == 7) {
                c.config = "Late";
                s.configs.push_back(c);
            }
            const std::string name = "26.0" + std::to_string(r + 1);
            trend.addRelease(name, s);
            entries.push_back({name, "", "", "", "", "", "", "s.cnpdb", "summaries/" + name + ".json"});
        }
        const auto series = trend.series();
        QCOMPARE(series.size(), std::size_t{6}); // 2 configurations x 3 metrics
        QCOMPARE(series[0].metric, std::string("step_time"));
        QCOMPARE(series[0].changes.size(), std::size_t{1});
        QCOMPARE(series[0].changes[0].index, std::size_t{4});
        QCOMPARE(series[0].changes[0].meanAfter / series[0].changes[0].meanBefore, 1.1);
        QCOMPARE(series[1].metric, std::string("throughput"));
        QCOMPARE(series[1].changes.size(), std::size_t{1});
        QVERIFY(series[2].changes.empty()); // no MFU: no points
        QCOMPARE(series[3].config, std::string("Late"));
        QVERIFY(!series[3].points[0].present && series[3].points[7].present);
        const std::string html = trendReportHtml(entries, series, "History");
        QVERIFY(html.find("<b>&x") == std::string::npos);
        QVERIFY(html.find("&lt;b&gt;&amp;x") != std::string::npos);
        auto count = [&](const std::string& what) {
            std::size_t n = 0;
            for (auto at = html.find(what); at != std::string::npos; at = html.find(what, at + 1))
                ++n;
            return n;
        };
        QCOMPARE(count("<svg"), std::size_t{4}); // step time and throughput of both; no MFU charts
        QCOMPARE(count("class=\"change-point\""), std::size_t{2});
        QCOMPARE(count("class=\"ci\""), std::size_t{8 + 8 + 1 + 1});
        QVERIFY(html.find("change 1.10×") != std::string::npos);
    }

    // More steps in one run than a summary keeps is refused (bounded memory on read).
    void summaryTooManySteps() {
        ReleaseSummary s = sampleSummary();
        s.configs.resize(1);
        s.configs[0].stepTimesByRun = {std::vector<Ns>(kMaxSummaryStepsPerRun + 1, 5)};
        s.configs[0].categories.clear();
        s.configs[0].categorySteps.clear();
        QVERIFY_THROWS_EXCEPTION(InputError, releaseSummaryFromJson(releaseSummaryToJson(s), "s.json"));
    }
};

QTEST_APPLESS_MAIN(TestHistory)
#include "tst_history.moc"
