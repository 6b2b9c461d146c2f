#include "metrics/KernelStatsPool.h"

#include "core/TimeBounds.h"

#include "metrics/KernelStat.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <utility>

#include <unistd.h>

namespace cnp {

namespace {

constexpr std::size_t kReadBufferValues = 4096 / sizeof(Ns);   // per spilled run being read: 4 KiB
constexpr std::size_t kWriteBufferValues = 65536 / sizeof(Ns); // while spilling a merged run: 64 KiB

std::runtime_error spillError(const std::string& what, const std::string& dir, int err) {
    return std::runtime_error("kernel statistics: " + what + " the spill file in " + dir + ": " +
                              std::strerror(err));
}

} // namespace

// An unnamed temporary file (created with mkstemp, unlinked at once: the system reclaims it however the
// process ends), appended to and read back at byte offsets. Raw Ns values in this machine's byte order.
class KernelStatsPool::SpillFile {
public:
    explicit SpillFile(std::string dir) : dir_(std::move(dir)) {
        std::string path = (std::filesystem::path(dir_) / "cnp-kernel-stats-XXXXXX").string();
        fd_ = ::mkstemp(path.data());
        if (fd_ < 0)
            throw spillError("cannot create", dir_, errno);
        ::unlink(path.c_str());
    }
    ~SpillFile() { ::close(fd_); }
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;

    std::uint64_t size() const { return size_; }

    // Appends n values at the end. A failed write leaves a tail that no run refers to.
    void append(const Ns* values, std::size_t n) {
        const char* p = reinterpret_cast<const char*>(values);
        std::size_t left = n * sizeof(Ns);
        std::uint64_t at = size_;
        while (left > 0) {
            const ssize_t w = ::pwrite(fd_, p, left, static_cast<off_t>(at));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                throw spillError("cannot write", dir_, w < 0 ? errno : EIO);
            p += w;
            at += static_cast<std::uint64_t>(w);
            left -= static_cast<std::size_t>(w);
        }
        size_ = at;
    }

    // n values from byte `offset`, which append() wrote.
    void read(std::uint64_t offset, Ns* values, std::size_t n) const {
        char* p = reinterpret_cast<char*>(values);
        std::size_t left = n * sizeof(Ns);
        while (left > 0) {
            const ssize_t r = ::pread(fd_, p, left, static_cast<off_t>(offset));
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                throw spillError("cannot read", dir_, errno);
            if (r == 0)
                throw std::runtime_error("kernel statistics: the spill file in " + dir_ +
                                         " ended before a run it holds");
            p += r;
            offset += static_cast<std::uint64_t>(r);
            left -= static_cast<std::size_t>(r);
        }
    }

private:
    std::string dir_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

// Reads one ascending run, held in memory or spilled (through a buffer of kReadBufferValues).
class KernelStatsPool::RunCursor {
public:
    explicit RunCursor(const std::vector<Ns>& v) : cur_(v.data()), end_(v.data() + v.size()) {}
    RunCursor(const SpillFile& file, SpilledRun run) : file_(&file), offset_(run.offset), left_(run.count) {
        refill();
    }
    bool done() const { return cur_ == end_; }
    Ns value() const { return *cur_; }
    void next() {
        if (++cur_ == end_ && left_ > 0)
            refill();
    }

private:
    void refill() {
        const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left_, kReadBufferValues));
        buffer_.resize(n);
        file_->read(offset_, buffer_.data(), n);
        offset_ += n * sizeof(Ns);
        left_ -= n;
        cur_ = buffer_.data();
        end_ = cur_ + n;
    }

    const Ns* cur_ = nullptr;
    const Ns* end_ = nullptr;
    const SpillFile* file_ = nullptr;
    std::uint64_t offset_ = 0, left_ = 0; // the spilled values not yet in buffer_
    std::vector<Ns> buffer_;
};

namespace {

// Calls visit(x) for every value of the runs (RunCursor) in ascending order (equal values in any order).
// O(n log k) for n values in k runs.
template <class Cursor, class F> void mergeAscending(std::vector<Cursor>& runs, F&& visit) {
    std::erase_if(runs, [](const Cursor& c) { return c.done(); });
    if (runs.size() == 1) {
        for (Cursor& c = runs.front(); !c.done(); c.next())
            visit(c.value());
        return;
    }
    using Head = std::pair<Ns, std::size_t>; // (value, run index)
    std::vector<Head> heap;
    heap.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        heap.emplace_back(runs[i].value(), i);
    std::make_heap(heap.begin(), heap.end(), std::greater<>());
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>());
        auto& [x, i] = heap.back();
        visit(x);
        runs[i].next();
        if (runs[i].done()) {
            heap.pop_back();
            continue;
        }
        x = runs[i].value();
        std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
}

