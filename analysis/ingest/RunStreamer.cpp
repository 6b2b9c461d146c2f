#include "ingest/RunStreamer.h"

#include "ingest/KernelDigest.h"
#include "ingest/PreparedPart.h"
#include "ingest/RankAssigner.h"
#include "ingest/ShardWriters.h"
#include "metrics/KernelStatsPool.h"
#include "requests/ClockAlignmentRequest.h"
#include "requests/SummaryRequests.h"
#include "requests/WorkspaceCategories.h"
#include "store/RunAppender.h"
#include "store/ShardParts.h"
#include "store/SummaryTables.h"
#include "store/WorkspaceTransactions.h"
#include "timeline/OverviewMerge.h"
#include "timeline/TimelineOverview.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <thread>

namespace cnp {

namespace {

using Renumbering = std::optional<std::pair<std::int32_t, std::int32_t>>; // (old, new) rank of a part
constexpr std::int32_t kNoRank = std::numeric_limits<std::int32_t>::max();
// Progress: each part's share of the bar is read (waiting for its import) then stored, in these parts.
constexpr double kReadShare = 0.5;
// The all-rank kernel durations held in memory before they spill to a temporary file (8 M durations).
constexpr std::size_t kPoolBudgetBytes = std::size_t{64} << 20;

// What a pass imposes: the processing order, and after a first pass the rank numbering and step decision
// it learned.
struct PassPlan {
    std::vector<std::size_t> order;                // position -> part index
    std::optional<std::vector<Renumbering>> ranks; // per part index; unset: RankAssigner decides
    StepPattern steps;
    SummaryOptions summary;          // the workspace's (requests/SummaryRequests.h)
    std::optional<RunId> shardRunId; // a shard written alone (RunStreamer.h)
};

// What a pass found: per part index its lowest rank and renumbering, whether parts came out of rank
// order, and the step decision to impose when the parts decided otherwise than the run (stepsToImpose).
struct PassFindings {
    std::vector<std::int32_t> minRank;
    std::vector<Renumbering> renumbered;
    bool outOfOrder = false;
    std::optional<StepPattern> imposeSteps;
};

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The run's step decision from its parts' (metrics/StepDetector.h): the lowest pattern any part matched;
// then, among the parts that used it, numbered by name only when every one of them is. nullopt when every
// part already decided so. A part that used a later pattern is detected again with the run's imposed,
// and its numbering is decided in that pass.
std::optional<StepPattern> stepsToImpose(const std::vector<StepScheme>& schemes, const StepPattern& used) {
    int pattern = std::numeric_limits<int>::max();
    for (const auto& s : schemes)
        if (s.pattern >= 0)
            pattern = std::min(pattern, s.pattern);
    bool byName = true, otherPattern = false;
    for (const auto& s : schemes) {
        if (s.pattern == pattern)
            byName = byName && s.numberedByName;
        otherPattern = otherPattern || (s.pattern >= 0 && s.pattern != pattern);
    }
    bool numberingAgrees = true;
    for (const auto& s : schemes)
        if (s.pattern == pattern)
            numberingAgrees = numberingAgrees && s.numberedByName == byName;
    if (!otherPattern && numberingAgrees)
        return std::nullopt;
    StepPattern imposed = used;
    imposed.patterns = {used.patterns[static_cast<std::size_t>(pattern)]};
    imposed.ordinalNumbers = used.ordinalNumbers || (!otherPattern && !byName);
    return imposed;
}

// One pass over the parts, inside the caller's transaction (see RunStreamer.h).
class Pass {
public:
    Pass(Workspace& ws, const RunSource& src, const PassPlan& plan, int jobs, const CategoryRules& rules,
         const ProgressSink& sink)
        : ws_(ws), src_(src), plan_(plan), rules_(rules), sink_(sink),
          jobs_(std::clamp<std::size_t>(static_cast<std::size_t>(std::max(jobs, 1)), 1, src.names.size())),
          slots_(src.names.size()) {
        found_.minRank.assign(src.names.size(), kNoRank);
        found_.renumbered.resize(src.names.size());
    }

