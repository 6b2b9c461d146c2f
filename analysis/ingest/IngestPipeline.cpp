#include "ingest/IngestPipeline.h"

#include "core/InputError.h"
#include "core/NameBound.h"
#include "import/Importer.h"
#include "metrics/Categoriser.h"
#include "metrics/CategoryRules.h"
#include "metrics/RunSummaries.h"
#include "metrics/StepDetector.h"
#include "requests/WorkspaceCategories.h"
#include "store/SummaryRowBuffers.h"
#include "store/WorkspaceTransactions.h"
#include "timeline/TimelineBuilder.h"
#include "timeline/TimelineOverview.h"

#include <zlib.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace cnp {

namespace fs = std::filesystem;

namespace {

const std::vector<std::unique_ptr<Importer>>& importers() {
    static const auto list = [] {
        std::vector<std::unique_ptr<Importer>> v;
        for (auto make : {makeCnptImporter, makeNsysImporter, makeKinetoImporter})
            if (auto imp = make())
                v.push_back(std::move(imp));
        return v;
    }();
    return list;
}

// Opens a trace for reading without ever blocking: O_NONBLOCK makes opening a FIFO return at once, and
// anything but a regular file (FIFO, device, socket) is refused before a byte is read.
int openRegularFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw InputError(path, "is not a regular file (a FIFO, device or socket), not a trace");
    }
    if (st.st_size == 0) {
        ::close(fd);
        throw InputError(path, "file is empty", 0);
    }
    return fd;
}

// First bytes of a file, gunzipped when it is gzip (so importers can sniff JSON inside .json.gz).
std::string readHead(const std::string& path, std::size_t n = 4096) {
    gzFile f = gzdopen(openRegularFile(path), "rb"); // reads plain files transparently
    if (!f)
        throw InputError(path, "cannot open file: out of memory");
    std::string head(n, '\0');
    const int got = gzread(f, head.data(), static_cast<unsigned>(n));
    int err = Z_OK;
    const std::string zmsg = gzerror(f, &err);
    const int sysErrno = errno;
    gzclose(f);
    if (got == 0 && err == Z_OK)
        throw InputError(path, "file is empty (a gzip stream of no data)", 0);
    if (got <= 0)
        throw InputError(path,
                         err == Z_ERRNO ? std::string("cannot read: ") + std::strerror(sysErrno)
                         : err == Z_BUF_ERROR
                             ? "truncated gzip stream (the file ends inside the gzip header or data)"
                             : "corrupt gzip stream (" + zmsg + ")",
                         0);
    head.resize(static_cast<std::size_t>(got));
    return head;
}

bool looksLikeTraceFile(const fs::path& p) {
    const auto name = p.filename().string();
    auto ends = [&](std::string_view suf) {
        return name.size() >= suf.size() && name.compare(name.size() - suf.size(), suf.size(), suf) == 0;
    };
    return ends(".json") || ends(".json.gz") || ends(".cnpt") || ends(".cnpt.gz") || ends(".sqlite") ||
           ends(".pt.trace.json");
}

std::string stemOf(const std::string& path) {
    auto name = fs::path(path).filename().string();
    for (std::string_view suf : {".gz", ".json", ".pt.trace", ".cnpt", ".sqlite"})
        if (name.size() > suf.size() && name.compare(name.size() - suf.size(), suf.size(), suf) == 0)
            name.resize(name.size() - suf.size());
    return name;
}

// Nesting depth per (rank, pid, tid) of CPU ranges sorted by start (ties: longer first). O(n) with a stack.
void computeDepths(std::vector<CpuRange>& ranges) {
    std::map<std::tuple<std::int32_t, std::int64_t, std::int64_t>, std::vector<Ns>> openEnds;
    for (auto& r : ranges) {
        auto& stack = openEnds[{r.rank, r.pid, r.tid}];
        while (!stack.empty() && stack.back() <= r.start)
            stack.pop_back();
        if (r.depth < 0)
            r.depth = static_cast<std::int32_t>(stack.size());
        stack.push_back(r.end);
    }
}

} // namespace

