#pragma once
// A file read front to back in chunks, transparently gunzipped when it starts with the gzip magic
// bytes (1f 8b) - the decision is made from the content, never from the file name, except that a
// name ending in ".gz" whose content is not gzip is refused (InputError) rather than guessed at.
// Concatenated gzip members are read as one stream. Memory: one compressed input chunk (256 KiB)
// plus zlib's 32 KiB window, whatever the file size.
// Errors (unreadable file, corrupt or truncated gzip) throw cnp::InputError naming the file.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace cnp {

class ByteSource {
public:
    explicit ByteSource(std::string path);
    ~ByteSource();
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Fills up to `capacity` bytes of (decompressed) content into `out`; returns the count, 0 only at
    // the end of the content. Throws InputError on a read error or a corrupt/truncated gzip stream.
    std::size_t read(char* out, std::size_t capacity);

    const std::string& path() const { return path_; }
    bool isGzip() const { return gzip_; }
    std::int64_t fileSize() const { return fileSize_; }
    // Bytes of the file itself consumed so far (compressed bytes for gzip): for progress.
    std::int64_t fileBytesConsumed() const { return fileConsumed_; }
    // Expected content size: the file size for a plain file; for gzip the ISIZE trailer (uncompressed
    // size mod 2^32), or 8x the file size when the trailer is implausible. For sizing buffers only.
    std::int64_t estimatedContentSize() const { return estimatedContent_; }
    // Bytes of content (decompressed) handed out by read() so far.
    std::int64_t contentBytesRead() const { return contentRead_; }

    // The first `n` bytes of content (decompressed when gzip), fewer for a short file. Never throws
    // for a damaged gzip stream: returns what could be decoded. Throws InputError if unreadable.
    static std::string readHead(const std::string& path, std::size_t n = 4096);

private:
    std::size_t readRaw(char* out, std::size_t capacity);
    std::size_t readInflated(char* out, std::size_t capacity);
    bool refillInput();

    struct Inflater;
    std::string path_;
    std::FILE* file_ = nullptr;
    bool gzip_ = false;
    bool streamEnded_ = false; // the current gzip member reached Z_STREAM_END
    bool inputExhausted_ = false;
    std::int64_t fileSize_ = 0;
    std::int64_t fileConsumed_ = 0;
    std::int64_t contentRead_ = 0;
    std::int64_t estimatedContent_ = 0;
    std::vector<unsigned char> input_; // compressed input chunk
    std::unique_ptr<Inflater> inflater_;
};

} // namespace cnp