    // Stores every part (unless they come out of rank order) and, when the parts decided as the run would,
    // what spans them and the run row (RunAppender::finish, with `finishInfo` applied to the merged run
    // information); returns what it found.
    PassFindings run(const std::string& runName, const std::function<void(RunInfo&)>& finishInfo,
                     StreamedRun& out);

private:
    struct Slot {
        std::unique_ptr<PreparedPart> part;
        std::exception_ptr error;
        bool done = false;
        std::atomic<double> read{0}; // the import's own progress, 0..1 (the reader writes, this thread reads)
    };
    void readParts();
    // Whether a reader may take position k now: within jobs + 1 of the store and kInFlightInputBytes
    // (a position right at the store always may). Requires m_.
    bool mayTake(std::size_t k) const {
        return k < stored_ + jobs_ + 1 && (k == stored_ || inFlight_ + bytesOf(k) <= kInFlightInputBytes);
    }
    std::uint64_t bytesOf(std::size_t k) const {
        const std::size_t i = plan_.order[k];
        return i < src_.inputBytes.size() ? src_.inputBytes[i] : 0;
    }
    void readPart(std::size_t k);
    void assignRanks(std::size_t k, TraceData& part);
    std::unique_ptr<PreparedPart> waitForPart(std::size_t k, bool& learnOnly);
    void storeRunWide(RunAppender& appender, const std::string& runName, StreamedRun& out);
    ShardPartRow shardPartOf(RunId runId, std::string kernelDigest) const;
    void storePart(std::size_t k, std::unique_ptr<PreparedPart> p, RunAppender& appender, StreamedRun& out);
    void storeEvents(std::size_t k, std::unique_ptr<PreparedPart> p, RunAppender& appender);
    // A part's input bytes are no longer in memory (stored, or the pass stores nothing more).
    void release(std::size_t k) {
        std::lock_guard lock(m_);
        inFlight_ -= bytesOf(k);
        changed_.notify_all();
    }

    Workspace& ws_;
    const RunSource& src_;
    const PassPlan& plan_;
    const CategoryRules& rules_;
    const ProgressSink& sink_;
    const std::size_t jobs_;
    KernelStatsPool pool_{kPoolBudgetBytes};
    PassFindings found_;

