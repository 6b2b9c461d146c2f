// The store's layer rule (docs/architecture.md): SQL text and the workspace's SQLite connection live in
// analysis/store/ only. The one exception is analysis/import/nsys/, which reads a foreign Nsight Systems
// SQLite export, not a workspace. This test scans every C++ file under analysis/ and app/ and fails naming
// each file and line that holds SQL in a string literal, calls db() or names the SQLite API outside them.
// Also: RapidJSON is included only through analysis/core/RapidJson.h, which compiles it without the one
// UBSan check its parser trips on every parse (docs/testing.md "Findings"); a direct include elsewhere
// makes every sanitized parse through that file abort.
// And the layers of analysis/ include only what lies below them (docs/architecture.md, "Layers"): core/
// nothing but itself, metrics/ core/ only (pure: no store/, no SQLite), store/ core/ only, requests/ (the
// one place that reads through the store and computes through the metrics) both.
#include "TestPaths.h"
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Where the rule does not apply, relative to the source root.
const char* const kAllowedFolders[] = {"analysis/store/", "analysis/import/nsys/"};

struct Finding {
    int line = 0;
    std::string what;
};

// SQL statements as they start in a literal (upper case, as the code base writes SQL): UI text such as
// "Select a run" or "update" does not match.
const std::regex& sqlPattern() {
    static const std::regex re(
        R"(\b(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|)"
        R"(CREATE\s+(TABLE|INDEX|VIEW|TRIGGER)\b|ALTER\s+TABLE\b|DROP\s+(TABLE|INDEX)\b|)"
        R"(PRAGMA\s|BEGIN\s+IMMEDIATE\b))");
    return re;
}

// Code (outside comments and literals) that reaches the SQLite connection.
const std::regex& connectionPattern() {
    static const std::regex re(R"((\.|->)db\(\)|\bsqlite3\w*|\bStatement\b|\bexecSql\b|\bqueryInt\b)");
    return re;
}

// Splits C++ source into code and string literals (plain, prefixed and raw), dropping comments and
// character literals, and reports each literal with SQL and each code line reaching the connection.
// Not a full lexer: enough for the project's sources (no trigraphs, no line splices inside tokens). O(size).
std::vector<Finding> scan(const std::string& src) {
    std::vector<Finding> out;
    int line = 1;
    std::string code; // the current line's code
    auto flushCode = [&]() {
        if (std::regex_search(code, connectionPattern()))
            out.push_back({line, "uses the SQLite connection: " + code});
        code.clear();
    };
    auto literal = [&](const std::string& text, int at) {
        if (std::regex_search(text, sqlPattern()))
            out.push_back({at, "SQL text: \"" + text + "\""});
    };
    const std::size_t n = src.size();
    for (std::size_t i = 0; i < n;) {
        const char c = src[i];
        if (c == '\n') {
            flushCode();
            ++line;
            ++i;
        } else if (c == '/' && i + 1 < n && src[i + 1] == '/') {
            while (i < n && src[i] != '\n')
                ++i;
        } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
            i += 2;
            while (i + 1 < n && !(src[i] == '*' && src[i + 1] == '/')) {
                if (src[i] == '\n') {
                    flushCode();
                    ++line;
                }
                ++i;
            }
            i += 2;
        } else if (c == 'R' && i + 1 < n && src[i + 1] == '"') {
            const std::size_t open = src.find('(', i + 2);
            if (open == std::string::npos)
                break;
            const std::string close = ")" + src.substr(i + 2, open - i - 2) + "\"";
            const std::size_t end = src.find(close, open + 1);
            const std::string text = src.substr(open + 1, (end == std::string::npos ? n : end) - open - 1);
            literal(text, line);
            for (char t : text)
                if (t == '\n') {
                    flushCode();
                    ++line;
                }
            i = end == std::string::npos ? n : end + close.size();
        } else if (c == '"' || c == '\'') {
            std::string text;
            ++i;
            while (i < n && src[i] != c && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < n)
                    text += src[i++];
                text += src[i++];
            }
            ++i;
            if (c == '"')
                literal(text, line);
        } else {
            code += c;
            ++i;
        }
    }
    flushCode();
    return out;
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

bool exempt(const std::string& rel) {
    for (const char* f : kAllowedFolders)
        if (startsWith(rel, f))
            return true;
    return false;
}

