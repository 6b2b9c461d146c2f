// cnp critical-path WS --run NAME [--step N | --annotation TEXT [--instance I]] [--rank R] [--json]
#include "ArgParser.h"
#include "CommandRegistry.h"
#include "JsonOutput.h"
#include "WindowOptions.h"

#include "core/Units.h"
#include "requests/CriticalPathRequest.h"
#include "store/Workspace.h"

#include <algorithm>
#include <iostream>
#include <map>

namespace cnp::cli {
namespace {

void writeJson(const CriticalPathReport& report) {
    JsonOutput j;
    j.beginObject().key("run").str(report.run).key("collectives_joined").boolean(report.collectivesJoined);
    j.key("ranks").beginArray();
    for (const auto& r : report.ranks) {
        j.beginObject().key("rank").num(r.rank).key("step").num(r.stepIndex).key("window").str(r.window);
        j.key("window_start_ns").num(r.windowStart).key("end_ns").num(r.path.end);
        j.key("length_ns").num(r.path.length);
        j.key("nodes_on_path").num(r.path.nodesOnPath).key("edges_on_path").num(r.path.edgesOnPath);
        j.key("graph")
            .beginObject()
            .key("cpu_events")
            .num(r.cpuEvents)
            .key("gpu_activities")
            .num(r.gpuActivities);
        j.key("edges").num(r.edges).key("resolved_syncs").num(r.resolvedSyncs);
        j.key("inferred_event_waits").num(r.inferredEventWaits).endObject();
        j.key("breakdown").beginObject();
        for (int k = 0; k < kPathKindCount; ++k) {
            const Ns ns = r.path.byKind[static_cast<std::size_t>(k)];
            j.key(toString(static_cast<PathKind>(k))).beginObject().key("ns").num(ns);
            j.key("share").real(
                r.path.length > 0 ? static_cast<double>(ns) / static_cast<double>(r.path.length) : 0);
            j.endObject();
        }
        j.endObject();
        if (!r.segments.empty()) {
            j.key("path").beginArray();
            for (const auto& s : r.segments) {
                j.beginObject()
                    .key("kind")
                    .str(toString(s.segment.kind))
                    .key("start_ns")
                    .num(s.segment.start);
                j.key("end_ns").num(s.segment.end).key("ns").num(s.segment.weight).key("name").str(s.name);
                if (s.stream >= 0)
                    j.key("device").num(s.device).key("stream").num(s.stream);
                else if (s.tid >= 0)
                    j.key("tid").num(s.tid);
                if (s.segment.waitedOnRank >= 0)
                    j.key("waited_on_rank").num(s.segment.waitedOnRank);
                j.endObject();
            }
            j.endArray();
        }
        j.endObject();
    }
    j.endArray().key("notes").beginArray();
    for (const auto& n : report.notes)
        j.str(n);
    j.endArray().endObject();
    std::cout << j.text();
}

void writeText(const CriticalPathReport& report) {
    std::cout << "critical path of run " << report.run << "\n";
    for (const auto& r : report.ranks) {
        std::cout << "\nrank " << r.rank << ", " << r.window << ": " << units::durationExact(r.path.length)
                  << " (" << r.path.edgesOnPath << " dependencies over " << r.cpuEvents << " CPU events and "
                  << r.gpuActivities << " GPU activities)\n";
        for (int k = 0; k < kPathKindCount; ++k) {
            const Ns ns = r.path.byKind[static_cast<std::size_t>(k)];
            if (ns == 0)
                continue;
            std::cout << "  " << toString(static_cast<PathKind>(k));
            std::cout << std::string(18 - std::string(toString(static_cast<PathKind>(k))).size(), ' ')
                      << units::duration(static_cast<double>(ns)) << "  "
                      << units::percent(r.path.length > 0
                                            ? static_cast<double>(ns) / static_cast<double>(r.path.length)
                                            : 0)
                      << "\n";
        }
        if (r.segments.empty())
            continue;
        // The events that carry most of the path.
        std::map<std::pair<std::string, PathKind>, Ns> byEvent;
        for (const auto& s : r.segments)
            byEvent[{s.name.empty() ? std::string("(untraced CPU time)") : s.name, s.segment.kind}] +=
                s.segment.weight;
        std::vector<std::pair<Ns, std::pair<std::string, PathKind>>> top;
        top.reserve(byEvent.size());
        for (const auto& [key, ns] : byEvent)
            top.emplace_back(ns, key);
        std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::cout << "  most of the path:\n";
        for (std::size_t i = 0; i < std::min<std::size_t>(8, top.size()); ++i) {
            const std::string& name = top[i].second.first;
            std::cout << "    " << units::duration(static_cast<double>(top[i].first)) << "  "
                      << toString(top[i].second.second) << "  "
                      << (name.size() > 70 ? name.substr(0, 67) + "..." : name) << "\n";
        }
    }
    for (const auto& n : report.notes)
        std::cout << "\nnote: " << n << "\n";
}

int runCriticalPath(const std::vector<std::string>& args) {
    ArgParser p(windowValueOptions(), {"--json", "--hta-weights"});
    p.parse(args);
    p.requirePositionals(1, 1, "WORKSPACE");
    const auto runName = p.value("--run");
    if (!runName)
        throw UsageFailure{"--run NAME is required"};
    const WindowChoice choice = windowChoiceOf(p);
    Workspace ws(p.positionals()[0], Workspace::Mode::ReadOnly);
    // The path itself for one rank (or a one-rank run); the breakdown alone for many.
    const bool keep = choice.rank.has_value() || ws.runOrThrow(*runName).rankCount <= 1;
    const auto report = computeCriticalPath(ws, *runName, choice, keep);
    if (p.has("--json"))
        writeJson(report);
    else
        writeText(report);
    return Ok;
}

} // namespace

CNP_COMMAND(
    "critical-path", "why a step lasts what it lasts: its critical path per rank",
    "usage: cnp critical-path WS --run NAME [--step N | --annotation TEXT [--instance I]] [--rank R] "
    "[--json]\n\n"
    "Builds the dependency graph of one window of each rank (CPU ops, launches, kernels, copies, stream\n"
    "order, synchronisations; collectives joined across ranks) and prints its longest path: its length\n"
    "and its share by kind (cpu, compute, communication, memory, launch, kernel_gap, sync,\n"
    "collective_wait). Definitions: docs/metrics.md, \"Critical path\".\n\n"
    "  --run NAME          the run\n"
    "  --step N            the detected step N (default: the median step; the whole trace without steps)\n"
    "  --annotation TEXT   instead, the CPU range whose name contains TEXT ...\n"
    "  --instance I        ... its I-th instance by start time (default 0)\n"
    "  --rank R            one rank (default: every rank; the path itself is listed for one rank)\n"
    "  --hta-weights       CPU time outside every operator and API call weighs 0, as in HTA\n"
    "  --json              machine-readable output (docs/cli.md)\n",
    runCriticalPath);

} // namespace cnp::cli
