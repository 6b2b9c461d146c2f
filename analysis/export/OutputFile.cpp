#include "export/OutputFile.h"

#include "core/InputError.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace cnp {

namespace {
bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
} // namespace

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), partial_(path_ + ".partial-" + std::to_string(::getpid())) {
    buffer_.reserve(kBufferBytes);
    if (endsWith(path_, ".gz")) {
        gz_ = gzopen(partial_.c_str(), "wb6");
        if (!gz_)
            fail(std::string("cannot create file: ") + std::strerror(errno));
        gzbuffer(gz_, 256 * 1024);
    } else {
        file_ = std::fopen(partial_.c_str(), "wb");
        if (!file_)
            fail(std::string("cannot create file: ") + std::strerror(errno));
    }
}

OutputFile::~OutputFile() {
    if (committed_)
        return;
    if (gz_)
        gzclose(gz_);
    if (file_)
        std::fclose(file_);
    std::error_code ec;
    std::filesystem::remove(partial_, ec);
}

void OutputFile::fail(const std::string& what) {
    throw InputError(path_, what);
}

void OutputFile::drain() {
    if (buffer_.empty())
        return;
    if (gz_) {
        if (gzwrite(gz_, buffer_.data(), static_cast<unsigned>(buffer_.size())) !=
            static_cast<int>(buffer_.size())) {
            int err = 0;
            const char* msg = gzerror(gz_, &err);
            fail(std::string("write failed: ") + (err == Z_ERRNO ? std::strerror(errno) : msg));
        }
    } else if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
        fail(std::string("write failed: ") + std::strerror(errno));
    }
    buffer_.clear();
}

void OutputFile::commit() {
    drain();
    if (gz_) {
        const int rc = gzclose(gz_);
        gz_ = nullptr;
        if (rc != Z_OK)
            fail("write failed while finishing the gzip stream");
    } else {
        const bool ok = std::fflush(file_) == 0;
        const bool closed = std::fclose(file_) == 0;
        file_ = nullptr;
        if (!ok || !closed)
            fail(std::string("write failed: ") + std::strerror(errno));
    }
    std::error_code ec;
    std::filesystem::rename(partial_, path_, ec);
    if (ec)
        fail("cannot move the finished file into place: " + ec.message());
    committed_ = true;
}

} // namespace cnp
