#pragma once
// A study folder (`*.cnpstudy`, docs/schema.md "Studies of shards"): one study stored as an index workspace
// plus shards, so that ingest writes a run's events through one SQLite writer per shard, in parallel.
//   NAME.cnpstudy/cnp-study.json   manifest: {"format": "cnp-study", "version": 1, "shards": N}
//   NAME.cnpstudy/index.cnpdb      every table but the events: runs, ranks, steps, summaries, overview,
//                                  attributes, meta and every string (the ids the shards' rows use)
//   NAME.cnpstudy/shard-K.cnpdb    K = 0 .. N-1: the event rows of some ranks of each run, under the run's
//                                  index id, with the index's string ids
// The manifest is untrusted input: only a shard count (1 .. kMaxShards) is read from it; every file name is
// this program's own, so no path in a shared study can point outside its folder.
#include <filesystem>
#include <string>

namespace cnp {

class StudyFolder {
public:
    static constexpr int kMaxShards = 1024;
    static constexpr const char* kManifestName = "cnp-study.json";
    static constexpr const char* kIndexName = "index.cnpdb";

    // True for a folder holding a manifest, or a path ending in ".cnpstudy" (a study to create).
    static bool isStudyPath(const std::string& path);

    // Reads and checks the manifest of the study at `path` (the folder, or its manifest file). Throws
    // InputError naming the manifest and the cause (missing, not JSON, another format or version, a shard
    // count out of range, larger than 64 KiB).
    static StudyFolder open(const std::string& path);
    // Creates the folder and its manifest for `shards` shards (1 .. kMaxShards); the workspaces are created
    // when first opened. Throws InputError when `path` exists or cannot be created.
    static StudyFolder create(const std::string& path, int shards);

    const std::filesystem::path& folder() const { return folder_; }
    int shardCount() const { return shards_; }
    std::string indexPath() const;
    std::string shardPath(int k) const; // 0 <= k < shardCount()

private:
    StudyFolder(std::filesystem::path folder, int shards) : folder_(std::move(folder)), shards_(shards) {}
    std::filesystem::path folder_;
    int shards_ = 0;
};

} // namespace cnp