// Lines (1-based) that include a RapidJSON header directly: `#include <rapidjson/...>` or "rapidjson/...".
std::vector<int> rapidJsonIncludes(const std::string& src) {
    // Not a raw literal: moc 6.4 misreads a quote inside one and then finds no Q_OBJECT in this file.
    static const std::regex re("^\\s*#\\s*include\\s*[<\"]rapidjson/");
    std::vector<int> lines;
    std::istringstream in(src);
    std::string l;
    for (int n = 1; std::getline(in, l); ++n)
        if (std::regex_search(l, re))
            lines.push_back(n);
    return lines;
}

// The analysis/ folders a project include names ("metrics/Ablation.h" -> "metrics"), with its line.
std::vector<std::pair<int, std::string>> projectIncludes(const std::string& src) {
    static const std::regex re("^\\s*#\\s*include\\s*\"([a-z]+)/");
    std::vector<std::pair<int, std::string>> out;
    std::istringstream in(src);
    std::string l;
    std::smatch m;
    for (int n = 1; std::getline(in, l); ++n)
        if (std::regex_search(l, m, re))
            out.emplace_back(n, m[1].str());
    return out;
}

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace

class TestLayering : public QObject {
    Q_OBJECT
private slots:
    void scannerFindsSql_data();
    void scannerFindsSql();
    void noSqlOutsideTheStore();
    void exceptionsAreDocumented();
    void rapidJsonIncludesFound_data();
    void rapidJsonIncludesFound();
    void rapidJsonOnlyThroughCore();
    void layerIncludesOnlyBelow_data();
    void layerIncludesOnlyBelow();
};

void TestLayering::scannerFindsSql_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("findings");
    QTest::addColumn<int>("firstLine");
    QTest::newRow("query") << R"(Statement st(ws.db(), "SELECT 1");)" << 2 << 1; // the code and the literal
    QTest::newRow("db pointer") << "sqlite3* db = ws->db();\nint x = 0;" << 1 << 1;
    QTest::newRow("comment") << "// SELECT id FROM runs, ws.db(), sqlite3_step\nint x;" << 0 << 0;
    QTest::newRow("block comment") << "/* DELETE FROM runs\n execSql(db) */ int x;" << 0 << 0;
    QTest::newRow("ui text") << R"(tr("Select a run"); tr("update the view"); "UPDATE available";)" << 0 << 0;
    QTest::newRow("raw literal") << "int a;\nauto s = R\"x(\nDELETE FROM runs)x\";" << 1 << 2;
    QTest::newRow("insert or replace") << "\n\n\"INSERT OR REPLACE INTO t VALUES(?)\"" << 1 << 3;
    QTest::newRow("update") << R"("UPDATE kernels SET category_id = ?")" << 1 << 1;
    QTest::newRow("escaped quote") << R"("say \"SELECT\" " + x;)" << 0 << 0;
    QTest::newRow("char literal") << "char q = '\"'; int db = 0;" << 0 << 0;
    QTest::newRow("transaction") << "Transaction tx = writeTransaction(ws); auto r = readSnapshot(ws);" << 0
                                 << 0;
}

void TestLayering::scannerFindsSql() {
    QFETCH(QString, source);
    QFETCH(int, findings);
    QFETCH(int, firstLine);
    const auto found = scan(source.toStdString());
    QCOMPARE(int(found.size()), findings);
    if (findings > 0)
        QCOMPARE(found.front().line, firstLine);
}

void TestLayering::noSqlOutsideTheStore() {
    const fs::path root(testpaths::sourceDir().toStdString());
    QStringList failures;
    int files = 0;
    for (const char* top : {"analysis", "app"}) {
        for (const auto& e : fs::recursive_directory_iterator(root / top)) {
            const std::string ext = e.path().extension().string();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h"))
                continue;
            const std::string rel = fs::relative(e.path(), root).generic_string();
            if (exempt(rel))
                continue;
            ++files;
            for (const Finding& f : scan(readFile(e.path())))
                failures << QString::fromStdString(rel + ":" + std::to_string(f.line) + ": " + f.what);
        }
    }
    QVERIFY2(files > 100,
             qPrintable(QString("only %1 files scanned under %2").arg(files).arg(testpaths::sourceDir())));
    QVERIFY2(failures.isEmpty(), qPrintable("SQL outside analysis/store/:\n" + failures.join('\n')));
}

// docs/architecture.md names the nsys importer as the one exception to the rule.
void TestLayering::exceptionsAreDocumented() {
    const std::string doc = readFile(fs::path(testpaths::sourceDir().toStdString()) / "docs/architecture.md");
    QVERIFY(doc.find("SQL only in `store/`") != std::string::npos);
    QVERIFY(doc.find("`import/nsys/`") != std::string::npos);
    QVERIFY(doc.find("tst_layering") != std::string::npos);
}

