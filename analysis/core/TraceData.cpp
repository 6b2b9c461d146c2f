#include "core/TraceData.h"

#include "core/MemoryKindNames.h"

#include <algorithm>

namespace cnp {

const char* toString(CpuRangeKind k) {
    switch (k) {
    case CpuRangeKind::CpuOp:
        return "cpu_op";
    case CpuRangeKind::UserAnnotation:
        return "user_annotation";
    case CpuRangeKind::PythonFunction:
        return "python_function";
    case CpuRangeKind::Nvtx:
        return "nvtx";
    case CpuRangeKind::Other:
        return "other";
    }
    return "other";
}

const char* toString(ApiKind k) {
    return k == ApiKind::Driver ? "driver" : "runtime";
}

const char* toString(MemcpyKind k) {
    static const char* names[] = {"unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                  "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
    const auto i = static_cast<unsigned>(k);
    return i < std::size(names) ? names[i] : "unknown";
}

const char* toString(MemoryKind k) {
    return memoryKindId(k);
}

void TraceData::merge(TraceData&& o) {
    std::vector<StringId> remap(o.strings.size());
    for (StringId i = 0; i < o.strings.size(); ++i)
        remap[i] = strings.intern(o.strings.at(i));
    auto re = [&](StringId& id) { id = remap[id]; };
    for (auto e : o.kernels) {
        re(e.name);
        re(e.category);
        kernels.push_back(e);
    }
    for (auto e : o.memcpys) {
        re(e.name);
        memcpys.push_back(e);
    }
    for (auto e : o.memsets) {
        re(e.name);
        memsets.push_back(e);
    }
    for (auto e : o.apiCalls) {
        re(e.name);
        apiCalls.push_back(e);
    }
    for (auto e : o.cpuRanges) {
        re(e.name);
        re(e.domain);
        cpuRanges.push_back(e);
    }
    for (auto e : o.gpuAnnotations) {
        re(e.name);
        gpuAnnotations.push_back(e);
    }
    flows.insert(flows.end(), o.flows.begin(), o.flows.end());
    for (auto e : o.counters) {
        re(e.name);
        counters.push_back(e);
    }
    for (auto e : o.steps) {
        re(e.name);
        steps.push_back(e);
    }
    for (auto& r : o.ranks)
        ranks.push_back(std::move(r));
    std::sort(ranks.begin(), ranks.end(),
              [](const RankInfo& a, const RankInfo& b) { return a.rank < b.rank; });
    info.sourceFiles.insert(info.sourceFiles.end(), o.info.sourceFiles.begin(), o.info.sourceFiles.end());
    for (auto& g : o.info.gpuModels)
        if (std::find(info.gpuModels.begin(), info.gpuModels.end(), g) == info.gpuModels.end())
            info.gpuModels.push_back(g);
    info.worldSize =
        std::max<std::int32_t>({info.worldSize, o.info.worldSize, static_cast<std::int32_t>(ranks.size())});
    if (info.skipped.count == 0 && o.info.skipped.count > 0)
        info.skipped = o.info.skipped;
    else
        info.skipped.count += o.info.skipped.count;
    for (std::string RunInfo::*field : {&RunInfo::driverVersion, &RunInfo::cudaVersion,
                                        &RunInfo::cuptiVersion, &RunInfo::host, &RunInfo::containerImage})
        if ((info.*field).empty())
            info.*field = o.info.*field;
    for (auto& kv : o.info.env)
        if (std::find(info.env.begin(), info.env.end(), kv) == info.env.end())
            info.env.push_back(kv);
}

} // namespace cnp
