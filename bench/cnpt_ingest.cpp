// bench_cnpt_ingest: events/s of ingesting a .cnpt file (collector format) into a workspace, next to the
// bare SQLite insert floor measured in the same run (the same number of rows, 8 integer columns, one
// prepared statement, one transaction, the workspace's pragmas). Target (issue 4): ingest >= 80% of floor.
// Also prints the read+convert rate alone (CnptReader + CnptImporter::convert, no SQLite).
// The file is synthetic, shaped like the H200 llama trace of tests/gpu (per step: 1260 kernels, one
// launching API call each, a memset every 40 kernels, an NVTX "step N" range); medians of 5 rounds.
// Usage: bench_cnpt_ingest [KERNELS] [--keep] (default 200000; --keep leaves the temp folder for inspection).
#include "CnptReader.h"
#include "CnptWriter.h"
#include "common/SqliteInsertFloor.h"
#include "import/cnpt/CnptImporter.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <unistd.h>

using namespace cnp;
namespace fs = std::filesystem;

namespace {

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void writeSynthetic(const std::string& path, long kernels) {
    using namespace cnpt;
    CnptWriter w;
    if (!w.open(path)) {
        std::fprintf(stderr, "bench_cnpt_ingest: %s\n", w.error().c_str());
        std::exit(2);
    }
    w.writeHeader({{"host", "bench"}, {"pid", "1"}, {"rank", "0"}, {"run", "bench"}});
    const std::uint64_t t0 = 1'795'999'703'000'000'000ull;
    std::vector<std::uint32_t> names;
    for (int i = 0; i < 70; ++i)
        names.push_back(
            w.intern("_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_" + std::to_string(i) + "EEvv"));
    const auto launch = w.intern("cudaLaunchKernel"), memsetApi = w.intern("cudaMemsetAsync");
    std::uint64_t cpu = t0, gpu = t0 + 50'000;
    std::uint32_t corr = 0, markerId = 0;
    const long perStep = 1260;
    for (long i = 0; i < kernels; ++i) {
        if (i % perStep == 0) {
            if (i > 0) {
                MarkerRecord e{};
                e.timestamp = cpu;
                e.id = markerId;
                e.flags = 4;
                e.pid = 1;
                e.tid = 1;
                w.add(RecordType::Marker, e);
            }
            MarkerRecord s{};
            s.timestamp = cpu;
            s.id = ++markerId;
            s.flags = 2;
            s.pid = 1;
            s.tid = 1;
            s.name = w.intern("step " + std::to_string(i / perStep));
            w.add(RecordType::Marker, s);
            w.add(RecordType::ClockPair, ClockPairRecord{cpu + 3, cpu, cpu + 60});
        }
        ApiRecord a{};
        a.start = cpu;
        a.end = cpu + 4000;
        a.correlation = ++corr;
        a.pid = 1;
        a.tid = 1;
        a.name = launch;
        w.add(RecordType::Api, a);
        KernelRecord k{};
        k.start = gpu;
        k.end = gpu + 30'000 + static_cast<std::uint64_t>(i % 17) * 1000;
        k.correlation = corr;
        k.stream = 7;
        k.grid[0] = 132;
        k.block[0] = 256;
        k.registers = 64;
        k.name = names[static_cast<std::size_t>(i % 70)];
        w.add(RecordType::Kernel, k);
        gpu = k.end + 1500;
        cpu += 9000;
        if (i % 40 == 0) {
            a.correlation = ++corr;
            a.name = memsetApi;
            w.add(RecordType::Api, a);
            MemsetRecord m{};
            m.start = gpu;
            m.end = gpu + 2000;
            m.bytes = 4096;
            m.correlation = corr;
            m.stream = 7;
            m.memoryKind = 3;
            w.add(RecordType::Memset, m);
            gpu = m.end + 500;
        }
        if (i % 20000 == 0)
            w.flush();
    }
    MarkerRecord e{};
    e.timestamp = cpu;
    e.id = markerId;
    e.flags = 4;
    w.add(RecordType::Marker, e);
    w.close();
}

} // namespace

int main(int argc, char** argv) {
    long kernels = 200000;
    bool keep = false;
    for (int a = 1; a < argc; ++a) {
        if (std::string(argv[a]) == "--keep")
            keep = true;
        else
            kernels = std::atol(argv[a]);
    }
    const fs::path dir = fs::temp_directory_path() / ("bench_cnpt_ingest." + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string file = (dir / "bench.cnpt").string();
    writeSynthetic(file, kernels);
    std::printf("bench_cnpt_ingest: %ld kernels, file %.1f MiB\n", kernels,
                static_cast<double>(fs::file_size(file)) / (1 << 20));

    // Rounds interleave read+convert, ingest and the floor so that the shared machine's drifting load hits
    // all of them alike; the ratio is taken per round and its median printed.
    const int rounds = 5;
    std::int64_t events = 0;
    std::vector<double> converts, ingests, floors, ratios;
    std::vector<std::vector<std::pair<std::string, double>>> phases;
    for (int round = 0; round < rounds; ++round) {
        converts.push_back(seconds([&] {
            const cnpt::CnptReader r(file);
            events = static_cast<std::int64_t>(CnptImporter::convert(r, file).eventCount());
        }));
        ingests.push_back(seconds([&] {
            const std::string ws = (dir / ("ws" + std::to_string(round) + ".cnpdb")).string();
            Workspace w(ws, Workspace::Mode::CreateIfMissing);
            IngestRequest req;
            req.inputs = {file};
            req.runName = "bench";
            auto res = ingest(w, req);
            events = res.events;
            phases.push_back(res.phaseSeconds);
        }));
        floors.push_back(cnp::bench::sqliteInsertFloorSeconds(
            (dir / ("floor" + std::to_string(round) + ".db")).string(), events));
        ratios.push_back(floors.back() / ingests.back());
    }
    const double convert = median(converts), ingestS = median(ingests), floorS = median(floors);
    const double ingestRate = static_cast<double>(events) / ingestS;
    const double floorRate = static_cast<double>(events) / floorS;
    std::printf("  read+convert only : %10.0f events/s (%.3f s)\n", static_cast<double>(events) / convert,
                convert);
    std::printf("  cnpt ingest       : %10.0f events/s (%.3f s, %lld events incl. flows)\n", ingestRate,
                ingestS, static_cast<long long>(events));
    std::printf("  SQLite insert floor: %9.0f events/s (%.3f s, same row count, 8 int columns)\n", floorRate,
                floorS);
    std::printf("  ingest / floor    : %.0f%% (target >= 80%%), median of %d interleaved rounds:",
                100.0 * median(ratios), rounds);
    for (double r : ratios)
        std::printf(" %.0f%%", 100.0 * r);
    std::printf("\n");
    std::printf("  of the ingest time: read+convert %.0f%%, the rest (normalise, categorise, steps, insert, "
                "summaries) %.0f%%\n",
                100.0 * convert / ingestS, 100.0 * (ingestS - convert) / ingestS);
    std::printf("  phases of each ingest (s):");
    for (const auto& run : phases) {
        std::printf("\n   ");
        for (const auto& [name, sec] : run)
            std::printf(" %s %.3f", name.c_str(), sec);
    }
    std::printf("\n");
    std::error_code ec;
    if (keep)
        std::printf("  kept %s\n", dir.c_str());
    else
        fs::remove_all(dir, ec);
    return 0;
}
