#pragma once
// A trace's checksum file, written by the collector when it closes a trace (CnptWriter::close) and read by
// the launcher, which verifies every fetched trace against it (docs/cnpt-format.md, "Checksum file"):
// `<trace>.sha256` next to `<trace>`, in sha256sum's format, so `sha256sum --strict -c` checks it too; the
// size the collector wrote rides on a comment line, which sha256sum skips:
//   # size 31457280
//   <64 hex digits>  <trace file name>
// Its presence means the collector closed the trace: a killed process leaves none.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cnpt {

inline constexpr const char* kChecksumSuffix = ".sha256";

struct TraceChecksum {
    std::string hex;        // SHA-256, 64 lowercase hex digits
    std::uint64_t size = 0; // bytes of the trace
    std::string name;       // the trace's file name, no folder
};

std::string formatChecksum(const TraceChecksum& c);
// nullopt unless the text holds a size line and a digest line of that form.
std::optional<TraceChecksum> parseChecksum(std::string_view text);

// Writes `<tracePath>.sha256` whole or not at all (a hidden temporary renamed over it); POSIX I/O only.
bool writeChecksumFile(const std::string& tracePath, const std::string& hex, std::uint64_t size);

} // namespace cnpt
