// docs/schema.md cannot drift from the table descriptions (store/Tables.h): every described table has a
// section, every column of it is named there (in backticks, in a column table's first cell or in the
// heading; `grid_x/y/z` and `sync_memcpy_count/_ns` name each of their columns), every column a column
// table names exists, with the SQL type that table gives, and every lowercase section heading is a
// described table.
#include "TestPaths.h"
#include "store/Tables.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <map>
#include <set>

using namespace cnp;

namespace {

struct Section {
    QString heading;
    QStringList lines;
};

// Sections by their heading's first word ("## kernels", "### summary_rank — PK (run_id, rank)").
std::map<QString, Section> readSections() {
    QFile f(testpaths::sourceDir() + "/docs/schema.md");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    std::map<QString, Section> out;
    Section* current = nullptr;
    static const QRegularExpression heading("^#{2,3} (\\S+)");
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n')) {
        const auto m = heading.match(line);
        if (m.hasMatch()) {
            current = &out[m.captured(1)];
            current->heading = line;
        } else if (current) {
            current->lines << line;
        }
    }
    return out;
}

// "grid_x/y/z" -> grid_x, grid_y, grid_z; "sync_memcpy_count/_ns" -> sync_memcpy_count, sync_memcpy_ns.
QStringList expand(const QString& token) {
    const QStringList parts = token.split('/');
    QStringList out{parts.front()};
    for (int i = 1; i < parts.size(); ++i) {
        QString base = parts.front();
        const QString p = parts[i];
        const int cut = base.lastIndexOf('_');
        if (p.startsWith('_'))
            out << base.left(cut) + p;
        else
            out << base.left(cut + 1) + p;
    }
    return out;
}

QStringList identifiers(const QString& text) {
    static const QRegularExpression ident("[a-z][a-z0-9_]*(?:/_?[a-z0-9]+)*");
    QStringList out;
    for (auto it = ident.globalMatch(text); it.hasNext();)
        out << expand(it.next().captured(0));
    return out;
}

struct TableRow {
    QStringList names, types; // types empty when the table has no type column
};

struct SectionNames {
    std::set<QString> named;
    std::vector<TableRow> columnRows; // rows of "| column | ... |" tables
};

SectionNames namesOf(const Section& s) {
    SectionNames out;
    for (const auto& n : identifiers(s.heading))
        out.named.insert(n);
    static const QRegularExpression code("`([^`]*)`");
    bool columnTable = false, hasType = false;
    for (const QString& line : s.lines) {
        for (auto it = code.globalMatch(line); it.hasNext();)
            for (const auto& n : identifiers(it.next().captured(1)))
                out.named.insert(n);
        if (!line.startsWith('|')) {
            columnTable = false;
            continue;
        }
        const QStringList cells = line.split('|');
        if (cells.size() < 3)
            continue;
        const QString first = cells[1].trimmed();
        if (first == "column") {
            columnTable = true;
            hasType = cells.size() > 3 && cells[2].trimmed() == "type";
            continue;
        }
        if (!columnTable || first.startsWith("---"))
            continue;
        TableRow row;
        for (const QString& part : first.split(','))
            row.names << expand(part.trimmed());
        if (hasType)
            for (const QString& part : cells[2].split(','))
                row.types << part.trimmed().section(' ', 0, 0);
        for (const auto& n : row.names)
            out.named.insert(n);
        out.columnRows.push_back(row);
    }
    return out;
}

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<int>(s.size()));
}

} // namespace

class TestSchemaDoc : public QObject {
    Q_OBJECT

private slots:
    void everyColumnIsDocumented_data() {
        QTest::addColumn<QString>("table");
        for (const auto& t : schema::allTables())
            QTest::newRow(std::string(t.name).c_str()) << q(t.name);
    }
    void everyColumnIsDocumented() {
        QFETCH(QString, table);
        const auto sections = readSections();
        QVERIFY2(!sections.empty(), "docs/schema.md not found or empty");
        const auto it = sections.find(table);
        QVERIFY2(it != sections.end(), qPrintable("docs/schema.md has no section '## " + table + "'"));
        const SectionNames doc = namesOf(it->second);
        const schema::Table* t = schema::findTable(table.toStdString());
        QVERIFY(t);
        for (const auto& c : t->columns)
            QVERIFY2(doc.named.count(q(c.name)), qPrintable("docs/schema.md, section " + table + ": column " +
                                                            q(c.name) + " is not named"));
    }

    void documentedColumnsExistWithTheirType_data() { everyColumnIsDocumented_data(); }
    void documentedColumnsExistWithTheirType() {
        QFETCH(QString, table);
        const auto sections = readSections();
        const auto it = sections.find(table);
        QVERIFY(it != sections.end());
        const schema::Table* t = schema::findTable(table.toStdString());
        QVERIFY(t);
        for (const TableRow& row : namesOf(it->second).columnRows) {
            QVERIFY2(row.types.isEmpty() || row.types.size() == 1 || row.types.size() == row.names.size(),
                     qPrintable(table + ": " + row.names.join(",") + " has " + row.types.join(",")));
            for (int i = 0; i < row.names.size(); ++i) {
                const std::string name = row.names[i].toStdString();
                QVERIFY2(t->has(name), qPrintable("docs/schema.md names " + table + "." + row.names[i] +
                                                  ", which the table does not have"));
                if (row.types.isEmpty())
                    continue;
                const QString docType = row.types.size() == 1 ? row.types[0] : row.types[i];
                QCOMPARE(docType, q(schema::sqlTypeName(t->columns[t->indexOf(name)].type)));
            }
        }
    }

    void everyTableSectionIsATable() {
        static const QRegularExpression tableName("^[a-z][a-z0-9_]*$");
        const auto sections = readSections();
        QVERIFY(!sections.empty());
        int tables = 0;
        for (const auto& [name, s] : sections) {
            if (!tableName.match(name).hasMatch())
                continue;
            ++tables;
            QVERIFY2(schema::findTable(name.toStdString()),
                     qPrintable("docs/schema.md: '" + s.heading + "' is no described table"));
        }
        QCOMPARE(tables, static_cast<int>(schema::allTables().size()));
    }

    // The checker itself: the abbreviations it expands.
    void expandsAbbreviations() {
        QCOMPARE(expand("grid_x/y/z"), (QStringList{"grid_x", "grid_y", "grid_z"}));
        QCOMPARE(expand("sync_memcpy_count/_ns"), (QStringList{"sync_memcpy_count", "sync_memcpy_ns"}));
        QCOMPARE(identifiers("run_id, rank, step_index"), (QStringList{"run_id", "rank", "step_index"}));
    }
};

QTEST_GUILESS_MAIN(TestSchemaDoc)
#include "tst_schemadoc.moc"
