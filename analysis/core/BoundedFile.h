#pragma once
// Reading a small input file (category rules, an ablation plan) whole, bounded at intake (issue 33.5):
// a FIFO, device (/dev/zero) or socket is refused without blocking (opened O_NONBLOCK, checked with
// fstat before any read), and so is a file larger than `maxBytes` (a 4 GB sparse file), before its bytes
// are read. O(size).
#include <cstddef>
#include <string>
#include <string_view>

namespace cnp {

// The bytes of regular file `path`, at most `maxBytes` of them; InputError naming the path otherwise:
// "cannot open WHAT: No such file or directory", "is not a regular file (a FIFO (named pipe)); a WHAT must
// be a regular file", "is 4294967296 bytes; a WHAT is at most 1048576 bytes (1 MiB)". `what`: "rule file".
std::string readBoundedFile(const std::string& path, std::size_t maxBytes, std::string_view what);

} // namespace cnp
