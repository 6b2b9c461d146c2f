#include "ingest/StudyAssembler.h"

#include "core/RunAttributeKeys.h"
#include "requests/ClockAlignmentRequest.h"

#include "core/EventShardRanks.h"
#include "core/InputError.h"
#include "ingest/KernelDigest.h"
#include "metrics/KernelStatsPool.h"
#include "store/ConnectionMemory.h"
#include "store/GapPackRows.h"
#include "store/MetaKeys.h"
#include "store/RunAppender.h"
#include "store/ShardParts.h"
#include "store/StringInterner.h"
#include "store/StudyFolder.h"
#include "store/SummaryRowBuffers.h"
#include "store/SummaryRowReader.h"
#include "store/SummaryTables.h"
#include "store/Workspace.h"
#include "store/WorkspaceRemoval.h"
#include "store/WorkspaceTransactions.h"
#include "timeline/OverviewMerge.h"
#include "timeline/TimelineOverview.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <unistd.h>

namespace cnp {

namespace {

namespace fs = std::filesystem;

// The all-rank kernel durations held in memory before they spill to a temporary file (as RunStreamer).
constexpr std::size_t kPoolBudgetBytes = std::size_t{64} << 20;

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What assemble learns of one shard before it writes anything: summaries and rows of the small tables.
struct ShardFacts {
    std::string file;
    RunRecord run;                   // its one run, named "<id>:<name>"
    std::string runName;             // the name after "<id>:"
    std::vector<std::int32_t> ranks; // ascending
    int stepsPattern = -1;
    bool stepsByName = false;
    std::optional<std::string> categoryRules, stepsIncludeOrphans;
    std::uint64_t bytes = 0;
};

// Runs `f`, turning what a damaged file throws (SQLite's "database disk image is malformed", a bad blob)
// into an InputError naming `file`.
template <class F> auto namingFile(const std::string& file, F&& f) {
    try {
        return f();
    } catch (const InputError&) {
        throw;
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(file, std::string("cannot be read as a shard: ") + e.what());
    }
}

// "<id>:<name>" of run `id`: its name; InputError otherwise.
std::string runNameOf(const RunRecord& run, const std::string& file) {
    const std::string prefix = std::to_string(run.id.value()) + ":";
    if (!run.info.name.starts_with(prefix) || run.info.name.size() == prefix.size())
        throw InputError(file, "its run '" + run.info.name + "' is not named '" + prefix +
                                   "NAME' as cnp ingest-shard names a shard's run");
    return run.info.name.substr(prefix.size());
}

ShardFacts factsOf(const std::string& file) {
    ShardFacts f;
    f.file = file;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        throw InputError(file, "is not a file");
    f.bytes = fs::file_size(file, ec);
    if (const auto wal = fs::file_size(file + "-wal", ec); !ec && wal > 0)
        throw InputError(file, "has a write-ahead log beside it (" + file +
                                   "-wal): the shard is still open or was not closed; assemble it once its "
                                   "ingest has finished");
    return namingFile(file, [&] {
        const Workspace ws(file, Workspace::Mode::ReadOnly);
        if (ws.isStudy())
            throw InputError(file, "is a study, not a shard file");
        if (ws.meta(std::string(metakeys::kStringIds)) != std::string(StringInterner::kContentIds))
            throw InputError(file, "is not a shard written alone (its strings are not numbered by content: "
                                   "write shards with cnp ingest-shard)");
        const std::vector<RunRecord> runs = ws.runs();
        if (runs.size() != 1)
            throw InputError(file, "holds " + std::to_string(runs.size()) +
                                       " runs; a shard written alone holds part of one run");
        f.run = runs.front();
        f.runName = runNameOf(f.run, file);
        const auto part = readShardPart(ws, f.run.id, false);
        if (!part)
            throw InputError(file, "has no shard_part row for its run: not a shard written alone, or its "
                                   "ingest did not finish");
        f.stepsPattern = part->stepsPattern;
        f.stepsByName = part->stepsByName;
        TraceData t;
        readRanksAndSteps(ws, f.run.id, t);
        for (const auto& r : t.ranks)
            f.ranks.push_back(r.rank);
        if (f.ranks.empty())
            throw InputError(file, "holds no rank of its run");
        f.categoryRules = ws.meta(std::string(metakeys::kCategoryRules));
        f.stepsIncludeOrphans = ws.meta(std::string(metakeys::kStepsIncludeOrphans));
        return f;
    });
}

// Two shards of one run: the same name, configuration and repeat, no rank claimed twice, ranks not
// interleaved (the index stores a run's ranks in order, each shard's as one block).
void checkSameRun(const ShardFacts& a, const ShardFacts& b) {
    const std::string id = std::to_string(a.run.id.value());
    if (a.runName != b.runName)
        throw InputError(b.file, "its run id " + id + " is named '" + b.runName + "', but in " + a.file +
                                     " it is '" + a.runName + "': shards of one run share its id and name");
    if (a.run.info.config != b.run.info.config || a.run.info.repeat != b.run.info.repeat)
        throw InputError(b.file, "run '" + a.runName + "' has configuration '" + b.run.info.config +
                                     "' repeat " + std::to_string(b.run.info.repeat) + " here, '" +
                                     a.run.info.config + "' repeat " + std::to_string(a.run.info.repeat) +
                                     " in " + a.file);
    for (const std::int32_t r : b.ranks)
        if (std::binary_search(a.ranks.begin(), a.ranks.end(), r))
            throw InputError(b.file, "claims rank " + std::to_string(r) + " of run '" + a.runName +
                                         "', which " + a.file + " claims too");
    if (a.ranks.back() > b.ranks.front())
        throw InputError(b.file, "its ranks of run '" + a.runName + "' interleave with those of " + a.file +
                                     ": each shard must hold a block of consecutive ranks");
    const bool aSteps = a.stepsPattern >= 0, bSteps = b.stepsPattern >= 0;
    if (aSteps && bSteps && (a.stepsPattern != b.stepsPattern || a.stepsByName != b.stepsByName))
        throw InputError(b.file, "decided the steps of run '" + a.runName + "' otherwise than " + a.file +
                                     " (step pattern " + std::to_string(b.stepsPattern) +
                                     (b.stepsByName ? ", numbered by name" : ", numbered in order") +
                                     " against " + std::to_string(a.stepsPattern) +
                                     (a.stepsByName ? ", numbered by name" : ", numbered in order") +
                                     "): one ingest of the whole run would impose one decision; ingest "
                                     "these ranks into one shard, or the run into one file");
}

// Shards in study order: by run id, then by rank. Refuses what cannot be one study (see the header).
std::vector<ShardFacts> checkedFacts(const std::vector<std::string>& files, const ProgressSink& sink) {
    std::vector<ShardFacts> facts;
    std::set<fs::path> seen;
    for (const auto& f : files) {
        sink.checkCancel();
        std::error_code ec;
        const fs::path canonical = fs::weakly_canonical(f, ec);
        if (!seen.insert(ec ? fs::path(f) : canonical).second)
            throw InputError(f, "is named twice");
        facts.push_back(factsOf(f));
    }
    std::sort(facts.begin(), facts.end(), [](const ShardFacts& a, const ShardFacts& b) {
        return a.run.id != b.run.id ? a.run.id < b.run.id : a.ranks.front() < b.ranks.front();
    });
    std::map<std::string, const ShardFacts*> byName;
    for (std::size_t i = 0; i < facts.size(); ++i) {
        const ShardFacts& f = facts[i];
        if (i > 0 && facts[i - 1].run.id == f.run.id)
            checkSameRun(facts[i - 1], f);
        const auto [it, fresh] = byName.emplace(f.runName, &f);
        if (!fresh && it->second->run.id != f.run.id)
            throw InputError(f.file, "its run '" + f.runName + "' has id " +
                                         std::to_string(f.run.id.value()) + ", but in " + it->second->file +
                                         " id " + std::to_string(it->second->run.id.value()) +
                                         ": give each run one id (cnp ingest-shard --run-id)");
        if (f.categoryRules != facts.front().categoryRules ||
            f.stepsIncludeOrphans != facts.front().stepsIncludeOrphans)
            throw InputError(f.file, "was summarised with other category rules or step settings than " +
                                         facts.front().file);
    }
    return facts;
}

// The hard link (or, across file systems, a copy) of each shard as the study's shard k.
std::uint64_t placeShards(const StudyFolder& folder, const std::vector<ShardFacts>& facts) {
    std::uint64_t copied = 0;
    for (std::size_t k = 0; k < facts.size(); ++k) {
        const std::string to = folder.shardPath(static_cast<int>(k));
        if (::link(facts[k].file.c_str(), to.c_str()) == 0)
            continue;
        std::error_code ec;
        fs::copy_file(facts[k].file, to, ec);
        if (ec)
            throw InputError(facts[k].file, "cannot be linked or copied into " + to + ": " + ec.message());
        copied += facts[k].bytes;
    }
    return copied;
}

// Every summary row of the shard's part of run `id` (the all-rank kernel rows aside), strings as text.
void copySummaries(const Workspace& shard, RunId id, const std::vector<std::int32_t>& ranks,
                   SummaryRowSink& out) {
    const SummaryRowReader r(shard, id);
    for (const auto& row : r.ranks())
        out.add(row);
    for (const auto& row : r.steps(-1))
        out.add(row);
    for (const std::int32_t rank : ranks) {
        for (const auto& row : r.exclusive(RankId(rank), SummaryRowReader::kWholeWindow))
            out.add(row);
        for (const auto& row : r.kernels(rank, 0))
            out.add(row);
    }
    for (const auto& row : r.stepExclusive(-1))
        out.add(row);
    if (!runHasGapPacks(shard, id)) // a shard summarised before summary_gap_pack: its rows are packed anew
        for (const auto& row : r.gaps(0))
            out.add(row);
    r.forEachSync([&](const SummarySyncRow& row) { out.add(row); });
    for (const auto& row : r.streams())
        out.add(row);
}

// The shard's packed gaps of `ranks`, each checked (naming the shard) to be copied as it is: O(gaps) to
// check; memory the packs (a few hundred KB a rank).
std::vector<GapPackRow> checkedGapPacks(const Workspace& shard, RunId id,
                                        const std::vector<std::int32_t>& ranks) {
    std::vector<GapPackRow> out;
    for (const std::int32_t rank : ranks)
        forEachGapPack(shard, id, rank, [&](const GapPackRow& row) {
            checkGapPackRow(shard, id, row);
            out.push_back(row);
        });
    return out;
}

// The overview part of a shard_part row, decoded; InputError naming `file` when it cannot be read.
timeline::TimelineModel overviewPartOf(const ShardPartRow& row, const std::string& file) {
    if (!timeline::readsOverviewFormat(row.overviewFormat))
        throw InputError(file, "shard_part overview_part: format " + std::to_string(row.overviewFormat) +
                                   " (this cnp reads " + std::to_string(timeline::overviewFormat()) + ")");
    std::optional<timeline::TimelineModel> part =
        timeline::decodeOverview(row.overviewPart, row.overviewFormat);
    if (!part)
        throw InputError(file, "shard_part overview_part: truncated or inconsistent");
    return std::move(*part);
}

// What a reader thread reads of one shard, on the shard's own connection, while the calling thread writes
// the shards before it into the index (writeRun): its summary rows bound for insertion, its checked gap
// packs, its kernel digest and its overview part decoded. Memory: one shard's summaries (the digest's
// durations, 8 bytes a kernel launch, are the most: ~32 MB for 8 ranks of 1M events).
struct ShardSummaries {
    SummaryRowBuffers rows;
    std::vector<GapPackRow> gapPacks;
    ShardPartRow part; // without its overview part and digest, decoded into `overview` and `kernelGroups`
    timeline::TimelineModel overview;
    std::vector<KernelDigestGroup> kernelGroups;
    std::map<std::string, double> seconds; // per phase, on the worker thread
};

ShardSummaries readShardSummaries(const Workspace& shard, RunId id, const ShardFacts& f) {
    return namingFile(f.file, [&] {
        ShardSummaries s;
        auto t0 = std::chrono::steady_clock::now();
        copySummaries(shard, id, f.ranks, s.rows);
        s.gapPacks = checkedGapPacks(shard, id, f.ranks);
        s.seconds["read: summary rows and gap packs"] = secondsSince(t0);
        t0 = std::chrono::steady_clock::now();
        const std::optional<ShardPartRow> part = readShardPart(shard, id);
        if (!part)
            throw InputError(f.file, "has no shard_part row of its run");
        s.part = *part;
        s.overview = overviewPartOf(s.part, f.file);
        s.part.overviewPart = std::string();
        s.seconds["read: shard_part"] = secondsSince(t0);
        t0 = std::chrono::steady_clock::now();
        s.kernelGroups = decodeKernelDigest(s.part.kernelGroups, s.part.kernelFormat, f.file);
        s.part.kernelGroups = std::string();
        s.seconds["read: kernel digest"] = secondsSince(t0);
        return s;
    });
}

// One run's shards, in rank order: shard numbers `ks` of the study, whose facts are `parts`, read from
// `stores` (the study's shards, or the summary files addRunFromSummaries opened). `contentStrings`: the
// index takes the shards' strings under their content ids (their event rows use them); false for a run
// whose events stay elsewhere, whose rows are all re-bound by text.
struct RunParts {
    std::vector<int> ks;
    std::vector<const ShardFacts*> parts;
    std::vector<const Workspace*> stores;
    bool contentStrings = true;
};

// Reads a run's shards ahead of the thread that writes them: up to `depth` shards in flight, each on a
// thread of its own (a shard's connection is used by one thread at a time: SQLite's multi-thread mode),
// handed out in shard order whatever order they finish in. Memory: at most depth + 1 shards' summaries
// (those in flight and the one handed out), however many shards the run has. Destroying it waits for the
// reads in flight (they only read).
class ShardReadAhead {
public:
    ShardReadAhead(const RunParts& run, RunId id, std::size_t depth) : run_(run), id_(id), depth_(depth) {
        fill();
    }
    // The summaries of the next shard in order (waiting for its read); a read's InputError is thrown here.
    ShardSummaries next() {
        ShardSummaries s = inFlight_.front().get();
        inFlight_.pop_front();
        fill();
        return s;
    }

