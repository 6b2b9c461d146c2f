#include "metrics/KernelStatsPool.h"

#include "core/TimeBounds.h"

#include "metrics/KernelStat.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <thread>
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
// A min-heap of the runs' heads whose top is replaced in place by its run's next value and sifted down,
// stopping as soon as it is not above a child: while one run keeps the smallest values that costs two
// comparisons a value, at worst 2 log2 k. O(n log k) for n values in k runs.
template <class Cursor, class F> void mergeAscending(std::vector<Cursor>& runs, F&& visit) {
    std::erase_if(runs, [](const Cursor& c) { return c.done(); });
    if (runs.size() == 1) {
        for (Cursor& c = runs.front(); !c.done(); c.next())
            visit(c.value());
        return;
    }
    struct Head {
        Ns value;
        std::size_t run;
    };
    std::vector<Head> heap;
    heap.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        heap.push_back({runs[i].value(), i});
    const auto above = [](const Head& a, const Head& b) { return a.value > b.value; };
    std::make_heap(heap.begin(), heap.end(), above);
    const auto siftDown = [&heap] {
        const std::size_t n = heap.size();
        const Head h = heap[0];
        std::size_t at = 0;
        for (std::size_t child = 1; child < n; child = 2 * at + 1) {
            if (child + 1 < n && heap[child + 1].value < heap[child].value)
                ++child;
            if (h.value <= heap[child].value)
                break;
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = h;
    };
    while (!heap.empty()) {
        Head& top = heap[0];
        visit(top.value);
        Cursor& c = runs[top.run];
        c.next();
        if (c.done()) {
            top = heap.back();
            heap.pop_back();
            if (heap.empty())
                break;
        } else {
            top.value = c.value();
        }
        siftDown();
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

KernelStat KernelStatsPool::mergedStat(Name& n, const SpillFile* file, const std::string& name,
                                       KernelDurationSink* durations) {
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
    std::vector<std::vector<Ns>>().swap(n.held); // this name's memory back before the next name's
    return b.finish();
}

void KernelStatsPool::write(SummaryRowSink& out, KernelDurationSink* durations) {
    const std::lock_guard lock(mutex_);
    // Empty the pool first: whatever happens below, it is empty afterwards.
    std::map<std::string, Name> names = std::exchange(names_, {});
    const std::unique_ptr<SpillFile> file = std::move(file_);
    heldBytes_ = 0;
    spilledRuns_ = 0;
    std::vector<std::pair<const std::string*, Name*>> order;
    order.reserve(names.size());
    for (auto& [name, n] : names)
        order.emplace_back(&name, &n);
    // Each name's merge is independent: without a duration sink (which takes the names in order) they are
    // spread over up to kMaxMergeThreads threads, each taking the next name not taken; the rows are then
    // added in name order. Memory: a name's cursors per thread.
    std::vector<KernelStat> stats(order.size());
    std::vector<char> merged(order.size(), 0);
    const std::size_t threads =
        durations
            ? 1
            : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1,
                                      std::min(kMaxMergeThreads, std::max<std::size_t>(order.size(), 1)));
    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> failed(threads);
    auto work = [&](std::size_t t) {
        try {
            for (std::size_t i; (i = next++) < order.size();) {
                stats[i] = mergedStat(*order[i].second, file.get(), *order[i].first, durations);
                merged[i] = 1;
            }
        } catch (...) {
            failed[t] = std::current_exception();
            next = order.size(); // the others stop at their next name
        }
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t)
        helpers.emplace_back(work, t);
    work(0);
    for (auto& h : helpers)
        h.join();
    for (std::size_t i = 0; i < order.size() && merged[i]; ++i) { // on a failure: the names before it
        const KernelStat& s = stats[i];
        const Name& n = *order[i].second;
        out.add(SummaryKernelRow{-1, *order[i].first, n.category, s.count, s.total, s.mean, s.median, s.min,
                                 s.max, s.stddev});
    }
    for (const auto& e : failed)
        if (e)
            std::rethrow_exception(e);
}

std::size_t KernelStatsPool::spilledRuns() const {
    const std::lock_guard lock(mutex_);
    return spilledRuns_;
}

} // namespace cnp
