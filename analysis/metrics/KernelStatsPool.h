#pragma once
// The all-rank summary_kernel rows (rank -1) of a run, computed from its per-rank duration groups as they
// arrive (one part of the run after another, from worker threads) in bounded memory, and exactly equal,
// bit for bit, to statsOf (metrics/KernelStat.h) over the concatenated, sorted durations of each name.
//
// Memory: after every add() the durations held in memory (8 bytes each, counted by vector capacity) are
// within the budget: when an add() takes them over it, every held group is written to an unnamed temporary
// file as sorted runs, one per kernel name (that name's held groups merged), and only (file offset, count)
// is kept per run (16 bytes). write() then merges, per name, the held groups and the spilled runs in
// ascending order (a min-heap over cursors, each spilled run read through its own 4 KiB buffer: a name
// with 1,024 runs costs about 4 MiB). Each duration is written to the file at most once and read back
// once: O(n log k) for n durations in k runs per name. Measured (10 M durations, 8 ranks x 2,000 names,
// one core of a 2-core VM): add + write 0.25 s in memory, 0.4-0.5 s spilling (16 MiB, 1 MiB or 0 budget;
// peak RSS 82 MB in memory, 21 / 6 / 4 MB spilling).
#include "core/SummaryRows.h"
#include "core/TraceData.h"
#include "metrics/KernelStat.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace cnp {

// Receives from KernelStatsPool::write each name's durations merged, in ascending order, before its row: what
// a shard written alone keeps so that a study's all-rank rows can be merged exactly (ingest/KernelDigest.h).
class KernelDurationSink {
public:
    virtual ~KernelDurationSink() = default;
    // The name's all-rank category, whether it came from a range rule and the rank of the group it came
    // from (add()'s rule), and how many durations follow.
    virtual void beginName(const std::string& name, const std::string& category, bool categoryFromRangeRule,
                           std::int32_t categoryRank, std::int64_t count) = 0;
    virtual void duration(Ns d) = 0;
};

class KernelStatsPool {
public:
    static constexpr std::size_t kDefaultMemoryBudgetBytes = std::size_t{256} << 20; // 32 M durations

    // `spillDir`: where the spill file is created (and at once unlinked); empty: the system's temporary
    // folder (std::filesystem::temp_directory_path, $TMPDIR). No file is created until the budget is
    // exceeded.
    explicit KernelStatsPool(std::size_t memoryBudgetBytes = kDefaultMemoryBudgetBytes,
                             std::string spillDir = {});
    ~KernelStatsPool();
    KernelStatsPool(const KernelStatsPool&) = delete;
    KernelStatsPool& operator=(const KernelStatsPool&) = delete;

    // One (rank, kernel name) group: `sortedDurations` ascending (std::invalid_argument otherwise), in ns.
    // `category` is the group's category as its per-rank row stores it; `categoryFromRangeRule`: it came from
    // a range rule (metrics/CategoryRules.h). The name's all-rank category is that of its group of lowest
    // rank, except that a group whose category is not from a range rule wins over one whose category is:
    // the smallest (categoryFromRangeRule, rank), then the smallest category text. That is what one pass
    // over the groups in rank order gives (the first group's, replaced by a later one's when the current
    // one came from a range rule and the later one did not), whatever order the groups arrive in.
    // Thread-safe (a mutex, held during a spill too). A failed spill throws std::runtime_error naming the
    // cause (e.g. "No space left on device"); the group is kept and the pool stays whole (over its budget; a
    // partly written run is a tail of the file that nothing refers to). O(g) for a group of g, plus now and
    // then a spill, O(held durations x log of the groups held per name).
    void add(std::int32_t rank, const std::string& name, const std::string& category,
             bool categoryFromRangeRule, std::vector<Ns> sortedDurations);

    // One SummaryKernelRow per kernel name, rank -1, in name order (std::string's <, byte by byte), so the
    // rows do not depend on how the run was split into parts or on the order the parts arrived in. A name
    // whose every group was empty gets count 0 and every statistic 0. Then empties the pool (closing the
    // spill file), which may then be filled again; on an exception too (the rows written so far stay in
    // `out`). Reading the spill file back throws std::runtime_error naming the cause. Thread-safe.
    // `durations`, when given, also receives each name's merged durations (in the same single merge).
    // Without `durations` the names are merged on up to kMaxMergeThreads threads at once (each name's merge
    // is independent; the rows are still added in name order, those before the first failed name on a
    // failure). O(n log k) for n durations in k runs per name, divided among the threads.
    void write(SummaryRowSink& out, KernelDurationSink* durations = nullptr);

    // Runs written to the spill file since the last write() (tests: which path a budget took).
    std::size_t spilledRuns() const;

private:
    class SpillFile;
    class RunCursor;
    struct SpilledRun {
        std::uint64_t offset = 0; // bytes into the spill file
        std::uint64_t count = 0;  // durations
    };
    struct Name {
        std::string category;
        bool categoryFromRangeRule = false;
        std::int32_t categoryRank = 0;
        std::int64_t count = 0;
        Ns total = 0;
        std::vector<std::vector<Ns>> held; // each ascending
        std::vector<SpilledRun> spilled;
    };

    // Threads write() merges names on, at most (hardware_concurrency, at least 1).
    static constexpr std::size_t kMaxMergeThreads = 8;

    // The statistics of `n`'s held groups and spilled runs merged (feeding `durations` when given), its held
    // memory then released. Touches nothing but `n`: names are merged on several threads at once.
    static KernelStat mergedStat(Name& n, const SpillFile* file, const std::string& name,
                                 KernelDurationSink* durations);
    void spillHeld(); // every held group to the spill file as one run per name; requires mutex_

    const std::size_t budget_;
    const std::string spillDir_;
    mutable std::mutex mutex_;
    std::map<std::string, Name> names_;
    std::size_t heldBytes_ = 0;
    std::size_t spilledRuns_ = 0;
    std::unique_ptr<SpillFile> file_; // null until the first spill
};

} // namespace cnp
