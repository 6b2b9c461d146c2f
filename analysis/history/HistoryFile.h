#pragma once
// What the history's two file kinds (the manifest, history/HistoryManifest.h; a release summary,
// history/ReleaseSummaryJson.h) share, written once: reading an untrusted document — bounded size
// (core/BoundedFile), bounded nesting (core/BoundedJson), a JSON object whose "format" and "version" are
// the expected ones — and writing one atomically (a temporary file beside it, renamed into place, so a
// failed write leaves the previous file as it was). Every error is an InputError naming the file and the
// cause, worded "not a WHAT: ...".
#include "core/RapidJson.h"

#include <cstddef>
#include <filesystem>
#include <string>

namespace cnp {

class HistoryFile {
public:
    // Reads `path` whole (a regular file of at most maxBytes). Throws InputError.
    static std::string read(const std::string& path, std::size_t maxBytes, const char* what);
    // Parses `text` into `doc` and checks it is an object with "format" == format and "version" ==
    // version. `what` names the kind in errors ("history manifest"). Throws InputError naming `path`.
    static void parse(const std::string& text, const std::string& path, const char* what, const char* format,
                      int version, rapidjson::Document& doc);
    // Writes `text` to `target` atomically, creating its folder. Throws InputError naming the file.
    static void writeAtomically(const std::filesystem::path& target, const std::string& text,
                                const char* what);
};

} // namespace cnp
