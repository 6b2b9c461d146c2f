#include "store/StudyFolder.h"

#include "core/BoundedJson.h"
#include "core/InputError.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cnp {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxManifestBytes = std::uintmax_t{64} * 1024;
constexpr int kFormatVersion = 1;

// The manifest file of `path`: the folder's, or `path` itself when it names the manifest.
fs::path manifestOf(const std::string& path) {
    const fs::path p(path);
    return p.filename() == StudyFolder::kManifestName ? p : p / StudyFolder::kManifestName;
}

std::string readManifest(const fs::path& manifest) {
    struct stat st {};
    if (::stat(manifest.c_str(), &st) != 0)
        throw InputError(manifest.string(),
                         std::string("not a study: cannot read its manifest: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw InputError(manifest.string(), "not a study: its manifest is not a regular file");
    if (static_cast<std::uintmax_t>(st.st_size) > kMaxManifestBytes)
        throw InputError(manifest.string(), "not a study: its manifest is larger than 64 KiB");
    std::ifstream in(manifest, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof())
        throw InputError(manifest.string(), "not a study: cannot read its manifest");
    return text.str();
}

} // namespace

bool StudyFolder::isStudyPath(const std::string& path) {
    std::error_code ec;
    const fs::path p(path);
    if (p.filename() == kManifestName)
        return fs::is_regular_file(p, ec);
    if (fs::is_directory(p, ec))
        return fs::exists(p / kManifestName, ec);
    std::string name = p.filename().string();
    if (name.empty()) // "study.cnpstudy/"
        name = p.parent_path().filename().string();
    return name.size() > 9 && name.ends_with(".cnpstudy") && !fs::exists(p, ec);
}

StudyFolder StudyFolder::open(const std::string& path) {
    const fs::path manifest = manifestOf(path);
    const std::string text = readManifest(manifest);
    rapidjson::Document doc;
    const JsonParseOutcome parsed = parseBoundedJson(text, doc);
    if (!parsed.ok)
        throw InputError(manifest.string(), "not a study: its manifest is not JSON: " + parsed.error,
                         static_cast<std::int64_t>(parsed.offset));
    auto refuse = [&](const std::string& cause) {
        throw InputError(manifest.string(), "not a study: " + cause);
    };
    if (!doc.IsObject())
        refuse("its manifest is not a JSON object");
    // HasMember then operator[]: RapidJSON's member iterators compare ambiguously under C++20 (clang).
    auto member = [&](const char* key) -> const rapidjson::Value* {
        return doc.HasMember(key) ? &doc[key] : nullptr;
    };
    const rapidjson::Value* format = member("format");
    if (!format || !format->IsString() ||
        std::string_view(format->GetString(), format->GetStringLength()) != "cnp-study")
        refuse("its manifest's \"format\" is not \"cnp-study\"");
    const rapidjson::Value* version = member("version");
    if (!version || !version->IsInt())
        refuse("its manifest has no integer \"version\"");
    if (version->GetInt() > kFormatVersion)
        refuse("study format version " + std::to_string(version->GetInt()) +
               " is newer than this program's (" + std::to_string(kFormatVersion) + ")");
    if (version->GetInt() < 1)
        refuse("unknown study format version " + std::to_string(version->GetInt()));
    const rapidjson::Value* shards = member("shards");
    if (!shards || !shards->IsInt() || shards->GetInt() < 1 || shards->GetInt() > kMaxShards)
        refuse("its manifest's \"shards\" is not a whole number from 1 to " + std::to_string(kMaxShards));
    return StudyFolder(manifest.parent_path().empty() ? fs::path(".") : manifest.parent_path(),
                       shards->GetInt());
}

StudyFolder StudyFolder::create(const std::string& path, int shards) {
    if (shards < 1 || shards > kMaxShards)
        throw InputError(path, "a study has 1 to " + std::to_string(kMaxShards) + " shards, not " +
                                   std::to_string(shards));
    const fs::path folder(path);
    if (::mkdir(folder.c_str(), 0777) != 0)
        throw InputError(path, std::string("cannot create study folder: ") + std::strerror(errno));
    const fs::path manifest = folder / kManifestName;
    const fs::path partial = folder / (std::string(kManifestName) + ".partial");
    {
        std::ofstream out(partial, std::ios::binary | std::ios::trunc);
        out << "{\"format\": \"cnp-study\", \"version\": " << kFormatVersion << ", \"shards\": " << shards
            << "}\n";
        out.flush();
        if (!out)
            throw InputError(partial.string(), "cannot write the study manifest");
    }
    std::error_code ec;
    fs::rename(partial, manifest, ec);
    if (ec)
        throw InputError(manifest.string(), "cannot write the study manifest: " + ec.message());
    return StudyFolder(folder, shards);
}

std::string StudyFolder::indexPath() const {
    return (folder_ / kIndexName).string();
}

std::string StudyFolder::shardPath(int k) const {
    char name[32];
    std::snprintf(name, sizeof name, "shard-%d.cnpdb", k);
    return (folder_ / name).string();
}

} // namespace cnp