std::vector<std::string> expandInputs(const std::vector<std::string>& inputs) {
    std::vector<std::string> files;
    for (const auto& in : inputs) {
        std::error_code ec;
        if (!fs::exists(in, ec))
            throw InputError(in, "no such file or folder");
        if (fs::is_directory(in, ec)) {
            std::vector<std::string> found;
            for (const auto& e : fs::directory_iterator(in, ec))
                if (e.is_regular_file() && looksLikeTraceFile(e.path()))
                    found.push_back(e.path().string());
            if (found.empty())
                throw InputError(
                    in, "folder holds no trace files (*.json, *.json.gz, *.cnpt, *.cnpt.gz, *.sqlite)");
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
        } else {
            files.push_back(in);
        }
    }
    return files;
}

TraceData importFile(const std::string& path, const ProgressSink& sink) {
    const auto head = readHead(path);
    for (const auto& imp : importers())
        if (imp->canRead(path, head))
            return imp->read(path, sink);
    throw InputError(
        path, "not a recognised trace (expected PyTorch-profiler JSON, Nsight Systems SQLite or .cnpt)", 0);
}

void normaliseTrace(TraceData& t) {
    auto byRankStart = [](const auto& a, const auto& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
    };
    std::sort(t.kernels.begin(), t.kernels.end(), byRankStart);
    std::sort(t.memcpys.begin(), t.memcpys.end(), byRankStart);
    std::sort(t.memsets.begin(), t.memsets.end(), byRankStart);
    std::sort(t.apiCalls.begin(), t.apiCalls.end(), byRankStart);
    std::sort(t.gpuAnnotations.begin(), t.gpuAnnotations.end(), byRankStart);
    // CPU ranges: enclosing ranges first at equal start so depth is well defined.
    std::sort(t.cpuRanges.begin(), t.cpuRanges.end(), [](const CpuRange& a, const CpuRange& b) {
        if (a.rank != b.rank)
            return a.rank < b.rank;
        if (a.start != b.start)
            return a.start < b.start;
        return a.end > b.end;
    });
    computeDepths(t.cpuRanges);
    std::sort(t.flows.begin(), t.flows.end(), [](const Flow& a, const Flow& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.cpuTs < b.cpuTs;
    });
    std::sort(t.counters.begin(), t.counters.end(), [](const CounterSample& a, const CounterSample& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.ts < b.ts;
    });
}

namespace {
// Records the wall time since the previous mark under `name`.
class PhaseClock {
public:
    explicit PhaseClock(std::vector<std::pair<std::string, double>>* out) : out_(out) {}
    void mark(const char* name) {
        const auto now = std::chrono::steady_clock::now();
        if (out_)
            out_->emplace_back(name, std::chrono::duration<double>(now - last_).count());
        last_ = now;
    }

private:
    std::vector<std::pair<std::string, double>>* out_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};
} // namespace

