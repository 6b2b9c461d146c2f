#pragma once
// Traces brought back from a shared volume one file at a time, each streamed straight to disk (never held
// in memory, no size limit) and checked against the checksum file the collector wrote next to it
// (collectors/format/TraceChecksum.h). The Kubernetes backend runs it through `kubectl exec` into a helper
// pod that mounts the volume (docs/launcher.md, "Traces from Kubernetes"); this unit knows no kubectl: it
// is given the argv that prints one remote file on stdout.
//
// Resume: a trace already in the local folder with the listed size and the SHA-256 of its checksum file is
// not fetched again; a transfer that fails, stalls or ends short is retried (the partial file, kept as
// `<name>.part`, is fetched again from the start).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cnp::launch {

struct RemoteFile {
    std::string name; // no folder
    std::uint64_t size = 0;
};

// sh argv that lists `dir` as "<bytes> <name>" lines, one per regular file (hidden ones left out); it exits
// kListingNoFolder when `dir` does not exist. The folder is $0, never spliced into the script.
std::vector<std::string> listingCommand(const std::string& dir);
inline constexpr int kListingNoFolder = 3;
// That listing back; lines of another form are ignored, and so are names that are not one plain file name
// (a '/', "." or "..", a control character): the volume is not trusted to choose local paths.
std::vector<RemoteFile> parseListing(const std::string& text);

// sh argv that prints `sha256sum`'s line ("<64 hex>  <name>") for each regular file of `dir` matching one of
// `patterns` (this program's own globs, e.g. "*.cnpt"); the folder is $0, never spliced into the script.
// For checks made on the volume, so that a file need not move to be checked.
std::vector<std::string> checksumCommand(const std::string& dir, const std::vector<std::string>& patterns);
// Those lines back, name -> lowercase hex; lines of another form and names that are not one plain file
// name are left out (as parseListing).
std::map<std::string, std::string> parseChecksums(const std::string& text);

// A collector trace: `*.cnpt` or `*.cnpt.gz`.
bool isTraceName(const std::string& name);
// The rank in a trace's name (`<host>-<pid>-r<rank>.cnpt[.gz]`, CollectorConfig::outputPath); nullopt for
// a process no launcher gave a rank.
std::optional<int> traceRank(const std::string& name);

struct FetchOptions {
    int stallMs = 60000;   // a transfer whose file has not grown for this long is stopped (and retried)
    int triesPerFile = 3;  // transfers of one file before it counts as lost
    int expectedRanks = 0; // ranks 0..n-1 must each have a trace
};

struct FetchOutcome {
    int fetched = 0, skipped = 0;              // files transferred; traces already complete here
    std::uint64_t bytes = 0, skippedBytes = 0; // of those
    double seconds = 0;                        // the whole fetch, wall clock
    std::vector<std::string> problems;         // one line per missing, short or corrupt rank or file
    std::string summary() const;               // "4 files, 120.0 MiB in 4.1 s (29.3 MiB/s), ..."
};

// The argv that prints the remote file `path` on stdout; exit code 0 when all of it was printed.
using PrintFile = std::function<std::vector<std::string>(const std::string& path)>;
using FetchProgress = std::function<void(const std::string& message)>;

// Fetches the traces of `listing` (a listing of `remoteDir`) and their checksum files into `localDir`,
// then checks every trace against its checksum file and every expected rank for a trace. Whatever arrived
// stays in `localDir`, also when there are problems.
FetchOutcome fetchTraces(const std::vector<RemoteFile>& listing, const std::string& remoteDir,
                         const std::string& localDir, const FetchOptions& options, const PrintFile& printFile,
                         const FetchProgress& progress = {});

// The checks of fetchTraces made on the volume (docs/launcher.md, "Ingest on the cluster"): the checksum
// files are fetched into `localDir` (small), the traces are not; each trace's SHA-256 is `sums`' (what
// checksumCommand printed next to it) and its size the listing's. The same problems, in the same words.
FetchOutcome checkTracesInPlace(const std::vector<RemoteFile>& listing, const std::string& remoteDir,
                                const std::string& localDir, const FetchOptions& options,
                                const PrintFile& printFile, const std::map<std::string, std::string>& sums,
                                const FetchProgress& progress = {});

// Every file of `listing` into `localDir` with the transfer of fetchTraces (streamed, stall timeout, tries,
// `.part` renamed once whole), then its SHA-256 compared with `sums`' entry for it (a file without one is
// a problem and is not fetched). A file here already with the listed size and that SHA-256 is not fetched
// again. `options.expectedRanks` is not used.
FetchOutcome fetchFiles(const std::vector<RemoteFile>& listing, const std::string& remoteDir,
                        const std::string& localDir, const FetchOptions& options, const PrintFile& printFile,
                        const std::map<std::string, std::string>& sums, const FetchProgress& progress = {});

// "512 B", "98.6 KiB", "31.5 MiB".
std::string byteText(std::uint64_t bytes);

} // namespace cnp::launch
