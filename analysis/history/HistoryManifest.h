#pragma once
// A release history (docs/metrics.md, "Release history"; docs/cli.md, `cnp history`): a folder that keeps
// the same study of every image release together.
//   HISTORY/cnp-history.json          manifest: {"format": "cnp-history", "version": 1, "entries": [...]}
//   HISTORY/summaries/RELEASE.json    each release's summary cache (history/ReleaseSummaryJson.h)
// An entry: {"release", "date", "commit", "driver", "cuda", "nccl", "image", "study", "summary"}. "study" is
// the release's workspace (*.cnpdb) or study folder (*.cnpstudy), relative to the history folder unless
// written as an absolute path; "summary" is always this program's own name under summaries/.
// The manifest is untrusted input: at most kMaxManifestBytes, kMaxEntries entries, every text field
// bounded and free of control characters, release names from [A-Za-z0-9._+-], no relative path that
// leaves the folder (".." after normalisation), no duplicate release. Errors name the manifest and the cause.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace cnp {

struct HistoryEntry {
    std::string release; // "26.01"
    std::string date;    // as given, e.g. "2026-01-15"
    std::string commit;
    std::string driver, cuda, nccl, image; // versions of the image
    std::string study;                     // as stored: relative to the folder, or absolute
    std::string summary;                   // "summaries/RELEASE.json"
};

class HistoryManifest {
public:
    static constexpr const char* kFileName = "cnp-history.json";
    static constexpr std::size_t kMaxManifestBytes = std::size_t{4} * 1024 * 1024;
    static constexpr std::size_t kMaxEntries = 10000;
    static constexpr std::size_t kMaxFieldBytes = 1024;
    static constexpr std::size_t kMaxReleaseBytes = 64;

    // Reads and checks the manifest of the history at `path` (its folder or its manifest file).
    static HistoryManifest open(const std::string& path);
    // open() when the folder has a manifest, else an empty history of `folder` (created by save()).
    static HistoryManifest openOrCreate(const std::string& folder);
    // True when `path` is a history: a folder holding kFileName, or that file itself (nothing is parsed).
    static bool isHistory(const std::string& path);
    // Parses manifest text; `manifestPath` names it in errors and fixes the folder. Throws InputError.
    static HistoryManifest fromJson(const std::string& text, const std::filesystem::path& manifestPath);
    std::string toJson() const;

    // True when `release` is a valid release name (1 .. kMaxReleaseBytes of [A-Za-z0-9._+-], not "." or
    // "..", not starting with '.').
    static bool validReleaseName(const std::string& release);

    const std::filesystem::path& folder() const { return folder_; }
    std::filesystem::path manifestPath() const { return folder_ / kFileName; }
    const std::vector<HistoryEntry>& entries() const { return entries_; }
    // The entry of `release`, or nullptr.
    const HistoryEntry* entry(const std::string& release) const;

    // Where an entry's study and summary lie on disk.
    std::filesystem::path studyPath(const HistoryEntry& e) const;
    std::filesystem::path summaryPath(const HistoryEntry& e) const;
    // `study` as an entry stores it: relative to the folder when it lies inside it, else absolute.
    std::string storedStudyPath(const std::string& study) const;

    // Appends an entry (its summary name is set here); throws InputError for a duplicate or invalid entry.
    void add(HistoryEntry e);
    // Writes the manifest atomically (a temporary file renamed into place). Throws InputError.
    void save() const;

private:
    explicit HistoryManifest(std::filesystem::path folder) : folder_(std::move(folder)) {}
    std::filesystem::path folder_;
    std::vector<HistoryEntry> entries_;
};

} // namespace cnp
