// bench_ingest: PyTorch-profiler (Kineto) ingest throughput and memory, next to its floors.
//
//   bench_ingest [--reps N] [--min-mb M] [--keep DIR]   (default 5 rounds)
//
// 1. Builds a >= M MB (default 100 MB = 1e8 bytes) Kineto trace in a temp dir by repeating the
//    three profiled steps of resources/demo/demo_base.json.gz: every copy is shifted by the demo's
//    time span (exact integer-ns arithmetic on the number text), its correlation / External id /
//    flow ids offset so they stay unique, ProfilerStep#N renumbered. Written compact (no
//    indentation), i.e. more events per MB than Kineto's own indented output: a conservative input.
// 2. Measures, each phase in a fresh child process (so peak RSS is that phase's own, from wait4),
//    N interleaved rounds (default 5) of every phase, median wall time:
//    - parse-only floor: readKinetoTrace() - the importer's parser, no SQLite;
//    - bare SQLite floor: the same number of rows into one plain 8-integer-column table, prepared
//      statement, one transaction, the workspace's pragmas (WAL, synchronous=NORMAL);
//    - full ingest(): IngestPipeline into a fresh workspace (parse, normalise, categorise, steps,
//      insert, indexes, summaries);
//    - (informational) parse-only of the same trace gzip-compressed.
// 3. Prints MB/s of JSON, ratios and peak RSS against the targets of issue 2:
//    ingest <= 2x parse-only, >= 60 MB/s, peak memory <= half the JSON size.
#include "core/ResourceDir.h"
#include "core/TraceData.h"
#include "import/common/ByteSource.h"
#include "import/common/JsonByteStream.h"
#include "import/common/NumberText.h"
#include "import/kineto/KinetoImporter.h"
#include "ingest/IngestPipeline.h"
#include "store/Sqlite.h"
#include "store/Workspace.h"

#include <rapidjson/filewritestream.h>
#include <rapidjson/reader.h>
#include <rapidjson/writer.h>
#include <sqlite3.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace cnp;

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// ---- input generation ------------------------------------------------------------------------

// SAX pass-through from the demo trace to a Writer, emitting only traceEvents[] elements, rewritten
// for copy number `copy`.
class EventReplicator {
public:
    using Writer = rapidjson::Writer<rapidjson::FileWriteStream>;
    EventReplicator(Writer& w, Ns shiftNs, std::int64_t idOffset, int stepOffset)
        : w_(w), shiftNs_(shiftNs), idOffset_(idOffset), stepOffset_(stepOffset) {}

    bool Null() { return !emitting() || w_.Null(); }
    bool Bool(bool b) { return !emitting() || w_.Bool(b); }
    bool Int(int) { return true; }
    bool Uint(unsigned) { return true; }
    bool Int64(std::int64_t) { return true; }
    bool Uint64(std::uint64_t) { return true; }
    bool Double(double) { return true; }
    bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
        if (!emitting())
            return true;
        const std::string_view text(s, n);
        std::int64_t v = 0;
        char buf[64];
        if (depth_ == 3 && key_ == "ts" && parseMicrosAsNanos(text, v)) {
            v += shiftNs_;
            const int len = std::snprintf(buf, sizeof buf, "%" PRId64 ".%03" PRId64, v / 1000, v % 1000);
            return w_.RawValue(buf, static_cast<std::size_t>(len), rapidjson::kNumberType);
        }
        if (((depth_ == 3 && key_ == "id") ||
             (depth_ == 4 && (key_ == "correlation" || key_ == "External id"))) &&
            parseInteger(text, v) && v > 0) {
            const int len = std::snprintf(buf, sizeof buf, "%" PRId64, v + idOffset_);
            return w_.RawValue(buf, static_cast<std::size_t>(len), rapidjson::kNumberType);
        }
        return w_.RawValue(s, n, rapidjson::kNumberType); // (Writer::RawNumber would quote it)
    }
    bool String(const char* s, rapidjson::SizeType n, bool) {
        if (!emitting())
            return true;
        const std::string_view text(s, n);
        if (depth_ == 3 && key_ == "name" && text.rfind("ProfilerStep#", 0) == 0) {
            const std::string renamed =
                "ProfilerStep#" +
                std::to_string(std::atoi(std::string(text.substr(13)).c_str()) + stepOffset_);
            return w_.String(renamed.c_str(), static_cast<rapidjson::SizeType>(renamed.size()));
        }
        return w_.String(s, n);
    }
    bool StartObject() {
        const bool ok = !emitting() || w_.StartObject();
        ++depth_;
        return ok;
    }
    bool EndObject(rapidjson::SizeType) {
        --depth_;
        return !emitting() || w_.EndObject();
    }
    bool StartArray() {
        if (depth_ == 1 && key_ == "traceEvents")
            inEvents_ = true;
        const bool ok = !emitting() || w_.StartArray();
        ++depth_;
        return ok;
    }
    bool EndArray(rapidjson::SizeType) {
        --depth_;
        const bool ok = !emitting() || w_.EndArray();
        if (depth_ == 1)
            inEvents_ = false;
        return ok;
    }
    bool Key(const char* s, rapidjson::SizeType n, bool) {
        key_.assign(s, n);
        return !emitting() || w_.Key(s, n);
    }