RunId addTrace(Workspace& ws, TraceData& trace, const ProgressSink& sink,
               std::vector<std::pair<std::string, double>>* phases) {
    PhaseClock clock(phases);
    normaliseTrace(trace);
    clock.mark("normalise");
    const CategoryRules rules = categoryRulesOf(ws);
    categoriseKernels(trace, rules);
    clock.mark("categorise");
    Transaction tx = writeTransaction(ws);

    // Two threads from here to the join. The worker owns the workspace connection and inserts the
    // events (Workspace::insertEvents never reads trace.steps). This thread, without touching the
    // connection, detects the steps (writing only trace.steps), computes the run summaries and the
    // timeline overview; all of them only read the event vectors. Measured on bench_cnpt_ingest: the
    // computing side takes about half of the insert's time, so it is hidden behind it.
    trace.steps.clear();
    RunId runId;
    std::exception_ptr insertError;
    double insertSeconds = 0;
    std::thread worker([&] {
        const auto t0 = std::chrono::steady_clock::now();
        try {
            ProgressSink insertSink{[&](double f) { sink.report(0.95 * f); }, sink.cancel};
            runId = ws.insertEvents(trace, insertSink);
        } catch (...) {
            insertError = std::current_exception();
        }
        insertSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    struct Join {
        std::thread& t;
        ~Join() {
            if (t.joinable())
                t.join();
        }
    } join{worker};
    detectSteps(trace, StepPattern{});
    clock.mark("steps");
    SummaryRowBuffers summaries;
    computeRunSummaries(trace, rules, summaries);
    clock.mark("summaries");
    timeline::TimelineModel overview = timeline::makeOverview(timeline::TimelineBuilder::fromTrace(trace));
    clock.mark("overview");
    worker.join();
    clock.mark("wait for insert");
    if (phases)
        phases->emplace_back("insert (in parallel)", insertSeconds);
    if (insertError)
        std::rethrow_exception(insertError);

    sink.checkCancel();
    ws.insertSteps(runId, trace);
    summaries.write(ws, runId);
    overview.runId = runId;
    timeline::storeOverview(ws, overview);
    clock.mark("write steps, summaries, overview");
    tx.commit();
    clock.mark("commit");
    sink.report(1.0);
    return runId;
}

namespace {

// Whether `e` is a Cancelled (the stop flag of readParts, or the user's cancel).
bool isCancelled(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const Cancelled&) {
        return true;
    } catch (...) {
        return false;
    }
}

// Reads `files` on up to `jobs` threads into one TraceData each, returned in file order. Only this
// thread reports progress (70 % of the bar, by the files' own progress); the readers stop at their next
// cancellation check once the user cancels or a file fails. The first failure in file order is rethrown,
// so the error does not depend on which thread was faster.
std::vector<TraceData> readParts(const std::vector<std::string>& files, int jobs, const ProgressSink& sink) {
    const std::size_t n = files.size();
    std::vector<TraceData> parts(n);
    std::vector<std::exception_ptr> errors(n);
    std::vector<std::atomic<double>> fraction(n);
    std::atomic<bool> stop{false};
    std::atomic<std::size_t> next{0}, finished{0};
    std::mutex m;
    std::condition_variable done;
    auto work = [&] {
        for (std::size_t i = next++; i < n && !stop; i = next++) {
            ProgressSink fileSink{[&fraction, i](double f) { fraction[i] = f; }, &stop};
            try {
                parts[i] = importFile(files[i], fileSink);
            } catch (...) {
                errors[i] = std::current_exception();
                stop = true;
            }
            fraction[i] = 1.0;
            std::lock_guard lock(m);
            ++finished;
            done.notify_one();
        }
    };
    const std::size_t threads = std::clamp<std::size_t>(jobs > 0 ? static_cast<std::size_t>(jobs) : 1, 1, n);
    { // the readers' lifetime: every one has been joined when this block is left, normally or by a throw
        std::vector<std::thread> pool;
        struct JoinAll {
            std::vector<std::thread>& pool;
            std::atomic<bool>& stop;
            ~JoinAll() {
                stop = true; // a reader still running gives up at its next check (none after a normal end)
                for (auto& t : pool)
                    t.join();
            }
        } joinAll{pool, stop};
        for (std::size_t t = 0; t < threads; ++t)
            pool.emplace_back(work);
        for (;;) {
            std::unique_lock lock(m);
            if (done.wait_for(lock, std::chrono::milliseconds(100), [&] { return finished == n || stop; }))
                break;
            lock.unlock();
            double sum = 0;
            for (const auto& f : fraction)
                sum += f;
            sink.report(0.7 * sum / static_cast<double>(n));
            sink.checkCancel(); // throws; JoinAll stops the readers
        }
    }
    sink.checkCancel();
    for (const auto& e : errors) // a reader stopped by another's failure reports Cancelled: skip those
        if (e && !isCancelled(e))
            std::rethrow_exception(e);
    for (const auto& e : errors)
        if (e)
            std::rethrow_exception(e);
    return parts;
}

// Gives every rank of `part` the number `fresh` instead of `old`.
void renumberRank(TraceData& part, std::int32_t old, std::int32_t fresh) {
    auto move = [&](auto& v) {
        for (auto& e : v)
            if (e.rank == old)
                e.rank = fresh;
    };
    move(part.kernels), move(part.memcpys), move(part.memsets), move(part.apiCalls), move(part.cpuRanges);
    move(part.gpuAnnotations), move(part.flows), move(part.counters), move(part.steps), move(part.ranks);
}

// Ranks in file order. Two files whose sources both name one rank (RankInfo::rankClaimed) are refused:
// they are two attempts or two jobs mixed in one folder, not one run. A single-rank file whose rank was
// defaulted (or repeats only a defaulted one) takes the next free rank; a multi-rank file repeating a rank
// is refused.
void assignRanks(std::vector<TraceData>& parts, const std::vector<std::string>& files) {
    std::map<std::int32_t, std::size_t> claimedBy; // rank -> file that named it
    std::set<std::int32_t> ranksSeen;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        TraceData& part = parts[i];
        for (const auto& r : part.ranks) {
            const auto it = claimedBy.find(r.rank);
            if (r.rankClaimed && it != claimedBy.end())
                throw InputError(files[i], "claims rank " + std::to_string(r.rank) + ", as " +
                                               files[it->second] +
                                               " does: two traces of one rank (an earlier attempt's files "
                                               "mixed in?); ingest the files of one attempt");
        }
        std::set<std::int32_t> partRanks;
        for (const auto& r : part.ranks)
            partRanks.insert(r.rank);
        bool clash = false;
        for (auto r : partRanks)
            clash = clash || ranksSeen.count(r);
        if (clash && partRanks.size() == 1) {
            const std::int32_t fresh = *ranksSeen.rbegin() + 1;
            renumberRank(part, *partRanks.begin(), fresh);
            partRanks = {fresh};
        } else if (clash) {
            throw InputError(files[i], "its ranks repeat ranks of an earlier file of this run");
        }
        for (const auto& r : part.ranks)
            if (r.rankClaimed)
                claimedBy.emplace(r.rank, i);
        ranksSeen.insert(partRanks.begin(), partRanks.end());
    }
}

} // namespace