    // Reader threads for this machine: one per core but the writer's, at least one, at most kMaxDepth
    // (memory: a shard's summaries each).
    static constexpr std::size_t kMaxDepth = 8;
    static std::size_t defaultDepth() {
        const unsigned cores = std::thread::hardware_concurrency();
        return std::clamp<std::size_t>(cores > 1 ? cores - 1 : 1, 1, kMaxDepth);
    }

private:
    void fill() {
        while (inFlight_.size() < depth_ && launched_ < run_.parts.size()) {
            inFlight_.push_back(std::async(std::launch::async, readShardSummaries,
                                           std::cref(*run_.stores[launched_]), id_,
                                           std::cref(*run_.parts[launched_])));
            ++launched_;
        }
    }

    const RunParts& run_;
    RunId id_;
    std::size_t depth_;
    std::size_t launched_ = 0;
    std::deque<std::future<ShardSummaries>> inFlight_;
};

// The run's timeline overview, merged part by part as RunStreamer merges a run's parts (nested grids), so
// that memory holds the merged overview and one part, however many shards the run has.
class OverviewAccumulator {
public:
    // Appends the decoded part of a shard holding `ranks` ranks (the parts in rank order).
    void add(timeline::TimelineModel part, std::size_t ranks) {
        ranks_ += ranks;
        const int b = timeline::overviewBucketsFor(ranks_);
        timeline::rebucketOverview(part, b);
        timeline::appendOverviewPart(o_, std::move(part));
        if (b < buckets_) {
            timeline::rebucketOverview(o_, b);
            buckets_ = b;
        }
    }
    // Finishes and stores the run's overview; returns its start (the earliest start over every event of
    // every part: store/RunTimeOrigin.h's origin).
    Ns store(Workspace& index, RunId id, const std::string& name) {
        timeline::finishOverview(o_, timeline::overviewBucketsFor(ranks_));
        o_.runId = id;
        o_.runName = name;
        timeline::storeOverview(index, o_);
        return o_.runStart;
    }

private:
    timeline::TimelineModel o_;
    int buckets_ = 8192;
    std::size_t ranks_ = 0;
};

// Writes run `id` into the index from its shards' summaries. Inside the caller's write transaction.
// Returns the run's time origin (its merged overview's start).
Ns writeRun(Workspace& index, const RunParts& run, AssembledStudy& out) {
    const ShardFacts& first = *run.parts.front();
    const RunId id = first.run.id;
    RunAppender appender(index, first.runName, id);
    TraceData ranksAndSteps;
    OverviewAccumulator overview;
    KernelStatsPool pool(kPoolBudgetBytes);
    RunInfo info = first.run.info;
    std::int64_t kernels = 0, events = 0;
    std::map<std::string, double> seconds; // per phase, summed over the run's shards
    auto timed = [&](const char* phase, auto&& f) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        seconds[phase] += secondsSince(t0);
    };
    // The next shards are read on reader threads while shard i is written here.
    ShardReadAhead reads(run, id, ShardReadAhead::defaultDepth());
    for (std::size_t i = 0; i < run.parts.size(); ++i) {
        const ShardFacts& f = *run.parts[i];
        const Workspace& shard = *run.stores[i];
        ShardSummaries s;
        timed("waiting for a shard's read", [&] { s = reads.next(); });
        for (const auto& [phase, t] : s.seconds)
            seconds[phase] += t;
        namingFile(f.file, [&] {
            if (run.contentStrings)
                timed("strings", [&] { copyContentStrings(shard, index); });
            timed("ranks and steps", [&] { readRanksAndSteps(shard, id, ranksAndSteps); });
            timed("summary rows", [&] { s.rows.append(index, id); });
            timed("gap packs", [&] {
                for (const GapPackRow& row : s.gapPacks)
                    writeGapPack(index, id, row);
            });
            timed("kernel digests", [&] { addKernelDigestGroups(std::move(s.kernelGroups), pool); });
            timed("overview", [&] { overview.add(std::move(s.overview), f.ranks.size()); });
            return 0;
        });
        // The shard is read: its connection's page cache (up to the workspace's cache size) is given back,
        // so that memory holds the caches of the shards being read, not of every shard read so far.
        releaseCacheMemory(shard);
        if (i > 0)
            mergeRunInfo(info, RunInfo(f.run.info));
        kernels += f.run.kernelCount;
        events += f.run.eventCount;
        out.ranks += static_cast<std::int64_t>(f.ranks.size());
    }
    timed("ranks and steps", [&] { appender.appendWithoutEvents(ranksAndSteps); });
    timed("kernel digests: the all-rank merge", [&] {
        SummaryRowBuffers allRanks;
        pool.write(allRanks);
        allRanks.append(index, id);
    });
    Ns origin = 0;
    timed("overview", [&] { origin = overview.store(index, id, first.runName); });
    info.name = first.runName;
    std::int32_t ranks = 0;
    for (const auto* f : run.parts)
        ranks += static_cast<std::int32_t>(f->ranks.size());
    info.worldSize = std::max(info.worldSize, ranks);
    appender.countStoredElsewhere(kernels, events);
    appender.finish(info);
    // The shard's own clock fit saw only its hosts: the run's is fitted over all of them once the index
    // is written (writeIndex).
    for (const auto& [key, value] : run.stores.front()->runAttributes(id))
        if (key != kClockAlignmentAttribute)
            index.setRunAttribute(id, key, value);
    out.events += events;
    for (const auto& [phase, s] : seconds)
        out.phases.emplace_back("  " + phase, s);
    return origin;
}

void writeIndex(Workspace& index, const std::vector<ShardFacts>& facts, AssembledStudy& out,
                const ProgressSink& sink) {
    Transaction tx = writeTransaction(index);
    index.setMeta(std::string(metakeys::kStringIds), std::string(StringInterner::kContentIds));
    if (facts.front().categoryRules)
        index.setMeta(std::string(metakeys::kCategoryRules), *facts.front().categoryRules);
    if (facts.front().stepsIncludeOrphans)
        index.setMeta(std::string(metakeys::kStepsIncludeOrphans), *facts.front().stepsIncludeOrphans);
    ensureSummaryTables(index);
    std::vector<RunParts> runs;
    for (std::size_t k = 0; k < facts.size(); ++k) {
        if (k == 0 || facts[k - 1].run.id != facts[k].run.id)
            runs.emplace_back();
        runs.back().ks.push_back(static_cast<int>(k));
        runs.back().parts.push_back(&facts[k]);
        runs.back().stores.push_back(&index.shard(static_cast<int>(k)));
    }
    for (std::size_t r = 0; r < runs.size(); ++r) {
        sink.checkCancel();
        writeRun(index, runs[r], out);
        sink.report(static_cast<double>(r + 1) / static_cast<double>(runs.size()));
    }
    out.runs = static_cast<int>(runs.size());
    const auto t0 = std::chrono::steady_clock::now();
    tx.commit();
    out.phases.emplace_back("  commit", secondsSince(t0));
    // Each run's hosts' clock fit, as an ingest records it: a few ranks per host's collective kernels read
    // from their shards (requests/ClockAlignmentRequest.h), the only event rows assembling reads.
    const auto t1 = std::chrono::steady_clock::now();
    for (const RunParts& run : runs)
        recordClockAlignment(index, run.parts.front()->run.id);
    out.phases.emplace_back("  clock alignment", secondsSince(t1));
}

} // namespace