private:
    // Inside traceEvents[]: depth counted before a container opens and after it closes, so the
    // array itself (opened at depth 1) is never emitted and its elements (depth >= 2) always are.
    bool emitting() const { return inEvents_ && depth_ >= 2; }

    Writer& w_;
    Ns shiftNs_;
    std::int64_t idOffset_;
    int stepOffset_;
    int depth_ = 0;
    bool inEvents_ = false;
    std::string key_;
};

// Writes the >= minBytes trace; returns its size.
std::int64_t buildTrace(const std::string& demo, const std::string& out, std::int64_t minBytes) {
    // The demo's own time span (all events) decides the shift between copies.
    const TraceData d = readKinetoTrace(demo);
    Ns lo = INT64_MAX, hi = INT64_MIN;
    auto span = [&](const auto& v) {
        for (const auto& e : v) {
            lo = std::min(lo, e.start);
            hi = std::max(hi, e.end);
        }
    };
    span(d.kernels), span(d.memcpys), span(d.memsets), span(d.apiCalls), span(d.cpuRanges),
        span(d.gpuAnnotations);
    const Ns shift = (hi - lo) + 1'000'000; // + 1 ms between copies

    std::FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) {
        std::perror(out.c_str());
        std::exit(2);
    }
    std::vector<char> buf(1 << 16);
    rapidjson::FileWriteStream os(f, buf.data(), buf.size());
    rapidjson::Writer<rapidjson::FileWriteStream> w(os);
    w.StartObject();
    w.Key("schemaVersion"), w.Int(1);
    w.Key("deviceProperties"), w.StartArray(), w.StartObject(), w.Key("id"), w.Int(0), w.Key("name"),
        w.String("NVIDIA H200"), w.EndObject(), w.EndArray();
    w.Key("cuda_driver_version"), w.Int(13000), w.Key("cuda_runtime_version"), w.Int(13000),
        w.Key("cupti_version"), w.Int(130001);
    w.Key("baseTimeNanoseconds"), w.RawValue("1790857026000000000", 19, rapidjson::kNumberType);
    w.Key("traceEvents"), w.StartArray();
    for (std::int64_t copy = 0;; ++copy) {
        os.Flush();
        if (std::ftell(f) >= minBytes)
            break;
        ByteSource src(demo);
        JsonByteStream in(src);
        EventReplicator rep(w, copy * shift, copy * 100'000'000, static_cast<int>(copy * 3));
        rapidjson::Reader reader;
        if (!reader.Parse<rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseIterativeFlag>(in, rep)) {
            std::fprintf(stderr, "bench_ingest: cannot re-read %s\n", demo.c_str());
            std::exit(2);
        }
    }
    w.EndArray();
    w.Key("traceName"), w.String("bench_ingest");
    w.EndObject();
    os.Flush();
    const auto size = static_cast<std::int64_t>(std::ftell(f));
    std::fclose(f);
    return size;
}

void gzipFile(const std::string& in, const std::string& out) {
    std::FILE* f = std::fopen(in.c_str(), "rb");
    gzFile g = gzopen(out.c_str(), "wb6");
    std::vector<char> buf(1 << 20);
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), f))
        gzwrite(g, buf.data(), static_cast<unsigned>(n));
    gzclose(g);
    std::fclose(f);
}

// ---- phases (run in a child: bench_ingest --phase NAME ARGS...) -------------------------------