int defaultIngestJobs() {
    return static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
}

IngestResult ingest(Workspace& ws, const IngestRequest& req, const ProgressSink& sink) {
    if (req.inputs.empty())
        throw InputError(ws.path(), "nothing to ingest");
    const auto files = expandInputs(req.inputs);

    // Reading is the bulk of the time: 70% of the progress bar, inserting 25%, summaries 5%.
    IngestResult res;
    const auto readStart = std::chrono::steady_clock::now();
    std::vector<TraceData> parts = readParts(files, req.jobs > 0 ? req.jobs : defaultIngestJobs(), sink);
    assignRanks(parts, files);
    TraceData trace = std::move(parts.front());
    parts.erase(parts.begin());
    trace.mergeAll(std::move(parts));
    sink.checkCancel();

    trace.info.sourceFiles.clear();
    for (const auto& f : files)
        trace.info.sourceFiles.push_back(fs::absolute(f).lexically_normal().string());
    trace.info.name = req.runName.empty() ? stemOf(files.front()) : req.runName;
    if (!req.config.empty())
        trace.info.config = req.config;
    if (trace.info.config.empty())
        trace.info.config = trace.info.name;
    trace.info.repeat = req.repeat;
    if (req.tokensPerStep > 0)
        trace.info.tokensPerStep = req.tokensPerStep;
    if (req.flopsPerStep > 0)
        trace.info.flopsPerStep = req.flopsPerStep;
    if (req.peakFlops > 0)
        trace.info.peakFlops = req.peakFlops;

    res.phaseSeconds.emplace_back(
        "read", std::chrono::duration<double>(std::chrono::steady_clock::now() - readStart).count());
    ProgressSink addSink{[&](double f) { sink.report(0.7 + 0.3 * f); }, sink.cancel};
    const auto runId = addTrace(ws, trace, addSink, &res.phaseSeconds);

    res.runId = runId;
    res.runName = trace.info.name;
    res.events = static_cast<std::int64_t>(trace.eventCount());
    res.ranks = static_cast<std::int32_t>(trace.ranks.size());
    res.skipped = trace.info.skipped;
    res.files = files;
    if (const std::size_t cut = countTruncatedNames(trace.strings); cut > 0)
        res.notes.push_back(std::to_string(cut) + " name(s) longer than " + std::to_string(kMaxNameBytes) +
                            " bytes were truncated");
    for (const auto& r : trace.ranks)
        if (r.clockSkewEstimateNs != 0 || r.clockOffsetNs != 0)
            res.notes.push_back("rank " + std::to_string(r.rank) + ": clock offset " +
                                std::to_string(r.clockOffsetNs) + " ns, estimated skew ±" +
                                std::to_string(r.clockSkewEstimateNs) + " ns");
    return res;
}

} // namespace cnp