AssembledStudy assembleStudy(const std::string& studyPath, const std::vector<std::string>& shardFiles,
                             const ProgressSink& sink) {
    if (shardFiles.empty() || shardFiles.size() > static_cast<std::size_t>(StudyFolder::kMaxShards))
        throw InputError(studyPath, "a study is assembled from 1 to " +
                                        std::to_string(StudyFolder::kMaxShards) + " shards, not " +
                                        std::to_string(shardFiles.size()));
    if (!studyPath.ends_with(".cnpstudy"))
        throw InputError(studyPath, "a study's path ends in .cnpstudy");
    std::error_code ec;
    if (fs::exists(studyPath, ec) || ec)
        throw InputError(studyPath, "exists; a study is assembled into a new folder");
    AssembledStudy out;
    auto t0 = std::chrono::steady_clock::now();
    const std::vector<ShardFacts> facts = checkedFacts(shardFiles, sink);
    out.phases.emplace_back("read and check the shards", secondsSince(t0));
    out.shards = static_cast<int>(facts.size());
    for (const auto& f : facts)
        out.shardBytes += f.bytes;
    try {
        t0 = std::chrono::steady_clock::now();
        const StudyFolder folder = StudyFolder::create(studyPath, out.shards);
        out.copiedBytes = placeShards(folder, facts);
        out.phases.emplace_back("link the shards", secondsSince(t0));
        t0 = std::chrono::steady_clock::now();
        Workspace index(studyPath, Workspace::Mode::CreateIfMissing);
        writeIndex(index, facts, out, sink);
        out.phases.emplace_back("write the index", secondsSince(t0));
    } catch (...) {
        removeCreatedWorkspace(studyPath); // the links only: the shard files stay as they were
        throw;
    }
    return out;
}

