#pragma once
// A buffered output file that appears only when complete: bytes go to a temporary file next to `path`
// ("<path>.partial-<pid>-<n>", created with O_CREAT|O_EXCL|O_NOFOLLOW: never an existing file or
// symlink, whoever planted it) and commit() renames it over `path`; destroying an uncommitted file
// removes the temporary one, so a failed or interrupted export never leaves a half-written file behind.
// Invariant: only a regular file is ever replaced. An existing `path` that is anything else (a symlink,
// whatever it points at; a device node; a FIFO; a socket; a directory) is refused with an InputError
// naming it and what it is, both when the file is opened and again just before the rename, and is
// left as it was. (A stream such as stdout is the caller's business: OutputFile only writes files.)
// Paths ending in ".gz" are gzip-compressed (zlib, level 6). Write errors throw InputError naming
// the output path. Also usable as a RapidJSON output stream (Ch, Put, Flush).
#include <zlib.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace cnp {

class OutputFile {
public:
    using Ch = char;

    explicit OutputFile(std::string path);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    void write(std::string_view s) {
        if (buffer_.size() + s.size() > kBufferBytes)
            drain();
        buffer_.insert(buffer_.end(), s.begin(), s.end());
    }
    void Put(char c) {
        if (buffer_.size() >= kBufferBytes)
            drain();
        buffer_.push_back(c);
    }
    void Flush() {} // RapidJSON calls this after each value; real flushing happens in drain/commit
    // Finishes compression, closes and renames into place. Throws InputError on failure.
    void commit();
    const std::string& path() const { return path_; }
    bool compressed() const { return gz_ != nullptr; }

private:
    static constexpr std::size_t kBufferBytes = 1 << 20;
    void drain();
    [[noreturn]] void fail(const std::string& what);
    int createTemporary();
    // Throws InputError when `path_` exists and is not a regular file (lstat: a symlink is not one).
    void refuseNonRegularTarget();

    std::string path_, partial_;
    std::FILE* file_ = nullptr;
    gzFile gz_ = nullptr;
    std::vector<char> buffer_;
    bool committed_ = false;
};

} // namespace cnp