int runPhase(int argc, char** argv) {
    const std::string phase = argv[2];
    const auto t0 = Clock::now();
    std::int64_t rows = 0;
    if (phase == "parse") {
        const TraceData t = readKinetoTrace(argv[3]);
        rows = static_cast<std::int64_t>(t.eventCount());
    } else if (phase == "sqlite" && argc >= 6) {
        rows = std::atoll(argv[4]);
        const std::string db = argv[3];
        sqlite3* h = nullptr;
        sqlite3_open(db.c_str(), &h);
        sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA temp_store=MEMORY;",
                     nullptr, nullptr, nullptr);
        sqlite3_exec(h,
                     "CREATE TABLE ev(a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER, f INTEGER, g "
                     "INTEGER, h INTEGER)",
                     nullptr, nullptr, nullptr);
        sqlite3_exec(h, "BEGIN", nullptr, nullptr, nullptr);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(h, "INSERT INTO ev VALUES (?,?,?,?,?,?,?,?)", -1, &st, nullptr);
        const std::int64_t base = 1795996669928844171;
        for (std::int64_t i = 0; i < rows; ++i) {
            sqlite3_bind_int64(st, 1, i % 8);
            sqlite3_bind_int64(st, 2, base + i * 997);
            sqlite3_bind_int64(st, 3, base + i * 997 + 1760);
            sqlite3_bind_int64(st, 4, 20650 + i);
            sqlite3_bind_int64(st, 5, 7);
            sqlite3_bind_int64(st, 6, i % 300);
            sqlite3_bind_int64(st, 7, 419);
            sqlite3_bind_int64(st, 8, i % 5);
            sqlite3_step(st);
            sqlite3_reset(st);
        }
        sqlite3_finalize(st);
        sqlite3_exec(h, "COMMIT", nullptr, nullptr, nullptr);
        sqlite3_close(h);
    } else if (phase == "ingest" && argc >= 5) {
        Workspace ws(argv[4], Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {argv[3]};
        req.runName = "bench";
        const IngestResult r = ingest(ws, req);
        rows = r.events;
    } else {
        std::fprintf(stderr, "bench_ingest: bad phase arguments\n");
        return 1;
    }
    std::printf("%.6f %" PRId64 "\n", secondsSince(t0), rows);
    return 0;
}

struct Sample {
    double seconds = 0;    // wall, measured by the child around the phase itself
    double cpuSeconds = 0; // user + system of the whole child process (wait4), start-up included
    std::int64_t rows = 0;
    double peakMiB = 0;
};

// Runs `self --phase ARGS...` in a fresh process; its stdout gives the time, wait4 the peak RSS.
Sample runChild(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0)
        std::exit(2);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        std::vector<char*> argv;
        static std::string self = fs::read_symlink("/proc/self/exe").string();
        argv.push_back(self.data());
        std::string flag = "--phase";
        argv.push_back(flag.data());
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(self.c_str(), argv.data());
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    char buf[256];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0)
        out.append(buf, static_cast<std::size_t>(n));
    close(fds[0]);
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);
    Sample s;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        std::sscanf(out.c_str(), "%lf %" SCNd64, &s.seconds, &s.rows) != 2) {
        std::fprintf(stderr, "bench_ingest: phase %s failed\n", args[0].c_str());
        std::exit(2);
    }
    s.peakMiB = static_cast<double>(ru.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
    auto secs = [](const timeval& tv) {
        return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
    };
    s.cpuSeconds = secs(ru.ru_utime) + secs(ru.ru_stime);
    return s;
}

