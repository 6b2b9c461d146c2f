#include "import/kineto/KinetoImporter.h"

#include "import/common/ByteSource.h"
#include "import/common/JsonSaxDriver.h"
#include "import/kineto/KinetoTraceParser.h"

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
std::unique_ptr<Importer> makeKinetoImporter() {
    return std::make_unique<KinetoImporter>();
}
} // namespace cnp