std::size_t bytesOf(const std::vector<Ns>& v) {
    return v.capacity() * sizeof(Ns);
}

} // namespace

KernelStatsPool::KernelStatsPool(std::size_t memoryBudgetBytes, std::string spillDir)
    : budget_(memoryBudgetBytes), spillDir_(std::move(spillDir)) {}

KernelStatsPool::~KernelStatsPool() = default;

void KernelStatsPool::add(std::int32_t rank, const std::string& name, const std::string& category,
                          bool categoryFromRangeRule, std::vector<Ns> sortedDurations) {
    if (!std::is_sorted(sortedDurations.begin(), sortedDurations.end()))
        throw std::invalid_argument("kernel statistics: the durations of " + name + " are not sorted");
    Ns total = 0;
    for (Ns x : sortedDurations)
        total = saturatingAdd(total, x); // durations of a crafted workspace may sum beyond int64
    const std::lock_guard lock(mutex_);
    auto [it, fresh] = names_.try_emplace(name);
    Name& n = it->second;
    // The all-rank category: the smallest (categoryFromRangeRule, rank, category) of the name's groups.
    const bool wins = fresh || std::tie(categoryFromRangeRule, rank, category) <
                                   std::tie(n.categoryFromRangeRule, n.categoryRank, n.category);
    if (wins) {
        n.category = category;
        n.categoryFromRangeRule = categoryFromRangeRule;
        n.categoryRank = rank;
    }
    n.count += static_cast<std::int64_t>(sortedDurations.size());
    n.total = saturatingAdd(n.total, total);
    if (sortedDurations.empty())
        return;
    heldBytes_ += bytesOf(sortedDurations);
    n.held.push_back(std::move(sortedDurations));
    if (heldBytes_ > budget_)
        spillHeld();
}

void KernelStatsPool::spillHeld() {
    if (!file_)
        file_ = std::make_unique<SpillFile>(
            spillDir_.empty() ? std::filesystem::temp_directory_path().string() : spillDir_);
    std::vector<Ns> buffer;
    for (auto& [name, n] : names_) {
        if (n.held.empty())
            continue;
        SpilledRun run{file_->size(), 0};
        if (n.held.size() == 1) {
            file_->append(n.held.front().data(), n.held.front().size());
            run.count = n.held.front().size();
        } else {
            buffer.reserve(kWriteBufferValues);
            std::vector<RunCursor> cursors;
            for (const auto& v : n.held)
                cursors.emplace_back(v);
            mergeAscending(cursors, [&](Ns x) {
                buffer.push_back(x);
                if (buffer.size() == kWriteBufferValues) {
                    file_->append(buffer.data(), buffer.size());
                    run.count += buffer.size();
                    buffer.clear();
                }
            });
            file_->append(buffer.data(), buffer.size());
            run.count += buffer.size();
            buffer.clear();
        }
        n.spilled.push_back(run);
        ++spilledRuns_;
        for (const auto& v : n.held)
            heldBytes_ -= bytesOf(v);
        n.held.clear();
    }
}

void KernelStatsPool::write(SummaryRowSink& out, KernelDurationSink* durations) {
    const std::lock_guard lock(mutex_);
    // Empty the pool first: whatever happens below, it is empty afterwards.
    std::map<std::string, Name> names = std::exchange(names_, {});
    const std::unique_ptr<SpillFile> file = std::move(file_);
    heldBytes_ = 0;
    spilledRuns_ = 0;
    for (auto& [name, n] : names) {
        std::vector<RunCursor> cursors;
        cursors.reserve(n.held.size() + n.spilled.size());
        for (const auto& v : n.held)
            cursors.emplace_back(v);
        for (const auto& r : n.spilled)
            cursors.emplace_back(*file, r);
        KernelStatBuilder b(n.count, n.total);
        if (durations) {
            durations->beginName(name, n.category, n.categoryFromRangeRule, n.categoryRank, n.count);
            mergeAscending(cursors, [&](Ns x) {
                b.add(x);
                durations->duration(x);
            });
        } else {
            mergeAscending(cursors, [&](Ns x) { b.add(x); });
        }
        const KernelStat s = b.finish();
        out.add(SummaryKernelRow{-1, name, n.category, s.count, s.total, s.mean, s.median, s.min, s.max,
                                 s.stddev});
        std::vector<std::vector<Ns>>().swap(n.held); // this name's memory back before the next name's
    }
}

std::size_t KernelStatsPool::spilledRuns() const {
    const std::lock_guard lock(mutex_);
    return spilledRuns_;
}

} // namespace cnp
