// bench_study_ingest: one synthetic multi-rank run (cnp synth's simulator) ingested three ways, each in a
// fresh child process so that its wall time, CPU time and peak RSS are its own (wait4):
//   1. a workspace file, one reader (one writer);
//   2. a workspace file, --jobs J readers (still one SQLite writer);
//   3. a study of J shards, --jobs J readers (J writers: docs/schema.md, "Studies of shards").
// Next to them, the floor: the bare SQLite insert of as many rows into one file (bench/common), which
// bounds any single-writer ingest, and that floor divided by J, which a J-writer study could at best reach.
// Prints medians over rounds (interleaved), CPU/wall (issue 27.2: >= 1.7 with J = 2 on 2 cores) and
// events per CPU-second (>= 600 k).
//
//   bench_study_ingest [--nodes N] [--gpus G] [--steps S] [--jobs J] [--reps R] [--keep DIR]
//   (default 2 x 8 ranks, 20 steps, J = 2, 3 rounds; issue 27.6's size is --nodes 16)
#include "common/SqliteInsertFloor.h"
#include "common/SyntheticRun.h"
#include "ingest/IngestPipeline.h"
#include "store/StudyFolder.h"
#include "store/Workspace.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

using namespace cnp;
namespace fs = std::filesystem;

namespace {

struct Sample {
    double wall = 0, cpu = 0, rssMb = 0;
    std::int64_t events = 0;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

// Runs `body` in a child; its exit code carries nothing, its event count comes back through a pipe.
template <class F> Sample inChild(F body) {
    int fds[2];
    if (::pipe(fds) != 0)
        std::exit(1);
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::int64_t events = 0;
        try {
            events = body();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bench_study_ingest: %s\n", e.what());
            _exit(1);
        }
        if (::write(fds[1], &events, sizeof events) != sizeof events)
            _exit(1);
        _exit(0);
    }
    ::close(fds[1]);
    int status = 0;
    rusage ru{};
    ::wait4(pid, &status, 0, &ru);
    Sample s;
    s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
            static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    s.rssMb = static_cast<double>(ru.ru_maxrss) / 1024.0;
    if (::read(fds[0], &s.events, sizeof s.events) != sizeof s.events || status != 0) {
        std::fprintf(stderr, "bench_study_ingest: a child failed\n");
        std::exit(1);
    }
    ::close(fds[0]);
    return s;
}

std::int64_t ingestInto(const std::string& ws, const std::string& folder, int jobs, int shards) {
    if (shards > 0)
        StudyFolder::create(ws, shards);
    Workspace w(ws, Workspace::Mode::CreateIfMissing);
    IngestRequest req;
    req.inputs = {folder};
    req.runName = "run";
    req.jobs = jobs;
    return ingest(w, req).events;
}

int intArg(int argc, char** argv, const char* name, int fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return std::atoi(argv[i + 1]);
    return fallback;
}

} // namespace

int main(int argc, char** argv) {
    const int nodes = intArg(argc, argv, "--nodes", 2), gpus = intArg(argc, argv, "--gpus", 8);
    const int steps = intArg(argc, argv, "--steps", 20), jobs = intArg(argc, argv, "--jobs", 2);
    const int reps = std::max(1, intArg(argc, argv, "--reps", 3));
    std::string keep;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--keep") == 0)
            keep = argv[i + 1];
    const fs::path dir = keep.empty()
                             ? fs::temp_directory_path() / ("bench_study_" + std::to_string(::getpid()))
                             : fs::path(keep);
    fs::create_directories(dir);

    const std::string folder = bench::syntheticRun(dir, nodes, gpus, steps);

    struct Way {
        const char* name;
        int jobs, shards;
        std::vector<Sample> samples;
    };
    std::vector<Way> ways{{"file, 1 reader", 1, 0, {}},
                          {"file, --jobs J", jobs, 0, {}},
                          {"study of J shards, --jobs J", jobs, jobs, {}}};
    std::vector<double> floor;
    std::int64_t events = 0;
    for (int r = 0; r < reps; ++r) {
        for (std::size_t w = 0; w < ways.size(); ++w) {
            const std::string ws = (dir / ("w" + std::to_string(w) + "-" + std::to_string(r) +
                                           (ways[w].shards ? ".cnpstudy" : ".cnpdb")))
                                       .string();
            ::sync(); // the previous way's writes reach the disk first: their writeback would slow this one
            ways[w].samples.push_back(
                inChild([&] { return ingestInto(ws, folder, ways[w].jobs, ways[w].shards); }));
            events = ways[w].samples.back().events;
            fs::remove_all(ws);
            for (const char* suffix : {"-wal", "-shm"})
                fs::remove(ws + suffix);
        }
        const std::string fdb = (dir / "floor.db").string();
        ::sync();
        floor.push_back(cnp::bench::sqliteInsertFloorSeconds(fdb, events));
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(fdb + suffix);
    }
    std::printf("%d ranks (%d x %d), %lld events, J = %d, medians of %d rounds\n", nodes * gpus, nodes, gpus,
                static_cast<long long>(events), jobs, reps);
    std::printf("  %-30s %9s %9s %9s %10s %12s\n", "way", "wall s", "CPU s", "CPU/wall", "peak MB",
                "ev/CPU-s");
    for (const auto& w : ways) {
        std::vector<double> wall, cpu, rss;
        for (const auto& s : w.samples) {
            wall.push_back(s.wall);
            cpu.push_back(s.cpu);
            rss.push_back(s.rssMb);
        }
        const double mw = median(wall), mc = median(cpu);
        std::printf("  %-30s %9.2f %9.2f %9.2f %10.0f %12.0f\n", w.name, mw, mc, mc / mw, median(rss),
                    static_cast<double>(events) / mc);
    }
    const double f = median(floor);
    std::printf(
        "  floor: bare SQLite insert of %lld rows into one file %.2f s; over J files at best %.2f s\n",
        static_cast<long long>(events), f, f / jobs);
    if (keep.empty())
        fs::remove_all(dir);
    return 0;
}
