#include "launch/TraceFetch.h"

#include "launch/Subprocess.h"

#include "Sha256.h"
#include "TraceChecksum.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace cnp::launch {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

double secondsSince(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string secondsText(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

// "rank 3: NAME" or "NAME" for a trace without a rank: how every problem starts.
std::string who(const std::string& name) {
    const std::string suffix = cnpt::kChecksumSuffix;
    const auto rank = traceRank(endsWith(name, suffix) ? name.substr(0, name.size() - suffix.size()) : name);
    return rank ? "rank " + std::to_string(*rank) + ": " + name : name;
}

std::optional<cnpt::TraceChecksum> readChecksum(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return cnpt::parseChecksum(text.str());
}

class Fetcher {
public:
    Fetcher(const std::string& remoteDir, const std::string& localDir, const FetchOptions& o,
            const PrintFile& printFile, const FetchProgress& progress)
        : remoteDir_(remoteDir), localDir_(localDir), o_(o), printFile_(printFile), progress_(progress) {}

    // One file into localDir/<name>: through <name>.part, renamed once all `f.size` bytes are there.
    bool transfer(const RemoteFile& f, int index, int count) {
        const fs::path part = fs::path(localDir_) / (f.name + ".part");
        std::string why;
        for (int attempt = 1; attempt <= o_.triesPerFile; ++attempt) {
            const auto started = Clock::now();
            const StreamResult r = streamToFile(
                printFile_(remoteDir_ + "/" + f.name), part.string(), o_.stallMs,
                [&](auto bytes) { say(f.name + ": " + byteText(bytes) + " of " + byteText(f.size)); });
            if (r.exitCode == 0 && !r.stalled && r.bytes == f.size) {
                std::error_code ec;
                fs::rename(part, fs::path(localDir_) / f.name, ec);
                if (ec) {
                    why = "cannot rename " + part.string() + ": " + ec.message();
                    break;
                }
                out_.fetched += 1;
                out_.bytes += r.bytes;
                say(f.name + ": " + byteText(r.bytes) + " in " + secondsText(secondsSince(started)) + " (" +
                    std::to_string(index) + " of " + std::to_string(count) + ")");
                return true;
            }
            why = r.stalled ? "stalled: nothing arrived for " + std::to_string(o_.stallMs / 1000) + " s"
                  : r.exitCode != 0
                      ? "exit code " + std::to_string(r.exitCode) + ": " + r.err.substr(0, r.err.find('\n'))
                      : "ended short";
            why += "; " + byteText(r.bytes) + " of " + byteText(f.size);
            say(f.name + ": try " + std::to_string(attempt) + " failed (" + why + ")");
        }
        out_.problems.push_back(who(f.name) + ": not fetched after " + std::to_string(o_.triesPerFile) +
                                " tries (" + why + "); what arrived is kept as " + part.string());
        return false;
    }

    // A trace here already whose size and SHA-256 match: fetched by an earlier pass.
    bool complete(const RemoteFile& f, const std::optional<cnpt::TraceChecksum>& sum) const {
        std::error_code ec;
        const fs::path local = fs::path(localDir_) / f.name;
        if (!sum || fs::file_size(local, ec) != f.size || ec)
            return false;
        const auto d = cnpt::sha256File(local.string());
        return d && d->hex == sum->hex && d->size == sum->size;
    }

    // The fetched trace against its checksum file: present, the collector's size, the collector's SHA-256.
    void verify(const RemoteFile& f, const std::optional<cnpt::TraceChecksum>& sum) {
        verifyDigest(f, sum, cnpt::sha256File((fs::path(localDir_) / f.name).string()));
    }

    // A trace's digest `d` (of the fetched copy, or of the volume's as sha256sum printed it there) against
    // its checksum file.
    void verifyDigest(const RemoteFile& f, const std::optional<cnpt::TraceChecksum>& sum,
                      const std::optional<cnpt::FileDigest>& d) {
        const std::string name = who(f.name);
        if (!sum) {
            out_.problems.push_back(name + ": no checksum file " + f.name + cnpt::kChecksumSuffix +
                                    " on the volume (the collector did not close the trace: killed?)");
            return;
        }
        if (!d)
            out_.problems.push_back(name + ": cannot read the fetched copy");
        else if (d->size < sum->size)
            out_.problems.push_back(name + " is short: " + std::to_string(d->size) + " of the " +
                                    std::to_string(sum->size) + " bytes the collector wrote");
        else if (d->hex != sum->hex || d->size != sum->size)
            out_.problems.push_back(name + ": checksum mismatch (SHA-256 " + d->hex.substr(0, 16) +
                                    "..., the collector wrote " + sum->hex.substr(0, 16) + "..., " +
                                    std::to_string(d->size) + " of " + std::to_string(sum->size) + " bytes)");
    }

    // Every trace of `listing` checked as run() checks them, but against `inPlace` (name -> SHA-256 of the
    // volume's copy) instead of a fetched copy: only the checksum files are fetched.
    FetchOutcome run(const std::vector<RemoteFile>& listing,
                     const std::map<std::string, std::string>* inPlace = nullptr);
    // Each file of `listing` fetched (or found complete here) and its SHA-256 compared with `sums`.
    FetchOutcome fetchAll(const std::vector<RemoteFile>& listing,
                          const std::map<std::string, std::string>& sums);

private:
    void say(const std::string& m) const {
        if (progress_)
            progress_(what_ + ": " + m);
    }

    std::string remoteDir_, localDir_;
    FetchOptions o_;
    const PrintFile& printFile_;
    const FetchProgress& progress_;
    FetchOutcome out_;

public:
    std::string what_ = "traces"; // how progress names the files
};

FetchOutcome Fetcher::run(const std::vector<RemoteFile>& listing,
                          const std::map<std::string, std::string>* inPlace) {
    const auto started = Clock::now();
    std::map<std::string, RemoteFile> traces, sums;
    for (const auto& f : listing) {
        if (isTraceName(f.name))
            traces[f.name] = f;
        else if (endsWith(f.name, cnpt::kChecksumSuffix) &&
                 isTraceName(f.name.substr(0, f.name.size() - std::string(cnpt::kChecksumSuffix).size())))
            sums[f.name] = f;
    }
    const int count = static_cast<int>(traces.size() + sums.size());
    int index = 0;
    std::set<std::string> arrived;
    for (const auto& [name, f] : sums) // first: they say which traces here are already complete
        if (transfer(f, ++index, count))
            arrived.insert(name);
    std::set<int> ranks;
    for (const auto& [name, f] : traces) {
        const std::string sumName = name + cnpt::kChecksumSuffix;
        const auto sum = arrived.count(sumName) ? readChecksum(fs::path(localDir_) / sumName) : std::nullopt;
        if (arrived.count(sumName) && !sum)
            out_.problems.push_back(who(name) + ": " + sumName +
                                    " is not a checksum file of the collector's");
        ++index;
        if (const auto r = traceRank(name))
            ranks.insert(*r);
        if (inPlace) {
            const auto it = inPlace->find(name);
            std::optional<cnpt::FileDigest> d;
            if (it != inPlace->end())
                d = cnpt::FileDigest{it->second, f.size};
            else
                out_.problems.push_back(who(name) + ": no SHA-256 of it was printed on the volume");
            if (d && (sum || !sums.count(sumName)))
                verifyDigest(f, sum, d);
            continue;
        }
        if (complete(f, sum)) {
            out_.skipped += 1;
            out_.skippedBytes += f.size;
            say(name + ": already here, " + byteText(f.size) + " (" + std::to_string(index) + " of " +
                std::to_string(count) + ")");
            continue;
        }
        // A listed checksum file that did not arrive or does not parse is a problem already.
        if (transfer(f, index, count) && (sum || !sums.count(sumName)))
            verify(f, sum);
    }
    for (int r = 0; r < o_.expectedRanks; ++r)
        if (!ranks.count(r))
            out_.problems.push_back("rank " + std::to_string(r) + ": no trace (*-r" + std::to_string(r) +
                                    ".cnpt) in " + remoteDir_);
    out_.seconds = secondsSince(started);
    return out_;
}

FetchOutcome Fetcher::fetchAll(const std::vector<RemoteFile>& listing,
                               const std::map<std::string, std::string>& sums) {
    const auto started = Clock::now();
    what_ = "summaries";
    const int count = static_cast<int>(listing.size());
    int index = 0;
    for (const auto& f : listing) {
        ++index;
        const auto it = sums.find(f.name);
        if (it == sums.end()) {
            out_.problems.push_back(f.name + ": no SHA-256 of it was printed on the volume");
            continue;
        }
        const fs::path local = fs::path(localDir_) / f.name;
        std::error_code ec;
        if (fs::file_size(local, ec) == f.size && !ec)
            if (const auto d = cnpt::sha256File(local.string()); d && d->hex == it->second) {
                out_.skipped += 1;
                out_.skippedBytes += f.size;
                say(f.name + ": already here, " + byteText(f.size) + " (" + std::to_string(index) + " of " +
                    std::to_string(count) + ")");
                continue;
            }
        if (!transfer(f, index, count))
            continue;
        const auto d = cnpt::sha256File(local.string());
        if (!d || d->hex != it->second)
            out_.problems.push_back(f.name + ": checksum mismatch (SHA-256 " +
                                    (d ? d->hex.substr(0, 16) : std::string("unreadable")) +
                                    "..., on the volume " + it->second.substr(0, 16) + "...)");
    }
    out_.seconds = secondsSince(started);
    return out_;
}

} // namespace

std::vector<std::string> listingCommand(const std::string& dir) {
    return {"sh", "-c",
            "[ -d \"$0\" ] || exit " + std::to_string(kListingNoFolder) +
                "; cd \"$0\" || exit 1; for f in *; do if [ -f \"$f\" ]; then n=$(wc -c < \"$f\") || exit 1; "
                "echo \"$n $f\"; fi; done",
            dir};
}

namespace {

// A name the volume may give that is safe to join to the local folder: no folder part, not "." or "..",
// no control character (a newline inside a name could forge a second listing line).
bool isPlainFileName(const std::string& name) {
    if (name.empty() || name == "." || name == ".." || name.size() > 255)
        return false;
    for (unsigned char c : name)
        if (c == '/' || c < 0x20 || c == 0x7f)
            return false;
    return true;
}

} // namespace

std::vector<RemoteFile> parseListing(const std::string& text) {
    std::vector<RemoteFile> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        RemoteFile f;
        if (fields >> f.size && fields.get() == ' ' && std::getline(fields, f.name) &&
            isPlainFileName(f.name))
            out.push_back(f);
    }
    return out;
}

