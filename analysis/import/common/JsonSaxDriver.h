#pragma once
// Runs RapidJSON's SAX reader over a ByteSource and turns its failures into one clear InputError.
// Flags: iterative (the call stack stays flat however deep the nesting - memory grows instead, a few
// bytes per open level), numbers handed over as text (exact, see NumberText.h), NaN/Infinity
// accepted as tokens so that a stray NaN costs one event rather than the whole file.
// The handler may throw InputError itself (e.g. "not a trace"); those propagate unchanged.
#include "core/InputError.h"
#include "import/common/ByteSource.h"
#include "import/common/JsonByteStream.h"

#include "core/RapidJson.h"

#include <string>

namespace cnp {

inline constexpr unsigned kJsonSaxFlags =
    rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseNanAndInfFlag;

// Parses the whole content of `stream` (reading `source`) into `handler`; a UTF-8 byte order mark
// is skipped. O(content size); memory: one chunk plus RapidJSON's stack (the longest string or key,
// the nesting depth).
template <typename Handler> void parseJsonSax(ByteSource& source, JsonByteStream& stream, Handler& handler) {
    if (stream.Peek() == '\xEF') {
        stream.Take();
        if (stream.Peek() == '\xBB')
            stream.Take();
        if (stream.Peek() == '\xBF')
            stream.Take();
    }
    rapidjson::Reader reader;
    const rapidjson::ParseResult ok = reader.Parse<kJsonSaxFlags>(stream, handler);
    if (ok)
        return;
    const auto offset = static_cast<std::int64_t>(ok.Offset());
    const bool atEnd = stream.Peek() == '\0' && offset >= source.contentBytesRead();
    const std::string where = source.isGzip() ? " (offset in the decompressed JSON)" : "";
    if (ok.Code() == rapidjson::kParseErrorDocumentEmpty)
        throw InputError(source.path(),
                         source.contentBytesRead() == 0 ? "empty file" : "no JSON value (only whitespace)",
                         0);
    if (ok.Code() == rapidjson::kParseErrorTermination)
        throw InputError(source.path(), "parsing stopped by the importer" + where, offset);
    if (atEnd)
        throw InputError(source.path(),
                         std::string("truncated JSON: the file ends in the middle of the document (") +
                             rapidjson::GetParseError_En(ok.Code()) + ")" + where,
                         offset);
    throw InputError(source.path(),
                     std::string("not valid JSON: ") + rapidjson::GetParseError_En(ok.Code()) + where,
                     offset);
}

} // namespace cnp
