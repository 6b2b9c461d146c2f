#include "import/cnpt/CnptImporter.h"

#include "core/InputError.h"
#include "import/cnpt/CnptConverter.h"
#include "import/common/ByteSource.h"

#include <cstdio>
#include <cstring>

namespace cnp {

namespace {

using namespace cnpt;

// A gzip file's content for CnptReader::fromStream: inflated as it is read, one pass per open.
class GzipInput : public ByteInput {
public:
    explicit GzipInput(const std::string& path) : source_(path) {}
    std::size_t read(char* out, std::size_t capacity) override { return source_.read(out, capacity); }

private:
    ByteSource source_;
};

} // namespace

bool CnptImporter::canRead(const std::string&, std::string_view head) const {
    return head.size() >= sizeof kMagic && std::memcmp(head.data(), kMagic, sizeof kMagic) == 0;
}

TraceData CnptImporter::read(const std::string& path, const ProgressSink& sink) const {
    unsigned char magic[2] = {0, 0};
    if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
        const std::size_t n = std::fread(magic, 1, 2, f);
        std::fclose(f);
        if (n < 2)
            magic[0] = 0;
    }
    const bool gzip = magic[0] == 0x1f && magic[1] == 0x8b;
    try {
        // Plain files are mapped; gzip ones are streamed (inflated once per pass, never held whole).
        const CnptReader reader =
            gzip ? CnptReader::fromStream([path] { return std::make_unique<GzipInput>(path); })
                 : CnptReader(path);
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