namespace {

// Run `id`'s hosts' clock fit as assemble records it, from the kernels the files keep for it (summary
// files keep the clock fit's: store/SummaryFile.h), fitted in a study of the files assembled beside the
// first one for that (links, else copies) and removed again; stored in `ws` in a transaction of its own.
void recordClocksFromFiles(Workspace& ws, RunId id, const std::vector<std::string>& files) {
    const fs::path study =
        fs::path(files.front()).parent_path() / ("clock-fit-" + std::to_string(::getpid()) + ".cnpstudy");
    removeCreatedWorkspace(study.string());
    std::optional<std::string> text;
    try {
        assembleStudy(study.string(), files);
        const Workspace s(study.string(), Workspace::Mode::ReadOnly);
        text = s.runAttribute(id, kClockAlignmentAttribute);
    } catch (...) {
        removeCreatedWorkspace(study.string());
        throw;
    }
    removeCreatedWorkspace(study.string());
    if (!text)
        return;
    Transaction tx = writeTransaction(ws);
    ws.setRunAttribute(id, kClockAlignmentAttribute, *text);
    tx.commit();
}

// The ranks of each file, in the order given (the cluster ingest gives them in shard order, so a file's
// position is its shard's number on the volume); none when they are not ascending from file to file.
std::optional<EventShardRanks> shardRanksOf(const std::vector<ShardFacts>& facts) {
    std::vector<std::vector<std::int32_t>> ranks;
    ranks.reserve(facts.size());
    for (const ShardFacts& f : facts)
        ranks.push_back(f.ranks);
    try {
        return EventShardRanks(std::move(ranks));
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

} // namespace

RunId addRunFromSummaries(Workspace& ws, const std::vector<std::string>& files, const std::string& runName,
                          const ProgressSink& sink) {
    if (files.empty())
        throw InputError(ws.path(), "no summary file to add a run from");
    std::vector<ShardFacts> facts = checkedFacts(files, sink);
    const RunId id = facts.front().run.id;
    for (const ShardFacts& f : facts)
        if (f.run.id != id)
            throw InputError(f.file, "holds run id " + std::to_string(f.run.id.value()) + ", " +
                                         facts.front().file + " run id " + std::to_string(id.value()) +
                                         ": the files of one run share its id");
    if (ws.findRun(id))
        throw InputError(ws.path(), "run id " + std::to_string(id.value()) + " (of " + facts.front().file +
                                        ") is taken by run " + ws.runLabel(id));
    // The ranks' summaries follow the category rules and step settings they were made with: a workspace
    // with others would hold one run summarised otherwise than the rest.
    if (ws.meta(std::string(metakeys::kCategoryRules)) != facts.front().categoryRules ||
        ws.meta(std::string(metakeys::kStepsIncludeOrphans)) != facts.front().stepsIncludeOrphans)
        throw InputError(facts.front().file, "was summarised with other category rules or step settings "
                                             "than the workspace " +
                                                 ws.path() + " has");
    facts.front().runName = runName;
    std::vector<std::unique_ptr<Workspace>> opened;
    RunParts run;
    run.contentStrings = false;
    for (std::size_t k = 0; k < facts.size(); ++k) {
        opened.push_back(namingFile(facts[k].file, [&] {
            return std::make_unique<Workspace>(facts[k].file, Workspace::Mode::ReadOnly);
        }));
        run.ks.push_back(static_cast<int>(k));
        run.parts.push_back(&facts[k]);
        run.stores.push_back(opened.back().get());
    }
    Transaction tx = writeTransaction(ws);
    ensureSummaryTables(ws);
    AssembledStudy out;
    const Ns origin = writeRun(ws, run, out);
    std::string names;
    for (const auto& f : files)
        names += (names.empty() ? "" : ", ") + fs::path(f).filename().string();
    ws.setRunAttribute(id, kEventsElsewhereAttribute, "summary files " + names);
    if (const auto shards = shardRanksOf(facts))
        ws.setRunAttribute(id, kEventShardRanksAttribute, shards->text());
    // The run's time origin, which every relative time of a rank's events needs before all its shards
    // are here: the merged overview's start, the earliest over every event of every shard.
    ws.setRunAttribute(id, kEventsOriginAttribute, std::to_string(origin));
    tx.commit();
    try {
        recordClocksFromFiles(ws, id, files);
    } catch (...) { // as if never added: a run without its fit must not pass for a finished one
        ws.removeRun(id);
        throw;
    }
    return id;
}

} // namespace cnp