std::vector<std::string> checksumCommand(const std::string& dir, const std::vector<std::string>& patterns) {
    std::string globs;
    for (const auto& p : patterns)
        globs += " " + p;
    return {"sh", "-c",
            "cd \"$0\" || exit 1; for f in" + globs +
                "; do if [ -f \"$f\" ]; then sha256sum \"$f\" || exit 1; fi; done",
            dir};
}

std::map<std::string, std::string> parseChecksums(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.size() < 67 || line[64] != ' ' || (line[65] != ' ' && line[65] != '*'))
            continue;
        std::string hex = line.substr(0, 64), name = line.substr(66);
        const bool isHex = std::all_of(
            hex.begin(), hex.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
        if (isHex && isPlainFileName(name))
            out[name] = hex;
    }
    return out;
}

bool isTraceName(const std::string& name) {
    return endsWith(name, ".cnpt") || endsWith(name, ".cnpt.gz");
}

std::optional<int> traceRank(const std::string& name) {
    if (!isTraceName(name))
        return std::nullopt;
    const std::string stem = name.substr(0, name.find(".cnpt"));
    const std::size_t r = stem.rfind("-r");
    if (r == std::string::npos || r + 2 >= stem.size() || stem.size() - r > 9)
        return std::nullopt;
    int rank = 0;
    for (std::size_t i = r + 2; i < stem.size(); ++i) {
        if (stem[i] < '0' || stem[i] > '9')
            return std::nullopt;
        rank = rank * 10 + (stem[i] - '0');
    }
    return rank;
}

