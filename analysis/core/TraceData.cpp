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

namespace {

// Appends table `table` of every part to `into` (one reservation), each element's string ids re-mapped by
// `fix(element, part's remap)`, and frees each part's table once copied.
template <class E, class Fix>
void appendTable(std::vector<E>& into, std::vector<TraceData>& parts, std::vector<E> TraceData::*table,
                 const std::vector<std::vector<StringId>>& remap, Fix fix) {
    std::size_t total = into.size();
    for (const auto& p : parts)
        total += (p.*table).size();
    into.reserve(total);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        for (E e : parts[i].*table) {
            fix(e, remap[i]);
            into.push_back(e);
        }
        std::vector<E>().swap(parts[i].*table);
    }
}

} // namespace

void mergeRunInfo(RunInfo& info, RunInfo&& o) {
    info.sourceFiles.insert(info.sourceFiles.end(), o.sourceFiles.begin(), o.sourceFiles.end());
    for (auto& g : o.gpuModels)
        if (std::find(info.gpuModels.begin(), info.gpuModels.end(), g) == info.gpuModels.end())
            info.gpuModels.push_back(g);
    info.worldSize = std::max(info.worldSize, o.worldSize);
    if (info.skipped.count == 0 && o.skipped.count > 0)
        info.skipped = o.skipped;
    else
        info.skipped.count += o.skipped.count;
    for (std::string RunInfo::*field : {&RunInfo::driverVersion, &RunInfo::cudaVersion,
                                        &RunInfo::cuptiVersion, &RunInfo::host, &RunInfo::containerImage})
        if ((info.*field).empty())
            info.*field = o.*field;
    info.importWarnings.insert(info.importWarnings.end(), o.importWarnings.begin(), o.importWarnings.end());
    for (auto& kv : o.env)
        if (std::find(info.env.begin(), info.env.end(), kv) == info.env.end())
            info.env.push_back(kv);
}

void TraceData::merge(TraceData&& o) {
    std::vector<TraceData> parts;
    parts.push_back(std::move(o));
    mergeAll(std::move(parts));
}

void TraceData::mergeAll(std::vector<TraceData>&& parts) {
    std::vector<std::vector<StringId>> remap(parts.size());
    for (std::size_t p = 0; p < parts.size(); ++p) {
        remap[p].resize(parts[p].strings.size());
        for (StringId i = 0; i < parts[p].strings.size(); ++i)
            remap[p][i] = strings.intern(parts[p].strings.at(i));
    }
    using R = std::vector<StringId>;
    auto name = [](auto& e, const R& r) { e.name = r[e.name]; };
    appendTable(kernels, parts, &TraceData::kernels, remap, [](KernelEvent& e, const R& r) {
        e.name = r[e.name];
        e.category = r[e.category];
    });
    appendTable(memcpys, parts, &TraceData::memcpys, remap, name);
    appendTable(memsets, parts, &TraceData::memsets, remap, name);
    appendTable(apiCalls, parts, &TraceData::apiCalls, remap, name);
    appendTable(cpuRanges, parts, &TraceData::cpuRanges, remap, [](CpuRange& e, const R& r) {
        e.name = r[e.name];
        e.domain = r[e.domain];
    });
    appendTable(gpuAnnotations, parts, &TraceData::gpuAnnotations, remap, name);
    appendTable(flows, parts, &TraceData::flows, remap, [](Flow&, const R&) {});
    appendTable(counters, parts, &TraceData::counters, remap, name);
    appendTable(steps, parts, &TraceData::steps, remap, name);
    appendTable(collectiveArgs, parts, &TraceData::collectiveArgs, remap, [](CollectiveArgs& e, const R& r) {
        e.op = r[e.op];
        e.dtype = r[e.dtype];
        e.groupName = r[e.groupName];
        e.groupDescription = r[e.groupDescription];
        e.groupRanks = r[e.groupRanks];
    });
    for (auto& p : parts) {
        for (auto& r : p.ranks)
            ranks.push_back(std::move(r));
        mergeRunInfo(info, std::move(p.info));
    }
    std::sort(ranks.begin(), ranks.end(),
              [](const RankInfo& a, const RankInfo& b) { return a.rank < b.rank; });
    info.worldSize = std::max(info.worldSize, static_cast<std::int32_t>(ranks.size()));
}

} // namespace cnp
