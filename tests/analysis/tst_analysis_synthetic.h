#pragma once
// Hand-built traces and a workspace helper for the analysis engine's tests. Every time is chosen by hand
// so the tests can assert exact values worked out on paper.
#include "core/TraceData.h"
#include "ingest/IngestPipeline.h"
#include "metrics/Categoriser.h"
#include "metrics/CategoryRules.h"
#include "metrics/StepDetector.h"
#include "requests/SummaryRequests.h"
#include "requests/WorkspaceCategories.h"
#include "store/Workspace.h"

#include <string>

namespace cnp::testing {

class SyntheticTrace {
public:
    explicit SyntheticTrace(const std::string& name, const std::string& config = "", int ranks = 1) {
        t.info.name = name;
        t.info.config = config.empty() ? name : config;
        t.info.sourceFormat = "synthetic";
        t.info.synthetic = true;
        t.info.worldSize = ranks;
        for (int r = 0; r < ranks; ++r) {
            RankInfo ri;
            ri.rank = r;
            ri.host = "node0";
            t.ranks.push_back(ri);
        }
    }
    // A kernel and (when corr != 0) its launch call [launchAt, launchAt + launchNs) on thread 1.
    SyntheticTrace& kernel(Ns start, Ns end, const std::string& name, std::int64_t corr = 0, int rank = 0,
                           Ns launchAt = -1, Ns launchNs = 5) {
        KernelEvent k;
        k.start = start;
        k.end = end;
        k.rank = rank;
        k.correlation = corr;
        k.name = t.strings.intern(name);
        t.kernels.push_back(k);
        if (corr != 0)
            api(launchAt >= 0 ? launchAt : start - 10, (launchAt >= 0 ? launchAt : start - 10) + launchNs,
                "cudaLaunchKernel", corr, rank);
        return *this;
    }
    SyntheticTrace& memcpy(Ns start, Ns end, std::int64_t corr = 0, int rank = 0,
                           MemoryKind host = MemoryKind::Pinned) {
        MemcpyEvent m;
        m.start = start;
        m.end = end;
        m.rank = rank;
        m.correlation = corr;
        m.kind = MemcpyKind::HtoD;
        m.srcKind = host;
        m.dstKind = MemoryKind::Device;
        m.bytes = 1024;
        m.name = t.strings.intern("Memcpy HtoD");
        t.memcpys.push_back(m);
        return *this;
    }
    SyntheticTrace& memset(Ns start, Ns end, int rank = 0) {
        MemsetEvent m;
        m.start = start;
        m.end = end;
        m.rank = rank;
        m.name = t.strings.intern("Memset");
        t.memsets.push_back(m);
        return *this;
    }
    SyntheticTrace& api(Ns start, Ns end, const std::string& name, std::int64_t corr = 0, int rank = 0) {
        ApiCall a;
        a.start = start;
        a.end = end;
        a.rank = rank;
        a.correlation = corr;
        a.tid = 1;
        a.name = t.strings.intern(name);
        t.apiCalls.push_back(a);
        return *this;
    }
    SyntheticTrace& range(Ns start, Ns end, const std::string& name, int rank = 0,
                          CpuRangeKind kind = CpuRangeKind::UserAnnotation) {
        CpuRange r;
        r.start = start;
        r.end = end;
        r.rank = rank;
        r.tid = 1;
        r.kind = kind;
        r.name = t.strings.intern(name);
        t.cpuRanges.push_back(r);
        return *this;
    }
    SyntheticTrace& env(const std::string& k, const std::string& v) {
        t.info.env.emplace_back(k, v);
        return *this;
    }
    TraceData t;
};

// Normalises, categorises (workspace rules), detects steps, inserts and summarises, like ingest().
inline RunId storeRun(Workspace& ws, TraceData t) {
    normaliseTrace(t);
    categoriseKernels(t, categoryRulesOf(ws));
    detectSteps(t, StepPattern{});
    Transaction tx(ws.db());
    const auto id = ws.insertRun(t);
    buildRunSummaries(ws, id, t);
    tx.commit();
    return id;
}

} // namespace cnp::testing
