#include "report/ReportData.h"

#include "core/InputError.h"
#include "export/CsvWriter.h"
#include "export/OutputFolder.h"

#include "core/RapidJson.h"

#include <array>
#include <cmath>
#include <filesystem>
#include <set>

namespace cnp {

namespace {

// Integral values (ns, counts) are written as integers, exactly; others in shortest round-trip form.
bool integral(double v) {
    return std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15;
}

void csvValue(CsvWriter& w, double v) {
    if (!std::isfinite(v))
        w.empty();
    else if (integral(v))
        w.field(static_cast<std::int64_t>(v));
    else
        w.field(v);
}

void writeCsvTable(const report::Table& t, const std::string& path) {
    OutputFile f(path);
    CsvWriter w(f);
    for (const auto& col : t.columns)
        for (const auto& k : col.keys)
            w.field(k);
    w.endRow();
    for (const auto& row : t.rows) {
        for (std::size_t i = 0; i < t.columns.size(); ++i) {
            const auto& col = t.columns[i];
            if (col.kind != report::ColumnKind::Number) {
                w.field(row[i].text);
                continue;
            }
            for (std::size_t k = 0; k < col.keys.size(); ++k)
                csvValue(w, k < row[i].values.size() ? row[i].values[k] : std::nan(""));
        }
        w.endRow();
    }
    f.commit();
}

using Json = rapidjson::PrettyWriter<OutputFile>;

void jsonString(Json& j, const std::string& s) {
    j.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
}

void jsonValue(Json& j, double v) {
    if (!std::isfinite(v))
        j.Null();
    else if (integral(v))
        j.Int64(static_cast<std::int64_t>(v));
    else
        j.Double(v);
}

void jsonTable(Json& j, const report::Table& t) {
    j.StartObject();
    j.Key("id");
    jsonString(j, t.id);
    j.Key("columns");
    j.StartArray();
    for (const auto& col : t.columns) {
        j.StartObject();
        j.Key("title");
        jsonString(j, col.title);
        j.Key("keys");
        j.StartArray();
        for (const auto& k : col.keys)
            jsonString(j, k);
        j.EndArray();
        j.EndObject();
    }
    j.EndArray();
    j.Key("rows");
    j.StartArray();
    for (const auto& row : t.rows) {
        j.StartObject();
        for (std::size_t i = 0; i < t.columns.size(); ++i) {
            const auto& col = t.columns[i];
            for (std::size_t k = 0; k < col.keys.size(); ++k) {
                j.Key(col.keys[k].c_str(), static_cast<rapidjson::SizeType>(col.keys[k].size()));
                if (col.kind != report::ColumnKind::Number)
                    jsonString(j, row[i].text);
                else
                    jsonValue(j, k < row[i].values.size() ? row[i].values[k] : std::nan(""));
            }
        }
        j.EndObject();
    }
    j.EndArray();
    j.EndObject();
}

void jsonNote(Json& j, const report::Note& n) {
    j.StartObject();
    j.Key("severity");
    j.String(toString(n.severity));
    j.Key("title");
    jsonString(j, n.title);
    j.Key("explanation");
    jsonString(j, n.explanation);
    j.Key("evidence");
    j.StartArray();
    for (const auto& e : n.evidence)
        jsonString(j, e);
    j.EndArray();
    j.EndObject();
}

void jsonSection(Json& j, const report::Section& s) {
    j.StartObject();
    j.Key("id");
    j.String(std::string(report::sectionId(s.id)).c_str());
    j.Key("title");
    jsonString(j, s.title);
    j.Key("tables");
    j.StartArray();
    for (const auto& b : s.blocks)
        if (const auto* t = std::get_if<report::Table>(&b))
            jsonTable(j, *t);
    j.EndArray();
    j.Key("notes");
    j.StartArray();
    for (const auto& b : s.blocks)
        if (const auto* l = std::get_if<report::NoteList>(&b))
            for (const auto& n : l->notes)
                jsonNote(j, n);
    j.EndArray();
    j.EndObject();
}

} // namespace

std::string report::csvFileName(const std::string& tableId) {
    std::string s;
    for (char ch : tableId) {
        const auto c = static_cast<unsigned char>(ch);
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          c == '-' || c == '_' || c == '.' || c == '+' || c >= 0x80;
        s += keep ? ch : '_';
    }
    return s + ".csv";
}

void writeCsvBundle(const report::ReportModel& m, const std::string& dir) {
    OutputFolder folder(dir);                      // appears only when every file is written (issue 33.6)
    std::vector<std::array<std::string, 3>> index; // section, table, file
    std::set<std::string> used{"tables.csv"};
    for (const auto& s : m.sections)
        for (const auto& b : s.blocks) {
            const auto* t = std::get_if<report::Table>(&b);
            if (!t)
                continue;
            // Distinct ids can sanitise to the same name ("a b" and "a_b"): number the later ones.
            std::string name = report::csvFileName(t->id);
            for (int n = 2; used.count(name); ++n)
                name = report::csvFileName(t->id + "-" + std::to_string(n));
            used.insert(name);
            folder.write(name, [&](const std::string& at) { writeCsvTable(*t, at); });
            index.push_back({std::string(report::sectionId(s.id)), t->id, name});
        }
    folder.write("tables.csv", [&](const std::string& at) {
        OutputFile f(at);
        CsvWriter w(f);
        w.field("section").field("table").field("file");
        w.endRow();
        for (const auto& row : index) {
            w.field(row[0]).field(row[1]).field(row[2]);
            w.endRow();
        }
        f.commit();
    });
    folder.commit();
}

void writeJsonReport(const report::ReportModel& m, OutputFile& out) {
    Json j(out);
    j.StartObject();
    j.Key("title");
    jsonString(j, m.title);
    j.Key("generated");
    if (m.generated.empty())
        j.Null();
    else
        jsonString(j, m.generated);
    j.Key("workspace");
    jsonString(j, m.workspace);
    j.Key("plan");
    jsonString(j, m.plan);
    j.Key("baseline");
    jsonString(j, m.baseline);
    j.Key("configurations");
    j.StartArray();
    for (const auto& c : m.configurations)
        jsonString(j, c);
    j.EndArray();
    j.Key("sections");
    j.StartArray();
    for (const auto& s : m.sections)
        jsonSection(j, s);
    j.EndArray();
    j.EndObject();
    out.Put('\n');
}

} // namespace cnp
