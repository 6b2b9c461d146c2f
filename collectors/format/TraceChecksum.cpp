#include "TraceChecksum.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

namespace cnpt {

namespace {

bool isHexDigest(std::string_view s) {
    if (s.size() != 64)
        return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

std::string_view nextLine(std::string_view& text) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    return line;
}

} // namespace

std::string formatChecksum(const TraceChecksum& c) {
    return "# size " + std::to_string(c.size) + "\n" + c.hex + "  " + c.name + "\n";
}

std::optional<TraceChecksum> parseChecksum(std::string_view text) {
    TraceChecksum c;
    bool sized = false, digested = false;
    while (!text.empty()) {
        const std::string_view line = nextLine(text);
        constexpr std::string_view kSize = "# size ";
        if (line.substr(0, kSize.size()) == kSize) {
            const std::string_view n = line.substr(kSize.size());
            const auto r = std::from_chars(n.data(), n.data() + n.size(), c.size);
            sized = r.ec == std::errc() && r.ptr == n.data() + n.size();
        } else if (line.size() > 66 && isHexDigest(line.substr(0, 64)) && line.substr(64, 2) == "  ") {
            c.hex = std::string(line.substr(0, 64));
            c.name = std::string(line.substr(66));
            digested = true;
        }
    }
    if (!sized || !digested)
        return std::nullopt;
    return c;
}

bool writeChecksumFile(const std::string& tracePath, const std::string& hex, std::uint64_t size) {
    const std::size_t slash = tracePath.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : tracePath.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? tracePath : tracePath.substr(slash + 1);
    const std::string text = formatChecksum({hex, size, name});
    const std::string tmp = dir + "." + name + kChecksumSuffix + ".tmp";
    // A planted symlink or FIFO at the temporary name is never followed or waited on: it is removed (the
    // name is ours) and the file created exclusively.
    ::unlink(tmp.c_str());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t w = ::write(fd, text.data() + done, text.size() - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += static_cast<std::size_t>(w);
    }
    const bool ok = ::close(fd) == 0 && done == text.size();
    if (!ok || std::rename(tmp.c_str(), (tracePath + kChecksumSuffix).c_str()) != 0) {
        ::unlink(tmp.c_str());
        return false;
    }
    return true;
}

} // namespace cnpt
