// cnpt-dump FILE.cnpt [--json] [--step-prefix PREFIX]
// Prints a .cnpt file's header, record counts, CUPTI's dropped-record total, whether the file ended cleanly,
// and the NVTX ranges named PREFIX<n> (default "step") with the number of kernels launched inside each
// (a kernel belongs to a step when the API call that launched it, joined by correlation id, starts within
// the step's range). Plain C++ over the format library: runs where only the collector is built.
#include "CnptReader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

using namespace cnpt;

namespace {

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

struct Step {
    std::string name;
    std::uint64_t start = 0, end = 0;
    long kernels = 0;
};

const char* typeName(RecordType t) {
    switch (t) {
    case RecordType::Kernel:
        return "kernel";
    case RecordType::Memcpy:
        return "memcpy";
    case RecordType::Memset:
        return "memset";
    case RecordType::Api:
        return "api";
    case RecordType::Synchronization:
        return "synchronization";
    case RecordType::Memory:
        return "memory";
    case RecordType::Overhead:
        return "overhead";
    case RecordType::Marker:
        return "marker";
    case RecordType::MarkerData:
        return "marker_data";
    case RecordType::Device:
        return "device";
    case RecordType::Context:
        return "context";
    case RecordType::Name:
        return "name";
    case RecordType::Dropped:
        return "dropped";
    case RecordType::ClockPair:
        return "clock_pair";
    }
    return "unknown";
}

// What one pass over a file's records gathers.
struct Summary {
    std::map<std::string, long> counts; // records per type name
    std::uint64_t dropped = 0;          // CUPTI's dropped-record total
    long unlaunched = 0;                // kernels whose correlation id has no API record
    std::vector<Step> steps;            // by start
};

// Steps (NVTX ranges named prefix<n>) and kernels per step, in one pass over the records plus
// O(k log s) to place k kernels into s steps.
Summary summarize(CnptReader& r, const std::string& prefix) {
    Summary sum;
    std::unordered_map<std::uint32_t, std::uint64_t> launchTs; // correlation -> API start
    std::vector<std::pair<std::uint32_t, std::uint64_t>> kernelCorr;
    std::unordered_map<std::uint32_t, Step> open;
    r.forEachRecord([&](RecordType t, const unsigned char* body, std::uint16_t size, std::int64_t) {
        ++sum.counts[typeName(t)];
        if (t == RecordType::Dropped)
            sum.dropped += CnptReader::decode<DroppedRecord>(body, size).count;
        else if (t == RecordType::Api) {
            const auto a = CnptReader::decode<ApiRecord>(body, size);
            launchTs.emplace(a.correlation, a.start);
        } else if (t == RecordType::Kernel) {
            const auto k = CnptReader::decode<KernelRecord>(body, size);
            kernelCorr.emplace_back(k.correlation, k.start);
        } else if (t == RecordType::Marker) {
            const auto m = CnptReader::decode<MarkerRecord>(body, size);
            if (m.flags & 2u) {
                const std::string& name = r.string(m.name);
                if (name.compare(0, prefix.size(), prefix) == 0)
                    open[m.id] = Step{name, m.timestamp, 0, 0};
            } else if (m.flags & 4u) {
                auto it = open.find(m.id);
                if (it != open.end()) {
                    it->second.end = m.timestamp;
                    sum.steps.push_back(it->second);
                    open.erase(it);
                }
            }
        }
    });
    auto& steps = sum.steps;
    std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.start < b.start; });
    for (const auto& [corr, ts] : kernelCorr) {
        auto it = launchTs.find(corr);
        if (it == launchTs.end()) {
            ++sum.unlaunched;
            continue;
        }
        const std::uint64_t t = it->second;
        auto s = std::upper_bound(steps.begin(), steps.end(), t,
                                  [](std::uint64_t v, const Step& st) { return v < st.start; });
        if (s != steps.begin() && t <= std::prev(s)->end)
            ++std::prev(s)->kernels;
    }
    return sum;
}

void printJson(const std::string& path, const CnptReader& r, const Summary& sum) {
    std::printf("{\"file\": %s, \"clean_end\": %s, \"stop_reason\": %s, \"stop_offset\": %lld,\n",
                jsonString(path).c_str(), r.cleanEnd() ? "true" : "false", jsonString(r.stopReason()).c_str(),
                static_cast<long long>(r.stopOffset()));
    std::printf(" \"header\": {");
    bool first = true;
    for (const auto& [k, v] : r.header()) {
        std::printf("%s%s: %s", first ? "" : ", ", jsonString(k).c_str(), jsonString(v).c_str());
        first = false;
    }
    std::printf("},\n \"records\": {");
    first = true;
    for (const auto& [k, v] : sum.counts) {
        std::printf("%s%s: %ld", first ? "" : ", ", jsonString(k).c_str(), v);
        first = false;
    }
    std::printf("},\n \"dropped\": %llu, \"kernels_without_launch\": %ld,\n \"steps\": [",
                static_cast<unsigned long long>(sum.dropped), sum.unlaunched);
    for (std::size_t i = 0; i < sum.steps.size(); ++i)
        std::printf("%s\n  {\"name\": %s, \"start\": %llu, \"end\": %llu, \"kernels\": %ld}", i ? "," : "",
                    jsonString(sum.steps[i].name).c_str(),
                    static_cast<unsigned long long>(sum.steps[i].start),
                    static_cast<unsigned long long>(sum.steps[i].end), sum.steps[i].kernels);
    std::printf("]}\n");
}

void printText(const std::string& path, const CnptReader& r, const Summary& sum) {
    std::printf("%s: %zu bytes, %zu chunks, %s\n", path.c_str(), r.fileSize(), r.chunkCount(),
                r.cleanEnd() ? "clean end"
                             : ("no end chunk" +
                                (r.stopReason().empty() ? std::string() : " (" + r.stopReason() + ")"))
                                   .c_str());
    for (const auto& [k, v] : r.header())
        std::printf("  %s = %s\n", k.c_str(), v.c_str());
    for (const auto& [k, v] : sum.counts)
        std::printf("  %-16s %ld\n", k.c_str(), v);
    std::printf("  dropped records %llu; kernels without a launch record %ld\n",
                static_cast<unsigned long long>(sum.dropped), sum.unlaunched);
    for (const auto& s : sum.steps)
        std::printf("  %-12s %.3f ms  %ld kernels\n", s.name.c_str(), (s.end - s.start) / 1e6, s.kernels);
}

} // namespace

int main(int argc, char** argv) {
    std::string path, prefix = "step";
    bool json = false;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--json"))
            json = true;
        else if (!std::strcmp(argv[i], "--step-prefix") && i + 1 < argc)
            prefix = argv[++i];
        else if (path.empty() && argv[i][0] != '-')
            path = argv[i];
        else {
            std::fprintf(stderr, "usage: cnpt-dump FILE.cnpt [--json] [--step-prefix PREFIX]\n");
            return 1;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "usage: cnpt-dump FILE.cnpt [--json] [--step-prefix PREFIX]\n");
        return 1;
    }
    try {
        CnptReader r(path);
        const Summary sum = summarize(r, prefix);
        if (json)
            printJson(path, r, sum);
        else
            printText(path, r, sum);
    } catch (const FormatError& e) {
        std::fprintf(stderr, "cnpt-dump: %s: %s\n", path.c_str(), e.what());
        return 2;
    }
    return 0;
}