    std::mutex m_;
    std::condition_variable changed_;
    std::vector<Slot> slots_;
    std::size_t next_ = 0, assigned_ = 0, stored_ = 0; // positions taken, numbered, stored
    std::uint64_t inFlight_ = 0;                       // input bytes of the positions taken, not stored
    std::int32_t maxRank_ = -1;
    std::atomic<bool> stop_{false};
    RankAssigner assigner_;
    std::map<std::string, double> readerSeconds_;
    std::map<std::string, double> storeSeconds_; // this thread's, per step of storePart
    timeline::TimelineModel overview_;
    int overviewBuckets_ = 8192; // the grid overview_ is on (overviewBucketsFor of the ranks so far)
    std::set<std::string> truncated_;
    std::vector<StepScheme> schemes_; // of the parts stored, in order
    bool firstInfo_ = true;
    std::unique_ptr<ShardWriters> shards_; // a study's: the events go to its shards
};

void Pass::readParts() {
    for (;;) {
        std::size_t k = 0;
        {
            std::unique_lock lock(m_);
            changed_.wait(lock, [&] { return stop_ || next_ >= slots_.size() || mayTake(next_); });
            if (stop_ || next_ >= slots_.size())
                return;
            k = next_++;
            inFlight_ += bytesOf(k);
        }
        try {
            readPart(k);
        } catch (...) {
            std::lock_guard lock(m_);
            slots_[k].error = std::current_exception();
            slots_[k].done = true;
            if (assigned_ == k) // a part that failed before its numbering lets the next one be numbered
                ++assigned_;
            changed_.notify_all();
        }
    }
}

void Pass::readPart(std::size_t k) {
    const std::size_t i = plan_.order[k];
    std::atomic<double>& fraction = slots_[k].read;
    const ProgressSink partSink{[&fraction](double f) { fraction = f; }, &stop_};
    auto t0 = std::chrono::steady_clock::now();
    TraceData part = src_.load(i, partSink);
    const double readSeconds = secondsSince(t0);
    assignRanks(k, part);
    std::unique_ptr<PreparedPart> p;
    bool learnOnly = false;
    {
        std::lock_guard lock(m_);
        learnOnly = found_.outOfOrder;
    }
    if (!learnOnly)
        p = std::make_unique<PreparedPart>(
            preparePart(std::move(part), rules_, plan_.steps, pool_, plan_.summary));
    std::lock_guard lock(m_);
    readerSeconds_["read"] += readSeconds;
    if (p)
        for (const auto& [phase, s] : p->seconds)
            readerSeconds_[phase] += s;
    slots_[k].part = std::move(p);
    slots_[k].done = true;
    changed_.notify_all();
}

// Numbers the part's ranks in processing order: waits for position k's turn (the parts before it numbered
// or failed), so the numbering does not depend on which reader is faster.
void Pass::assignRanks(std::size_t k, TraceData& part) {
    const std::size_t i = plan_.order[k];
    std::unique_lock lock(m_);
    changed_.wait(lock, [&] { return stop_ || assigned_ == k; });
    if (stop_)
        throw Cancelled();
    try {
        if (plan_.ranks) {
            if (const auto& r = (*plan_.ranks)[i])
                RankAssigner::renumberRank(part, r->first, r->second);
        } else {
            found_.renumbered[i] = assigner_.assign(part, src_.names[i]);
        }
    } catch (...) {
        ++assigned_;
        changed_.notify_all();
        throw;
    }
    std::int32_t lo = kNoRank, hi = -1;
    for (const auto& r : part.ranks) {
        lo = std::min(lo, r.rank);
        hi = std::max(hi, r.rank);
    }
    found_.minRank[i] = lo;
    if (!part.ranks.empty()) {
        if (lo <= maxRank_)
            found_.outOfOrder = true;
        maxRank_ = std::max(maxRank_, hi);
    }
    ++assigned_;
    changed_.notify_all();
}

// Waits for position k, reporting progress and checking for cancellation meanwhile; rethrows its error.
// `learnOnly`: the parts came out of rank order, so this pass stores nothing more.
std::unique_ptr<PreparedPart> Pass::waitForPart(std::size_t k, bool& learnOnly) {
    const double n = static_cast<double>(slots_.size());
    std::unique_lock lock(m_);
    while (!changed_.wait_for(lock, std::chrono::milliseconds(100), [&] { return slots_[k].done; })) {
        lock.unlock();
        sink_.report((static_cast<double>(k) + kReadShare * slots_[k].read) / n);
        sink_.checkCancel();
        lock.lock();
    }
    if (slots_[k].error)
        std::rethrow_exception(slots_[k].error);
    learnOnly = found_.outOfOrder;
    return std::move(slots_[k].part);
}

// Stores the part's events here, or (a study) its ranks and steps here and its events in a shard; the
// part's memory goes with its events.
void Pass::storeEvents(std::size_t k, std::unique_ptr<PreparedPart> p, RunAppender& appender) {
    const auto t0 = std::chrono::steady_clock::now();
    if (shards_) {
        std::vector<std::int64_t> ids = appender.appendWithoutEvents(p->trace);
        storeSeconds_["store ranks and steps"] += secondsSince(t0);
        const auto t1 = std::chrono::steady_clock::now();
        shards_->hand(k, std::move(p), std::move(ids), bytesOf(k));
        storeSeconds_["hand to shard writers"] += secondsSince(t1);
        return;
    }
    const double n = static_cast<double>(slots_.size());
    const ProgressSink partSink{
        [&](double f) { sink_.report((static_cast<double>(k) + kReadShare + (1 - kReadShare) * f) / n); },
        sink_.cancel};
    appender.append(p->trace, partSink);
    storeSeconds_["store events"] += secondsSince(t0);
    p.reset();
    release(k);
}

void Pass::storePart(std::size_t k, std::unique_ptr<PreparedPart> part, RunAppender& appender,
                     StreamedRun& out) {
    PreparedPart& p = *part;
    auto t0 = std::chrono::steady_clock::now();
    p.summaries.append(ws_, appender.runId());
    storeSeconds_["store summaries"] += secondsSince(t0);
    for (const auto& r : p.trace.ranks) {
        ++out.ranks;
        if (r.clockSkewEstimateNs != 0 || r.clockOffsetNs != 0)
            out.rankNotes.push_back("rank " + std::to_string(r.rank) + ": clock offset " +
                                    std::to_string(r.clockOffsetNs) + " ns, estimated skew ±" +
                                    std::to_string(r.clockSkewEstimateNs) + " ns");
    }
    // The overview on the grid of the ranks so far: nested in the run's final grid (fewer buckets over
    // a longer span: OverviewGrid.h), so the merge stays exact and its memory bounded.
    t0 = std::chrono::steady_clock::now();
    const int buckets = timeline::overviewBucketsFor(static_cast<std::size_t>(out.ranks));
    timeline::rebucketOverview(p.overview, buckets);
    timeline::appendOverviewPart(overview_, std::move(p.overview));
    if (buckets < overviewBuckets_) {
        timeline::rebucketOverview(overview_, buckets);
        overviewBuckets_ = buckets;
    }
    storeSeconds_["merge overviews"] += secondsSince(t0);
    schemes_.push_back(p.steps);
    truncated_.insert(p.truncatedNames.begin(), p.truncatedNames.end());
    if (firstInfo_)
        out.info = std::move(p.trace.info); // the shard writer needs only the part's rows
    else
        mergeRunInfo(out.info, std::move(p.trace.info));
    firstInfo_ = false;
    storeEvents(k, std::move(part), appender);
}

PassFindings Pass::run(const std::string& runName, const std::function<void(RunInfo&)>& finishInfo,
                       StreamedRun& out) {
    RunAppender appender(ws_, runName, plan_.shardRunId);
    ensureSummaryTables(ws_);
    if (ws_.isStudy())
        shards_ = std::make_unique<ShardWriters>(ws_, appender.runId(), runName, [this](std::uint64_t bytes) {
            std::lock_guard lock(m_);
            inFlight_ -= bytes;
            changed_.notify_all();
        });
    double storeSeconds = 0, waitSeconds = 0;
    {
        std::vector<std::thread> readers;
        struct StopAndJoin { // every reader has been joined when this block is left, normally or by a throw
            Pass& pass;
            std::vector<std::thread>& readers;
            ~StopAndJoin() {
                {
                    std::lock_guard lock(pass.m_);
                    pass.stop_ = true;
                    pass.changed_.notify_all();
                }
                for (auto& t : readers)
                    t.join();
            }
        } stopAndJoin{*this, readers};
        for (std::size_t t = 0; t < jobs_; ++t)
            readers.emplace_back([this] { readParts(); });
        for (std::size_t k = 0; k < slots_.size(); ++k) {
            auto t0 = std::chrono::steady_clock::now();
            bool learnOnly = false;
            std::unique_ptr<PreparedPart> p = waitForPart(k, learnOnly);
            waitSeconds += secondsSince(t0);
            t0 = std::chrono::steady_clock::now();
            if (p && !learnOnly) {
                storePart(k, std::move(p), appender, out);
            } else {
                p.reset();
                release(k);
            }
            storeSeconds += secondsSince(t0);
            std::lock_guard lock(m_);
            ++stored_;
            changed_.notify_all();
        }
    }
    for (const auto& [phase, s] : readerSeconds_)
        out.phases.emplace_back(phase + " (readers, summed)", s);
    out.phases.emplace_back("store parts", storeSeconds);
    for (const auto& [phase, s] : storeSeconds_)
        out.phases.emplace_back("  " + phase, s);
    out.phases.emplace_back("wait for parts", waitSeconds);
    if (!found_.outOfOrder)
        found_.imposeSteps = stepsToImpose(schemes_, plan_.steps);
    if (found_.outOfOrder || found_.imposeSteps)
        return found_;
    storeRunWide(appender, runName, out);
    if (finishInfo)
        finishInfo(out.info);
    out.info.worldSize = std::max(out.info.worldSize, out.ranks);
    if (shards_) {
        const auto t0 = std::chrono::steady_clock::now();
        shards_->finish(out.info);
        out.phases.emplace_back("wait for shard writers", secondsSince(t0));
    }
    appender.finish(out.info);
    return found_;
}

// The rows that span parts: the all-rank kernel statistics and the run's timeline overview.
void Pass::storeRunWide(RunAppender& appender, const std::string& runName, StreamedRun& out) {
    const auto t0 = std::chrono::steady_clock::now();
    SummaryRowBuffers allRanks;
    KernelDigestWriter digest;
    pool_.write(allRanks, plan_.shardRunId ? &digest : nullptr);
    allRanks.append(ws_, appender.runId());
    out.phases.emplace_back("all-rank kernel statistics", secondsSince(t0));
    const auto t1 = std::chrono::steady_clock::now();
    if (plan_.shardRunId)
        writeShardPart(ws_, shardPartOf(appender.runId(), digest.finish()));
    timeline::finishOverview(overview_, timeline::overviewBucketsFor(static_cast<std::size_t>(out.ranks)));
    overview_.runId = appender.runId();
    overview_.runName = runName;
    timeline::storeOverview(ws_, overview_);
    out.phases.emplace_back("overview", secondsSince(t1));
    out.runId = appender.runId();
    out.events = appender.eventCount();
    out.truncatedNames = truncated_.size();
}

// A shard written alone: its step decision (every part settled on one, or none matched a pattern), its
// kernel durations and its overview as merged so far, before the run-wide finish.
ShardPartRow Pass::shardPartOf(RunId runId, std::string kernelDigest) const {
    ShardPartRow row;
    row.runId = runId;
    for (const auto& s : schemes_)
        if (s.pattern >= 0) {
            row.stepsPattern = s.pattern;
            row.stepsByName = s.numberedByName;
            break;
        }
    row.kernelFormat = KernelDigestWriter::kFormat;
    row.kernelGroups = std::move(kernelDigest);
    row.overviewFormat = timeline::overviewFormat();
    row.overviewPart = timeline::encodeOverview(overview_);
    return row;
}

// After a failed study ingest: the shards' rows their writers committed on the way (ShardWriters) are
// removed, so the study is as it was. Best effort: what this cannot remove (the disk full, the study
// locked) the next ingest removes first.
void removeCommittedShardRows(Workspace& ws) noexcept {
    if (!ws.isStudy())
        return;
    try {
        Transaction tx = writeTransaction(ws);
        ws.removeOrphanShardRuns();
        tx.commit();
    } catch (...) { // NOLINT(bugprone-empty-catch): the next ingest removes them
    }
}

StreamedRun streamPasses(Workspace& ws, const RunSource& source, const std::string& runName, int jobs,
                         const std::function<void(RunInfo&)>& finishInfo, const ProgressSink& sink,
                         std::optional<RunId> shardRunId) {
    const CategoryRules rules = categoryRulesOf(ws);
    PassPlan plan;
    plan.shardRunId = shardRunId;
    plan.summary = summaryOptionsOf(ws);
    plan.order.resize(source.names.size());
    std::iota(plan.order.begin(), plan.order.end(), 0);
    if (source.rankHints.size() == source.names.size())
        std::stable_sort(plan.order.begin(), plan.order.end(), [&](std::size_t a, std::size_t b) {
            const auto ra = source.rankHints[a] < 0 ? kNoRank : source.rankHints[a];
            const auto rb = source.rankHints[b] < 0 ? kNoRank : source.rankHints[b];
            return ra < rb;
        });
    int stepRedos = 0;
    for (int pass = 1;; ++pass) {
        StreamedRun out;
        out.passes = pass;
        Transaction tx = writeTransaction(ws);
        ws.removeOrphanShardRuns();
        const auto t0 = std::chrono::steady_clock::now();
        const PassFindings found = Pass(ws, source, plan, jobs, rules, sink).run(runName, finishInfo, out);
        if (found.outOfOrder) {
            if (plan.ranks) // a numbering imposed in rank order cannot come out of order
                throw std::logic_error("streamRun: parts out of rank order in a second pass");
            plan.ranks = found.renumbered;
            std::stable_sort(plan.order.begin(), plan.order.end(), [&](std::size_t a, std::size_t b) {
                return found.minRank[a] < found.minRank[b];
            });
            continue;
        }
        if (found.imposeSteps) {
            // At most two: the pattern, then the numbering of the parts that use it (then all agree).
            if (++stepRedos > 2)
                throw std::logic_error("streamRun: the parts' step decisions do not settle");
            if (!plan.ranks)
                plan.ranks = found.renumbered;
            plan.steps = *found.imposeSteps;
            continue;
        }
        out.phases.emplace_back("pass", secondsSince(t0));
        const auto t1 = std::chrono::steady_clock::now();
        tx.commit();
        out.phases.emplace_back("commit", secondsSince(t1));
        if (ws.isStudy()) {
            const auto t2 = std::chrono::steady_clock::now();
            ws.checkpointShards(static_cast<unsigned>(std::max(jobs, 1)));
            out.phases.emplace_back("checkpoint shards", secondsSince(t2));
        }
        // The hosts' clock fit from the stored collectives (bounded: a few ranks per host), in a
        // transaction of its own; should it fail, the run is removed again (no run without its fit).
        // A shard written alone sees only its hosts: its study fits the run's clocks when assembled.
        if (!shardRunId) {
            const auto t3 = std::chrono::steady_clock::now();
            try {
                recordClockAlignment(ws, out.runId);
            } catch (...) {
                ws.removeRun(out.runId);
                throw;
            }
            out.phases.emplace_back("clock alignment", secondsSince(t3));
        }
        sink.report(1.0);
        return out;
    }
}

} // namespace

StreamedRun streamRun(Workspace& ws, const RunSource& source, const std::string& runName, int jobs,
                      const std::function<void(RunInfo&)>& finishInfo, const ProgressSink& sink,
                      std::optional<RunId> shardRunId) {
    if (source.names.empty())
        throw InputError(ws.path(), "nothing to ingest");
    try {
        return streamPasses(ws, source, runName, jobs, finishInfo, sink, shardRunId);
    } catch (...) {
        removeCommittedShardRows(ws);
        throw;
    }
}

} // namespace cnp
