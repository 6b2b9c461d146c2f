#include "ingest/IngestPipeline.h"

#include "core/InputError.h"
#include "core/NameBound.h"
#include "core/RunAttributeKeys.h"
#include "import/Importer.h"
#include "ingest/RunStreamer.h"
#include "store/WorkspaceTransactions.h"

#include <zlib.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <thread>
#include <tuple>

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

// How much of a file's start is searched for the rank it holds (Importer::rankHint): Kineto writes its
// distributedInfo after the device properties, a few KiB for eight GPUs.
constexpr std::size_t kRankHintBytes = std::size_t{64} << 10;

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

std::int32_t rankHintOf(const std::string& path) {
    try {
        const auto head = readHead(path, kRankHintBytes);
        for (const auto& imp : importers())
            if (imp->canRead(path, head))
                return imp->rankHint(head).value_or(-1);
    } catch (const InputError&) { // the file's own read reports it, in order
    }
    return -1;
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
    // One argument row per kernel: a repeated (rank, stream, start) keeps its first row (stable sort).
    auto argsKey = [](const CollectiveArgs& a) { return std::tie(a.rank, a.stream, a.start); };
    std::stable_sort(
        t.collectiveArgs.begin(), t.collectiveArgs.end(),
        [&](const CollectiveArgs& a, const CollectiveArgs& b) { return argsKey(a) < argsKey(b); });
    t.collectiveArgs.erase(std::unique(t.collectiveArgs.begin(), t.collectiveArgs.end(),
                                       [&](const CollectiveArgs& a, const CollectiveArgs& b) {
                                           return argsKey(a) == argsKey(b);
                                       }),
                           t.collectiveArgs.end());
}

RunId addTrace(Workspace& ws, TraceData&& trace, const ProgressSink& sink,
               std::vector<std::pair<std::string, double>>* phases) {
    RunSource one;
    one.names = {trace.info.sourceFiles.empty() ? trace.info.name : trace.info.sourceFiles.front()};
    bool loaded = false;
    one.load = [&](std::size_t, const ProgressSink&) {
        if (loaded) // one part never needs a second pass (RunStreamer.h)
            throw std::logic_error("addTrace: the trace was read twice");
        loaded = true;
        return std::move(trace);
    };
    const std::string name = trace.info.name;
    StreamedRun run = streamRun(ws, one, name, 1, {}, sink);
    if (phases)
        *phases = std::move(run.phases);
    return run.runId;
}

namespace {

// The run is committed; its study follows in a transaction of its own (as cnp run's attributes,
// launch/JobIngest). Should that fail, the run is removed again: no run is left without the study asked
// for.
void recordStudy(Workspace& ws, RunId runId, const std::string& study) {
    try {
        Transaction tx = writeTransaction(ws);
        ws.setRunAttribute(runId, kStudyAttribute, study);
        tx.commit();
    } catch (...) {
        ws.removeRun(runId);
        throw;
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
    RunSource source;
    source.names = files;
    source.load = [&files](std::size_t i, const ProgressSink& partSink) {
        return importFile(files[i], partSink);
    };
    if (files.size() > 1)
        for (const auto& f : files) {
            source.rankHints.push_back(rankHintOf(f));
            std::error_code ec; // a gzip file counts as 8x its size (ByteSource's estimate); unreadable: 0
            const std::uint64_t bytes = fs::file_size(f, ec);
            source.inputBytes.push_back(ec ? 0 : bytes * (f.ends_with(".gz") ? 8 : 1));
        }
    const std::string runName = req.runName.empty() ? stemOf(files.front()) : req.runName;
    auto finishInfo = [&](RunInfo& info) {
        info.sourceFiles.clear();
        for (const auto& f : files)
            info.sourceFiles.push_back(fs::absolute(f).lexically_normal().string());
        info.name = runName;
        if (!req.config.empty())
            info.config = req.config;
        if (info.config.empty())
            info.config = req.configFallback.empty() ? info.name : req.configFallback;
        info.repeat = req.repeat;
        if (req.tokensPerStep > 0)
            info.tokensPerStep = req.tokensPerStep;
        if (req.flopsPerStep > 0)
            info.flopsPerStep = req.flopsPerStep;
        if (req.peakFlops > 0)
            info.peakFlops = req.peakFlops;
    };
    StreamedRun run = streamRun(ws, source, runName, req.jobs > 0 ? req.jobs : defaultIngestJobs(),
                                finishInfo, sink, req.shardRunId);

    if (!req.study.empty())
        recordStudy(ws, run.runId, req.study);
    IngestResult res;
    res.runId = run.runId;
    res.runName = run.info.name;
    res.events = run.events;
    res.ranks = run.ranks;
    res.skipped = run.info.skipped;
    res.warnings = run.info.importWarnings;
    res.files = files;
    if (run.truncatedNames > 0)
        res.notes.push_back(std::to_string(run.truncatedNames) + " name(s) longer than " +
                            std::to_string(kMaxNameBytes) + " bytes were truncated");
    res.notes.insert(res.notes.end(), run.rankNotes.begin(), run.rankNotes.end());
    if (run.passes > 1)
        res.notes.push_back(
            "the files were read " + std::to_string(run.passes) +
            " times: their ranks or step names disagreed with their order (see docs/ingest.md)");
    res.phaseSeconds = std::move(run.phases);
    return res;
}

} // namespace cnp
