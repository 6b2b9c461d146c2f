#pragma once
// SHA-256 (FIPS 180-4), as 64 lowercase hex digits. One implementation for the collector (each trace's
// checksum, TraceChecksum.h) and analysis (a plan's bytes identify its runs for resume; the launcher
// verifies fetched traces). Plain C++ and POSIX I/O only: it runs inside the traced process. O(n); the
// incremental form holds one 64-byte block.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cnpt {

class Sha256 {
public:
    Sha256();
    void update(const void* data, std::size_t size);
    void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
    // The digest of everything updated so far; the object is then spent (update() is not allowed).
    std::string hexDigest();
    std::uint64_t size() const { return total_; } // bytes updated so far

private:
    void compress(const unsigned char* block);

    std::array<std::uint32_t, 8> h_;
    std::array<unsigned char, 64> block_{};
    std::size_t used_ = 0;    // bytes waiting in block_
    std::uint64_t total_ = 0; // bytes updated
};

std::string sha256Hex(std::string_view bytes);

struct FileDigest {
    std::string hex;
    std::uint64_t size = 0; // bytes
};

// The file read in 1 MiB pieces (never held whole); nullopt when it cannot be opened or read.
std::optional<FileDigest> sha256File(const std::string& path);

} // namespace cnpt