std::string byteText(std::uint64_t bytes) {
    char buf[32];
    if (bytes < 1024)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else if (bytes < std::uint64_t{1024} * 1024)
        std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
    return buf;
}

std::string FetchOutcome::summary() const {
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    char rate[48] = "";
    if (seconds > 0)
        std::snprintf(rate, sizeof rate, " (%.1f MiB/s)", mib / seconds);
    return std::to_string(fetched) + " files, " + byteText(bytes) + " in " + secondsText(seconds) + rate +
           "; " + std::to_string(skipped) + " already here (" + byteText(skippedBytes) + "); " +
           std::to_string(problems.size()) + " problems";
}

FetchOutcome checkTracesInPlace(const std::vector<RemoteFile>& listing, const std::string& remoteDir,
                                const std::string& localDir, const FetchOptions& options,
                                const PrintFile& printFile, const std::map<std::string, std::string>& sums,
                                const FetchProgress& progress) {
    return Fetcher(remoteDir, localDir, options, printFile, progress).run(listing, &sums);
}

FetchOutcome fetchFiles(const std::vector<RemoteFile>& listing, const std::string& remoteDir,
                        const std::string& localDir, const FetchOptions& options, const PrintFile& printFile,
                        const std::map<std::string, std::string>& sums, const FetchProgress& progress) {
    return Fetcher(remoteDir, localDir, options, printFile, progress).fetchAll(listing, sums);
}

FetchOutcome fetchTraces(const std::vector<RemoteFile>& listing, const std::string& remoteDir,
                         const std::string& localDir, const FetchOptions& options, const PrintFile& printFile,
                         const FetchProgress& progress) {
    return Fetcher(remoteDir, localDir, options, printFile, progress).run(listing);
}

} // namespace cnp::launch
