#include "import/cnpt/CnptImporter.h"

#include "core/InputError.h"
#include "import/cnpt/CnptConverter.h"
#include "import/common/ByteSource.h"

#include <charconv>
#include <cstring>

namespace cnp {

namespace {

using namespace cnpt;

// A file's content for CnptReader::fromStream, inflated as it is read when gzip; one pass per open.
class FileInput : public ByteInput {
public:
    explicit FileInput(const std::string& path) : source_(path) {}
    std::size_t read(char* out, std::size_t capacity) override { return source_.read(out, capacity); }

private:
    ByteSource source_;
};

} // namespace

bool CnptImporter::canRead(const std::string&, std::string_view head) const {
    return head.size() >= sizeof kMagic && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0;
}

std::optional<std::int32_t> CnptImporter::rankHint(std::string_view head) const {
    // magic | u32 type | u32 length | payload: u32 count, then (u32 len, key bytes, u32 len, value bytes)*
    auto u32At = [&](std::size_t at, std::uint32_t& v) {
        if (at + 4 > head.size())
            return false;
        std::memcpy(&v, head.data() + at, 4);
        return true;
    };
    std::uint32_t type = 0, length = 0, count = 0;
    std::size_t at = sizeof kMagic;
    if (!canRead({}, head) || !u32At(at, type) || type != static_cast<std::uint32_t>(ChunkType::Header) ||
        !u32At(at + 4, length) || !u32At(at + 8, count))
        return std::nullopt;
    at += 12;
    auto text = [&](std::string_view& out) {
        std::uint32_t n = 0;
        if (!u32At(at, n) || n > head.size() - at - 4)
            return false;
        out = head.substr(at + 4, n);
        at += 4 + std::size_t{n};
        return true;
    };
    for (std::uint32_t i = 0; i < count; ++i) {
        std::string_view k, v;
        if (!text(k) || !text(v))
            return std::nullopt;
        std::int32_t rank = -1;
        if (k == key::kRank && std::from_chars(v.data(), v.data() + v.size(), rank).ec == std::errc() &&
            rank >= 0)
            return rank;
    }
    return std::nullopt;
}

TraceData CnptImporter::read(const std::string& path, const ProgressSink& sink) const {
    try {
        // Streamed, plain or gzip (one pass per open, one chunk in memory at a time), never mapped: a big
        // file must not count whole in the ingest's resident memory.
        const CnptReader reader =
            CnptReader::fromStream([path] { return std::make_unique<FileInput>(path); });
        return convert(reader, path, sink);
    } catch (const FormatError& e) {
        throw InputError(path, e.what(), e.offset());
    }
}

TraceData CnptImporter::convert(const CnptReader& r, const std::string& path, const ProgressSink& sink) {
    return CnptConverter(r, path, sink).run();
}

std::unique_ptr<Importer> makeCnptImporter() {
    return std::make_unique<CnptImporter>();
}

} // namespace cnp