void TestLayering::rapidJsonIncludesFound_data() {
    QTest::addColumn<QString>("src");
    QTest::addColumn<int>("firstLine"); // 0 = none
    QTest::newRow("angle") << "#include <QString>\n#include <rapidjson/reader.h>\n" << 2;
    QTest::newRow("quoted, spaced") << "  # include \"rapidjson/document.h\"\n" << 1;
    QTest::newRow("the wrapper") << "#include \"core/RapidJson.h\"\n" << 0;
    QTest::newRow("in a comment") << "// see <rapidjson/reader.h>\n" << 0;
}

void TestLayering::rapidJsonIncludesFound() {
    QFETCH(QString, src);
    QFETCH(int, firstLine);
    const auto lines = rapidJsonIncludes(src.toStdString());
    QCOMPARE(lines.empty() ? 0 : lines.front(), firstLine);
}

// Every source the sanitizer build compiles (analysis/, app/, collectors/, tests/); bench/ is not built
// there. The wrapper itself is the one exception.
void TestLayering::rapidJsonOnlyThroughCore() {
    const fs::path root(testpaths::sourceDir().toStdString());
    QStringList failures;
    int files = 0;
    for (const char* top : {"analysis", "app", "collectors", "tests"}) {
        for (const auto& e : fs::recursive_directory_iterator(root / top)) {
            const std::string ext = e.path().extension().string();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h"))
                continue;
            const std::string rel = fs::relative(e.path(), root).generic_string();
            if (rel == "analysis/core/RapidJson.h")
                continue;
            ++files;
            for (int line : rapidJsonIncludes(readFile(e.path())))
                failures << QString::fromStdString(rel + ":" + std::to_string(line));
        }
    }
    QVERIFY(files > 200);
    QVERIFY2(failures.isEmpty(),
             qPrintable("RapidJSON included directly (use core/RapidJson.h):\n" + failures.join('\n')));
}

void TestLayering::layerIncludesOnlyBelow_data() {
    QTest::addColumn<QString>("layer");
    QTest::addColumn<QStringList>("allowed"); // besides the layer itself
    QTest::newRow("core") << "core" << QStringList{};
    QTest::newRow("metrics") << "metrics" << QStringList{"core"};
    QTest::newRow("store") << "store" << QStringList{"core"};
    QTest::newRow("plan") << "plan" << QStringList{"core"};
    QTest::newRow("requests") << "requests" << QStringList{"core", "metrics", "store"};
    QTest::newRow("import") << "import" << QStringList{"core", "store"};
    QTest::newRow("timeline") << "timeline" << QStringList{"core", "metrics", "store"};
    QTest::newRow("synth") << "synth" << QStringList{"core", "store"};
    QTest::newRow("export") << "export" << QStringList{"core", "metrics", "requests", "store"};
    QTest::newRow("report") << "report"
                            << QStringList{"core", "export", "history", "metrics", "requests", "store"};
    QTest::newRow("ingest") << "ingest"
                            << QStringList{"core", "import", "metrics", "requests", "store", "timeline"};
    QTest::newRow("launch") << "launch" << QStringList{"core", "ingest", "plan", "store"};
    QTest::newRow("history") << "history" << QStringList{"core", "metrics", "requests", "store"};
}

void TestLayering::layerIncludesOnlyBelow() {
    QFETCH(QString, layer);
    QFETCH(QStringList, allowed);
    allowed << layer;
    const fs::path dir = fs::path(testpaths::sourceDir().toStdString()) / "analysis" / layer.toStdString();
    QVERIFY2(fs::is_directory(dir), qPrintable(QString::fromStdString(dir.string())));
    QStringList failures;
    int files = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const std::string ext = e.path().extension().string();
        if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h"))
            continue;
        ++files;
        for (const auto& [line, folder] : projectIncludes(readFile(e.path())))
            if (!allowed.contains(QString::fromStdString(folder)))
                failures << QString::fromStdString(e.path().filename().string() + ":" + std::to_string(line) +
                                                   " includes " + folder + "/");
    }
    QVERIFY(files > 0);
    QVERIFY2(failures.isEmpty(),
             qPrintable(layer + "/ reaches a layer it must not:\n" + failures.join('\n')));
}

QTEST_GUILESS_MAIN(TestLayering)
#include "tst_layering.moc"
