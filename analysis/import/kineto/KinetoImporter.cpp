#include "import/kineto/KinetoImporter.h"

#include "import/common/ByteSource.h"
#include "import/common/JsonSaxDriver.h"
#include "import/kineto/KinetoTraceParser.h"

#include <charconv>

namespace cnp {

namespace {
bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

bool KinetoImporter::canRead(const std::string& path, std::string_view head) const {
    if (endsWith(path, ".json") || endsWith(path, ".json.gz"))
        return true;
    std::size_t i = 0;
    if (head.substr(0, 3) == "\xEF\xBB\xBF") // UTF-8 byte order mark
        i = 3;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
        ++i;
    return i < head.size() && (head[i] == '{' || head[i] == '[');
}

TraceData KinetoImporter::read(const std::string& path, const ProgressSink& sink) const {
    return readKinetoTrace(path, sink);
}

TraceData readKinetoTrace(const std::string& path, const ProgressSink& sink) {
    ByteSource source(path);
    if (source.fileSize() == 0)
        throw InputError(path, "empty file", 0);
    JsonByteStream stream(source);
    stream.onChunk = [&] {
        sink.report(static_cast<double>(source.fileBytesConsumed()) / static_cast<double>(source.fileSize()));
        sink.checkCancel();
    };
    KinetoTraceParser parser(path, [&stream] { return stream.Tell(); });
    parser.reserveFor(source.estimatedContentSize());
    parseJsonSax(source, stream, parser);
    sink.report(1.0);
    return parser.finish();
}

} // namespace cnp

namespace cnp {
std::optional<std::int32_t> KinetoImporter::rankHint(std::string_view head) const {
    const std::size_t info = head.find("\"distributedInfo\"");
    if (info == std::string_view::npos)
        return std::nullopt;
    const std::size_t close = head.find('}', info);
    if (close == std::string_view::npos)
        return std::nullopt;
    const std::string_view object = head.substr(info, close - info);
    const std::size_t key = object.find("\"rank\"");
    if (key == std::string_view::npos)
        return std::nullopt;
    std::size_t at = key + 6;
    while (at < object.size() && (object[at] == ' ' || object[at] == ':' || object[at] == '\n' ||
                                  object[at] == '\t' || object[at] == '\r'))
        ++at;
    std::int32_t rank = -1;
    if (std::from_chars(object.data() + at, object.data() + object.size(), rank).ec != std::errc() ||
        rank < 0)
        return std::nullopt;
    return rank;
}

std::unique_ptr<Importer> makeKinetoImporter() {
    return std::make_unique<KinetoImporter>();
}
} // namespace cnp