Sample median(std::vector<Sample> v) {
    std::sort(v.begin(), v.end(), [](const Sample& a, const Sample& b) { return a.seconds < b.seconds; });
    Sample m = v[v.size() / 2];
    std::vector<double> cpu;
    for (const auto& s : v) {
        m.peakMiB = std::max(m.peakMiB, s.peakMiB); // report the worst peak
        cpu.push_back(s.cpuSeconds);
    }
    std::sort(cpu.begin(), cpu.end());
    m.cpuSeconds = cpu[cpu.size() / 2];
    return m;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 3 && std::strcmp(argv[1], "--phase") == 0)
        return runPhase(argc, argv);

    int reps = 5;
    double minMb = 100;
    std::string keep;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--reps") == 0)
            reps = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--min-mb") == 0)
            minMb = std::atof(argv[i + 1]);
        else if (std::strcmp(argv[i], "--keep") == 0)
            keep = argv[i + 1];
    }
    char tmpl[] = "/tmp/bench_ingest.XXXXXX";
    const std::string dir = keep.empty() ? std::string(mkdtemp(tmpl)) : keep;
    fs::create_directories(dir);
    const std::string demo = cnp::resourceDir() + "/demo/demo_base.json.gz";
    const std::string trace = dir + "/bench_trace.json", traceGz = trace + ".gz";

    auto t0 = Clock::now();
    const std::int64_t bytes = buildTrace(demo, trace, static_cast<std::int64_t>(minMb * 1e6));
    const double mb = static_cast<double>(bytes) / 1e6;
    std::printf("bench_ingest: input %s: %.1f MB of Kineto JSON (built in %.1f s from %s)\n", trace.c_str(),
                mb, secondsSince(t0), demo.c_str());
    t0 = Clock::now();
    gzipFile(trace, traceGz);
    std::printf("bench_ingest: gzip copy %.1f MB (%.1f s)\n",
                static_cast<double>(fs::file_size(traceGz)) / 1e6, secondsSince(t0));

    // Rounds interleave the phases (parse, SQLite floor, ingest, gzip parse), so that the load of the
    // shared machine drifting over the run hits floors and ingest alike; the ratio is also taken per
    // round (ingest and parse of the same round) and its median printed.
    auto once = [&](const std::vector<std::string>& args, const std::string& cleanup) {
        if (!cleanup.empty())
            for (const char* suf : {"", "-wal", "-shm", "-journal"})
                fs::remove(cleanup + suf);
        return runChild(args);
    };
    std::vector<Sample> parses, sqls, fulls, parseGzs;
    std::vector<double> roundRatios;
    for (int r = 0; r < reps; ++r) {
        parses.push_back(once({"parse", trace}, ""));
        const std::string rows = std::to_string(parses.back().rows);
        sqls.push_back(once({"sqlite", dir + "/floor.db", rows, "x"}, dir + "/floor.db"));
        fulls.push_back(once({"ingest", trace, dir + "/bench.cnpdb"}, dir + "/bench.cnpdb"));
        parseGzs.push_back(once({"parse", traceGz}, ""));
        roundRatios.push_back(fulls.back().seconds / parses.back().seconds);
    }
    const Sample parse = median(parses), sql = median(sqls), full = median(fulls), parseGz = median(parseGzs);
    std::sort(roundRatios.begin(), roundRatios.end());

    std::printf("\n%-28s %9s %9s %9s %9s %10s %13s\n", "phase", "wall s", "MB/s", "cpu s", "MB/cpu-s",
                "events", "peak RSS MiB");
    auto line = [&](const char* name, const Sample& s) {
        std::printf("%-28s %9.3f %9.1f %9.3f %9.1f %10" PRId64 " %13.1f\n", name, s.seconds, mb / s.seconds,
                    s.cpuSeconds, mb / s.cpuSeconds, s.rows, s.peakMiB);
    };
    line("parse-only floor", parse);
    line("bare SQLite insert floor", sql);
    line("full ingest()", full);
    line("parse-only, gzip input", parseGz);
    const double ratio = roundRatios[roundRatios.size() / 2];
    const double mbps = mb / full.seconds;
    const double memFraction = full.peakMiB * 1024 * 1024 / static_cast<double>(bytes);
    std::printf("\nmedians over %d runs; JSON %.1f MB, %" PRId64 " events\n", reps, mb, parse.rows);
    std::printf("ingest / parse-only   = %.2fx   (target <= 2x)    %s   median of the per-round ratios:",
                ratio, ratio <= 2.0 ? "MET" : "MISSED");
    for (double x : roundRatios)
        std::printf(" %.2f", x);
    std::printf("\n");
    std::printf("ingest throughput     = %.1f MB/s (target >= 60) %s\n", mbps, mbps >= 60 ? "MET" : "MISSED");
    std::printf("ingest peak RSS       = %.1f MiB = %.2f of the JSON size (target <= 0.5) %s\n", full.peakMiB,
                memFraction, memFraction <= 0.5 ? "MET" : "MISSED");
    std::printf("parse-only peak RSS   = %.2f of the JSON size\n",
                parse.peakMiB * 1024 * 1024 / static_cast<double>(bytes));
    std::printf("ingest - parse        = %.3f s; SQLite floor %.3f s\n", full.seconds - parse.seconds,
                sql.seconds);
    std::printf(
        "by CPU time: ingest / parse-only = %.2fx, ingest %.1f MB per CPU-second (machine load: see uptime;\n"
        "wall times include waiting for the 2 shared cores)\n",
        full.cpuSeconds / parse.cpuSeconds, mb / full.cpuSeconds);
    if (keep.empty())
        fs::remove_all(dir);
    return 0;
}
