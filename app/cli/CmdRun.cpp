// cnp run PLAN WS [--backend local|podman|docker|kubernetes] [--dry-run] [--configs A,B] [--repeats N] ...
// Runs every configuration × repeat of an ablation plan with the collector injected and ingests each job as
// one labelled run (docs/launcher.md). Progress on stderr (human) or as JSON lines on stdout
// (--progress json). SIGINT/SIGTERM stop the running job only; what finished stays; re-running resumes.
#include "ArgParser.h"
#include "CommandRegistry.h"

#include "core/CommaList.h"
#include "core/EventShardRanks.h"
#include "core/InputError.h"
#include "launch/ClusterEventFetch.h"
#include "launch/ContainerBackend.h"
#include "launch/JobIngest.h"
#include "launch/JobPlanner.h"
#include "launch/KubernetesBackend.h"
#include "launch/LocalBackend.h"
#include "launch/PlanSource.h"
#include "launch/RunLock.h"
#include "launch/RunOrchestrator.h"
#include "store/Workspace.h"
#include "store/WorkspaceRemoval.h"

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace cnp::cli {
namespace {

namespace fs = std::filesystem;
using namespace cnp::launch;

std::atomic<bool> gCancel{false};
extern "C" void onRunSignal(int) {
    gCancel.store(true);
}

std::string collectorOrThrow() {
    std::vector<std::string> looked;
    std::string lib = findCollectorLibrary(looked); // not const: returned by move
    if (lib.empty()) {
        std::string where;
        for (const auto& l : looked)
            where += (where.empty() ? "" : ", ") + l;
        throw InputError("libcnp-collector.so",
                         "not found (looked in " + where +
                             "); build it with CUPTI (CUDA 13) or set CNP_COLLECTOR_LIB");
    }
    return lib;
}

KubectlOptions kubectlOptions(const ArgParser& p, const plan::Plan& plan) {
    KubectlOptions k;
    k.program = p.valueOr("--kubectl", "kubectl");
    k.context = p.valueOr("--context", plan.kubernetes.context);
    k.namespace_ = p.valueOr("--namespace", plan.kubernetes.namespace_);
    k.kubeconfig = p.valueOr("--kubeconfig", plan.kubernetes.kubeconfig);
    return k;
}

std::unique_ptr<Backend> makeBackend(const ArgParser& p, const plan::Plan& plan,
                                     const std::string& collector) {
    const std::string name = p.valueOr("--backend", "local");
    if (name == "local")
        return std::make_unique<LocalBackend>(collector);
    if (name == "podman" || name == "docker") {
        ContainerSettings s;
        s.engine = name;
        s.collectorLibrary = collector;
        s.gpuFlags = splitWords(p.valueOr("--gpu-flags", plan.container.gpuFlags));
        s.extraArgs = plan.container.extraArgs;
        s.planName = plan.name;
        s.pull = plan.container.pull;
        if (const auto init = containerInit(name))
            s.initPath = *init;
        else {
            s.init = false;
            std::cerr
                << "cnp run: no init for " << name
                << " --init (install catatonit or tini): the workload runs as PID 1, and a cancel that it "
                   "ignores waits for SIGKILL\n";
        }
        if (auto conf = p.value("--containers-conf"))
            s.engineEnv.emplace_back("CONTAINERS_CONF", fs::absolute(*conf).string());
        return std::make_unique<ContainerBackend>(s);
    }
    if (name == "kubernetes")
        return std::make_unique<KubernetesBackend>(plan, kubectlOptions(p, plan));
    throw UsageFailure{"--backend: expected local, podman, docker or kubernetes, not '" + name + "'"};
}

JobSelection selection(const ArgParser& p) {
    JobSelection sel;
    if (auto c = p.value("--configs"))
        sel.configs = splitCommaList(*c);
    if (auto n = p.number("--repeats", 0, 1e6)) {
        if (*n < 0 || *n != static_cast<int>(*n))
            throw UsageFailure{"--repeats: expected a whole number >= 0"};
        sel.tracedRepeats = static_cast<int>(*n);
    }
    return sel;
}

// Jobs the workspace does not hold yet; all of them when it does not exist (dry-run opens it read-only).
std::vector<JobSpec> pendingJobs(const std::vector<JobSpec>& jobs, const std::string& wsPath,
                                 const plan::Plan& plan) {
    if (!fs::exists(wsPath))
        return jobs;
    Workspace ws(wsPath, Workspace::Mode::ReadOnly);
    std::vector<JobSpec> out;
    for (const auto& j : jobs)
        if (!findCompletedRun(ws, plan, j))
            out.push_back(j);
    return out;
}

int dryRun(const ArgParser& p, Backend& backend, const std::vector<JobSpec>& jobs) {
    const auto dir = p.value("--manifests");
    if (dir && backend.name() != "kubernetes")
        throw UsageFailure{"--manifests needs --backend kubernetes"};
    // What the backend creates before the jobs (the Kubernetes image probe pods) comes first.
    const std::string before = backend.describePrepare(jobs);
    if (!dir) {
        std::cout << before;
        for (const auto& j : jobs)
            std::cout << backend.describe(j);
        return Ok;
    }
    fs::create_directories(*dir);
    std::vector<std::pair<std::string, std::string>> files; // name, text
    if (!before.empty())
        files.emplace_back("image-probes.yaml", before);
    for (const auto& j : jobs)
        files.emplace_back(j.jobName + ".yaml", backend.describe(j));
    for (const auto& [name, text] : files) {
        const fs::path file = fs::path(*dir) / name;
        std::ofstream out(file, std::ios::binary);
        out << text;
        if (!out)
            throw InputError(file.string(), "cannot write the manifest");
    }
    std::cerr << "cnp run: " << files.size() << " manifest file" << (files.size() == 1 ? "" : "s") << " in "
              << *dir << '\n';
    return Ok;
}

// A workspace this run created and stored nothing in is removed again: a study that produced nothing
// changes nothing (the jobs' logs stay in the output folder).
void removeIfEmptyAndNew(const std::string& wsPath, bool existed, const RunSummary& s) {
    if (!existed && s.done == 0)
        removeCreatedWorkspace(wsPath);
}

ProgressListener progressPrinter(bool json) {
    if (json)
        return [](const ProgressEvent& e) { std::cout << toJsonLine(e) << std::endl; };
    return [](const ProgressEvent& e) {
        if (e.state != JobState::Pending)
            std::cerr << "cnp run: " << toHumanLine(e) << std::endl;
    };
}

// The command line as the lock file records it, for the message of a second `cnp run` it refuses.
std::string commandText(const std::vector<std::string>& args) {
    std::string s = "cnp run";
    for (const auto& a : args)
        s += " " + a;
    return s;
}

// One cnp run at a time per workspace and per output folder (launch/RunLock): two at once moved each
// other's job folders aside and ingested each other's partial traces.
void printNote(const RunLock& lock) {
    if (!lock.note().empty())
        std::cerr << "cnp run: " << lock.note() << '\n';
}

std::string workspaceLockFile(const std::string& wsPath) {
    return fs::absolute(wsPath).lexically_normal().string() + ".lock";
}

std::string outputLockFile(const std::string& outRoot) {
    std::error_code ec;
    fs::create_directories(outRoot, ec);
    if (ec)
        throw InputError(outRoot, "cannot create the output folder: " + ec.message());
    return (fs::path(outRoot) / ".cnp-run.lock").string();
}

// --ranks "0,3,8-15": ascending ranks and ranges.
std::vector<std::int32_t> rankList(const ArgParser& p) {
    const auto text = p.value("--ranks");
    if (!text)
        return {};
    const auto parsed = EventShardRanks::parse(*text);
    if (!parsed || parsed->shardCount() != 1)
        throw UsageFailure{"--ranks: expected ascending ranks and ranges, e.g. 0,3,8-15"};
    return parsed->ranksOf(0);
}

// cnp run PLAN WS --fetch-events RUN [--ranks LIST]: events on demand (launch/ClusterEventFetch.h).
int fetchEvents(const ArgParser& p, const plan::Plan& plan, const std::string& wsPath,
                const std::vector<std::string>& args) {
    const std::string runName = *p.value("--fetch-events");
    const std::vector<std::int32_t> ranks = rankList(p);
    const RunLock wsLock(workspaceLockFile(wsPath), "workspace " + wsPath, commandText(args));
    printNote(wsLock);
    Workspace ws(wsPath, Workspace::Mode::ReadWrite);
    const auto run = ws.findRun(runName);
    if (!run)
        throw InputError(wsPath, "no run named '" + runName + "'");
    const KubectlOptions k = kubectlOptions(p, plan);
    const EventFetchOutcome got = fetchRunEvents(ws, run->id, plan, k, ranks, [](const std::string& m) {
        std::cerr << "cnp run: " << m << std::endl;
    });
    std::string linked = shardListText(got.linked), already = shardListText(got.already);
    std::cerr << "cnp run: events of " << runName << ": " << got.summary
              << "; shards linked now: " << (linked.empty() ? "none" : linked)
              << "; before: " << (already.empty() ? "none" : already) << '\n';
    return Ok;
}

int runRun(const std::vector<std::string>& args) {
    ArgParser p({"--backend", "--configs", "--repeats", "--progress", "--out", "--manifests", "--context",
                 "--namespace", "--kubeconfig", "--kubectl", "--containers-conf", "--gpu-flags",
                 "--fetch-events", "--ranks"},
                {"--dry-run", "--keep-going", "--detach"});
    p.parse(args);
    p.requirePositionals(2, 2, "PLAN and WORKSPACE");
    if (p.value("--ranks") && !p.value("--fetch-events"))
        throw UsageFailure{"--ranks needs --fetch-events RUN"};
    const std::string progress = p.valueOr("--progress", "human");
    if (progress != "human" && progress != "json")
        throw UsageFailure{"--progress: expected human or json"};
    const std::string wsPath = p.positionals()[1];
    std::vector<plan::Finding> warnings;
    const plan::Plan plan = loadPlanOrThrow(p.positionals()[0], &warnings);
    for (const auto& w : warnings)
        std::cerr << plan::formatFinding(w) << '\n';
    if (p.value("--fetch-events"))
        return fetchEvents(p, plan, wsPath, args);
    const std::string outRoot =
        fs::absolute(p.valueOr("--out", wsPath + ".runs")).lexically_normal().string();
    const std::vector<JobSpec> jobs = planJobs(plan, selection(p), outRoot);
    const std::string backendName = p.valueOr("--backend", "local");
    // Kubernetes pods get the collector from the initContainer's image, not from this machine.
    const std::string collector = backendName == "kubernetes" ? std::string() : collectorOrThrow();
    auto backend = makeBackend(p, plan, collector);
    const bool detach = p.has("--detach");
    if (detach && !backend->canDetach())
        throw UsageFailure{"--detach: a " + backend->name() +
                           " job ends with cnp; only kubernetes jobs run on without it"};
    if (detach && plan.kubernetes.queueName.empty())
        std::cerr << "cnp run: --detach submits every job at once: without kubernetes.queueName (a Kueue "
                     "queue that admits one job at a time) configurations may run together and share "
                     "nodes and fabric\n";
    // Every job as the backend would start it, before any starts: what a backend refuses (several nodes on
    // one machine, a privilege-granting flag, a bad mount) stops the study here, once, not job by job.
    for (const auto& j : jobs)
        backend->describe(j);
    if (p.has("--dry-run"))
        return dryRun(p, *backend, pendingJobs(jobs, wsPath, plan));

    // The workspace's lock first, then what the backend checks once (images), then the output folder's:
    // a refused run creates no output folder.
    const std::string command = commandText(args);
    const RunLock wsLock(workspaceLockFile(wsPath), "workspace " + wsPath, command);
    printNote(wsLock);
    backend->prepare(pendingJobs(jobs, wsPath, plan),
                     [](const std::string& note) { std::cerr << "cnp run: " << note << std::endl; });
    const RunLock outLock(outputLockFile(outRoot), "output folder " + outRoot, command);
    printNote(outLock);
    const bool existed = fs::exists(wsPath);
    std::signal(SIGINT, onRunSignal);
    std::signal(SIGTERM, onRunSignal);
    RunSummary s;
    {
        Workspace ws(wsPath, Workspace::Mode::CreateIfMissing);
        RunOrchestrator orchestrator(plan, ws, *backend, progressPrinter(progress == "json"));
        orchestrator.setKeepGoing(p.has("--keep-going"));
        orchestrator.setDetach(detach);
        s = orchestrator.run(jobs, gCancel);
    }
    removeIfEmptyAndNew(wsPath, existed, s);
    if (progress == "json")
        std::cout << toJsonLine(s) << std::endl;
    else
        std::cerr << "cnp run: " << s.done << " done, " << s.failed << " failed, " << s.skipped
                  << " skipped, " << s.cancelled << " cancelled"
                  << (s.detached ? ", " + std::to_string(s.detached) + " detached" : std::string()) << '\n';
    if (gCancel.load())
        return 130;
    return s.failed > 0 ? InputFailure : Ok;
}

} // namespace

CNP_COMMAND(
    "run", "run an ablation plan: every configuration x repeat traced, ingested as labelled runs",
    "usage: cnp run PLAN WS [--backend local|podman|docker|kubernetes] [--dry-run] [--configs A,B]\n"
    "               [--repeats N] [--progress human|json] [--out DIR] [--manifests DIR]\n"
    "               [--context C] [--namespace NS] [--kubeconfig FILE] [--kubectl PROGRAM]\n"
    "               [--containers-conf FILE] [--gpu-flags FLAGS] [--keep-going] [--detach]\n"
    "       cnp run PLAN WS --fetch-events RUN [--ranks LIST] [--context C] [--namespace NS] ...\n"
    "\n"
    "Runs every configuration x repeat of PLAN in plan order with libcnp-collector.so injected,\n"
    "gathers each job's traces and logs, and ingests each job into WS as run <config>-r<repeat>,\n"
    "with the throughput its log reported (the plan's logMetric). Completed jobs (same plan file,\n"
    "configuration and repeat) are skipped, so re-running resumes. After a configuration's first failed\n"
    "job its other repeats are skipped (--keep-going runs them). A configuration enters the workspace's\n"
    "plan order once it has a run; a new workspace where no job succeeded is removed. A kubernetes job\n"
    "that an earlier cnp run left (--detach, or a crash) is attached to, never started again nor\n"
    "deleted while it runs. See docs/launcher.md.\n"
    "\n"
    "  --backend B        local (default: processes, torchrun when a node has >1 GPU), podman, docker,\n"
    "                     kubernetes (Indexed Job + headless Service per job, through kubectl)\n"
    "  --dry-run          print what would run and change nothing: one JSON argv per line, or for\n"
    "                     kubernetes the image probe pods and every object a job creates (Service,\n"
    "                     Job, fetch pod) as one multi-document YAML stream\n"
    "  --configs A,B      only these configurations (plan order otherwise)\n"
    "  --repeats N        N traced repeats per configuration instead of the plan's\n"
    "  --progress json    progress as JSON lines on stdout (docs/launcher.md); default: text on stderr\n"
    "  --out DIR          host folder for the jobs' traces and logs (default WS.runs)\n"
    "  --manifests DIR    with --dry-run --backend kubernetes: one YAML file per job into DIR (and\n"
    "                     image-probes.yaml: the probe pods)\n"
    "  --context, --namespace, --kubeconfig, --kubectl   how kubectl is run (default: the plan's)\n"
    "  --containers-conf FILE   CONTAINERS_CONF for podman (e.g. runc and explicit ulimits)\n"
    "  --gpu-flags FLAGS  container GPU flags instead of the plan's (\"--gpus all\", \"--device\n"
    "                     nvidia.com/gpu=all\", \"\" for none)\n"
    "  --keep-going       run every repeat of a configuration even after one failed\n"
    "  --detach           kubernetes: submit every job and exit; running the same command again\n"
    "                     attaches: it collects and ingests what has ended and waits for the rest\n"
    "  --fetch-events RUN kubernetes with kubernetes.cnpImage (ingest on the cluster): fetch the events\n"
    "                     of RUN, which stayed in its shards on the traces volume, and link them into\n"
    "                     WS, so that its timeline, collectives, stragglers, exports... read them here\n"
    "  --ranks LIST       with --fetch-events: only the shards holding these ranks (0,3,8-15)\n"
    "\n"
    "exit status: 0 every job done, skipped or detached; 1 usage error; 2 bad plan or a job failed;\n"
    "130 interrupted (SIGINT/SIGTERM: the running job is stopped, finished runs are kept).\n",
    runRun);

} // namespace cnp::cli
