#include "core/BoundedFile.h"

#include "core/InputError.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace cnp {

namespace {

std::string kindOf(mode_t m) {
    if (S_ISFIFO(m))
        return "a FIFO (named pipe)";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISDIR(m))
        return "a directory";
    return "not a plain file";
}

std::string sizeText(std::size_t bytes) {
    std::string s = std::to_string(bytes) + " bytes";
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        s += " (" + std::to_string(bytes >> 20) + " MiB)";
    else if (bytes >= (1u << 10) && bytes % (1u << 10) == 0)
        s += " (" + std::to_string(bytes >> 10) + " KiB)";
    return s;
}

struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0)
            ::close(fd);
    }
};

} // namespace

std::string readBoundedFile(const std::string& path, std::size_t maxBytes, std::string_view what) {
    const Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
    if (f.fd < 0)
        throw InputError(path, "cannot open " + std::string(what) + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0)
        throw InputError(path, "cannot read " + std::string(what) + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        throw InputError(path, "is not a regular file (" + kindOf(st.st_mode) + "); a " + std::string(what) +
                                   " must be a regular file");
    const auto tooBig = [&](const std::string& size) {
        return InputError(path,
                          "is " + size + "; a " + std::string(what) + " is at most " + sizeText(maxBytes));
    };
    if (st.st_size < 0 || static_cast<std::uint64_t>(st.st_size) > maxBytes)
        throw tooBig(std::to_string(st.st_size) + " bytes");
    std::string out;
    out.resize(maxBytes + 1 < static_cast<std::size_t>(st.st_size) + 4096
                   ? maxBytes + 1
                   : static_cast<std::size_t>(st.st_size) + 4096);
    std::size_t have = 0;
    for (;;) {
        if (have == out.size()) {
            if (out.size() > maxBytes)
                break;
            out.resize(std::min(out.size() * 2, maxBytes + 1));
        }
        const ssize_t n = ::read(f.fd, out.data() + have, out.size() - have);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            throw InputError(path, "cannot read " + std::string(what) + ": " + std::strerror(errno));
        if (n == 0)
            break;
        have += static_cast<std::size_t>(n);
    }
    if (have > maxBytes) // it grew while read
        throw tooBig("more than " + std::to_string(maxBytes) + " bytes");
    out.resize(have);
    return out;
}

} // namespace cnp
