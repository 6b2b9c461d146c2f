#pragma once
// CRC-32 with the zlib/PNG polynomial (reflected 0xEDB88320), so `crc32` from zlib or Python's
// zlib.crc32 gives the same value. Slicing-by-8: about 1-2 GB/s on one core. O(n).
#include <cstddef>
#include <cstdint>

namespace cnpt {

class Crc32 {
public:
    // Continues a running CRC: crc = update(crc, a, n1); crc = update(crc, b, n2) equals one call over a+b.
    static std::uint32_t update(std::uint32_t crc, const void* data, std::size_t size);
    static std::uint32_t of(const void* data, std::size_t size) { return update(0, data, size); }
};

} // namespace cnpt
