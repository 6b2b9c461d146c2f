#include "history/HistoryManifest.h"

#include "core/InputError.h"
#include "history/HistoryFile.h"

#include <algorithm>
#include <cstdio>

namespace cnp {

namespace fs = std::filesystem;

namespace {

constexpr int kFormatVersion = 1;
const char* const kTextFields[] = {"date", "commit", "driver", "cuda", "nccl", "image"};

fs::path manifestOf(const std::string& path) {
    const fs::path p(path);
    return p.filename() == HistoryManifest::kFileName ? p : p / HistoryManifest::kFileName;
}

bool hasControl(const std::string& s) {
    return std::any_of(s.begin(), s.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// A relative path that stays inside the folder after lexical normalisation.
bool staysInside(const fs::path& rel) {
    const fs::path n = rel.lexically_normal();
    return !n.empty() && *n.begin() != ".." && n != ".";
}

std::string summaryNameOf(const std::string& release) {
    return "summaries/" + release + ".json";
}

std::string textMember(const rapidjson::Value& v, const char* key, const std::string& where,
                       const fs::path& manifest, bool required) {
    if (!v.HasMember(key)) {
        if (required)
            throw InputError(manifest.string(), where + ": no \"" + key + "\"");
        return {};
    }
    const rapidjson::Value& m = v[key];
    if (!m.IsString())
        throw InputError(manifest.string(), where + ": \"" + key + "\" is not a string");
    std::string s(m.GetString(), m.GetStringLength());
    if (s.size() > HistoryManifest::kMaxFieldBytes)
        throw InputError(manifest.string(), where + ": \"" + key + "\" is longer than " +
                                                std::to_string(HistoryManifest::kMaxFieldBytes) + " bytes");
    if (hasControl(s))
        throw InputError(manifest.string(), where + ": \"" + key + "\" holds control characters");
    return s;
}

HistoryEntry entryOf(const rapidjson::Value& v, std::size_t index, const fs::path& manifest) {
    const std::string where = "entry " + std::to_string(index + 1);
    if (!v.IsObject())
        throw InputError(manifest.string(), where + " is not an object");
    HistoryEntry e;
    e.release = textMember(v, "release", where, manifest, true);
    if (!HistoryManifest::validReleaseName(e.release))
        throw InputError(manifest.string(),
                         where + ": release \"" + e.release +
                             "\" is not 1 to 64 of A-Z a-z 0-9 . _ + - (not starting with .)");
    const std::string named = where + " (" + e.release + ")";
    std::string* fields[] = {&e.date, &e.commit, &e.driver, &e.cuda, &e.nccl, &e.image};
    for (std::size_t i = 0; i < std::size(kTextFields); ++i)
        *fields[i] = textMember(v, kTextFields[i], named, manifest, false);
    e.study = textMember(v, "study", named, manifest, true);
    if (e.study.empty())
        throw InputError(manifest.string(), named + ": \"study\" is empty");
    const fs::path study(e.study);
    if (study.is_relative() && !staysInside(study))
        throw InputError(manifest.string(),
                         named + ": study \"" + e.study +
                             "\" leaves the history folder (write an absolute path to mean it)");
    e.summary = textMember(v, "summary", named, manifest, true);
    if (e.summary != summaryNameOf(e.release))
        throw InputError(manifest.string(), named + ": summary must be \"" + summaryNameOf(e.release) +
                                                "\", not \"" + e.summary + "\"");
    return e;
}

void writeString(rapidjson::PrettyWriter<rapidjson::StringBuffer>& w, const std::string& s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

} // namespace

bool HistoryManifest::validReleaseName(const std::string& r) {
    if (r.empty() || r.size() > kMaxReleaseBytes || r.front() == '.')
        return false;
    return std::all_of(r.begin(), r.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
               c == '_' || c == '+' || c == '-';
    });
}

HistoryManifest HistoryManifest::open(const std::string& path) {
    const fs::path manifest = manifestOf(path);
    const std::string text = HistoryFile::read(manifest.string(), kMaxManifestBytes, "history manifest");
    return fromJson(text, manifest);
}

bool HistoryManifest::isHistory(const std::string& path) {
    std::error_code ec;
    return !path.empty() && fs::is_regular_file(manifestOf(path), ec);
}

HistoryManifest HistoryManifest::openOrCreate(const std::string& folder) {
    std::error_code ec;
    if (fs::exists(manifestOf(folder), ec))
        return open(folder);
    const fs::path f(folder);
    return HistoryManifest(f.filename() == kFileName ? f.parent_path() : f);
}

HistoryManifest HistoryManifest::fromJson(const std::string& text, const fs::path& manifest) {
    HistoryManifest h(manifest.parent_path());
    rapidjson::Document doc;
    HistoryFile::parse(text, manifest.string(), "history manifest", "cnp-history", kFormatVersion, doc);
    if (!doc.HasMember("entries") || !doc["entries"].IsArray())
        throw InputError(manifest.string(), "history manifest: \"entries\" is not an array");
    const auto& arr = doc["entries"];
    if (arr.Size() > kMaxEntries)
        throw InputError(manifest.string(),
                         "history manifest: more than " + std::to_string(kMaxEntries) + " entries");
    for (rapidjson::SizeType i = 0; i < arr.Size(); ++i) {
        HistoryEntry e = entryOf(arr[i], i, manifest);
        if (h.entry(e.release))
            throw InputError(manifest.string(), "history manifest: release " + e.release + " appears twice");
        h.entries_.push_back(std::move(e));
    }
    return h;
}

std::string HistoryManifest::toJson() const {
    rapidjson::StringBuffer buf;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    w.StartObject();
    w.Key("format");
    w.String("cnp-history");
    w.Key("version");
    w.Int(kFormatVersion);
    w.Key("entries");
    w.StartArray();
    for (const auto& e : entries_) {
        w.StartObject();
        w.Key("release");
        writeString(w, e.release);
        const std::string* fields[] = {&e.date, &e.commit, &e.driver, &e.cuda, &e.nccl, &e.image};
        for (std::size_t i = 0; i < std::size(kTextFields); ++i) {
            w.Key(kTextFields[i]);
            writeString(w, *fields[i]);
        }
        w.Key("study");
        writeString(w, e.study);
        w.Key("summary");
        writeString(w, e.summary);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
    return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

const HistoryEntry* HistoryManifest::entry(const std::string& release) const {
    for (const auto& e : entries_)
        if (e.release == release)
            return &e;
    return nullptr;
}

fs::path HistoryManifest::studyPath(const HistoryEntry& e) const {
    const fs::path p(e.study);
    return p.is_absolute() ? p : (folder_ / p).lexically_normal();
}

fs::path HistoryManifest::summaryPath(const HistoryEntry& e) const {
    return folder_ / e.summary;
}

std::string HistoryManifest::storedStudyPath(const std::string& study) const {
    std::error_code ec;
    const fs::path abs = fs::absolute(study, ec).lexically_normal();
    const fs::path folder = fs::absolute(folder_, ec).lexically_normal();
    const fs::path rel = abs.lexically_relative(folder);
    if (!rel.empty() && staysInside(rel))
        return rel.generic_string();
    return abs.string();
}

void HistoryManifest::add(HistoryEntry e) {
    const fs::path manifest = manifestPath();
    if (!validReleaseName(e.release))
        throw InputError(manifest.string(),
                         "release \"" + e.release +
                             "\" is not 1 to 64 of A-Z a-z 0-9 . _ + - (not starting with .)");
    if (entry(e.release))
        throw InputError(manifest.string(), "release " + e.release + " is already in the history");
    if (entries_.size() >= kMaxEntries)
        throw InputError(manifest.string(),
                         "the history holds " + std::to_string(kMaxEntries) + " releases already");
    for (const std::string* f : {&e.date, &e.commit, &e.driver, &e.cuda, &e.nccl, &e.image, &e.study})
        if (f->size() > kMaxFieldBytes || hasControl(*f))
            throw InputError(manifest.string(), "release " + e.release + ": a field is longer than " +
                                                    std::to_string(kMaxFieldBytes) +
                                                    " bytes or holds control characters");
    e.summary = summaryNameOf(e.release);
    entries_.push_back(std::move(e));
}

void HistoryManifest::save() const {
    std::error_code ec;
    fs::create_directories(folder_ / "summaries", ec);
    if (ec)
        throw InputError(folder_.string(), "cannot create the history folder: " + ec.message());
    HistoryFile::writeAtomically(manifestPath(), toJson(), "history manifest");
}

} // namespace cnp
