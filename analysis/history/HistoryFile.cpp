#include "history/HistoryFile.h"

#include "core/BoundedFile.h"
#include "core/BoundedJson.h"
#include "core/InputError.h"

#include <fstream>

namespace cnp {

namespace fs = std::filesystem;

std::string HistoryFile::read(const std::string& path, std::size_t maxBytes, const char* what) {
    return readBoundedFile(path, maxBytes, what);
}

void HistoryFile::parse(const std::string& text, const std::string& path, const char* what,
                        const char* format, int version, rapidjson::Document& doc) {
    const std::string kind = std::string("not a ") + what + ": ";
    const JsonParseOutcome parsed = parseBoundedJson(text, doc);
    if (!parsed.ok)
        throw InputError(path, kind + "not JSON: " + parsed.error, static_cast<std::int64_t>(parsed.offset));
    if (!doc.IsObject())
        throw InputError(path, kind + "not a JSON object");
    if (!doc.HasMember("format") || !doc["format"].IsString() ||
        std::string(doc["format"].GetString()) != format)
        throw InputError(path, kind + "\"format\" is not \"" + format + "\"");
    if (!doc.HasMember("version") || !doc["version"].IsInt() || doc["version"].GetInt() != version)
        throw InputError(path, std::string("unsupported ") + what + " version (this program reads version " +
                                   std::to_string(version) + ")");
}

void HistoryFile::writeAtomically(const fs::path& target, const std::string& text, const char* what) {
    std::error_code ec;
    if (target.has_parent_path()) {
        fs::create_directories(target.parent_path(), ec);
        if (ec)
            throw InputError(target.parent_path().string(), "cannot create the folder: " + ec.message());
    }
    const fs::path tmp = target.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out)
            throw InputError(tmp.string(), std::string("cannot write the ") + what);
    }
    fs::rename(tmp, target, ec);
    if (ec) {
        const std::string cause = ec.message();
        fs::remove(tmp, ec);
        throw InputError(target.string(), std::string("cannot replace the ") + what + ": " + cause);
    }
}

} // namespace cnp
