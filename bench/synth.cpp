// bench_synth: the synthetic study at benchmark scale. Generates one run of the acs-llama3-8b study
// (`cnp synth` core, default 2 x 8 ranks, configuration AC2+ACCL), ingests it, and prints generation time
// and peak RSS (the generator streams: its memory must not grow with the event count), ingest time and
// rate, workspace size and the process's peak RSS after the ingest, next to the bare SQLite insert floor
// of the same number of rows measured in the same run (8 integer columns, one prepared statement, one
// transaction, the workspace's pragmas: what no ingest can beat).
// Usage: bench_synth [EVENTS] [--ranks-per-node G] [--nodes N] [--keep]   (default 2,000,000 events)
// The event count is reached by the study's --kernels-per-step knob over 10 steps; events are counted as
// ingest counts them (kernels, API calls, memcpys, NVTX ranges and launch flows).
#include "common/SqliteInsertFloor.h"
#include "ingest/IngestPipeline.h"
#include "store/Workspace.h"
#include "synth/StudyGenerator.h"

#include <sqlite3.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>

using namespace cnp;
namespace fs = std::filesystem;

namespace {

constexpr int kSteps = 10;
constexpr double kEventsPerKernel = 3.05; // kernel + launch call + flow, plus ranges and syncs (measured)

double seconds(const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// CPU seconds of the whole process (all threads): unlike wall time, not inflated by other processes on
// the same cores; quoted beside the wall figures so runs on a busy machine stay comparable.
double processCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is KiB on Linux
}

double sizeMiB(const fs::path& p) {
    std::error_code ec;
    double bytes = 0;
    if (fs::is_directory(p, ec)) {
        for (const auto& e : fs::recursive_directory_iterator(p, ec))
            if (e.is_regular_file(ec))
                bytes += static_cast<double>(e.file_size(ec));
    } else {
        for (const char* suffix : {"", "-wal", "-shm"}) {
            const auto s = fs::file_size(p.string() + suffix, ec);
            if (!ec)
                bytes += static_cast<double>(s);
        }
    }
    return bytes / (1 << 20);
}

} // namespace

int main(int argc, char** argv) {
    double targetEvents = 2e6;
    int nodes = 2, gpus = 8;
    bool keep = false;
    for (int a = 1; a < argc; ++a) {
        const std::string arg = argv[a];
        if (arg == "--keep")
            keep = true;
        else if (arg == "--nodes" && a + 1 < argc)
            nodes = std::atoi(argv[++a]);
        else if (arg == "--ranks-per-node" && a + 1 < argc)
            gpus = std::atoi(argv[++a]);
        else
            targetEvents = std::atof(argv[a]);
    }
    const fs::path dir = fs::temp_directory_path() / ("bench_synth." + std::to_string(getpid()));
    fs::create_directories(dir);
    const auto params = synth::SynthParams::fromFile(synth::SynthParams::studyPath("acs-llama3-8b"));
    synth::StudyOptions o;
    o.outDir = (dir / "study").string();
    o.nodes = nodes;
    o.gpusPerNode = gpus;
    o.steps = kSteps;
    o.configs = {"AC2+ACCL"};
    o.kernelsPerStep = static_cast<std::int64_t>(targetEvents / kEventsPerKernel / (nodes * gpus * kSteps));
    o = synth::resolveOptions(params, o);

    std::vector<synth::GeneratedRun> runs;
    const double genS = seconds([&] { runs = synth::generateStudy(params, o); });
    const double genRss = peakRssMiB();
    std::printf("bench_synth: %d x %d ranks, %d steps, %llu records written in %.2f s (%.0f records/s), "
                "%.1f MiB of .cnpt, peak RSS %.0f MiB after generation\n",
                nodes, gpus, kSteps, static_cast<unsigned long long>(runs[0].records), genS,
                static_cast<double>(runs[0].records) / genS, sizeMiB(o.outDir), genRss);

    const std::string wsPath = (dir / "ws.cnpdb").string();
    IngestResult res;
    const double ingestCpu0 = processCpuSeconds();
    const double ingestS = seconds([&] {
        Workspace ws(wsPath, Workspace::Mode::CreateIfMissing);
        IngestRequest req;
        req.inputs = {runs[0].folder};
        req.runName = runs[0].name;
        req.config = runs[0].config;
        res = ingest(ws, req);
    });
    const double ingestCpuS = processCpuSeconds() - ingestCpu0;
    const double floorCpu0 = processCpuSeconds();
    const double floorS = cnp::bench::sqliteInsertFloorSeconds((dir / "floor.db").string(), res.events);
    const double floorCpuS = processCpuSeconds() - floorCpu0;
    std::printf("  ingest             : %10.0f events/s (%.2f s, %.2f s CPU, %lld events incl. flows)\n",
                static_cast<double>(res.events) / ingestS, ingestS, ingestCpuS,
                static_cast<long long>(res.events));
    std::printf(
        "  SQLite insert floor: %10.0f events/s (%.2f s, %.2f s CPU, same row count, 8 int columns)\n",
        static_cast<double>(res.events) / floorS, floorS, floorCpuS);
    std::printf(
        "  ingest / floor     : %.0f%% by wall time (meaningful on an idle machine), %.0f%% by CPU time\n",
        100.0 * floorS / ingestS, 100.0 * floorCpuS / ingestCpuS);
    std::printf("  workspace          : %.1f MiB (%.1f bytes/event); peak RSS %.0f MiB after ingest\n",
                sizeMiB(wsPath), sizeMiB(wsPath) * (1 << 20) / static_cast<double>(res.events), peakRssMiB());
    std::printf("  phases (s):");
    for (const auto& [name, sec] : res.phaseSeconds)
        std::printf(" %s %.2f;", name.c_str(), sec);
    std::printf("\n");
    std::error_code ec;
    if (keep)
        std::printf("  kept %s\n", dir.c_str());
    else
        fs::remove_all(dir, ec);
    return 0;
}
