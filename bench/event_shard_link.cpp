// bench_event_shard_link: events on demand (docs/launcher.md) once a shard has arrived: linking it into the
// workspace (store/EventShardLink.h: checks, every string id of its rows rebound to the workspace's, the
// summaries dropped, moved in place), against the floor of SQLite rewriting every page of the same file
// once (`VACUUM INTO` a new file: the rebinding at least reads every row and writes every page). Input: a
// synthetic run (cnp synth's simulator) ingested as one shard written alone with its summary file (as a
// cluster's ingest pod writes them), the run added to a fresh workspace from the summary file; each round
// links a fresh copy of the shard. Prints medians.
//
//   bench_event_shard_link [--nodes N] [--gpus G] [--steps S] [--reps R] [--keep DIR]
//   (default 1 x 8 ranks, 20 steps, 3 rounds; --steps 127 gives 1M events a rank)
#include "common/SyntheticRun.h"
#include "ingest/IngestPipeline.h"
#include "ingest/StudyAssembler.h"
#include "store/EventShardLink.h"
#include "store/MetaKeys.h"
#include "store/StringInterner.h"
#include "store/SummaryFile.h"
#include "store/Workspace.h"
#include "store/WorkspaceTransactions.h"

#include <sqlite3.h>
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

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

int intArg(int argc, char** argv, const char* name, int fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], name) == 0)
            return std::atoi(argv[i + 1]);
    return fallback;
}

// SQLite's VACUUM INTO of `from` into a new file `to`: every page read and written once.
void vacuumInto(const std::string& from, const std::string& to) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(from.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
        std::exit(1);
    const std::string sql = "VACUUM INTO '" + to + "'"; // a path of this program's own, no quote in it
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        std::exit(1);
    sqlite3_close(db);
}

template <class F> double seconds(F f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The run's ranks as `cnp ingest-shard --run-id 1 --summary-out` writes them; returns its events.
std::int64_t writeShard(const std::string& shard, const std::string& summary, const std::string& folder) {
    Workspace ws(shard, Workspace::Mode::CreateIfMissing);
    {
        Transaction tx = writeTransaction(ws);
        ws.setMeta(std::string(metakeys::kStringIds), std::string(StringInterner::kContentIds));
        tx.commit();
    }
    IngestRequest req;
    req.inputs = {folder};
    req.runName = "1:run";
    req.configFallback = "run";
    req.shardRunId = RunId(1);
    const std::int64_t events = ingest(ws, req).events;
    writeSummaryFile(ws, summary, "communication", 3);
    return events;
}

} // namespace

int main(int argc, char** argv) {
    const int nodes = intArg(argc, argv, "--nodes", 1), gpus = intArg(argc, argv, "--gpus", 8);
    const int steps = intArg(argc, argv, "--steps", 20), reps = std::max(1, intArg(argc, argv, "--reps", 3));
    std::string keep;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], "--keep") == 0)
            keep = argv[i + 1];
    const fs::path dir = keep.empty()
                             ? fs::temp_directory_path() / ("bench_link_" + std::to_string(::getpid()))
                             : fs::path(keep);
    fs::create_directories(dir);
    const std::string folder = bench::syntheticRun(dir, nodes, gpus, steps);
    const std::string shard = (dir / "shard-0.cnpdb").string(),
                      summary = (dir / "shard-0.summary.cnpdb").string();
    const std::int64_t events = writeShard(shard, summary, folder);
    fs::remove_all(dir / "traces");
    const double mb = static_cast<double>(fs::file_size(shard)) / (1024.0 * 1024.0);

    std::vector<double> link, copy;
    for (int r = 0; r < reps; ++r) {
        const std::string ws = (dir / ("ws-" + std::to_string(r) + ".cnpdb")).string();
        const std::string incoming = (dir / "incoming.cnpdb").string();
        {
            Workspace w(ws, Workspace::Mode::CreateIfMissing);
            const RunId id = addRunFromSummaries(w, {summary}, "run");
            ::sync();
            const std::string vacuumed = (dir / "vacuumed.cnpdb").string();
            copy.push_back(seconds([&] { vacuumInto(shard, vacuumed); }));
            fs::remove(vacuumed);
            fs::copy_file(shard, incoming, fs::copy_options::overwrite_existing);
            ::sync();
            link.push_back(seconds([&] { linkFetchedShard(w, id, 0, incoming); }));
        }
        fs::remove_all(ws + ".events");
        for (const char* suffix : {"", "-wal", "-shm"})
            fs::remove(ws + suffix);
    }
    std::printf("%d ranks (%d x %d), %lld events, a shard of %.1f MB, medians of %d rounds\n", nodes * gpus,
                nodes, gpus, static_cast<long long>(events), mb, reps);
    const double l = median(link), c = median(copy);
    std::printf("  link (check, rebind every string id, drop summaries, move): %.2f s, %.0f k events/s\n", l,
                static_cast<double>(events) / l / 1000.0);
    std::printf("  floor: SQLite rewriting every page of the shard once (VACUUM INTO): %.2f s (link = %.1f x "
                "the floor)\n",
                c, l / c);
    if (keep.empty())
        fs::remove_all(dir);
    return 0;
}
